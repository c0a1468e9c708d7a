// Fully connected layers of a transformer block: out (B,T,OC) = inp (B,T,C)
// x weight^T (OC,C) + bias (OC), forward naive and blocked over B*T with a
// local accumulator array, and the backward pass. The bias may be NULL.
// Part of the test/NN corpus (see docs/testing-nn-corpus.md).
#include <stddef.h>

void matmul_forward_naive(float *out, const float *inp, const float *weight,
                          const float *bias, int B, int T, int C, int OC) {
#pragma omp parallel for collapse(2)
  for (int b = 0; b < B; b++) {
    for (int t = 0; t < T; t++) {
      int bt = b * T + t;
      for (int o = 0; o < OC; o++) {
        float val = (bias != NULL) ? bias[o] : 0.0f;
        const float *wrow = weight + o * C;
        for (int i = 0; i < C; i++) {
          val += inp[bt * C + i] * wrow[i];
        }
        out[bt * OC + o] = val;
      }
    }
  }
}

// B*T must be a multiple of ROWS: each weight row is loaded once for ROWS
// output rows, accumulated in registers.
#define ROWS 8
void matmul_forward_blocked(float *out, const float *inp, const float *weight,
                            const float *bias, int B, int T, int C, int OC) {
#pragma omp parallel for
  for (int obt = 0; obt < B * T; obt += ROWS) {
    for (int o = 0; o < OC; o++) {
      float acc[ROWS];
      for (int r = 0; r < ROWS; r++) {
        acc[r] = (bias == NULL) ? 0.0f : bias[o];
      }
      for (int i = 0; i < C; i++) {
        float w = weight[i + o * C];
        for (int r = 0; r < ROWS; r++) {
          int bt = obt + r;
          acc[r] += inp[bt * C + i] * w;
        }
      }
      for (int r = 0; r < ROWS; r++) {
        out[(obt + r) * OC + o] = acc[r];
      }
    }
  }
}

void matmul_backward(float *dinp, float *dweight, float *dbias,
                     const float *dout, const float *inp, const float *weight,
                     int B, int T, int C, int OC) {
  // gradient of the input, parallel over (b, t)
#pragma omp parallel for collapse(2)
  for (int b = 0; b < B; b++) {
    for (int t = 0; t < T; t++) {
      const float *dout_bt = dout + b * T * OC + t * OC;
      float *dinp_bt = dinp + b * T * C + t * C;
      for (int o = 0; o < OC; o++) {
        const float *wrow = weight + o * C;
        float d = dout_bt[o];
        for (int i = 0; i < C; i++) {
          dinp_bt[i] += wrow[i] * d;
        }
      }
    }
  }
  // gradients of the weight and the bias, parallel over the output channels
#pragma omp parallel for
  for (int o = 0; o < OC; o++) {
    for (int b = 0; b < B; b++) {
      for (int t = 0; t < T; t++) {
        const float *dout_bt = dout + b * T * OC + t * OC;
        const float *inp_bt = inp + b * T * C + t * C;
        float *dwrow = dweight + o * C;
        float d = dout_bt[o];
        if (dbias != NULL) {
          dbias[o] += d;
        }
        for (int i = 0; i < C; i++) {
          dwrow[i] += inp_bt[i] * d;
        }
      }
    }
  }
}
