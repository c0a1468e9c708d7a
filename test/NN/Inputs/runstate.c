// Pieces of a llama2.c-style forward pass written the way that file writes
// them: the activations are float* fields of a RunState, the key and value
// rows of the current position are field pointers set once before the loops
// (s->k = s->key_cache + loff + pos * kv_dim), and buffers are cleared with
// memset and filled with memcpy inside and before the nests. Part of the
// test/NN corpus (docs/testing-nn-corpus.md); the refusals at the end are
// the unsafe variants, which must never be counted.
#include <math.h>
#include <string.h>

typedef struct {
  int dim;      // transformer dimension
  int n_heads;  // attention heads
  int seq_len;  // maximum sequence length
  int n_layers; // layers of the kv cache
} Config;

typedef struct {
  float *x;           // activation at the current time stamp (dim,)
  float *xb;          // same, inside a residual branch (dim,)
  float *q;           // query (dim,)
  float *k;           // key: a row of key_cache, set by forward
  float *v;           // value: a row of value_cache, set by forward
  float *att;         // scores (n_heads, seq_len)
  float *key_cache;   // (layer, seq_len, dim)
  float *value_cache; // (layer, seq_len, dim)
} RunState;

// The new key and value rows of this position, written through the field
// pointers; RoPE on q and k.
void kv_store(RunState *s, Config *p, const float *wk, int layer, int pos) {
  int dim = p->dim;
  int loff = layer * p->seq_len * dim; // kv cache layer offset
  s->k = s->key_cache + loff + pos * dim;
  s->v = s->value_cache + loff + pos * dim;
  for (int i = 0; i < dim; i++) {
    float val = 0.0f;
    for (int j = 0; j < dim; j++) {
      val += wk[i * dim + j] * s->x[j];
    }
    s->k[i] = val;
    s->v[i] = s->x[i] * 0.5f;
  }
  for (int i = 0; i < dim; i += 2) {
    float freq = 1.0f / powf(10000.0f, i / (float)dim);
    float val = pos * freq;
    float fcr = cosf(val);
    float fci = sinf(val);
    for (int v = 0; v < 2; v++) {
      float *vec = v == 0 ? s->q : s->k; // the vector to rotate
      float v0 = vec[i];
      float v1 = vec[i + 1];
      vec[i] = v0 * fcr - v1 * fci;
      vec[i + 1] = v0 * fci + v1 * fcr;
    }
  }
}

// Weighted sum of the values per head, the output row cleared with memset
// before the loop over positions (run.c's attention).
void attend(RunState *s, Config *p, int layer, int pos) {
  int head_size = p->dim / p->n_heads;
  int loff = layer * p->seq_len * p->dim;
  for (int h = 0; h < p->n_heads; h++) {
    float *att = s->att + h * p->seq_len;
    float *xb = s->xb + h * head_size;
    memset(xb, 0, head_size * sizeof(float));
    for (int t = 0; t <= pos; t++) {
      float *v = s->value_cache + loff + t * p->dim + h * head_size;
      float a = att[t];
      for (int i = 0; i < head_size; i++) {
        xb[i] += a * v[i];
      }
    }
  }
}

// memcpy inside a nest: the residual stream copied per layer, then scaled.
void residual_copy(RunState *s, Config *p, const float *w) {
  for (int l = 0; l < p->n_layers; l++) {
    memcpy(s->xb, s->x, p->dim * sizeof(*s->xb));
    for (int i = 0; i < p->dim; i++) {
      s->xb[i] *= w[l * p->dim + i];
    }
  }
}

// memset of a whole score row, then the causal scores; the field pointer
// read by a helper the nest calls.
static void dot(float *out, const float *a, const float *b, int n) {
  float r = 0.0f;
  for (int i = 0; i < n; i++) {
    r += a[i] * b[i];
  }
  *out = r;
}

void scores(RunState *s, Config *p, int pos) {
  s->k = s->key_cache + pos * p->dim;
  for (int h = 0; h < p->n_heads; h++) {
    memset(s->att + h * p->seq_len, 0, p->seq_len * sizeof(float));
    dot(s->att + h * p->seq_len + pos, s->q, s->k, p->dim);
  }
}

// --- Refused: the field's value at the nest is not one known pointer ---

void twice(RunState *s, Config *p, int pos) {
  s->k = s->key_cache;
  s->k = s->key_cache + pos * p->dim;
  for (int i = 0; i < p->dim; i++) {
    s->k[i] = 0.0f;
  }
}

void conditional(RunState *s, Config *p, int pos) {
  if (pos > 0) {
    s->k = s->key_cache + pos * p->dim;
  }
  for (int i = 0; i < p->dim; i++) {
    s->k[i] = 1.0f;
  }
}

// Assigned first in the body of the nest's loop: bound per iteration, like a
// declaration there (counted: LowerBodyAssignments.cpp).
void in_nest(RunState *s, Config *p) {
  for (int l = 0; l < p->n_layers; l++) {
    s->k = s->key_cache + l * p->seq_len * p->dim;
    for (int i = 0; i < p->dim; i++) {
      s->k[i] = 2.0f;
    }
  }
}

void reset_state(RunState *s);

void escapes(RunState *s, Config *p, int pos) {
  s->k = s->key_cache + pos * p->dim;
  reset_state(s);
  for (int i = 0; i < p->dim; i++) {
    s->k[i] = 3.0f;
  }
}

void odd_size(RunState *s, Config *p) {
  for (int h = 0; h < p->n_heads; h++) {
    memset(s->att + h * p->seq_len, 0, p->seq_len * 2 + 1);
  }
}
