// Held-out audit driver for pjreddie/darknet src/im2col.c (scripts/heldout-audit).
// Our code: it #includes the published file unchanged and calls im2col_cpu
// (Caffe's im2col: one loop over channels*ksize*ksize, split by % and / into
// the channel and the kernel offsets; im2col_get_pixel reads 0 in the zero
// padding) on a 2-channel 5x4 image, 3x3 kernel, stride 1, padding 1.
#include "../shims.h"
#include "im2col.c"

int main() {
  const int C = 2, H = 5, W = 4, Ksz = 3, S = 1, P = 1;
  const int Hc = (H + 2 * P - Ksz) / S + 1, Wc = (W + 2 * P - Ksz) / S + 1;
  ORACLE_PARAM("channels", C);
  ORACLE_PARAM("height", H);
  ORACLE_PARAM("width", W);
  ORACLE_PARAM("ksize", Ksz);
  ORACLE_PARAM("stride", S);
  ORACLE_PARAM("pad", P);
  oracle::Array<float> im("data_im", C * H * W), col("data_col", C * Ksz * Ksz * Hc * Wc);
  ORACLE_CALL(im2col_cpu(im, C, H, W, Ksz, S, P, col));
}
