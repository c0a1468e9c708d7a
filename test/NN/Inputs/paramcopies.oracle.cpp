// Oracle driver for paramcopies.c (scripts/nn-oracle.py runs it).
#include "paramcopies.c"

int main() {
  const int N = 6, Pad = 1, H = 3, W = 4, R = 4, C = 5;
  ORACLE_PARAM("n", N);
  ORACLE_PARAM("pad", Pad);
  ORACLE_PARAM("h", H);
  ORACLE_PARAM("w", W);
  ORACLE_PARAM("rows", R);
  ORACLE_PARAM("cols", C);
  oracle::Array<float> y("y", N), x("x", N);
  ORACLE_CALL(scatter(y, x, N, Pad));
  oracle::Array<float> y2("y", H * W), x2("x", H * W);
  ORACLE_CALL(scatter2(y2, x2, H, W));
  oracle::Array<float> y3("y", H * W), x3("x", H * W);
  ORACLE_CALL(gather(y3, x3, H, W));
  oracle::Array<float> out("out", R * C), img("img", R * C), wt("wt", 9);
  ORACLE_CALL(blur(out, img, wt, R, C, Pad));
  oracle::Array<float> y4("y", N), x4("x", N);
  ORACLE_CALL(clamped(y4, x4, N));
}
