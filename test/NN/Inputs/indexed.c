// The control corpus: NN kernels written with whole subscripts into the
// flat buffers (inp[b * T * C + t * C + i]) instead of row pointers, with
// no conditions and no derived sizes: forms the tool counted exactly before
// issue 18, so these must stay exact (and the oracle's check must pass on
// them, which the injected-error self-test relies on).
// Part of the test/NN corpus (see docs/testing-nn-corpus.md).
#include <math.h>

void layernorm_indexed(float *out, float *mean, float *rstd, const float *inp,
                       const float *weight, const float *bias, int B, int T,
                       int C) {
  for (int b = 0; b < B; b++) {
    for (int t = 0; t < T; t++) {
      float m = 0.0f;
      for (int i = 0; i < C; i++) {
        m += inp[b * T * C + t * C + i];
      }
      m = m / C;
      float v = 0.0f;
      for (int i = 0; i < C; i++) {
        float d = inp[b * T * C + t * C + i] - m;
        v += d * d;
      }
      v = v / C;
      float s = 1.0f / sqrtf(v + 1e-5f);
      for (int i = 0; i < C; i++) {
        float n = s * (inp[b * T * C + t * C + i] - m);
        out[b * T * C + t * C + i] = n * weight[i] + bias[i];
      }
      mean[b * T + t] = m;
      rstd[b * T + t] = s;
    }
  }
}

void matmul_indexed(float *out, const float *inp, const float *weight, int B,
                    int T, int C, int OC) {
  for (int b = 0; b < B; b++) {
    for (int t = 0; t < T; t++) {
      for (int o = 0; o < OC; o++) {
        float val = 0.0f;
        for (int i = 0; i < C; i++) {
          val += inp[b * T * C + t * C + i] * weight[o * C + i];
        }
        out[b * T * OC + t * OC + o] = val;
      }
    }
  }
}

void residual_indexed(float *out, const float *inp1, const float *inp2, int B,
                      int T, int C) {
  for (int b = 0; b < B; b++) {
    for (int t = 0; t < T; t++) {
      for (int i = 0; i < C; i++) {
        out[b * T * C + t * C + i] =
            inp1[b * T * C + t * C + i] + inp2[b * T * C + t * C + i];
      }
    }
  }
}

// Causal attention scores of one head: the mask as a triangular bound.
void attention_scores_indexed(float *preatt, const float *q, const float *k,
                              float scale, int T, int HS) {
  for (int t = 0; t < T; t++) {
    for (int t2 = 0; t2 <= t; t2++) {
      float val = 0.0f;
      for (int i = 0; i < HS; i++) {
        val += q[t * HS + i] * k[t2 * HS + i];
      }
      preatt[t * T + t2] = val * scale;
    }
  }
}
