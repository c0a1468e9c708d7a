// Oracle driver for ../layers.c (scripts/program-oracle.py): the MLP pass
// at L=2, B=1, T=4, C=8, the sizes its own RUN lines use.
#include "layers.c"

int main() {
  const int L = 2, B = 1, T = 4, C = 8;
  ORACLE_PARAM("L", L);
  ORACLE_PARAM("B", B);
  ORACLE_PARAM("T", T);
  ORACLE_PARAM("C", C);
  oracle::Array<float> acts("acts", (L + 1) * B * T * C), h("h", B * T * 4 * C),
      g("g", B * T * 4 * C), y("y", B * T * C),
      params("params", L * 8 * C * C + 4 * C);
  ORACLE_CALL(forward(acts, h, g, y, params, L, B, T, C));
}
