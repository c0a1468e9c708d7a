// Oracle driver for cwindows.c (scripts/nn-oracle.py runs it): a box filter
// over 3 rows of 10 (K 2) and a 3x3 max pool with stride 2 and padding 1
// over 7x6 (out 4x3).
#include "cwindows.c"

int main() {
  const int R = 3, W = 10, K = 2;
  ORACLE_PARAM("R", R);
  ORACLE_PARAM("box_rows:W", W);
  ORACLE_PARAM("K", K);
  oracle::Array<float> out("out", R * W), in("in", R * W);
  ORACLE_CALL(box_rows(out, in, R, W, K));

  const int H = 7, PW = 6, S = 2, P = 1, F = 3, OH = 4, OW = 3;
  ORACLE_PARAM("H", H);
  ORACLE_PARAM("max_pool:W", PW);
  ORACLE_PARAM("OH", OH);
  ORACLE_PARAM("OW", OW);
  ORACLE_PARAM("S", S);
  ORACLE_PARAM("P", P);
  ORACLE_PARAM("F", F);
  oracle::Array<float> pout("out", OH * OW), pin("in", H * PW);
  ORACLE_CALL(max_pool(pout, pin, H, PW, OH, OW, S, P, F));
  oracle::Array<float> cout("out", OH), cin("in", H);
  ORACLE_CALL(caffe_pool(cout, cin, H, OH, S, P, F));
}
