// Oracle driver for ../whatif.c (scripts/program-oracle.py): the decode-step
// MLP at L=2, dim=64, hid=256 (smaller than the what-if test's sizes: the
// oracle records every access).
#include "whatif.c"

int main() {
  const int L = 2, dim = 64, hid = 256;
  ORACLE_PARAM("L", L);
  ORACLE_PARAM("dim", dim);
  ORACLE_PARAM("hid", hid);
  oracle::Array<float> x("x", dim), h("h", hid), a("a", hid), y("y", dim),
      w1("w1", L * hid * dim), w2("w2", L * dim * hid);
  ORACLE_CALL(forward(x, h, a, y, w1, w2, L, dim, hid));
}
