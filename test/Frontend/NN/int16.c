// 16-bit integer elements (issue 18): int16 weights and activations (an
// NNUE-style affine layer) and fp16 values kept as uint16_t are arrays of
// 2-byte elements, precision i16; a narrow integer multiply-accumulate is
// counted in the narrow type, as int8's is.
// RUN: roofline-lint --verbosity=normal --no-source --param O=4 --param K=8 --param n=16 %s 2>&1 | FileCheck %s
#include <stdint.h>

// w: 32 x 2 bytes, x: 8 x 2, bias and out: 4 x 4 each.
void affine_i16(int32_t *out, const int16_t *w, const int16_t *x,
                const int32_t *bias, int O, int K) {
// CHECK: int16.c:[[@LINE+1]]:3: note: 32 MACs, 64 FLOPs (i16: 64); 112 bytes compulsory
  for (int o = 0; o < O; o++) {
    int32_t s = bias[o];
    for (int k = 0; k < K; k++)
      s += w[o * K + k] * x[k];
    out[o] = s;
  }
}

// Half-precision bits widened by a shift (a stand-in for a conversion):
// 16 x 2 bytes read, 16 x 4 written.
void widen(float *out, const uint16_t *h, int n) {
// CHECK: int16.c:[[@LINE+1]]:3: note: 0 MACs, 16 FLOPs (f32: 16); 96 bytes compulsory
  for (int i = 0; i < n; i++)
    out[i] = (float)(h[i] >> 1) * 0.5f;
}
