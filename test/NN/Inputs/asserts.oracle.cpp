// Oracle driver for asserts.c (scripts/nn-oracle.py runs it): the data
// makes every assertion hold, as the counts assume.
#include "asserts.c"

int main() {
  const int N = 6, M = 5;
  ORACLE_PARAM("N", N);
  ORACLE_PARAM("M", M);
  oracle::Array<float> y("y", N), x("x", N);
  ORACLE_CALL(checked_scale(y, x, N));
  oracle::Array<float> my("y", N), w("w", N * M), mx("x", M);
  ORACLE_CALL(matvec_checked(my, w, mx, N, M));
  oracle::Array<float> cy("y", N), cx("x", N), mask("mask", N, 0.0, 1.0);
  ORACLE_CALL(masked_copy(cy, cx, mask, N));
  oracle::Array<float> ay("y", N), ax("x", N);
  ORACLE_CALL(apply_act(ay, ax, N));
  oracle::Array<float> rw("w", N * M), rx("x", M);
  ORACLE_CALL(counted_rows(rw, rx, N, M));
  oracle::Array<float> sy("y", N), sx("x", N);
  ORACLE_CASE("skip", scale_unless(sy, sx, N, 1));
  ORACLE_CASE("!(skip)", scale_unless(sy, sx, N, 0));
  oracle::Array<float> ey("y", N), ex("x", N, 0.5, 1.0);
  ORACLE_CALL(either(ey, ex, N));
  oracle::Array<float> p("probabilities", N, 0.1, 0.2);
  ORACLE_CALL(sample_mult(p, N, 0.5f));
}
