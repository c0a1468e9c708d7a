// kann-style autodiff operators (test/NN/runtime.test): a node's length is
// computed at run time by a helper that walks its shape, once, before the
// loop: `n = kad_len(q);`. That local has one value for the whole nest and
// is counted as a size of its own, named by the variable.
#include <math.h>

typedef struct node_t {
  int n_d;
  int d[4];
  float *x, *g;
} node_t;

static inline int kad_len(const node_t *p) {
  int n = 1, i;
  for (i = 0; i < p->n_d; ++i)
    n *= p->d[i];
  return n;
}

// Assigned once, after the declaration (kann's style).
void op_square(node_t *p, node_t *q) {
  int i, n;
  n = kad_len(q);
  for (i = 0; i < n; ++i)
    p->x[i] = q->x[i] * q->x[i];
}

// Initialized from the shape and from a quotient of a run-time value.
void op_ce_backward(node_t *y1, const node_t *y0, float t) {
  int n1 = y0->d[y0->n_d - 1];
  int d0 = kad_len(y0) / n1;
  for (int j = 0; j < d0; ++j) {
    float *g = &y1->g[j * n1], *x1 = &y1->x[j * n1];
    const float *x0 = &y0->x[j * n1];
    for (int i = 0; i < n1; ++i)
      g[i] -= t * x0[i] / (x1[i] > 1e-9f ? x1[i] : 1e-9f);
  }
}

// Set again under a condition (a clamp): `kad_len(q) > 8` is a case of the
// nest, which the value given for n picks (test/NN/clamped.test).
void op_clamped(node_t *p, const node_t *q) {
  int n = kad_len(q);
  if (n > 8)
    n = 8;
  for (int i = 0; i < n; ++i)
    p->x[i] = expf(q->x[i]);
}

// A helper's local is computed once per call: counted on its own, but
// inside the caller's loop it changes from one iteration to the next.
static void scale_row(float *x, const int *lens, int r, float s) {
  int n = lens[r];
  for (int i = 0; i < n; ++i)
    x[r * 8 + i] *= s;
}
void scale_rows(float *x, const int *lens, int R, float s) {
  for (int r = 0; r < R; ++r)
    scale_row(x, lens, r, s);
}
