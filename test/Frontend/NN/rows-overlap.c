// A linear index split into rows is exact only while the inner subscript
// stays in its row: a window sliding over rows is not rows, and is counted
// as one dimension where the stride has a value.
// RUN: roofline-lint --dump-ir %s | FileCheck %s
// RUN: roofline-lint --no-source --format=json --param T=4 --param S=2 --param K=3 %s | FileCheck %s --check-prefix=OVER
// RUN: roofline-lint --no-source --format=json --param T=4 --param S=3 --param K=3 %s | FileCheck %s --check-prefix=OK

// Sizes unknown: the condition is stated on the nest.
// CHECK-LABEL: nest @window
// CHECK: condition -K + S >= 0 (rows of 'x' do not overlap)
// CHECK: read x[t][k]
void window(float *y, const float *x, int T, int S, int K) {
  for (int t = 0; t < T; t++)
    for (int k = 0; k < K; k++)
      y[t] += x[t * S + k];
}
// K > S: the windows overlap, so they are no rows: x is one dimension at
// these sizes, x[2*t + k] for t < 4, k < 3: 9 elements, and y's 4 read and
// 4 written: 17 elements of 4 bytes.
// OVER: "compulsory": 68,
// OVER: "'x' is indexed as one dimension (rows of 'x' overlap at these sizes: 'k' leaves its row of S elements, so its elements are not distinct rows); its strides are counted at S = 2: its counts hold for these values only"
// K <= S: rows of S, K of each read: 4*3 reads of x, 4 reads and 4 writes
// of y.
// OK: "compulsory": 80,
