// Oracle driver for helperexits.c (scripts/nn-oracle.py runs it): a 2x5x4
// image with 3x3 windows and padding PAD, at stride 1 and 2; a 3-tap filter over rows of 7;
// the same rows with their first element counted apart. The tool is given one
// value of each size per driver: helperexits-nopad.oracle.cpp is PAD 0.
#include "helperexits.c"
#ifndef PAD
#define PAD 1
#endif

int main() {
  {
    const int C = 2, H = 5, W = 4, K = 3;
    ORACLE_PARAM("channels", C);
    ORACLE_PARAM("h", H);
    ORACLE_PARAM("w", W);
    ORACLE_PARAM("k", K);
    const int Pad = PAD, OH = H + 2 * Pad - K + 1, OW = W + 2 * Pad - K + 1;
    ORACLE_PARAM("pad", Pad);
    oracle::Array<float> cols("cols", C * K * K * OH * OW), img("img", C * H * W);
    ORACLE_CALL(cols_to_image(cols, C, H, W, K, Pad, img));
    const int S = 2, SH = (H + 2 * Pad - K) / S + 1, SW = (W + 2 * Pad - K) / S + 1;
    ORACLE_PARAM("stride", S);
    oracle::Array<float> scols("cols", C * K * K * SH * SW), simg("img", C * H * W);
    ORACLE_CALL(cols_to_image_strided(scols, C, H, W, K, S, Pad, simg));
  }
  {
    const int R = 3, N = 7, T = 3;
    ORACLE_PARAM("rows", R);
    ORACLE_PARAM("n", N);
    ORACLE_PARAM("taps", T);
    oracle::Array<float> out("out", R * N), in("in", R * N), wgt("wgt", T);
    ORACLE_CALL(conv1d_valid(out, in, wgt, R, N, T));
  }
  {
    // One value per size name in a driver: rows and n as above.
    const int R = 3, N = 7;
    oracle::Array<float> y("y", R * N), x("x", R * N), count("count", R);
    ORACLE_CALL(rows_first(y, x, count, R, N));
  }
}
