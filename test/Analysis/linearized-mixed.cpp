// Counts of a linearized array read both as A[(i + 2) * M + k] and as
// A[M + i] (split to A[1][i]). At M = 8, N = 5: 40 adds; compulsory: rows
// 2..6 read and written (40 + 40 elements) and row 1's first 5 read: 85
// floats, 340 bytes. No-reuse: A[i + 2][k] loaded and stored 40 times,
// A[1][i] loaded once per i: 85 floats. Before the split the nest was
// refused.
// RUN: roofline-lint --verbosity=normal --no-source --param M=8 --param N=5 %s 2>&1 | FileCheck %s
void mixed(float *A, int M, int N) {
  // CHECK: :[[@LINE+1]]:3: note: 0 MACs, 40 FLOPs (f32: 40); 340 bytes compulsory, 340 bytes no-reuse
  for (int i = 0; i < N; ++i)
    for (int k = 0; k < M; ++k)
      A[(i + 2) * M + k] += A[1 * M + i];
}
