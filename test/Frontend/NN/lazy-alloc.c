// A pointer field every assignment of which (in the nest's function) stores a
// fresh allocation, before the nest and outside any loop holding it, is its
// own array, like a field the function never assigns: llm.c's AdamW
// allocates its moments lazily (`if (model->m_memory == NULL)
// model->m_memory = (float*)calloc(...)`), so at the loop they are the old
// arrays or new ones distinct from every other. Any other assignment keeps
// its refusal.
// RUN: roofline-lint --dump-ir %s | FileCheck %s
// RUN: roofline-lint --verbosity=normal --no-source --param num_parameters=10 --param 's->n=6' --param n=6 %s | FileCheck %s --check-prefix=NUM
#include <math.h>
#include <stdlib.h>

typedef struct {
  float *params_memory, *grads_memory, *m_memory, *v_memory;
  size_t num_parameters;
} GPT2;

// llm.c's gpt2_update: 22 FLOPs per parameter (powf(beta1, t) and
// powf(beta2, t) are calls on parameters, executed every iteration), 28 bytes
// per parameter (params and both moments read and written, grads read).
// CHECK-LABEL: nest @gpt2_update
// CHECK: array model->params_memory : f32[?] pointer
// CHECK: array model->grads_memory : f32[?] pointer
// CHECK: array model->m_memory : f32[?] pointer
// CHECK: array model->v_memory : f32[?] pointer
// CHECK: write model->m_memory[i]
// CHECK: write model->v_memory[i]
// NUM: lazy-alloc.c:[[@LINE+11]]:3: note: 40 MACs, 220 FLOPs (f32: 220); 280 bytes compulsory
// NUM: as formulas: MACs = 4*model->num_parameters, FLOPs = 22*model->num_parameters, bytes compulsory = 28*model->num_parameters
// NUM: lazy-alloc.c:[[@LINE+9]]:3: note: field 'model->m_memory' is its own array: every assignment in the function stores a fresh allocation ('calloc' at line [[@LINE+6]])
// NUM-NEXT: lazy-alloc.c:[[@LINE+8]]:3: note: field 'model->v_memory' is its own array: every assignment in the function stores a fresh allocation ('calloc' at line [[@LINE+6]])
void gpt2_update(GPT2 *model, float learning_rate, float beta1, float beta2,
                 float eps, float weight_decay, int t) {
  // lazily allocate the memory for m_memory and v_memory
  if (model->m_memory == NULL) {
    model->m_memory = (float *)calloc(model->num_parameters, sizeof(float));
    model->v_memory = (float *)calloc(model->num_parameters, sizeof(float));
  }
  for (size_t i = 0; i < model->num_parameters; i++) {
    float param = model->params_memory[i];
    float grad = model->grads_memory[i];
    float m = beta1 * model->m_memory[i] + (1.0f - beta1) * grad;
    float v = beta2 * model->v_memory[i] + (1.0f - beta2) * grad * grad;
    float m_hat = m / (1.0f - powf(beta1, t));
    float v_hat = v / (1.0f - powf(beta2, t));
    model->m_memory[i] = m;
    model->v_memory[i] = v;
    model->params_memory[i] -=
        learning_rate * (m_hat / (sqrtf(v_hat) + eps) + weight_decay * param);
  }
}

typedef struct {
  float *a, *b, *out;
  int n;
} Scratch;

// Unconditional, uncast (C converts void *), twice (malloc and
// aligned_alloc), inside a check of the result, and in a loop before the
// nest: each store is a fresh array.
// CHECK-LABEL: nest @fresh_forms
// CHECK: array s->out : f32[?] pointer
// CHECK-NEXT: array s->a : f32[?] pointer
// CHECK-NEXT: array s->b : f32[?] pointer
// CHECK: write s->out[i]
// CHECK-NEXT: read s->a[i]
// CHECK-NEXT: read s->b[i]
// NUM: lazy-alloc.c:[[@LINE+10]]:3: note: loop nest not analyzed: pointer field 's->out' = 'calloc(s->n, sizeof(float))': pointer returned by a call
// NUM: lazy-alloc.c:[[@LINE+11]]:3: note: 0 MACs, 6 FLOPs (f32: 6); 72 bytes compulsory
// NUM: field 's->a' is its own array: every assignment in the function stores a fresh allocation ('malloc' at line [[@LINE+3]])
// NUM: field 's->b' is its own array: every assignment in the function stores a fresh allocation ('malloc' at line [[@LINE+5]])
void fresh_forms(Scratch *s, int pos) {
  s->a = malloc(s->n * sizeof(float));
  if (pos > 0)
    s->a = aligned_alloc(64, s->n * sizeof(float));
  if (!(s->b = malloc(s->n * sizeof(float))))
    return;
  for (int r = 0; r < 2; r++) // a nest with no work, refused
    s->out = calloc(s->n, sizeof(float));
  for (int i = 0; i < s->n; i++)
    s->out[i] = s->a[i] + s->b[i];
}

