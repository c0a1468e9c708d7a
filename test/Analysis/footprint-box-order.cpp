// Footprint formula by box union: the box of A[i + 3] is [1, 7 - M), whose
// order the sizes' signs alone would put the other way ("for large M",
// 7 - M < 1: empty). A box's own bounds are ordered by its loop's trip
// count >= 0, the precondition of every formula, so the formula counts the
// 6 - M elements (was: 0, the formula held only where the loop does not
// run). Found by fuzz/FuzzCounts.cpp (fuzz/corpus/counts/
// counts-compulsory-formula.bin).
// RUN: roofline-lint --verbosity=normal --no-source %s 2>&1 | FileCheck %s
// RUN: roofline-lint --verbosity=normal --no-source --param M=0 --param N=6 %s 2>&1 | FileCheck %s --check-prefix=AT
// RUN: roofline-lint --verbosity=normal --no-source --param M=4 --param N=9 %s 2>&1 | FileCheck %s --check-prefix=AT4

float f(const float *A, double B[64][64], int N, int M) {
  float S = 0;
  // CHECK: :[[@LINE+3]]:3: note: as formulas: MACs = 0, FLOPs = -3*M + 18, bytes compulsory = -4*M + 36
  // CHECK: :[[@LINE+2]]:3: note: the footprint formula of A assumes M + N - 5 >= 0
  // CHECK: :[[@LINE+1]]:3: note: the footprint formula of A assumes every loop runs at least once
  for (int i = -2; i <= 3 - M; ++i)
    S += A[i + 3] + B[N + 2][N - 2] + A[N + 2];
  // A[1..6], A[8], B[8][4]: 7 * 4 + 8 bytes; at M = 4, A[1..2], A[11], B: 20.
  // AT: note: 0 MACs, 18 FLOPs (f64: 18); 36 bytes compulsory
  // AT4: note: 0 MACs, 6 FLOPs (f64: 6); 20 bytes compulsory
  return S;
}
