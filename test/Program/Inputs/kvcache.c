// llama2.c's attention over a KV cache of every layer (test/Program/
// kvcache.test): the key/value rows of layer l start at
// loff = l * seq_len * kv_dim, a multiple of the row length kv_dim, so it
// belongs to the row subscript (lib/IR/Delinearize.cpp). Query heads share kv
// heads (kv_mul); the walk values attention's l and h at each call.
#include <math.h>
typedef struct {
  int dim, n_heads, n_kv_heads, seq_len, n_layers;
} Config;
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
// One head of one layer at position pos: scores against the cached keys of
// positions 0..pos, softmax, weighted sum of the cached values. The kv head
// of query head h is h / kv_mul (grouped-query attention).
void attention(const Config *p, const float *q, float *att, float *xb,
               const float *key_cache, const float *value_cache, int l, int h,
               int pos) {
  int kv_dim = (p->dim * p->n_kv_heads) / p->n_heads;
  int kv_mul = p->n_heads / p->n_kv_heads;
  int head_size = p->dim / p->n_heads;
  int loff = l * p->seq_len * kv_dim;
  const float *qh = q + h * head_size;
  float *atth = att + h * p->seq_len;
  for (int t = 0; t <= pos; t++) {
    const float *k = key_cache + loff + t * kv_dim + (h / kv_mul) * head_size;
    float score = 0.0f;
    for (int i = 0; i < head_size; i++)
      score += qh[i] * k[i];
    atth[t] = score;
  }
  softmax(atth, pos + 1);
  float *xbh = xb + h * head_size;
  for (int t = 0; t <= pos; t++) {
    const float *v = value_cache + loff + t * kv_dim + (h / kv_mul) * head_size;
    float a = atth[t];
    for (int i = 0; i < head_size; i++)
      xbh[i] += a * v[i];
  }
}
// The same with the layer offset a multiple of head_size, not of the row
// length kv_dim (when n_kv_heads > 1): its rows overlap, so key_cache is
// one dimension at the sizes given.
void attention_skewed(const Config *p, const float *q, float *att,
                      const float *key_cache, int l, int h, int pos) {
  int kv_dim = (p->dim * p->n_kv_heads) / p->n_heads;
  int head_size = p->dim / p->n_heads;
  int loff = l * p->seq_len * head_size;
  float *atth = att + h * p->seq_len;
  for (int t = 0; t <= pos; t++) {
    const float *k = key_cache + loff + t * kv_dim;
    float score = 0.0f;
    for (int i = 0; i < head_size; i++)
      score += q[i] * k[i];
    atth[t] = score;
  }
}
void forward(Config *p, float *q, float *att, float *xb, float *key_cache,
             float *value_cache, int pos) {
  for (int l = 0; l < p->n_layers; l++)
    for (int h = 0; h < p->n_heads; h++)
      attention(p, q, att, xb, key_cache, value_cache, l, h, pos);
}
void forward_skewed(Config *p, float *q, float *att, float *key_cache,
                    int pos) {
  for (int l = 0; l < p->n_layers; l++)
    for (int h = 0; h < p->n_heads; h++)
      attention_skewed(p, q, att, key_cache, l, h, pos);
}
// llama2.c's RoPE: the layer loop assigns s->k (this layer's cache row at
// pos) and rotates q and k through it; the walk steps the loop (it calls
// softmax), so each iteration's assignment is the field's value at the nest.
typedef struct {
  float *q, *k, *key_cache;
} RunState;
void forward_rope(const Config *p, RunState *s, int pos) {
  int kv_dim = (p->dim * p->n_kv_heads) / p->n_heads;
  for (int l = 0; l < p->n_layers; l++) {
    int loff = l * p->seq_len * kv_dim;
    s->k = s->key_cache + loff + pos * kv_dim;
    for (int i = 0; i < p->dim; i += 2) {
      int rotn = i < kv_dim ? 2 : 1;
      for (int v = 0; v < rotn; v++) {
        float *vec = v == 0 ? s->q : s->k;
        float v0 = vec[i];
        float v1 = vec[i + 1];
        vec[i] = v0 * 0.5f - v1 * 0.25f;
        vec[i + 1] = v0 * 0.25f + v1 * 0.5f;
      }
    }
    softmax(s->q, p->dim);
  }
}
