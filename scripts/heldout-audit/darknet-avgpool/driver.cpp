// Held-out audit driver for pjreddie/darknet src/avgpool_layer.c
// (scripts/heldout-audit). Our code: it #includes the published file
// unchanged and runs the global average pool's forward and backward passes
// on a layer built as make_avgpool_layer builds it (batch 2, 3 channels of
// 4x5), its output, delta and the network's input and delta registered.
#include "../shims.h"
#include "avgpool_layer.c"

int main() {
  const int B = 2, C = 3, H = 4, W = 5;
  oracle::Array<float> out("l.output", B * C), delta("l.delta", B * C);
  oracle::Array<float> in("net.input", B * C * H * W), nd("net.delta", B * C * H * W);
  layer l = {};
  l.batch = B;
  l.c = l.out_c = C;
  l.h = H;
  l.w = W;
  l.output = out;
  l.delta = delta;
  network net = {};
  net.input = in;
  net.delta = nd;
  ORACLE_PARAM("l.batch", B);
  ORACLE_PARAM("l.c", C);
  ORACLE_PARAM("l.h", H);
  ORACLE_PARAM("l.w", W);
  ORACLE_CALL(forward_avgpool_layer(l, net));
  ORACLE_CALL(backward_avgpool_layer(l, net));
}
