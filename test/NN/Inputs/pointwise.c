// Element-wise layers over flat buffers of N elements: GELU (tanh
// approximation) forward and backward with the scaling constant as a macro,
// the residual add, ReLU, leaky ReLU and clamp, and a row-wise online
// softmax. Every function names its length N, so one run sizes them apart:
// --param gelu_forward:N=... --param residual_forward:N=...
// Part of the test/NN corpus (see docs/testing-nn-corpus.md).
#include <math.h>

#define GELU_SCALING_FACTOR sqrtf(2.0f / M_PI)

void gelu_forward(float *out, const float *inp, int N) {
#pragma omp parallel for
  for (int i = 0; i < N; i++) {
    float x = inp[i];
    float cube = 0.044715f * x * x * x;
    out[i] = 0.5f * x * (1.0f + tanhf(GELU_SCALING_FACTOR * (x + cube)));
  }
}

void gelu_backward(float *dinp, const float *inp, const float *dout, int N) {
#pragma omp parallel for
  for (int i = 0; i < N; i++) {
    float x = inp[i];
    float cube = 0.044715f * x * x * x;
    float tanh_arg = GELU_SCALING_FACTOR * (x + cube);
    float tanh_out = tanhf(tanh_arg);
    float coshf_out = coshf(tanh_arg);
    float sech_out = 1.0f / (coshf_out * coshf_out);
    float local_grad = 0.5f * (1.0f + tanh_out) +
                       x * 0.5f * sech_out * GELU_SCALING_FACTOR *
                           (1.0f + 3.0f * 0.044715f * x * x);
    dinp[i] += local_grad * dout[i];
  }
}

void residual_forward(float *out, const float *inp1, const float *inp2,
                      int N) {
  for (int i = 0; i < N; i++) {
    out[i] = inp1[i] + inp2[i];
  }
}

void relu_forward(float *out, const float *inp, int N) {
  for (int i = 0; i < N; i++) {
    out[i] = fmaxf(inp[i], 0.0f);
  }
}

// The negative side costs a multiply, the positive side nothing: a range.
void leaky_relu_forward(float *out, const float *inp, float slope, int N) {
  for (int i = 0; i < N; i++) {
    float x = inp[i];
    out[i] = x > 0.0f ? x : slope * x;
  }
}

void clamp_forward(float *out, const float *inp, float lo, float hi, int N) {
  for (int i = 0; i < N; i++) {
    float v = inp[i];
    if (v < lo)
      v = lo;
    if (v > hi)
      v = hi;
    out[i] = v;
  }
}

// One pass for the maximum and the sum: a new maximum rescales the sum so
// far (work only on that branch: a range), a second pass normalizes.
void softmax_online(float *probs, const float *logits, int N, int V) {
  for (int n = 0; n < N; n++) {
    const float *z = logits + n * V;
    float *p = probs + n * V;
    float maxval = -INFINITY;
    float sum = 0.0f;
    for (int i = 0; i < V; i++) {
      if (z[i] > maxval) {
        sum = sum * expf(maxval - z[i]);
        maxval = z[i];
      }
      sum += expf(z[i] - maxval);
    }
    float inv = 1.0f / sum;
    for (int i = 0; i < V; i++) {
      p[i] = expf(z[i] - maxval) * inv;
    }
  }
}
