// The batch what-if (gemv -> gemm) shares a read-only array among inputs
// that differ: it needs a batched array that is read and never written (x
// of a gemv). A bias gradient summing the rows of a read-only delta has
// only an accumulator besides: 64 copies of it would all add the same sums,
// so no batch is offered there (before: "batch 64 inputs (gemv -> gemm:
// 'delta' read once for all)", a 4.7x that no real batch gives).

// RUN: roofline-lint --verbosity=normal --no-source %s | FileCheck %s

#define B 8
#define N 64
#define S 256

float A[N][S], x[S], y[N];
void gemv(void) {
  // CHECK: [[@LINE+4]]:3: warning: gemv: memory-bound
  // CHECK-NEXT: note: attainable
  // CHECK-NEXT: note: what-if on rtx-a6000, best first:
  // CHECK-NEXT: note:   batch 64 inputs (gemv -> gemm: 'A' read once for all)
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < S; ++j)
      y[i] += A[i][j] * x[j];
}

float delta[B][N][S], bias_updates[N];
void backward_bias(void) {
  // CHECK: [[@LINE+4]]:3: warning: backward_bias: memory-bound
  // CHECK-NEXT: note: attainable
  // CHECK-NEXT: note: what-if on rtx-a6000, best first:
  // CHECK-NOT: batch 64 inputs
  for (int b = 0; b < B; ++b)
    for (int i = 0; i < N; ++i)
      for (int j = 0; j < S; ++j)
        bias_updates[i] += delta[b][i][j];
  // CHECK: note:   quantize to int8
}
