// Oracle driver for condbounds.c (scripts/nn-oracle.py runs it). The number
// of layers L, the row split K and the layers P before the outputs can be
// set by the drivers that include this one.
#include "condbounds.c"

#ifndef CB_L
#define CB_L 3
#endif
#ifndef CB_K
#define CB_K 2
#endif
#ifndef CB_P
#define CB_P 2
#endif

int main() {
  const int L = CB_L, I = 2, H = 3, O = 2, N = 3, R = 4, K = CB_K, M = 5, P = CB_P;
  ORACLE_PARAM("L", L);
  ORACLE_PARAM("I", I);
  ORACLE_PARAM("H", H);
  ORACLE_PARAM("O", O);
  ORACLE_PARAM("N", N);
  ORACLE_PARAM("R", R);
  ORACLE_PARAM("K", K);
  ORACLE_PARAM("M", M);
  ORACLE_PARAM("P", P);
  const int TW = (H + 1) * H * (L + 2) + (H + 1) * O;
  const int TN = H * (L + 2) + O;
  oracle::Array<float> d("d", TN), o("o", TN), w("w", TW);
  ORACLE_CALL(hidden_deltas(d, o, w, L, H, O));
  oracle::Array<float> tw("w", TW), td("d", TN), tout("out", TN);
  ORACLE_CALL(train_hidden(tw, td, tout, L, I, H, 0.5f));
  ORACLE_CALL(train_outputs(tw, td, tout, P, I, H, O, 0.5f));
  oracle::Array<float> y("y", N), x("x", N);
  ORACLE_CALL(smooth(y, x, N));
  oracle::Array<float> ry("y", R), rx("x", R * M);
  ORACLE_CALL(ragged(ry, rx, R, K, M, N));
  oracle::Array<float> g("g", R);
  ORACLE_CALL(by_data(ry, rx, g, R, M, N));
  ORACLE_CALL(two_splits(ry, rx, R, K, M, N));
}
