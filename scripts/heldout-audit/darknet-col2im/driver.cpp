// Held-out audit driver for pjreddie/darknet src/col2im.c (scripts/heldout-audit).
// Our code: it #includes the published file unchanged and calls col2im_cpu
// (im2col's inverse: every column element is added to the image pixel it came
// from; col2im_add_pixel returns early for a pixel in the zero padding) on a
// 2-channel 5x4 image, 3x3 kernel, stride STRIDE (1 here; darknet-col2im-s2
// defines 2), padding 1. col2im_cpu holds each column element in a `double`
// before passing it on as the helper's float: a copy, no arithmetic; here it
// is the counting float (the oracle's float converts to double only
// explicitly).
#include "../shims.h"
#define double float
#include "col2im.c"
#undef double

#ifndef STRIDE
#define STRIDE 1
#endif

int main() {
  const int C = 2, H = 5, W = 4, Ksz = 3, S = STRIDE, P = 1;
  const int Hc = (H + 2 * P - Ksz) / S + 1, Wc = (W + 2 * P - Ksz) / S + 1;
  ORACLE_PARAM("channels", C);
  ORACLE_PARAM("height", H);
  ORACLE_PARAM("width", W);
  ORACLE_PARAM("ksize", Ksz);
  ORACLE_PARAM("stride", S);
  ORACLE_PARAM("pad", P);
  oracle::Array<float> col("data_col", C * Ksz * Ksz * Hc * Wc), im("data_im", C * H * W);
  ORACLE_CALL(col2im_cpu(col, C, H, W, Ksz, S, P, im));
}
