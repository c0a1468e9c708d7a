// Pointers assigned first in a loop body, as llm.c's and llama2.c's layer
// loops write them: `float *residual;` declared before the layer loop and
// assigned first in its body (`residual = l == 0 ? encoded : residual3 +
// (l-1)*N`), a row pointer assigned at the top of a row loop, a field
// pointer into the kv cache (`s->k = s->key_cache + loff + pos*dim`) written
// through and then read back through the cache itself (s->k aliases
// key_cache: one array, never two), and a struct whose address goes to a
// helper that writes only through its pointer fields (runq.c's
// `quantize(&s->xq, ...)`). Part of the test/NN corpus
// (docs/testing-nn-corpus.md); the refusals at the end are the unsafe
// variants (docs/design.md, "Pointers assigned in a loop body").

typedef struct {
  float *q; // quantized values
  float *s; // one scale per group
} QTensor;

typedef struct {
  float *x;           // activation (dim,)
  float *k;           // key: a row of key_cache, set per layer
  float *att;         // scores (n_layers, pos + 1)
  float *key_cache;   // (n_layers, seq_len, dim)
  QTensor xq;         // x, scaled
} State;

typedef struct {
  int dim;
  int seq_len;
  int n_layers;
} Config;

static void add(float *out, const float *a, const float *b, int n) {
  for (int i = 0; i < n; i++) {
    out[i] = a[i] + b[i];
  }
}

// llm.c's gpt2_forward layer loop: the residual stream of layer l is the
// encoder's output for the first layer, the previous layer's output after.
void layers(float *encoded, float *residual3, const float *w, int L, int N) {
  float *residual;
  for (int l = 0; l < L; l++) {
    residual = l == 0 ? encoded : residual3 + (l - 1) * N;
    float *out = residual3 + l * N;
    add(out, residual, w + l * N, N);
  }
}

// llm.c's gpt2_backward layer loop: downward, two pointers chosen on the
// same condition (one split of the loop, both take its part).
void back_layers(float *encoded, float *dencoded, float *residual3,
                 float *dresidual3, const float *w, int L, int N) {
  float *residual;
  float *dresidual;
  for (int l = L - 1; l >= 0; l--) {
    residual = l == 0 ? encoded : residual3 + (l - 1) * N;
    dresidual = l == 0 ? dencoded : dresidual3 + (l - 1) * N;
    for (int i = 0; i < N; i++) {
      dresidual[i] += residual[i] * w[l * N + i];
    }
  }
}

// A row pointer assigned at the top of the row loop.
void rows(float *out, const float *A, const float *x, int M, int N) {
  const float *r;
  for (int i = 0; i < M; i++) {
    r = A + i * N;
    float acc = 0.0f;
    for (int j = 0; j < N; j++) {
      acc += r[j] * x[j];
    }
    out[i] = acc;
  }
}

// llama2.c's forward: the key row of each layer is written through s->k,
// then the scores read every cached row of the layer from key_cache.
void kv_layers(State *s, Config *p, const float *wk, int pos) {
  int dim = p->dim;
  for (int l = 0; l < p->n_layers; l++) {
    int loff = l * p->seq_len * dim;
    s->k = s->key_cache + loff + pos * dim;
    for (int i = 0; i < dim; i++) {
      s->k[i] = wk[l * dim + i] * s->x[i];
    }
    for (int t = 0; t <= pos; t++) {
      float *k = s->key_cache + loff + t * dim;
      float score = 0.0f;
      for (int i = 0; i < dim; i++) {
        score += s->x[i] * k[i];
      }
      s->att[l * (pos + 1) + t] = score;
    }
  }
}

// runq.c's quantize: it writes through qx->q and qx->s, never the fields.
static void scale(QTensor *qx, const float *x, int n) {
  qx->s[0] = 0.5f;
  for (int i = 0; i < n; i++) {
    qx->q[i] = x[i] * 0.5f;
  }
}

void scaled_layers(State *s, Config *p, float *out) {
  int dim = p->dim;
  for (int l = 0; l < p->n_layers; l++) {
    scale(&s->xq, s->x, dim);
    for (int i = 0; i < dim; i++) {
      out[l * dim + i] = s->xq.q[i] * s->xq.s[0];
    }
  }
}

// --- Refused: the pointer's value at a use is not the one assigned ---

// Used before the assignment in the body: the first use sees the previous
// iteration's row (or the value from before the loop).
void use_before(float *out, const float *A, int M, int N) {
  const float *r = A;
  for (int i = 0; i < M; i++) {
    out[i] = r[0];
    r = A + i * N;
    for (int j = 0; j < N; j++) {
      out[i] += r[j];
    }
  }
}

// Assigned twice in the nest.
void twice(float *out, const float *A, int M, int N) {
  const float *r;
  for (int i = 0; i < M; i++) {
    r = A + i * N;
    for (int j = 0; j < N; j++) {
      out[i] += r[j];
    }
    r = A;
    out[i] += r[0];
  }
}

// Assigned under a condition: the other iterations keep the old row.
void conditional(float *out, const float *A, int M, int N) {
  const float *r = A;
  for (int i = 0; i < M; i++) {
    if (i > 1) {
      r = A + i * N;
    }
    for (int j = 0; j < N; j++) {
      out[i] += r[j];
    }
  }
}

// Two choices on different conditions: two splits of one loop.
void two_conditions(float *a, float *b, float *rows, int L, int N) {
  float *x;
  float *y;
  for (int l = 0; l < L; l++) {
    x = l == 0 ? a : rows + l * N;
    y = l == L - 1 ? b : rows + l * N;
    for (int i = 0; i < N; i++) {
      y[i] += x[i];
    }
  }
}

void reset_state(State *s);

// The struct goes to a call after the assignment: s->k may change.
void field_escapes(State *s, Config *p, int pos) {
  for (int l = 0; l < p->n_layers; l++) {
    s->k = s->key_cache + l * p->seq_len * p->dim + pos * p->dim;
    reset_state(s);
    for (int i = 0; i < p->dim; i++) {
      s->k[i] = 1.0f;
    }
  }
}

// The field points at a row chosen by the data: an array the tool cannot
// name, which may be any row of key_cache read in the same nest.
void field_gather(State *s, Config *p, const int *slot) {
  for (int l = 0; l < p->n_layers; l++) {
    s->k = s->key_cache + slot[l] * p->dim;
    for (int i = 0; i < p->dim; i++) {
      s->k[i] = s->key_cache[l * p->dim + i];
    }
  }
}

// Another path to the same field: t may be s.
void field_other_path(State *s, State *t, Config *p) {
  for (int l = 0; l < p->n_layers; l++) {
    s->k = s->key_cache + l * p->dim;
    for (int i = 0; i < p->dim; i++) {
      t->k[i] = 2.0f;
    }
  }
}

// A helper that reseats a field: &s->xq assigns s->xq.
static void reseat(QTensor *qx, float *to) { qx->q = to; }

void reseated(State *s, Config *p, float *buf, float *out) {
  reseat(&s->xq, buf);
  for (int i = 0; i < p->dim; i++) {
    out[i] = s->xq.q[i];
  }
}
