// Oracle driver for ../layers.c (scripts/program-oracle.py): the MLP pass
// at L=2, B=1, T=4, C=8, the sizes its own RUN lines use, or others with
// --define=ORACLE_L=... (oracle.test checks the formulas at three).
#include "layers.c"

#ifndef ORACLE_L
#define ORACLE_L 2
#endif
#ifndef ORACLE_B
#define ORACLE_B 1
#endif
#ifndef ORACLE_T
#define ORACLE_T 4
#endif
#ifndef ORACLE_C
#define ORACLE_C 8
#endif

int main() {
  const int L = ORACLE_L, B = ORACLE_B, T = ORACLE_T, C = ORACLE_C;
  ORACLE_PARAM("L", L);
  ORACLE_PARAM("B", B);
  ORACLE_PARAM("T", T);
  ORACLE_PARAM("C", C);
  oracle::Array<float> acts("acts", (L + 1) * B * T * C), h("h", B * T * 4 * C),
      g("g", B * T * 4 * C), y("y", B * T * C),
      params("params", L * 8 * C * C + 4 * C);
  ORACLE_CALL(forward(acts, h, g, y, params, L, B, T, C));
}
