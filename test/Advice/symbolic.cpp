// Sizes without values: no byte counts, but the stride and the layer
// condition as formulas (the cache model keeps them symbolic).
// RUN: roofline-lint --verbosity=normal --machine=xeon-8380 --no-source %s | FileCheck %s

void gemm(int N, const float *A, const float *B, float *C) {
  // CHECK: symbolic.cpp:[[@LINE+1]]:3: remark: gemm: no verdict on xeon-8380: sizes without a value: N
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < N; ++k)
        // CHECK:      symbolic.cpp:[[@LINE+1]]:40: warning: 'B[k][j]' is walked down a column in the innermost loop (stride 4*N B): 4 of 64 bytes per cache line used (while 4*N >= 64) [roofline-strided-access]
        C[i * N + j] += A[i * N + k] * B[k * N + j];
  // CHECK-NEXT: note: the rest of each line is used again in the next iteration of 'j' while 68*N + 64 bytes fit in a cache (L1 48 KiB, L2 1.25 MiB, L3 60 MiB)
  // CHECK-NEXT: note: loop order i, k, j walks it along a row (legal: no dependence is reversed by loop order i, k, j); its traffic needs the sizes
}
