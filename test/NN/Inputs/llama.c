// One decoding step of a small Llama-style transformer, in the style of
// single-file C inference code: the sizes live in a Config struct (p->dim,
// p->n_heads, ...), RMSNorm and softmax are helpers with one loop per pass,
// the attention of each head calls softmax() over the positions so far, and
// the feed-forward uses SwiGLU. Part of the test/NN corpus (see
// docs/testing-nn-corpus.md).
#include <math.h>

typedef struct {
  int dim;        // transformer dimension
  int hidden_dim; // feed-forward hidden dimension
  int n_heads;    // attention heads
  int seq_len;    // maximum sequence length
} Config;

void rmsnorm(float *o, const float *x, const float *weight, int size) {
  // sum of squares
  float ss = 0.0f;
  for (int j = 0; j < size; j++) {
    ss += x[j] * x[j];
  }
  ss /= size;
  ss += 1e-5f;
  ss = 1.0f / sqrtf(ss);
  // normalize and scale
  for (int j = 0; j < size; j++) {
    o[j] = weight[j] * (ss * x[j]);
  }
}

void softmax(float *x, int size) {
  float max_val = x[0];
  for (int i = 1; i < size; i++) {
    if (x[i] > max_val) {
      max_val = x[i];
    }
  }
  float sum = 0.0f;
  for (int i = 0; i < size; i++) {
    x[i] = expf(x[i] - max_val);
    sum += x[i];
  }
  for (int i = 0; i < size; i++) {
    x[i] /= sum;
  }
}

// W (d,n) @ x (n,) -> xout (d,)
void matmul(float *xout, const float *x, const float *w, int n, int d) {
  int i;
#pragma omp parallel for private(i)
  for (i = 0; i < d; i++) {
    float val = 0.0f;
    for (int j = 0; j < n; j++) {
      val += w[i * n + j] * x[j];
    }
    xout[i] = val;
  }
}

// Rotary position embedding of the query and the key at position pos.
void rope(float *q, float *k, const Config *p, int pos) {
  int head_size = p->dim / p->n_heads;
  for (int h = 0; h < p->n_heads; h++) {
    for (int i = 0; i < head_size; i += 2) {
      float freq = 1.0f / powf(10000.0f, i / (float)head_size);
      float val = pos * freq;
      float fcr = cosf(val);
      float fci = sinf(val);
      float *qh = q + h * head_size;
      float *kh = k + h * head_size;
      float q0 = qh[i], q1 = qh[i + 1];
      qh[i] = q0 * fcr - q1 * fci;
      qh[i + 1] = q0 * fci + q1 * fcr;
      float k0 = kh[i], k1 = kh[i + 1];
      kh[i] = k0 * fcr - k1 * fci;
      kh[i + 1] = k0 * fci + k1 * fcr;
    }
  }
}

// Multi-head attention of the token at position pos over the cached keys
// and values of positions 0..pos of one layer (rows of p->dim).
void attention(float *xb, float *att, const float *q, const float *key_cache,
               const float *value_cache, const Config *p, int pos) {
  int head_size = p->dim / p->n_heads;
#pragma omp parallel for
  for (int h = 0; h < p->n_heads; h++) {
    const float *qh = q + h * head_size;
    float *atth = att + h * p->seq_len;
    for (int t = 0; t <= pos; t++) {
      const float *k = key_cache + t * p->dim + h * head_size;
      float score = 0.0f;
      for (int i = 0; i < head_size; i++) {
        score += qh[i] * k[i];
      }
      score /= sqrtf(head_size);
      atth[t] = score;
    }
    softmax(atth, pos + 1);
    float *xbh = xb + h * head_size;
    for (int i = 0; i < head_size; i++) {
      xbh[i] = 0.0f;
    }
    for (int t = 0; t <= pos; t++) {
      const float *v = value_cache + t * p->dim + h * head_size;
      float a = atth[t];
      for (int i = 0; i < head_size; i++) {
        xbh[i] += a * v[i];
      }
    }
  }
}

// SwiGLU: hb = silu(hb) * hb2 over the hidden dimension.
void swiglu(float *hb, const float *hb2, const Config *p) {
  for (int i = 0; i < p->hidden_dim; i++) {
    float val = hb[i];
    val *= (1.0f / (1.0f + expf(-val)));
    val *= hb2[i];
    hb[i] = val;
  }
}
