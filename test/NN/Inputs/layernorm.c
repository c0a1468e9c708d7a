// Layer normalization over the channels of a (B, T, C) activation, forward
// and backward, in the style of hand-written C training code: row pointers
// into the flat buffers, sizes as int parameters, OpenMP over (b, t).
// Part of the test/NN corpus (see docs/testing-nn-corpus.md).
#include <math.h>

void layernorm_forward(float *out, float *mean, float *rstd, const float *inp,
                       const float *weight, const float *bias, int B, int T,
                       int C) {
  float eps = 1e-5f;
#pragma omp parallel for collapse(2)
  for (int b = 0; b < B; b++) {
    for (int t = 0; t < T; t++) {
      const float *x = inp + b * T * C + t * C;
      // mean
      float m = 0.0f;
      for (int i = 0; i < C; i++) {
        m += x[i];
      }
      m = m / C;
      // variance (biased)
      float v = 0.0f;
      for (int i = 0; i < C; i++) {
        float d = x[i] - m;
        v += d * d;
      }
      v = v / C;
      float s = 1.0f / sqrtf(v + eps);
      float *y = out + b * T * C + t * C;
      for (int i = 0; i < C; i++) {
        float n = s * (x[i] - m);
        y[i] = n * weight[i] + bias[i];
      }
      // cached for the backward pass
      mean[b * T + t] = m;
      rstd[b * T + t] = s;
    }
  }
}

void layernorm_backward(float *dinp, float *dweight, float *dbias,
                        const float *dout, const float *inp,
                        const float *weight, const float *mean,
                        const float *rstd, int B, int T, int C) {
  for (int b = 0; b < B; b++) {
    for (int t = 0; t < T; t++) {
      const float *dout_bt = dout + b * T * C + t * C;
      const float *inp_bt = inp + b * T * C + t * C;
      float *dinp_bt = dinp + b * T * C + t * C;
      float mean_bt = mean[b * T + t];
      float rstd_bt = rstd[b * T + t];

      // two reductions over the channels
      float dnorm_mean = 0.0f;
      float dnorm_norm_mean = 0.0f;
      for (int i = 0; i < C; i++) {
        float norm_bti = (inp_bt[i] - mean_bt) * rstd_bt;
        float dnorm_i = weight[i] * dout_bt[i];
        dnorm_mean += dnorm_i;
        dnorm_norm_mean += dnorm_i * norm_bti;
      }
      dnorm_mean = dnorm_mean / C;
      dnorm_norm_mean = dnorm_norm_mean / C;

      // accumulate the gradients
      for (int i = 0; i < C; i++) {
        float norm_bti = (inp_bt[i] - mean_bt) * rstd_bt;
        float dnorm_i = weight[i] * dout_bt[i];
        dbias[i] += dout_bt[i];
        dweight[i] += norm_bti * dout_bt[i];
        float dval = dnorm_i - dnorm_mean - norm_bti * dnorm_norm_mean;
        dinp_bt[i] += dval * rstd_bt;
      }
    }
  }
}
