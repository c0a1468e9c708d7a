// A strided loop whose first value uses an outer IV and whose last value is
// a floor division: counted by enumerating the outer loop (was: no value,
// reported as "count exceeds 128-bit range" at tiny sizes). Found by
// scripts/differential.py.
// RUN: roofline-lint --format=json --no-source %s | FileCheck %s
// RUN: roofline-lint --format=json --no-source --param M=8 %s | FileCheck %s --check-prefix=PARAM

float A[64], B[64];

// i = 0: j = 1, 3; i = 1: j = 2; i = 2: j = 3; i >= 3: none. 4 iterations,
// 3 distinct j: 12 bytes of A written, 12 of B read.
// CHECK-LABEL: "function": "literal"
// CHECK: "exact": {
// CHECK-NEXT: "bytes_compulsory": "24",
// CHECK-NEXT: "bytes_no_reuse": "32",
// CHECK-NEXT: "flops": "4",
// CHECK-NEXT: "iterations": "4",
// CHECK-NEXT: "loads": "4",
// CHECK-NEXT: "macs": "0",
// CHECK-NEXT: "stores": "4"
void literal() {
  for (int i = 0; i <= 8; i++)
    for (int j = i + 1; j < 8 / 2; j += 2)
      A[j] = B[j] * 2.0f;
}

// The same with the size as a parameter given by --param.
// PARAM-LABEL: "function": "sized"
// PARAM: "exact": {
// PARAM-NEXT: "bytes_compulsory": "24",
// PARAM-NEXT: "bytes_no_reuse": "32",
// PARAM-NEXT: "flops": "4",
// PARAM-NEXT: "iterations": "4",
// PARAM-NEXT: "loads": "4",
// PARAM-NEXT: "macs": "0",
// PARAM-NEXT: "stores": "4"
void sized(int M) {
  for (int i = 0; i <= 8; i++)
    for (int j = i + 1; j < M / 2; j += 2)
      A[j] = B[j] * 2.0f;
}
