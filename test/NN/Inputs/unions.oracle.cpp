// Oracle driver for unions.c (scripts/nn-oracle.py runs it).
#include "unions.c"

int main() {
  const int T = 6, P = 2, N = 5, W = 1;
  ORACLE_PARAM("T", T);
  ORACLE_PARAM("P", P);
  ORACLE_PARAM("n", N);
  ORACLE_PARAM("w", W);
  oracle::Array<float> att("att", T * T), q("q", T), k("k", T);
  ORACLE_CALL(attn_pad(att, q, k, T, P));
  oracle::Array<float> y("y", N * N), x("x", N * N), s("s", N);
  ORACLE_CALL(border(y, x, N));
  ORACLE_CALL(band(y, x, N, W));
  ORACLE_CALL(off_diag(y, s, x, N));
}
