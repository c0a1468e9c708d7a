// --param by field name: `dim` sets every struct's field of that name, and
// the report says so where two structs have one; a path sets one of them.
// By hand: scale runs n_layers = 2 times at c->dim and once at o->dim, one
// FLOP and 8 bytes per element: 24 FLOPs with dim=8; 8+8+4 = 20 with paths.
//
// RUN: roofline-lint --no-source --quiet --entry=forward --param dim=8 --param n_layers=2 %s -- | FileCheck %s --check-prefix=NAME
// RUN: roofline-lint --no-source --quiet --entry=forward --param 'c->dim=8' --param 'o->dim=4' --param n_layers=2 %s -- | FileCheck %s --check-prefix=PATH

typedef struct { int dim; int n_layers; } Config;
typedef struct { int dim; } Other;

void scale(float *x, int n) {
  for (int i = 0; i < n; i++)
    x[i] *= 2.0f;
}

void forward(const Config *c, const Other *o, float *x) {
  for (int l = 0; l < c->n_layers; l++)
    scale(x, c->dim);
  scale(x, o->dim);
}

// NAME: remark: pass 'forward' on rtx-a6000: time floor {{.*}}, 24 FLOP, 192 B,
// NAME: note: 'dim=8' sets a field of that name in every struct (Config.dim, Other.dim); give a path (p->dim) to set one
// NAME: 3 24 192 B {{.*}} scale ({{.*}}field-params.c:13) via forward > scale

// PATH: remark: pass 'forward' on rtx-a6000: time floor {{.*}}, 20 FLOP, 160 B,
// PATH-NOT: sets a field of that name
// PATH: 3 20 160 B {{.*}} scale ({{.*}}field-params.c:13) via forward > scale
