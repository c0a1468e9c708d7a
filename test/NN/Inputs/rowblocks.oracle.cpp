// Oracle driver for rowblocks.c (scripts/nn-oracle.py runs it);
// rowblocks-2.oracle.cpp runs it at other sizes.
#ifndef ROWBLOCKS_SIZES
static const int I = 4, H = 3, L = 3, Layer = 1, N = 5, S = 3, K = 7;
#endif
#include "rowblocks.c"

int main() {
  ORACLE_PARAM("I", I);
  ORACLE_PARAM("H", H);
  ORACLE_PARAM("L", L);
  ORACLE_PARAM("layer", Layer);
  ORACLE_PARAM("N", N);
  ORACLE_PARAM("S", S);
  ORACLE_PARAM("K", K);
  const int W = (I + 1) * H + (L + 1) * (H + 1) * H;
  oracle::Array<float> outputs("outputs", I + L * H), weight("weight", W);
  ORACLE_CALL(run_layers(outputs, weight, I, H, L));
  oracle::Array<float> d("d", H), delta("delta", (Layer + 2) * H);
  ORACLE_CALL(back_layer(d, weight, delta, I, H, Layer));
  oracle::Array<float> y("y", N), x("x", N * S + K);
  ORACLE_CALL(windows(y, x, N, S, K));
}
