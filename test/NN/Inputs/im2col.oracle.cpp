// Oracle driver for im2col.c (scripts/nn-oracle.py runs it).
#include "im2col.c"

int main() {
  // unfold: 2 channels of 5x4, 3x3 kernel, stride 1, padding 1 (darknet's
  // audit sizes); unfold2: 3 channels of 6x5, 3x3 kernel, stride 2, padding 1.
  ORACLE_PARAM("unfold:chans", 2);
  ORACLE_PARAM("unfold:rows", 5);
  ORACLE_PARAM("unfold:cols", 4);
  ORACLE_PARAM("unfold:k", 3);
  ORACLE_PARAM("unfold:stride", 1);
  ORACLE_PARAM("unfold:pad", 1);
  {
    oracle::Array<float> img("img", 2 * 5 * 4), out("out", 2 * 9 * 5 * 4);
    ORACLE_CALL(unfold(img, 2, 5, 4, 3, 1, 1, out));
  }
  ORACLE_PARAM("unfold2:chans", 3);
  ORACLE_PARAM("unfold2:rows", 6);
  ORACLE_PARAM("unfold2:cols", 5);
  ORACLE_PARAM("unfold2:k", 3);
  ORACLE_PARAM("unfold2:stride", 2);
  ORACLE_PARAM("unfold2:pad", 1);
  {
    // orows = (6 + 2 - 3)/2 + 1 = 3, ocols = (5 + 2 - 3)/2 + 1 = 3.
    oracle::Array<float> img("img", 3 * 6 * 5), out("out", 3 * 9 * 3 * 3);
    ORACLE_CALL(unfold2(img, 3, 6, 5, 3, 2, 1, out));
  }
  ORACLE_PARAM("fold:chans", 2);
  ORACLE_PARAM("fold:rows", 5);
  ORACLE_PARAM("fold:cols", 4);
  ORACLE_PARAM("fold:k", 2);
  {
    oracle::Array<float> img("img", 2 * 5 * 4), col("col", 2 * 4 * 4 * 3);
    ORACLE_CALL(fold(img, 2, 5, 4, 2, col));
  }
  ORACLE_PARAM("n", 3);
  ORACLE_PARAM("m", 4);
  {
    oracle::Array<float> y("y", 12), a("a", 3), b("b", 4);
    ORACLE_CALL(outer_flat(y, a, b, 3, 4));
  }
  ORACLE_PARAM("a", 2);
  ORACLE_PARAM("b", 3);
  ORACLE_PARAM("mixed:k", 2);
  {
    oracle::Array<float> y("y", 12), x("x", 6), z("z", 2);
    ORACLE_CALL(mixed(y, x, z, 2, 3, 2));
  }
}
