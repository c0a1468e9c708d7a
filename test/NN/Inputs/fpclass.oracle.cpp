// Oracle driver for fpclass.c (scripts/nn-oracle.py runs it). The data is
// finite, so every assert holds and every finite check passes.
#include "fpclass.c"

int main() {
  const int N = 7, R = 3, C = 5;
  ORACLE_PARAM("N", N);
  ORACLE_PARAM("R", R);
  ORACLE_PARAM("C", C);
  oracle::Array<float> y("y", N), x("x", N);
  ORACLE_CALL(checked_sigmoid(y, x, N));
  oracle::Array<float> zy("y", N), zx("x", N);
  ORACLE_CALL(nan_to_zero(zy, zx, N));
  oracle::Array<float> out("out", R), a("a", R * C);
  ORACLE_CALL(finite_rows(out, a, R, C));
  oracle::Array<float> cy("y", N), cx("x", N);
  ORACLE_CALL(clamp_inf(cy, cx, N));
  oracle::Array<float> hy("y", N), hx("x", N);
  ORACLE_CALL(hinted_relu(hy, hx, N));
  oracle::Array<float> sy("y", N), sx("x", N);
  ORACLE_CALL(skip_nan(sy, sx, N));
}
