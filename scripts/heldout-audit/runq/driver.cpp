// Held-out audit driver for karpathy/llama2.c runq.c (scripts/heldout-audit).
// Our code: it #includes the published file unchanged and calls quantize,
// dequantize, rmsnorm, softmax, the int8 matmul and the samplers at n = 32,
// group size GS = 4, d = 24, vocab 20.
#include "../shims.h"
#define TESTING // runq.c's main() is under #ifndef TESTING
#include "runq.c"
#include "../llama2c.h"

int main() {
  const int N = 32, Gs = 4, D = 24, Vocab = 20, Pos = 5;
  GS = Gs;
  ORACLE_PARAM("GS", Gs);
  ORACLE_PARAM("quantize:n", N);
  ORACLE_PARAM("dequantize:n", N);
  ORACLE_PARAM("rmsnorm:size", N);
  ORACLE_PARAM("softmax:size", Pos + 1);
  ORACLE_PARAM("matmul:n", N);
  ORACLE_PARAM("matmul:d", D);
  heldout::samplerParams(Vocab);

  oracle::Array<float> x("x", N, -3.0, 3.0), xs("qx->s", N / Gs);
  oracle::Array<int8_t> xq("qx->q", N);
  QuantizedTensor qx = {xq, xs};
  ORACLE_CALL(quantize(&qx, x, N));
  oracle::Array<float> dx("x", N);
  ORACLE_CALL(dequantize(&qx, dx, N));

  oracle::Array<float> o("o", N), weight("weight", N);
  ORACLE_CALL(rmsnorm(o, x, weight, N));
  oracle::Array<float> sx("x", Pos + 1, -2.0, 2.0);
  ORACLE_CALL(softmax(sx, Pos + 1));

  oracle::Array<float> xout("xout", D), ws("w->s", D * N / Gs);
  oracle::Array<int8_t> wq("w->q", D * N, -127, 128);
  QuantizedTensor w = {wq, ws};
  ORACLE_CALL(matmul(xout, &qx, &w, N, D));

  heldout::callSamplers(Vocab);
}
