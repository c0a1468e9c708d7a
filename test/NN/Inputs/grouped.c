// Grouped kernels of a small quantized Llama-style decoder, in the style of
// single-file C inference code: int8 weights with one float scale per group
// of GS values (GS a global set at load time), a matmul that walks each row
// a group at a time (j += GS), grouped-query attention where kv_mul query
// heads share one key head (h / kv_mul), and RoPE that rotates the query
// everywhere but the key only in its first kv_dim entries (a per-iteration
// bound and a pointer chosen by the loop variable). Part of the test/NN
// corpus (see docs/testing-nn-corpus.md).
#include <math.h>
#include <stdint.h>

int GS = 0; // quantization group size, set by the loader

typedef struct {
  int dim;
  int n_heads;
  int n_kv_heads;
  int seq_len;
} Config;

typedef struct {
  int8_t *q; // quantized values
  float *s;  // one scale per group
} QTensor;

// x = q * s, group by group.
void dequantize(QTensor *qx, float *x, int n) {
  for (int i = 0; i < n; i++) {
    x[i] = qx->q[i] * qx->s[i / GS];
  }
}

// W (d,n) @ x (n,) -> xout (d,), both quantized in groups of GS.
void matmul_q(float *xout, QTensor *x, QTensor *w, int n, int d) {
  int i;
  for (i = 0; i < d; i++) {
    float val = 0.0f;
    int32_t ival = 0;
    int in = i * n;
    int j;
    for (j = 0; j <= n - GS; j += GS) {
      for (int k = 0; k < GS; k++) {
        ival += ((int32_t)x->q[j + k]) * ((int32_t)w->q[in + j + k]);
      }
      val += ((float)ival) * w->s[(in + j) / GS] * x->s[j / GS];
      ival = 0;
    }
    xout[i] = val;
  }
}

// Scores of each query head against the cached keys of its group.
void attention_gqa(float *att, const float *q, const float *key_cache,
                   const Config *p, int pos) {
  int head_size = p->dim / p->n_heads;
  int kv_dim = (p->dim * p->n_kv_heads) / p->n_heads;
  int kv_mul = p->n_heads / p->n_kv_heads;
  for (int h = 0; h < p->n_heads; h++) {
    const float *qh = q + h * head_size;
    float *atth = att + h * p->seq_len;
    for (int t = 0; t <= pos; t++) {
      const float *k = key_cache + t * kv_dim + (h / kv_mul) * head_size;
      float score = 0.0f;
      for (int i = 0; i < head_size; i++) {
        score += qh[i] * k[i];
      }
      atth[t] = score / sqrtf(head_size);
    }
  }
}

// Rotary embedding: q has dim entries, k only kv_dim.
void rope_gqa(float *q, float *k, const Config *p, int pos) {
  int head_size = p->dim / p->n_heads;
  int kv_dim = (p->dim * p->n_kv_heads) / p->n_heads;
  for (int i = 0; i < p->dim; i += 2) {
    int head_dim = i % head_size;
    float freq = 1.0f / powf(10000.0f, head_dim / (float)head_size);
    float val = pos * freq;
    float fcr = cosf(val);
    float fci = sinf(val);
    int rotn = i < kv_dim ? 2 : 1; // 2: q and k, 1: q only
    for (int v = 0; v < rotn; v++) {
      float *vec = v == 0 ? q : k;
      float v0 = vec[i];
      float v1 = vec[i + 1];
      vec[i] = v0 * fcr - v1 * fci;
      vec[i + 1] = v0 * fci + v1 * fcr;
    }
  }
}
