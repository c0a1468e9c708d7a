// Causal multi-head self-attention over a fused (B, T, 3C) query/key/value
// buffer, forward and backward, NH heads of hs = C / NH channels. The mask
// is written three ways: as a loop bound (t2 <= t), as an if/else over the
// whole row, and as `if (t2 > t) continue;`.
// Part of the test/NN corpus (see docs/testing-nn-corpus.md).
#include <math.h>

void attention_forward(float *out, float *preatt, float *att, const float *inp,
                       int B, int T, int C, int NH) {
  int C3 = C * 3;
  int hs = C / NH; // head size
  float scale = 1.0f / sqrtf(hs);

#pragma omp parallel for collapse(3)
  for (int b = 0; b < B; b++) {
    for (int t = 0; t < T; t++) {
      for (int h = 0; h < NH; h++) {
        const float *query_t = inp + b * T * C3 + t * C3 + h * hs;
        float *preatt_bth = preatt + b * NH * T * T + h * T * T + t * T;
        float *att_bth = att + b * NH * T * T + h * T * T + t * T;

        // pass 1: query . key, and the running maximum
        float maxval = -10000.0f;
        for (int t2 = 0; t2 <= t; t2++) {
          const float *key_t2 = inp + b * T * C3 + t2 * C3 + h * hs + C;
          float val = 0.0f;
          for (int i = 0; i < hs; i++) {
            val += query_t[i] * key_t2[i];
          }
          val *= scale;
          if (val > maxval) {
            maxval = val;
          }
          preatt_bth[t2] = val;
        }

        // pass 2: exponentials and their sum
        float expsum = 0.0f;
        for (int t2 = 0; t2 <= t; t2++) {
          float expv = expf(preatt_bth[t2] - maxval);
          expsum += expv;
          att_bth[t2] = expv;
        }
        float expsum_inv = expsum == 0.0f ? 0.0f : 1.0f / expsum;

        // pass 3: normalize, and zero the masked future
        for (int t2 = 0; t2 < T; t2++) {
          if (t2 <= t) {
            att_bth[t2] *= expsum_inv;
          } else {
            att_bth[t2] = 0.0f;
          }
        }

        // pass 4: the weighted sum of the values
        float *out_bth = out + b * T * C + t * C + h * hs;
        for (int i = 0; i < hs; i++) {
          out_bth[i] = 0.0f;
        }
        for (int t2 = 0; t2 < T; t2++) {
          if (t2 > t)
            continue;
          const float *value_t2 = inp + b * T * C3 + t2 * C3 + h * hs + C * 2;
          float att_btht2 = att_bth[t2];
          for (int i = 0; i < hs; i++) {
            out_bth[i] += att_btht2 * value_t2[i];
          }
        }
      }
    }
  }
}

void attention_backward(float *dinp, float *dpreatt, float *datt,
                        const float *dout, const float *inp, const float *att,
                        int B, int T, int C, int NH) {
  int C3 = C * 3;
  int hs = C / NH;
  float scale = 1.0f / sqrtf(hs);

  for (int b = 0; b < B; b++) {
    for (int t = 0; t < T; t++) {
      for (int h = 0; h < NH; h++) {
        const float *att_bth = att + b * NH * T * T + h * T * T + t * T;
        float *datt_bth = datt + b * NH * T * T + h * T * T + t * T;
        float *dpreatt_bth = dpreatt + b * NH * T * T + h * T * T + t * T;
        float *dquery_t = dinp + b * T * C3 + t * C3 + h * hs;
        const float *query_t = inp + b * T * C3 + t * C3 + h * hs;
        const float *dout_bth = dout + b * T * C + t * C + h * hs;

        // through the weighted sum of the values
        for (int t2 = 0; t2 <= t; t2++) {
          const float *value_t2 = inp + b * T * C3 + t2 * C3 + h * hs + C * 2;
          float *dvalue_t2 = dinp + b * T * C3 + t2 * C3 + h * hs + C * 2;
          for (int i = 0; i < hs; i++) {
            datt_bth[t2] += value_t2[i] * dout_bth[i];
            dvalue_t2[i] += att_bth[t2] * dout_bth[i];
          }
        }

        // through the softmax
        for (int t2 = 0; t2 <= t; t2++) {
          for (int t3 = 0; t3 <= t; t3++) {
            float indicator = t2 == t3 ? 1.0f : 0.0f;
            float local_derivative = att_bth[t2] * (indicator - att_bth[t3]);
            dpreatt_bth[t3] += local_derivative * datt_bth[t2];
          }
        }

        // through query . key
        for (int t2 = 0; t2 <= t; t2++) {
          const float *key_t2 = inp + b * T * C3 + t2 * C3 + h * hs + C;
          float *dkey_t2 = dinp + b * T * C3 + t2 * C3 + h * hs + C;
          for (int i = 0; i < hs; i++) {
            dquery_t[i] += key_t2[i] * dpreatt_bth[t2] * scale;
            dkey_t2[i] += query_t[i] * dpreatt_bth[t2] * scale;
          }
        }
      }
    }
  }
}
