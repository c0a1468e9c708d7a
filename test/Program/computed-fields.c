// Struct fields the program computes from other fields (docs/network-
// report.md, "Struct fields the program computes"): llama2.c's
// `kv_dim = dim * n_kv_heads / n_heads`, `hidden_dim = 4 * dim` and
// `head_size = dim / n_heads` in a function main calls, each evaluated once
// the fields it reads have values, and named in a note with those values.
// The pass at dim=8, n_heads=4, n_kv_heads=2 (kv_dim=4, hidden_dim=32,
// head_size=2), 2 layers, is checked number by number against an
// instrumented run in computed-fields.test; here every form of setting the
// config must give that same pass (3,264 FLOPs), and each unsafe form none.
//
// RUN: roofline-lint --no-source --quiet --entry=forward %s -- -DFORM=1 | FileCheck %s --check-prefixes=PASS,CALLS
// RUN: roofline-lint --no-source --quiet --entry=forward %s -- -DFORM=2 | FileCheck %s --check-prefixes=PASS,MAIN
// The operands from --param (the file sets no dim): the formula uses them.
// RUN: roofline-lint --no-source --quiet --entry=forward --param dim=8 %s -- -DFORM=3 | FileCheck %s --check-prefixes=PASS,PARAM
// --param names a computed field: it wins over the formula.
// RUN: roofline-lint --no-source --quiet --entry=forward --param hidden_dim=16 %s -- -DFORM=2 | FileCheck %s --check-prefix=OVER
//
// What is refused: a formula run before a field it reads is set, one under
// a condition or in a loop, a field computed twice or also written with a
// literal, a formula reading a field that has no value.
// RUN: roofline-lint --no-source --quiet --entry=forward %s -- -DFORM=4 | FileCheck %s --check-prefix=EARLY
// RUN: roofline-lint --no-source --quiet --entry=forward %s -- -DFORM=5 | FileCheck %s --check-prefix=COND
// RUN: roofline-lint --no-source --quiet --entry=forward %s -- -DFORM=6 | FileCheck %s --check-prefix=LOOP
// RUN: roofline-lint --no-source --quiet --entry=forward %s -- -DFORM=7 | FileCheck %s --check-prefix=TWICE
// RUN: roofline-lint --no-source --quiet --entry=forward %s -- -DFORM=8 | FileCheck %s --check-prefix=LITERAL
// RUN: roofline-lint --no-source --quiet --entry=forward %s -- -DFORM=3 | FileCheck %s --check-prefix=NODIM

#include <math.h>

typedef struct {
  int dim, n_layers, n_heads, n_kv_heads;
  int kv_dim, hidden_dim, head_size;
} Config;

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

void scale(float *v, int n) {
  for (int i = 0; i < n; i++)
    v[i] = v[i] * 0.5f;
}

void residual(float *x, const float *y, int n) {
  for (int i = 0; i < n; i++)
    x[i] += y[i];
}

void forward(const Config *p, float *x, float *xb, float *q, float *k,
             float *hb, const float *w) {
  int dim = p->dim, kv_dim = p->kv_dim, hidden = p->hidden_dim;
  int hs = p->head_size;
  int per_layer = dim + dim * dim + dim * kv_dim + 2 * dim * hidden;
  for (int l = 0; l < p->n_layers; l++) {
    const float *wl = w + l * per_layer;
    rmsnorm(xb, x, wl, dim);
    matmul(q, xb, wl + dim, dim, dim);
    matmul(k, xb, wl + dim + dim * dim, dim, kv_dim);
    for (int h = 0; h < p->n_heads; h++)
      scale(q + h * hs, hs);
    matmul(hb, xb, wl + dim + dim * dim + dim * kv_dim, dim, hidden);
    matmul(xb, hb, wl + dim + dim * dim + dim * kv_dim + dim * hidden, hidden,
           dim);
    residual(x, xb, dim);
  }
}

#if FORM == 1 || FORM == 2 || FORM == 3 || FORM == 4
void init(Config *p) { p->head_size = p->dim / p->n_heads; }
#endif

#if FORM == 1
// The sizes in one function, the formulas in another: main calls the one
// that sets them first (computed-fields.oracle.cpp calls configure too).
void set_sizes(Config *c) {
  c->dim = 8;
  c->n_layers = 2;
  c->n_heads = 4;
  c->n_kv_heads = 2;
}

void configure(Config *c) {
  set_sizes(c);
  c->kv_dim = c->dim * c->n_kv_heads / c->n_heads;
  c->hidden_dim = 4 * c->dim;
  init(c);
}
#endif

static float X[8], XB[8], Q[8], K[4], HB[32], W[2 * 616];

