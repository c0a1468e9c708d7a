// Calls through a function pointer the nest does not change (genann's
// `ann->activation_hidden(ann, sum)`, its `genann_act_derivative(act, y)`
// comparing `act == genann_act_tanh`): the candidate targets are the
// functions defined here whose address is taken and whose type is the
// pointer's. The call counts the target's body: the one given with --param,
// the only candidate, or one report per candidate (`[ann->act == f]`), and
// comparisons with a function fold per case. A candidate that cannot be
// counted refuses its case alone; an unknown target is refused.
// RUN: roofline-lint --verbosity=normal --no-source --param n=8 %s | FileCheck %s
// RUN: roofline-lint --verbosity=normal --no-source --param n=8 --param 'ann->act_hidden=act_relu' --param 'ann->act_output=act_linear' %s | FileCheck %s --check-prefix=GIVEN
// RUN: roofline-lint --verbosity=normal --no-source --param n=8 --param act_hidden=act_sigmoid %s | FileCheck %s --check-prefix=FIELD
// RUN: roofline-lint --verbosity=normal --no-source --param n=8 --param 'ann->act_hidden=nosuch' %s 2>&1 | FileCheck %s --check-prefix=BADPARAM
// RUN: roofline-lint --format=json --param n=8 %s | FileCheck %s --check-prefix=JSON
#include <math.h>

struct net;
typedef double (*act_fn)(const struct net *ann, double a);
struct net {
  act_fn act_hidden, act_output;
  const double *lookup;
};

double act_sigmoid(const struct net *ann, double a) {
  return 1.0 / (1 + exp(-a));
}
double act_relu(const struct net *ann, double a) { return a > 0 ? a : 0; }
double act_linear(const struct net *ann, double a) { return a; }
// A table the target reads at a data-dependent place: its case is refused.
double act_table(const struct net *ann, double a) {
  return ann->lookup[(int)(a * 16)];
}
// Defined, of the type, but its address is never taken: no candidate (it
// may still be given with --param).
double act_unused(const struct net *ann, double a) { return a * a; }

void net_init(struct net *ann, int kind) {
  ann->act_hidden = kind ? act_sigmoid : act_table;
  ann->act_output = kind > 1 ? act_relu : act_linear;
}

// A sigmoid is a division, an addition and exp (3 FLOPs), a ReLU one
// compare, the identity nothing, on top of the 2*n*n of the sums.
// CHECK: function-pointers.c:[[@LINE+24]]:3: remark: layer [ann->act_hidden == act_sigmoid]:
// CHECK: note: 64 MACs, 152 FLOPs (f64: 152); 640 bytes compulsory
// CHECK: note: call to act_sigmoid (line [[@LINE+26]]) counted as its body
// CHECK: function-pointers.c:[[@LINE+21]]:3: remark: layer [ann->act_hidden == act_relu]:
// CHECK: note: 64 MACs, 136 FLOPs (f64: 136); 640 bytes compulsory
// CHECK: function-pointers.c:[[@LINE+19]]:3: remark: layer [ann->act_hidden == act_linear]:
// CHECK: note: 64 MACs, 128 FLOPs (f64: 128); 640 bytes compulsory
// CHECK: function-pointers.c:[[@LINE+17]]:3: note: loop nest not analyzed: access 'ann->lookup[(int)(a * 16)]': gather
// GIVEN: function-pointers.c:[[@LINE+16]]:3: remark: layer:
// GIVEN: note: 64 MACs, 136 FLOPs
// GIVEN-NOT: remark: layer [
// FIELD: function-pointers.c:[[@LINE+13]]:3: remark: layer:
// FIELD: note: 64 MACs, 152 FLOPs
// JSON: "function": "layer [ann->act_hidden == act_sigmoid]"
// JSON: "case": "ann->act_hidden == act_sigmoid",
// JSON: "case": "ann->act_hidden == act_relu",
// JSON: "case": "ann->act_hidden == act_linear",
// JSON: "skipped": [
// JSON: "function": "layer [ann->act_hidden == act_table]",
// JSON-NEXT: "line": [[@LINE+5]],
// JSON-NEXT: "reason": "access 'ann->lookup[(int)(a * 16)]': gather
// BADPARAM: function-pointers.c:[[@LINE+3]]:3: note: loop nest not analyzed: indirect call 'ann->act_hidden(ann, sum)': --param ann->act_hidden=nosuch: 'nosuch' is no function defined in the translation unit with the type of 'ann->act_hidden'
void layer(const struct net *ann, double *o, const double *x, const double *w,
           int n) {
  for (int j = 0; j < n; ++j) {
    double sum = 0;
    for (int k = 0; k < n; ++k)
      sum += w[j * n + k] * x[k];
    o[j] = ann->act_hidden(ann, sum);
  }
}

