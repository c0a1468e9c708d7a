// Oracle driver for signgemm.c (scripts/nn-oracle.py runs it): signs 0 and
// 1 (char) and signed weights, so both branches run.
#include "signgemm.c"

int main() {
  const int M = 3, N = 5, K = 4;
  ORACLE_PARAM("M", M);
  ORACLE_PARAM("N", N);
  ORACLE_PARAM("K", K);
  oracle::Array<char> bits("S", M * K, 0, 2);
  oracle::Array<float> g("G", M * K, -1.0, 1.0), b("B", K * N), c("C", M * N);
  ORACLE_CALL(sign_gemm(M, N, K, bits, b, c));
  ORACLE_CALL(signed_axpy(M, N, K, g, b, c, 0.5f));
}
