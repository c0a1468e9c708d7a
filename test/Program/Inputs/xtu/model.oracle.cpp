// Oracle driver for the program of model.c, matmul.c and ops.c
// (scripts/program-oracle.py --kernel x3): one build of all three, forward()
// at L=2, dim=8, hid=16, every buffer registered.
#include "model.c"
#include "matmul.c"
#include "ops.c"

int main() {
  const int L = 2, dim = 8, hid = 16;
  ORACLE_PARAM("L", L);
  ORACLE_PARAM("dim", dim);
  ORACLE_PARAM("hid", hid);
  oracle::Array<float> x("x", dim), h("h", hid), g("g", hid),
      w("w", L * 2 * dim * hid);
  ORACLE_CALL(forward(x, h, g, w, L, dim, hid));
}