int main(int argc, char **argv) {
  Config c;
#if FORM == 1
  configure(&c);
#elif FORM == 2
  c.dim = 8;
  c.n_layers = 2;
  c.n_heads = 4;
  c.n_kv_heads = 2;
  c.kv_dim = c.dim * c.n_kv_heads / c.n_heads;
  c.hidden_dim = 4 * c.dim;
  init(&c);
#elif FORM == 3
  c.n_layers = 2;
  c.n_heads = 4;
  c.n_kv_heads = 2;
  c.kv_dim = c.dim * c.n_kv_heads / c.n_heads;
  c.hidden_dim = 4 * c.dim;
  init(&c);
#elif FORM == 4
  c.n_layers = 2;
  c.n_heads = 4;
  c.n_kv_heads = 2;
  c.hidden_dim = 4 * c.dim;
  c.dim = 8;
  c.kv_dim = c.dim * c.n_kv_heads / c.n_heads;
  init(&c);
#else
  c.dim = 8;
  c.n_layers = 2;
  c.n_heads = 4;
  c.n_kv_heads = 2;
  c.kv_dim = 4;
  c.head_size = 2;
#if FORM == 5
  if (argc > 1)
    c.hidden_dim = 4 * c.dim;
#elif FORM == 6
  for (int i = 0; i < 1; i++)
    c.hidden_dim = 4 * c.dim;
#elif FORM == 7
  c.hidden_dim = 4 * c.dim;
  c.hidden_dim = 3 * c.dim;
#elif FORM == 8
  c.hidden_dim = 32;
  c.hidden_dim = 4 * c.dim;
#endif
#endif
  forward(&c, X, XB, Q, K, HB, W);
  return 0;
}

// PASS: remark: pass 'forward' on rtx-a6000: time floor {{.*}}, 2.53 kFLOP,
// CALLS: note: sizes from struct fields the file sets from literals: Config.dim=8 (line 90), Config.n_heads=4 (line 92), Config.n_kv_heads=2 (line 93), Config.n_layers=2 (line 91)
// CALLS-NEXT: note: sizes from struct fields the program computes: Config.head_size=2 (line 83: p->dim / p->n_heads with dim=8, n_heads=4); Config.hidden_dim=32 (line 99: 4 * c->dim with dim=8); Config.kv_dim=4 (line 98: c->dim * c->n_kv_heads / c->n_heads with dim=8, n_kv_heads=2, n_heads=4)
// MAIN: note: sizes from struct fields the program computes: Config.head_size=2 (line 83: p->dim / p->n_heads with dim=8, n_heads=4); Config.hidden_dim=32 (line 116: 4 * c.dim with dim=8); Config.kv_dim=4 (line 115: c.dim * c.n_kv_heads / c.n_heads with dim=8, n_kv_heads=2, n_heads=4)
// PARAM: note: sizes from struct fields the program computes: Config.head_size=2 (line 83: p->dim / p->n_heads with dim=8, n_heads=4); Config.hidden_dim=32 (line 123: 4 * c.dim with dim=8); Config.kv_dim=4 (line 122: c.dim * c.n_kv_heads / c.n_heads with dim=8, n_kv_heads=2, n_heads=4)
// PASS: share time runs FLOPs bytes FLOP/B verdict nest
// PASS-NOT: left out

// OVER: note: sizes from struct fields the program computes: Config.head_size=2 {{.*}}; Config.kv_dim=4
// OVER-NOT: hidden_dim=32

// EARLY: note: struct fields with no value from the file: Config.hidden_dim: computed from 'dim' (line 129), which the program sets at line 130, not before it as far as the calls show
// EARLY: left out (not in the totals):
// EARLY: no count: size 'd' has no value

// COND: note: struct fields with no value from the file: Config.hidden_dim: computed under a condition (line 142)
// COND: left out (not in the totals):
// LOOP: note: struct fields with no value from the file: Config.hidden_dim: computed in a loop (line 145)
// TWICE: note: struct fields with no value from the file: Config.hidden_dim: computed twice (lines 147 and 148)
// LITERAL: note: struct fields with no value from the file: Config.hidden_dim: written with 32 (line 150) and computed (line 151)

// Without --param dim the formulas read a field with no value: none.
// NODIM-NOT: sizes from struct fields the program computes
// NODIM: note: struct fields the program computes from a field with no value: Config.head_size (line 83: p->dim / p->n_heads); Config.hidden_dim (line 123: 4 * c.dim); Config.kv_dim (line 122: c.dim * c.n_kv_heads / c.n_heads)
// NODIM: left out (not in the totals):
