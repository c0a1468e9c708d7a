// A struct field the nest's function modifies before the nest keeps one
// value while the nest runs (llm.c's gpt2_forward points model->acts with
// `malloc_and_point_activations(&model->acts, ...)`, then sums
// `model->acts.losses[i]`): the arrays reached through it are named by their
// path, as for a field the function never assigns. Only where every
// modification lies before the nest and outside any loop holding it, hands
// the field's address to a call or stores a call's result (or the field is
// a number read as data), the call handed no other pointer that could be one
// of the nest's arrays, and no call that may reach the struct comes
// between the last modification and the nest, or in or around the nest.
// Otherwise the nest stays refused, the statement named.
// RUN: roofline-lint --verbosity=normal --no-source --param n=8 %s | FileCheck %s
// RUN: roofline-lint --entry=per_step --param n=8 --param steps=2 %s 2>&1 | FileCheck %s --check-prefix=WALK
// RUN: roofline-lint --entry=reset_per_step --param n=8 --param steps=2 %s 2>&1 | FileCheck %s --check-prefix=WALK2
#include <stdlib.h>

typedef struct {
  float *losses, *probs;
} Acts;
typedef struct {
  Acts acts, grads_acts;
  float *memory;
  float scale;
} Model;

static void point_acts(Acts *a, float *memory, int n) {
  a->losses = memory;
  a->probs = memory + n;
}
static void alloc_acts(Acts *a, int n) {
  float *memory = (float *)malloc(2 * n * sizeof(float));
  a->losses = memory;
  a->probs = memory + n;
}
Acts make_acts(int n);
void touch(Model *m);
void fill(float *x, int n);

// The field's address handed to a call under a branch, before the nest.
// CHECK: fixed-fields.c:[[@LINE+8]]:3: note: 0 MACs, 8 FLOPs (f32: 8); 32 bytes compulsory
// CHECK: fixed-fields.c:[[@LINE+7]]:3: note: field 'm->acts' is modified at line [[@LINE+4]], before the nest, and keeps that value while it runs
float loss_before(Model *m, int n) {
  if (m->memory == NULL) {
    m->memory = (float *)malloc(2 * n * sizeof(float));
    alloc_acts(&m->acts, n);
  }
  float mean = 0.0f;
  for (int i = 0; i < n; i++)
    mean += m->acts.losses[i];
  return mean / n;
}

// A struct a call returns; a call between that receives no pointer to the
// struct (fill) changes nothing.
// CHECK: fixed-fields.c:[[@LINE+4]]:3: note: 0 MACs, 8 FLOPs (f32: 8); 96 bytes compulsory
void from_call(Model *m, float *y, int n) {
  m->acts = make_acts(n);
  fill(m->acts.probs, n);
  for (int i = 0; i < n; i++)
    y[i] = m->acts.losses[i] * m->acts.probs[i];
}

// A float field set before the nest is read as data: its value counts for
// nothing.
// CHECK: fixed-fields.c:[[@LINE+3]]:3: note: 0 MACs, 8 FLOPs (f32: 8); 64 bytes compulsory
void scaled(Model *m, const float *x, float *y, int n) {
  m->scale = 0.5f;
  for (int i = 0; i < n; i++)
    y[i] = m->scale * x[i];
}

// Refused, each with the statement.
// CHECK: fixed-fields.c:[[@LINE+2]]:3: note: loop nest not analyzed: access 'm->acts.losses[i]': field 'm->acts' is assigned in the function (at line [[@LINE+4]], after the nest) [roofline-unanalyzable]
void after(Model *m, int n) {
  for (int i = 0; i < n; i++)
    m->acts.losses[i] = 0.0f;
  alloc_acts(&m->acts, n);
}

// CHECK: fixed-fields.c:[[@LINE+4]]:3: note: loop nest not analyzed: access 'm->acts.losses[i]': field 'm->acts' is assigned in the function (modified at line [[@LINE+2]], it may change before the nest: 'touch' receives 'm' at line [[@LINE+3]] (the struct escapes)) [roofline-unanalyzable]
void call_between(Model *m, int n) {
  alloc_acts(&m->acts, n);
  touch(m);
  for (int i = 0; i < n; i++)
    m->acts.losses[i] = 0.0f;
}

