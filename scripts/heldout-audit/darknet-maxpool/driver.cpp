// Held-out audit driver for pjreddie/darknet src/maxpool_layer.c
// (scripts/heldout-audit). Our code: it #includes the published file
// unchanged and runs the max pool's forward and backward passes on a layer
// set up as make_maxpool_layer sets it up: batch 2, 2 channels of 4x4,
// 2x2 windows, stride 2, no padding (out 2x2); output, indexes, delta and
// the network's input and delta registered. image.c's float_to_image is
// stubbed (not called).
#include "../shims.h"
#include "maxpool_layer.c"

// image.c's, referenced by get_maxpool_image/delta, which are not called.
image float_to_image(int, int, int, float *) { abort(); }

int main() {
  const int B = 2, C = 2, H = 4, W = 4, Size = 2, Stride = 2, OH = 2, OW = 2;
  oracle::Array<float> out("l.output", B * C * OH * OW), delta("l.delta", B * C * OH * OW);
  oracle::Array<int> idx("l.indexes", B * C * OH * OW);
  oracle::Array<float> in("net.input", B * C * H * W), nd("net.delta", B * C * H * W);
  layer l = {};
  l.batch = B;
  l.c = l.out_c = C;
  l.h = H;
  l.w = W;
  l.size = Size;
  l.stride = Stride;
  l.pad = 0;
  l.out_h = OH;
  l.out_w = OW;
  l.output = out;
  l.delta = delta;
  l.indexes = idx;
  network net = {};
  net.input = in;
  net.delta = nd;
  ORACLE_PARAM("l.batch", B);
  ORACLE_PARAM("l.c", C);
  ORACLE_PARAM("l.h", H);
  ORACLE_PARAM("l.w", W);
  ORACLE_PARAM("l.size", Size);
  ORACLE_PARAM("l.stride", Stride);
  ORACLE_PARAM("l.pad", 0);
  ORACLE_PARAM("l.out_h", OH);
  ORACLE_PARAM("l.out_w", OW);
  ORACLE_CALL(forward_maxpool_layer(l, net));
  ORACLE_CALL(backward_maxpool_layer(l, net));
}
