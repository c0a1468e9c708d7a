// Footprint by projection: k's bounds use j, so the element A1[k] stands for
// the tuple (j, k) only if distinct j give disjoint k ranges. That holds for
// k - j narrower than j's step only when all j lie on one lattice; here j
// starts at i and steps by 3, so j takes values 1 apart across i (was: 3
// elements of A1 read, counting (j, k) tuples; A1[1] is read twice). Found
// by scripts/differential.py.
// RUN: roofline-lint --format=json --no-source %s | FileCheck %s
// RUN: roofline-lint --format=json --no-source --param K=3 %s | FileCheck %s --check-prefix=PARAM

// i = 2: k = 1; i = 3: k = 2, 1. A1 elements read: {1, 2}.
// CHECK-LABEL: "function": "lattice"
// CHECK:      "elements_read": 2,
// CHECK-NEXT: "elements_written": 0,
// CHECK-NEXT: "loads": 3,
// CHECK-NEXT: "name": "A1",
float A0[64], A1[64];
constexpr int N = 3;
void lattice() {
  for (int i = 0; i <= N; i++)
    for (int j = i; j < i + 1; j += 3)
      for (int k = j - 1; k > 0; k--)
        A0[j] = A1[k];
}

// The same with the size from --param.
// PARAM-LABEL: "function": "sized"
// PARAM:      "elements_read": 2,
// PARAM-NEXT: "elements_written": 0,
// PARAM-NEXT: "loads": 3,
// PARAM-NEXT: "name": "A1",
void sized(int K) {
  for (int i = 0; i <= K; i++)
    for (int j = i; j < i + 1; j += 3)
      for (int k = j - 1; k > 0; k--)
        A0[j] = A1[k];
}