// CHECK: fixed-fields.c:[[@LINE+3]]:3: note: loop nest not analyzed: access 'm->acts.losses[i]': field 'm->acts' is assigned in the function (modified at line [[@LINE+2]], it may change while the nest runs: 'touch' receives 'm' at line [[@LINE+5]] (the struct escapes)) [roofline-unanalyzable]
void call_inside(Model *m, int n) {
  alloc_acts(&m->acts, n);
  for (int i = 0; i < n; i++) {
    m->acts.losses[i] = 0.0f;
    touch(m);
  }
}

// A callee handed one of the caller's arrays may point the field there: the
// nest could read it by two names.
// CHECK: fixed-fields.c:[[@LINE+3]]:3: note: loop nest not analyzed: access 'm->acts.losses[i]': field 'm->acts' is assigned in the function (at line [[@LINE+2]] ('&m->acts'): 'point_acts' receives 'm->memory' (a pointer to float): it may point the field's arrays at one the nest reads by another name) [roofline-unanalyzable]
void handed_buffer(Model *m, int n) {
  point_acts(&m->acts, m->memory, n);
  for (int i = 0; i < n; i++)
    m->acts.losses[i] += m->memory[i];
}

// The same call written by a macro: the argument is spelled as the macro's
// use, like the statement (the old message left it empty: receives '').
#define POINT_ACTS(m, n) point_acts(&(m)->acts, (m)->memory, (n))
// CHECK: fixed-fields.c:[[@LINE+3]]:3: note: loop nest not analyzed: access 'm->acts.losses[i]': field 'm->acts' is assigned in the function (at line [[@LINE+2]] ('POINT_ACTS(m, n)'): 'point_acts' receives 'POINT_ACTS(m, n)' (a pointer to float): it may point the field's arrays at one the nest reads by another name) [roofline-unanalyzable]
void handed_in_macro(Model *m, int n) {
  POINT_ACTS(m, n);
  for (int i = 0; i < n; i++)
    m->acts.losses[i] += m->memory[i];
}

// CHECK: fixed-fields.c:[[@LINE+3]]:3: note: loop nest not analyzed: access 'm->acts.losses[i]': field 'm->acts' is assigned in the function (at line [[@LINE+2]] ('m->acts = m->grads_acts'): its arrays may be ones the nest reads by another name) [roofline-unanalyzable]
void aliased(Model *m, int n) {
  m->acts = m->grads_acts;
  for (int i = 0; i < n; i++)
    m->acts.losses[i] += m->grads_acts.losses[i];
}

// CHECK: fixed-fields.c:[[@LINE+4]]:3: note: loop nest not analyzed: access 'm->acts.losses[i]': field 'm->acts' is assigned in the function (at line [[@LINE+2]] ('&m->acts'): its address is kept: the struct may change through it) [roofline-unanalyzable]
void kept_address(Model *m, int n) {
  Acts *a = &m->acts;
  alloc_acts(a, n);
  for (int i = 0; i < n; i++)
    m->acts.losses[i] = 0.0f;
}

// In a walk from an entry, the nest inside a loop that modifies the field
// sees another array each iteration.
// WALK: fixed-fields.c:[[@LINE+4]]: per_step: nest not analyzed: access 'm->acts.losses[i]': field 'm->acts' is assigned in the function (at line [[@LINE+3]], inside the loop at line [[@LINE+2]] that holds the nest: its value changes between the nest's runs)
void per_step(Model *m, int n, int steps) {
  for (int s = 0; s < steps; s++) {
    alloc_acts(&m->acts, n);
    for (int i = 0; i < n; i++)
      m->acts.losses[i] = 1.0f;
  }
}

// Modified once before the loop, but a call in the loop around the nest
// receives the struct.
// WALK2: fixed-fields.c:[[@LINE+3]]: reset_per_step: nest not analyzed: access 'm->acts.losses[i]': field 'm->acts' is assigned in the function (modified at line [[@LINE+2]], it may change while the nest runs: 'touch' receives 'm' at line [[@LINE+6]] (the struct escapes))
void reset_per_step(Model *m, int n, int steps) {
  alloc_acts(&m->acts, n);
  for (int s = 0; s < steps; s++) {
    for (int i = 0; i < n; i++)
      m->acts.losses[i] = 1.0f;
    touch(m);
  }
}
