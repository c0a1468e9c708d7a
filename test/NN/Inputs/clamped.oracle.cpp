// Oracle driver for clamped.c (scripts/nn-oracle.py runs it). CL_UP=0: the
// shortcut halves the map (stride 2, sample clamped to 1) and n > 4 rows;
// CL_UP=1 (clamped-up.oracle.cpp): it doubles it (sample 2, stride clamped)
// and n < 4.
#include "clamped.c"

#ifndef CL_UP
#define CL_UP 0
#endif

int main() {
  const int B = 2, C1 = 3, C2 = CL_UP ? 2 : 4;
  const int W1 = CL_UP ? 2 : 6, H1 = CL_UP ? 3 : 4;
  const int W2 = CL_UP ? 4 : 3, H2 = CL_UP ? 6 : 2;
  ORACLE_PARAM("batch", B);
  ORACLE_PARAM("w1", W1);
  ORACLE_PARAM("h1", H1);
  ORACLE_PARAM("c1", C1);
  ORACLE_PARAM("w2", W2);
  ORACLE_PARAM("h2", H2);
  ORACLE_PARAM("c2", C2);
  oracle::Array<float> add("add", B * C1 * H1 * W1), out("out", B * C2 * H2 * W2);
  ORACLE_CALL(shortcut_add(B, W1, H1, C1, add, W2, H2, C2, out));

  const int N = CL_UP ? 3 : 9, D = 5;
  ORACLE_PARAM("n", N);
  ORACLE_PARAM("d", D);
  oracle::Array<float> x("x", N * D), y("y", N * D);
  ORACLE_CALL(head_rows(x, N, D, 0.5f));
  ORACLE_CASE("transposed", pick_len(y, x, N, D, 1));
  ORACLE_CASE("!(transposed)", pick_len(y, x, N, D, 0));
}