// --- Refused: the field's value at the nest may be another array ---

// Allocated, or else pointed into another array.
// NUM: lazy-alloc.c:[[@LINE+6]]:3: note: loop nest not analyzed: access 's->out[i]': field 's->out' is assigned 2 times in the function: its value at the nest is not one known pointer
void mixed(Scratch *s, int pos) {
  if (pos > 0)
    s->out = malloc(s->n * sizeof(float));
  else
    s->out = s->a;
  for (int i = 0; i < s->n; i++)
    s->out[i] = s->a[i] * 2.0f;
}

// realloc may return the block it was given.
// NUM: lazy-alloc.c:[[@LINE+4]]:3: note: loop nest not analyzed: access 's->out[i]': field 's->out' is assigned conditionally ('if' at line [[@LINE+2]])
void grown(Scratch *s, int n) {
  if (n > s->n)
    s->out = realloc(s->out, n * sizeof(float));
  for (int i = 0; i < n; i++)
    s->out[i] = 0.0f;
}

// Inside the nest, first in a loop body: bound there like a declaration
// (LowerBodyAssignments.cpp), and a fresh allocation per iteration is no
// view of a known array: refused.
// NUM: lazy-alloc.c:[[@LINE+3]]:3: note: loop nest not analyzed: pointer field 's->out' = 'malloc(s->n * sizeof(float))': pointer returned by a call
void per_step(Scratch *s, int steps) {
  s->out = malloc(s->n * sizeof(float));
  for (int t = 0; t < steps; t++) {
    s->out = malloc(s->n * sizeof(float));
    for (int i = 0; i < s->n; i++)
      s->out[i] += 1.0f;
  }
}

// In a walk from an entry (docs/user-guide.md), a loop that calls a
// function is stepped, and the loops in it are nests of their own: an
// allocation in such a loop gives each run of the nest another array.
// RUN: roofline-lint --entry=per_layer --param 's->n=6' --param layers=2 %s 2>&1 | FileCheck %s --check-prefix=WALK
// WALK: not in the formulas: per_layer (line [[@LINE+9]]): nest not analyzed: access 's->out[i]': field 's->out' is allocated in a loop holding the nest ('malloc' at line [[@LINE+7]]): its array changes between the nest's runs
static void scale(float *x, int n) {
  for (int i = 0; i < n; i++)
    x[i] *= 0.5f;
}
void per_layer(Scratch *s, int layers) {
  for (int l = 0; l < layers; l++) {
    s->out = malloc(s->n * sizeof(float));
    scale(s->a, s->n);
    for (int i = 0; i < s->n; i++)
      s->out[i] = s->a[i];
  }
}

// NUM: lazy-alloc.c:[[@LINE+2]]:3: note: loop nest not analyzed: access 's->out[i]': field 's->out' is allocated after the nest ('malloc' at line [[@LINE+4]])
void after(Scratch *s) {
  for (int i = 0; i < s->n; i++)
    s->out[i] = 1.0f;
  s->out = malloc(s->n * sizeof(float));
}

// A local set from the field before its assignment holds the old value,
// not the one the nest sees through the field (taken for one array, the
// bytes would be too few); one set from a field assigned conditionally may
// be one of the nest's arrays. Both are refused.
// NUM: lazy-alloc.c:[[@LINE+4]]:3: note: loop nest not analyzed: access 'old[i]': pointer 'old' = 's->out': field 's->out' is read at line [[@LINE+2]] before it is assigned at line [[@LINE+3]]: its old and new values would be taken for one array
void kept(Scratch *s) {
  float *old = s->out;
  s->out = malloc(s->n * sizeof(float));
  for (int i = 0; i < s->n; i++) {
    s->out[i] = 0.0f;
    s->a[i] = old[i];
  }
}

// NUM: lazy-alloc.c:[[@LINE+4]]:3: note: loop nest not analyzed: access 'p[i]': pointer 'p' = 's->out': field 's->out' is assigned conditionally ('if' at line [[@LINE+2]])
void through_local(Scratch *s, int pos) {
  if (pos) s->out = s->a;
  float *p = s->out;
  for (int i = 0; i < s->n; i++) {
    s->a[i] = 1.0f;
    float x = p[i];
    s->a[i + s->n] = x;
  }
}
