// Oracle driver for the nests of model.c with --cross-tu
// (test/Program/cross-tu-nests.test): model.c, matmul.c and ops.c built
// together; forward at L=2, dim=8, hid=16 and residual on its own.
#include "model.c"
#include "matmul.c"
#include "ops.c"

int main() {
  const int L = 2, dim = 8, hid = 16;
  ORACLE_PARAM("L", L);
  ORACLE_PARAM("dim", dim);
  ORACLE_PARAM("hid", hid);
  ORACLE_PARAM("n", dim);
  oracle::Array<float> x("x", dim), h("h", hid), g("g", hid),
      w("w", L * 2 * dim * hid), y("y", dim);
  ORACLE_CALL(forward(x, h, g, w, L, dim, hid));
  ORACLE_CALL(residual(x, y, dim));
}
