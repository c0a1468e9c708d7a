// Held-out audit driver for pjreddie/darknet src/gemm.c (scripts/heldout-audit).
// Our code: it #includes the published file unchanged and calls the four
// naive gemm loops (gemm_nn, gemm_nt, gemm_tn, gemm_tt), gemm_cpu (C *= BETA,
// then one of them) and gemm_bin at M=3, N=4, K=5 with packed leading
// dimensions, as darknet's layers call them.
#include "../shims.h"
#define register // C++17 has no `register`; C ignores it
#include "gemm.c"

int main() {
  const int M = 3, N = 4, K = 5;
  ORACLE_PARAM("M", M);
  ORACLE_PARAM("N", N);
  ORACLE_PARAM("K", K);
  ORACLE_PARAM("gemm_nn:lda", K);
  ORACLE_PARAM("gemm_nn:ldb", N);
  ORACLE_PARAM("gemm_nt:lda", K);
  ORACLE_PARAM("gemm_nt:ldb", K);
  ORACLE_PARAM("gemm_tn:lda", M);
  ORACLE_PARAM("gemm_tn:ldb", N);
  ORACLE_PARAM("gemm_tt:lda", M);
  ORACLE_PARAM("gemm_tt:ldb", K);
  ORACLE_PARAM("gemm_bin:lda", K);
  ORACLE_PARAM("gemm_bin:ldb", N);
  ORACLE_PARAM("ldc", N);
  oracle::Array<float> a("A", M * K), b("B", K * N), c("C", M * N);
  ORACLE_CALL(gemm_nn(M, N, K, 0.5f, a, K, b, N, c, N));
  ORACLE_CALL(gemm_nt(M, N, K, 0.5f, a, K, b, K, c, N));
  ORACLE_CALL(gemm_tn(M, N, K, 0.5f, a, M, b, N, c, N));
  ORACLE_CALL(gemm_tt(M, N, K, 0.5f, a, M, b, K, c, N));
  ORACLE_CALL(gemm_cpu(0, 0, M, N, K, 0.5f, a, K, b, N, 1.0f, c, N));
  // gemm_bin's signs, 0 or 1, registered so that their bytes are measured.
  oracle::Array<char> bits("A", M * K, 0, 2);
  ORACLE_CALL(gemm_bin(M, N, K, 0.5f, bits, K, b, N, c, N));
}
