// A pointer field the function assigns before the nest is the array it points
// into at its offset, like a local row pointer: llama2.c's forward sets
// `s->k = s->key_cache + loff + pos * kv_dim;` and uses s->k. Refused, with the
// reason, wherever its value at the nest is not that one assignment's.
// RUN: roofline-lint --dump-ir %s | FileCheck %s
// RUN: roofline-lint --verbosity=normal --no-source --param dim=8 --param seq_len=4 --param pos=2 --param layer=1 %s | FileCheck %s --check-prefix=NUM

typedef struct {
  int dim, seq_len;
} Config;

typedef struct {
  float *x, *q, *k, *v, *key_cache, *value_cache;
} RunState;

typedef struct {
  Config config;
  RunState state;
} Transformer;

void touch(Transformer *t);
void log_step(void);

// CHECK-LABEL: nest @kv
// CHECK: array s->key_cache : f32[?] pointer
// CHECK: array s->value_cache : f32[?] pointer
// CHECK: write s->key_cache[i + layer*p->dim*p->seq_len + p->dim*pos]
// CHECK-NEXT: read s->x[i]
// CHECK: write s->value_cache[i + layer*p->dim*p->seq_len + p->dim*pos]
// NUM: field-pointers.c:[[@LINE+6]]:3: note: 0 MACs, 8 FLOPs (f32: 8); 96 bytes compulsory
void kv(RunState *s, Config *p, int layer, int pos) {
  int dim = p->dim;
  int loff = layer * p->seq_len * dim;
  s->k = s->key_cache + loff + pos * dim;
  s->v = s->value_cache + loff + pos * dim;
  for (int i = 0; i < dim; i++) {
    s->k[i] = s->x[i];
    s->v[i] = s->x[i] * 2.0f;
  }
}

// A field set from another field, and passed to a function of the file.
static void axpy(float *y, const float *a, int n) {
  for (int i = 0; i < n; i++)
    y[i] += 0.5f * a[i];
}
// CHECK-LABEL: nest @chained
// CHECK: array s->key_cache : f32[?] pointer
// CHECK-NOT: array
// CHECK: readwrite s->key_cache[i + p->dim + p->dim*pos]
// CHECK-NEXT: read s->key_cache[i + p->dim*pos]
// NUM: field-pointers.c:[[@LINE+4]]:3: note: 16 MACs, 32 FLOPs (f32: 32); 96 bytes compulsory
void chained(RunState *s, Config *p, int pos) {
  s->k = s->key_cache + pos * p->dim;
  s->v = s->k + p->dim;
  for (int r = 0; r < 2; r++)
    axpy(s->v, s->k, p->dim);
}

// --- Refused ---

// NUM: field-pointers.c:[[@LINE+4]]:3: note: loop nest not analyzed: access 's->k[i]': field 's->k' is assigned 2 times in the function: its value at the nest is not one known pointer
void twice(RunState *s, Config *p, int pos) {
  s->k = s->key_cache;
  s->k = s->key_cache + pos * p->dim;
  for (int i = 0; i < p->dim; i++)
    s->k[i] = 0.0f;
}

// NUM: field-pointers.c:[[@LINE+4]]:3: note: loop nest not analyzed: access 's->k[i]': field 's->k' is assigned conditionally ('if' at line [[@LINE+2]])
void conditional(RunState *s, Config *p, int pos) {
  if (pos > 0)
    s->k = s->key_cache + pos * p->dim;
  for (int i = 0; i < p->dim; i++)
    s->k[i] = 0.0f;
}

// NUM: field-pointers.c:[[@LINE+2]]:3: note: loop nest not analyzed: access 's->k[i]': field 's->k' is assigned after the nest
void after(RunState *s, Config *p, int pos) {
  for (int i = 0; i < p->dim; i++)
    s->k[i] = 0.0f;
  s->k = s->key_cache + pos * p->dim;
}

// NUM: field-pointers.c:[[@LINE+3]]:3: note: loop nest not analyzed: access 's->k[i]': field 's->k' is advanced, or its address taken, in the function ('s->k += 4')
void advanced(RunState *s, Config *p) {
  s->k += 4;
  for (int i = 0; i < p->dim; i++)
    s->k[i] = 0.0f;
}

// NUM: field-pointers.c:[[@LINE+4]]:3: note: loop nest not analyzed: access 's->k[i]': field 's->k' is advanced, or its address taken, in the function ('&s->k')
void address(RunState *s, Config *p) {
  float **pk = &s->k;
  *pk = s->key_cache;
  for (int i = 0; i < p->dim; i++)
    s->k[i] = 0.0f;
}

// NUM: field-pointers.c:[[@LINE+3]]:3: note: loop nest not analyzed: access 's->k[i]': field 's->k' is assigned through another path ('t->k'), which may be the same struct
void other_path(RunState *s, RunState *t, Config *p) {
  t->k = t->key_cache;
  for (int i = 0; i < p->dim; i++)
    s->k[i] = 0.0f;
}

// The struct escapes: a callee receives what holds it.
// NUM: field-pointers.c:[[@LINE+5]]:3: note: loop nest not analyzed: access 's->k[i]': field 's->k' may change before the nest: 'touch' receives 'tr' at line [[@LINE+4]] (the struct escapes)
void escapes(Transformer *tr, int pos) {
  RunState *s = &tr->state;
  s->k = s->key_cache + pos * tr->config.dim;
  touch(tr);
  for (int i = 0; i < tr->config.dim; i++)
    s->k[i] = 0.0f;
}

// NUM: field-pointers.c:[[@LINE+4]]:3: note: loop nest not analyzed: access 's->k[i]': field 's->k' may change before the nest: '*s' is assigned as a whole at line [[@LINE+3]]
void overwritten(RunState *s, const RunState *t, Config *p, int pos) {
  s->k = s->key_cache + pos * p->dim;
  *s = *t;
  for (int i = 0; i < p->dim; i++)
    s->k[i] = 0.0f;
}

// A global struct: any call may change it.
RunState gstate;
// NUM: field-pointers.c:[[@LINE+4]]:3: note: loop nest not analyzed: access 'gstate.k[i]': field 'gstate.k' may change before the nest: the struct is reachable by every function, and 'log_step' is called at line [[@LINE+3]]
void global(int n, int pos) {
  gstate.k = gstate.key_cache + pos * n;
  log_step();
  for (int i = 0; i < n; i++)
    gstate.k[i] = 0.0f;
}

// NUM: field-pointers.c:[[@LINE+3]]:3: note: loop nest not analyzed: access 's->k[i]': field 's->k' = 's->k + p->dim': field 's->k' is assigned from itself
void from_itself(RunState *s, Config *p) {
  s->k = s->k + p->dim;
  for (int i = 0; i < p->dim; i++)
    s->k[i] = 0.0f;
}

// NUM: field-pointers.c:[[@LINE+3]]:3: note: loop nest not analyzed: access 's->k[i]': field 's->k' is assigned inside an expression or a declaration ('float *kk = s->k = s->key_cache;')
void in_declaration(RunState *s, Config *p) {
  float *kk = s->k = s->key_cache;
  for (int i = 0; i < p->dim; i++)
    s->k[i] = kk[i];
}

// NUM: field-pointers.c:[[@LINE+4]]:3: note: loop nest not analyzed: access 's->k[i]': field 's->k' is assigned in a loop: its value at the nest is the last iteration's
void in_loop(RunState *s, Config *p) {
  for (int l = 0; l < 2; l++)
    s->k = s->key_cache + l * p->dim;
  for (int i = 0; i < p->dim; i++)
    s->k[i] = 0.0f;
}
