// Pointers set again before a nest, and a config read through its address
// in a helper: the way a state-space (Mamba-style) layer is written.
#include <math.h>

typedef struct {
  int dim, inner, rank, state;
} Config;

typedef struct {
  float *xz, *xdb, *dt, *y, *h;
} State;

typedef struct {
  Config config;
  State state;
  float *w_in, *w_dt, *b_dt, *w_out;
} Model;

static float softplus(float x) { return logf(1.0f + expf(x)); }

void project(float *out, const float *x, const float *w, int d, int n) {
  for (int i = 0; i < d; i++) {
    float v = 0.0f;
    for (int j = 0; j < n; j++)
      v += w[i * n + j] * x[j];
    out[i] = v;
  }
}

void linear(float *out, const float *x, const float *w, const float *b, int d, int n) {
  for (int i = 0; i < d; i++) {
    float v = b[i];
    for (int j = 0; j < n; j++)
      v += w[i * n + j] * x[j];
    out[i] = v;
  }
}

// The output projection, written the other way round (j outer).
void mix(float *out, const float *x, const float *w, int d, int n) {
  for (int i = 0; i < d; i++)
    out[i] = 0.0f;
  for (int j = 0; j < n; j++)
    for (int i = 0; i < d; i++)
      out[i] += w[i * n + j] * x[j];
}

// dt is the rank-sized head of xdb, projected up, then points at the result.
void step_dt(State *s, const float *w, const float *b, int inner, int rank) {
  float *dt = s->xdb;
  linear(s->dt, dt, w, b, inner, rank);
  dt = s->dt;
  for (int i = 0; i < inner; i++)
    dt[i] = softplus(dt[i]);
}

// A helper setting dt again, called in a loop: rebound inside the call.
void steps(State *s, const float *w, const float *b, int inner, int rank, int T) {
  for (int t = 0; t < T; t++)
    step_dt(s, w, b, inner, rank);
}

// Set twice in straight-line code: the second is what the nest reads.
void gate(float *y, float *a, float *b, int n, int half) {
  float *z = a;
  z = b + half;
  for (int i = 0; i < n; i++)
    y[i] = y[i] * z[i];
}

// Set again under a condition: which array the nest reads is not known.
void pick(float *y, float *a, float *b, int n, int flip) {
  float *src = a;
  if (flip)
    src = b;
  for (int i = 0; i < n; i++)
    y[i] += src[i];
}

// Set again after the nest: the nest reads the first value.
void twice(float *y, float *a, float *b, int n) {
  float *src = a + n;
  for (int i = 0; i < n; i++)
    y[i] += src[i];
  src = b;
  for (int i = 0; i < n; i++)
    y[i] += src[i];
}

// The offset changes after the pointer is set: refused, not read at the
// offset's later value.
void shifted(float *y, float *a, int n, int k) {
  float *src = a;
  src = a + k;
  k = 0;
  for (int i = 0; i < n; i++)
    y[i] = src[i + k];
}

// A parameter set from itself: refused (its value before is the caller's).
void advance(float *y, float *x, int n, int off) {
  x = x + off;
  for (int i = 0; i < n; i++)
    y[i] = 2.0f * x[i];
}

// The layer reads its sizes through `&m->config`, which it never writes.
void layer(Model *m, int l, float *h) {
  Config *p = &m->config;
  State *s = &m->state;
  int dim = p->dim, inner = p->inner;
  project(s->xz, h, m->w_in + l * inner * dim, inner, dim);
  for (int i = 0; i < inner; i++)
    s->y[i] = s->xz[i] * s->xz[i];
  mix(h, s->y, m->w_out + l * dim * inner, dim, inner);
}

void forward(Model *m, int layers) {
  Config *p = &m->config;
  float *h = m->state.h;
  for (int l = 0; l < layers; l++) {
    layer(m, l, h);
    for (int i = 0; i < p->dim; i++)
      h[i] += 1.0f;
  }
}

// The caller reads s->y through its own pointer, the helper through
// m->state: one array under two spellings, refused.
void forward_y(Model *m, int layers) {
  State *s = &m->state;
  for (int l = 0; l < layers; l++) {
    layer(m, l, s->h);
    for (int i = 0; i < m->config.inner; i++)
      s->y[i] *= 0.5f;
  }
}

// The field the pointer was set from is set again before the nest: the
// pointer keeps the old array, which the field's name no longer is; refused.
void refield(State *s, float *other, int n) {
  float *src = s->y;
  src = s->xz;
  s->xz = other;
  for (int i = 0; i < n; i++)
    src[i] += s->xz[i];
}

static void reset_ptr(float **pp, float *to) { *pp = to; }

// The pointer's address is kept: a call may set it behind the last setting,
// so it is left to the counters, which refuse it.
void escaped(float *y, float *a, float *b, int n) {
  float *src = a;
  float **pp = &src;
  src = a + 1;
  reset_ptr(pp, b);
  for (int i = 0; i < n; i++)
    y[i] += src[i];
}
