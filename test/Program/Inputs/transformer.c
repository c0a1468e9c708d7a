// A llama-style decoder step written as plain C loops (test/Program/
// oracle.test): per layer rmsnorm, q/k/v projections (k and v written into
// the cache row of this position), single-head attention over positions
// 0..pos with a softmax, the output projection, a residual, rmsnorm, a
// SwiGLU feed-forward and a residual. Sizes are int arguments of forward.
#include <math.h>

void rmsnorm(float *o, const float *x, const float *w, int n) {
  float ss = 0.0f;
  for (int j = 0; j < n; j++)
    ss += x[j] * x[j];
  ss = 1.0f / sqrtf(ss / n + 1e-5f);
  for (int j = 0; j < n; j++)
    o[j] = w[j] * (ss * x[j]);
}

void matmul(float *xout, const float *x, const float *w, int n, int d) {
  for (int i = 0; i < d; i++) {
    float val = 0.0f;
    for (int j = 0; j < n; j++)
      val += w[i * n + j] * x[j];
    xout[i] = val;
  }
}

void softmax(float *x, int size) {
  float max_val = x[0];
  for (int i = 1; i < size; i++)
    max_val = fmaxf(max_val, x[i]);
  float sum = 0.0f;
  for (int i = 0; i < size; i++) {
    x[i] = expf(x[i] - max_val);
    sum += x[i];
  }
  for (int i = 0; i < size; i++)
    x[i] /= sum;
}

void attention(float *out, float *att, const float *q, const float *kc,
               const float *vc, int pos, int hs) {
  float scale = 1.0f / sqrtf(hs);
  for (int t = 0; t <= pos; t++) {
    float s = 0.0f;
    for (int i = 0; i < hs; i++)
      s += q[i] * kc[t * hs + i];
    att[t] = s * scale;
  }
  softmax(att, pos + 1);
  for (int i = 0; i < hs; i++)
    out[i] = 0.0f;
  for (int t = 0; t <= pos; t++) {
    float a = att[t];
    for (int i = 0; i < hs; i++)
      out[i] += a * vc[t * hs + i];
  }
}

void residual(float *x, const float *y, int n) {
  for (int i = 0; i < n; i++)
    x[i] += y[i];
}

void swiglu(float *h, const float *g, int n) {
  for (int i = 0; i < n; i++) {
    float v = h[i];
    v *= 1.0f / (1.0f + expf(-v));
    h[i] = v * g[i];
  }
}

void forward(float *x, float *xb, float *xb2, float *q, float *hb, float *hb2,
             float *att, float *kc, float *vc, const float *rms_att,
             const float *rms_ffn, const float *wq, const float *wk,
             const float *wv, const float *wo, const float *w1,
             const float *w2, const float *w3, int L, int dim, int hid,
             int seq, int pos) {
  for (int l = 0; l < L; l++) {
    float *k = kc + l * seq * dim + pos * dim;
    float *v = vc + l * seq * dim + pos * dim;
    rmsnorm(xb, x, rms_att + l * dim, dim);
    matmul(q, xb, wq + l * dim * dim, dim, dim);
    matmul(k, xb, wk + l * dim * dim, dim, dim);
    matmul(v, xb, wv + l * dim * dim, dim, dim);
    attention(xb, att, q, kc + l * seq * dim, vc + l * seq * dim, pos, dim);
    matmul(xb2, xb, wo + l * dim * dim, dim, dim);
    residual(x, xb2, dim);
    rmsnorm(xb, x, rms_ffn + l * dim, dim);
    matmul(hb, xb, w1 + l * dim * hid, dim, hid);
    matmul(hb2, xb, w3 + l * dim * hid, dim, hid);
    swiglu(hb, hb2, hid);
    matmul(xb, hb, w2 + l * hid * dim, hid, dim);
    residual(x, xb, dim);
  }
}