// The derivative compares the pointer it is passed with functions: per
// case of ann->act_output the chain folds to one expression.
static double act_derivative(act_fn act, double y) {
  if (act == act_relu) return y > 0 ? 1.0 : 0.0;
  if (act == act_linear) return 1.0;
  return y * (1.0 - y);
}
// CHECK: function-pointers.c:[[@LINE+12]]:3: remark: deltas [ann->act_output == act_sigmoid]:
// CHECK: note: 0 MACs, 32 FLOPs (f64: 32); 192 bytes compulsory
// CHECK: function-pointers.c:[[@LINE+10]]:3: remark: deltas [ann->act_output == act_relu]:
// CHECK: note: 0 MACs, 24 FLOPs (f64: 24); 192 bytes compulsory
// CHECK: function-pointers.c:[[@LINE+8]]:3: remark: deltas [ann->act_output == act_linear]:
// CHECK: note: 0 MACs, 16 FLOPs (f64: 16); 192 bytes compulsory
// CHECK: function-pointers.c:[[@LINE+6]]:3: remark: deltas [ann->act_output == act_table]:
// CHECK: note: 0 MACs, 32 FLOPs (f64: 32); 192 bytes compulsory
// GIVEN: function-pointers.c:[[@LINE+4]]:3: remark: deltas:
// GIVEN: note: 0 MACs, 16 FLOPs (f64: 16); 192 bytes compulsory
void deltas(const struct net *ann, double *d, const double *t,
            const double *o, int n) {
  for (int i = 0; i < n; ++i)
    d[i] = (t[i] - o[i]) * act_derivative(ann->act_output, o[i]);
}

// A pointer parameter of the nest's function, and a local set once before
// the nest from a field: named as what they hold.
// CHECK: function-pointers.c:[[@LINE+7]]:3: remark: apply [act == act_sigmoid]:
// CHECK: note: 0 MACs, 24 FLOPs
// CHECK: function-pointers.c:[[@LINE+5]]:3: remark: apply [act == act_relu]:
// CHECK: note: 0 MACs, 8 FLOPs
// CHECK: function-pointers.c:[[@LINE+3]]:3: remark: apply [act == act_linear]:
// CHECK: note: 0 MACs, 0 FLOPs
void apply(const struct net *ann, act_fn act, double *y, int n) {
  for (int i = 0; i < n; ++i)
    y[i] = act(ann, y[i]);
}
// CHECK: function-pointers.c:[[@LINE+4]]:3: remark: apply_local [ann->act_output == act_relu]:
// CHECK: note: 0 MACs, 8 FLOPs
void apply_local(const struct net *ann, double *y, int n) {
  act_fn f = ann->act_output;
  for (int i = 0; i < n; ++i)
    y[i] = (*f)(ann, y[i]);
}

// One candidate of its type: that is the target.
typedef float (*unary_fn)(float);
static float halve(float x) { return 0.5f * x; }
unary_fn pick_unary(void) { return halve; }
// CHECK: function-pointers.c:[[@LINE+4]]:3: note: 0 MACs, 8 FLOPs (f32: 8); 64 bytes compulsory
// CHECK: note: 'g' calls halve, the only function of its type whose address the translation unit takes
// CHECK-NOT: scale [
void scale(float *y, unary_fn g, int n) {
  for (int i = 0; i < n; ++i)
    y[i] = g(y[i]);
}

// Refused, each with its reason.
typedef float (*binary_fn)(float, float);
// CHECK: function-pointers.c:[[@LINE+2]]:3: note: loop nest not analyzed: indirect call 'op(a[i], b[i])': indirect call through 'op': its target is unknown (no function defined in the translation unit with its type has its address taken; give one with --param op=FUNCTION) [roofline-unanalyzable]
void combine(float *a, const float *b, binary_fn op, int n) {
  for (int i = 0; i < n; ++i)
    a[i] = op(a[i], b[i]);
}
// CHECK: function-pointers.c:[[@LINE+3]]:3: note: loop nest not analyzed: {{.*}}'f' is assigned in the function other than once before the nest, at its top level [roofline-unanalyzable]
void rewritten(const struct net *ann, double *y, int n) {
  act_fn f = ann->act_hidden;
  for (int i = 0; i < n; ++i) {
    y[i] = f(ann, y[i]);
    f = ann->act_output;
  }
}
// Declared without a value and assigned once at the top level before the
// nest: that value.
// CHECK: function-pointers.c:[[@LINE+5]]:3: note: 0 MACs, 8 FLOPs (f32: 8); 64 bytes compulsory
// CHECK-NOT: assigned_once [
void assigned_once(float *y, int n) {
  unary_fn g;
  g = halve;
  for (int i = 0; i < n; ++i)
    y[i] = g(y[i]);
}

// CHECK: function-pointers.c:[[@LINE+2]]:3: note: loop nest not analyzed: {{.*}}field 'ann->act_hidden' is assigned in the function [roofline-unanalyzable]
void switched(struct net *ann, double *y, int n) {
  for (int i = 0; i < n; ++i) {
    y[i] = ann->act_hidden(ann, y[i]);
    ann->act_hidden = act_linear;
  }
}
// Four targets each for two pointers: 16 cases, past the limit of 8. Given
// one, the other makes four cases; f(f(x)) is no recursion.
// CHECK: function-pointers.c:[[@LINE+6]]:3: note: loop nest not analyzed: the nest would be reported in more than 8 cases: 'ann->act_hidden' may call any of 4 functions (act_sigmoid, act_relu, act_linear, act_table), in each case of another function pointer or condition without a value: give its target with --param ann->act_hidden=FUNCTION [roofline-unanalyzable]
// FIELD: function-pointers.c:[[@LINE+5]]:3: remark: both [ann->act_output == act_sigmoid]:
// FIELD: note: 0 MACs, 48 FLOPs
// FIELD: function-pointers.c:[[@LINE+3]]:3: remark: both [ann->act_output == act_relu]:
// FIELD: note: 0 MACs, 32 FLOPs
void both(const struct net *ann, double *y, int n) {
  for (int i = 0; i < n; ++i)
    y[i] = ann->act_output(ann, ann->act_hidden(ann, y[i]));
}
