// Footprint by box union: two uses in one statement keep different loops
// (C[i + 2] keeps i, C[1] keeps none), so whether the other loops run is
// checked per use. Here the loop never runs (was: 1 element of C written).
// Found by fuzz/FuzzCounts.cpp.
// RUN: roofline-lint --format=json --no-source %s | FileCheck %s
// CHECK:      "elements_read": 0,
// CHECK-NEXT: "elements_written": 0,
// CHECK-NEXT: "loads": 0,
// CHECK-NEXT: "name": "C",
char C[64];
constexpr int M = 6;
void never() {
  for (int i = -M - 2; i >= -3; --i)
    C[i + 2] = C[1] = 0;
}
