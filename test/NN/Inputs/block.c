// The MLP half of a transformer block with its sizes as constants in the
// file: the layers are static helpers with int size parameters, each called
// once from block_forward with constant arguments, so the call sites size
// them (no --param), and the single call passes a NULL bias, so only that
// case of the NULL check is counted.
// Part of the test/NN corpus (see docs/testing-nn-corpus.md).
#include <math.h>
#include <stddef.h>

#define BATCH 2
#define SEQ 3
#define CH 8
#define HIDDEN (4 * CH)
#define GELU_SCALING_FACTOR sqrtf(2.0f / M_PI)

static void layernorm_rows(float *out, const float *inp, const float *weight,
                           const float *bias, int N, int C) {
  for (int n = 0; n < N; n++) {
    const float *x = inp + n * C;
    float *y = out + n * C;
    float mean = 0.0f;
    for (int i = 0; i < C; i++)
      mean += x[i];
    mean /= C;
    float var = 0.0f;
    for (int i = 0; i < C; i++)
      var += (x[i] - mean) * (x[i] - mean);
    float rstd = 1.0f / sqrtf(var / C + 1e-5f);
    for (int i = 0; i < C; i++)
      y[i] = (x[i] - mean) * rstd * weight[i] + bias[i];
  }
}

static void linear(float *out, const float *inp, const float *weight,
                   const float *bias, int N, int IC, int OC) {
  for (int n = 0; n < N; n++) {
    for (int o = 0; o < OC; o++) {
      float acc = bias ? bias[o] : 0.0f;
      for (int i = 0; i < IC; i++)
        acc += inp[n * IC + i] * weight[o * IC + i];
      out[n * OC + o] = acc;
    }
  }
}

static void gelu(float *out, const float *inp, int N) {
  for (int i = 0; i < N; i++) {
    float x = inp[i];
    out[i] = 0.5f * x *
             (1.0f + tanhf(GELU_SCALING_FACTOR * (x + 0.044715f * x * x * x)));
  }
}

void block_forward(float *ln, float *h, const float *x, const float *ln_w,
                   const float *ln_b, const float *fc_w) {
  layernorm_rows(ln, x, ln_w, ln_b, BATCH * SEQ, CH);
  linear(h, ln, fc_w, NULL, BATCH * SEQ, CH, HIDDEN);
  gelu(h, h, BATCH * SEQ * HIDDEN);
}
