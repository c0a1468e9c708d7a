// An if around the nest that compares a function pointer with a function
// narrows the pointer's targets: in its then-branch the pointer is that
// function, in its else-branch it is any candidate but that one (genann's
// `if (ann->activation_output == genann_act_linear) {...} else {...}` around
// the output deltas). A case the if rules out is not reported: it never runs.
// RUN: roofline-lint --verbosity=normal --no-source --param n=8 %s | FileCheck %s
// RUN: roofline-lint --format=json --param n=8 %s | FileCheck %s --check-prefix=JSON

struct net;
typedef double (*act_fn)(const struct net *ann, double a);
struct net {
  act_fn act_hidden, act_output;
};

double act_sigmoid(const struct net *ann, double a) { return 1.0 / (1 + a); }
double act_relu(const struct net *ann, double a) { return a > 0 ? a : 0; }
double act_linear(const struct net *ann, double a) { return a; }

void net_init(struct net *ann, int kind) {
  ann->act_hidden = kind ? act_sigmoid : act_relu;
  ann->act_output = kind > 1 ? act_relu : act_linear;
}

static double act_derivative(act_fn act, double y) {
  if (act == act_linear) return 1.0;
  return y * (1.0 - y);
}

// The else-branch: the output deltas for every output activation but the
// linear one. The derivative's own test then folds, and the rest are alike:
// one report (2 FLOPs of the delta plus 2 of the derivative an element).
// CHECK: function-pointer-guards.c:[[@LINE+9]]:5: remark: deltas:
// CHECK: note: 0 MACs, 8 FLOPs (f64: 8); 192 bytes compulsory
// CHECK: function-pointer-guards.c:[[@LINE+10]]:5: remark: deltas:
// CHECK: note: 0 MACs, 32 FLOPs (f64: 32); 192 bytes compulsory
// CHECK-NOT: deltas [
// JSON-NOT: "case": "ann->act_output == act_linear"
void deltas(const struct net *ann, double *d, const double *t,
            const double *o, int n) {
  if (ann->act_output == act_linear) {
    for (int i = 0; i < n; ++i)
      d[i] = t[i] - o[i];
  } else {
    for (int i = 0; i < n; ++i)
      d[i] = (t[i] - o[i]) * act_derivative(ann->act_output, o[i]);
  }
}

// The then-branch: one target, one report; `!=` and `!` read alike.
// CHECK: function-pointer-guards.c:[[@LINE+9]]:5: remark: outputs:
// CHECK: note: 0 MACs, 8 FLOPs (f64: 8); 128 bytes compulsory
// CHECK: note: 'ann->act_hidden' calls act_relu: the if around the nest (line [[@LINE+6]]) tests it
// CHECK: function-pointer-guards.c:[[@LINE+9]]:5: remark: outputs:
// CHECK: note: 0 MACs, 16 FLOPs (f64: 16); 128 bytes compulsory
// CHECK: note: 'ann->act_hidden' calls act_sigmoid: the if around the nest (line [[@LINE+6]]) tests it
// CHECK-NOT: outputs [
void outputs(const struct net *ann, double *y, const double *x, int n) {
  if (ann->act_hidden == act_relu) {
    for (int i = 0; i < n; ++i)
      y[i] = ann->act_hidden(ann, x[i]);
  } else if (!(act_sigmoid != ann->act_hidden)) {
    for (int i = 0; i < n; ++i)
      y[i] = ann->act_hidden(ann, x[i]);
  }
}

// An else-if chain rules out each function it tests before.
// CHECK: function-pointer-guards.c:[[@LINE+10]]:5: remark: last:
// CHECK: note: 0 MACs, 16 FLOPs (f64: 16); 128 bytes compulsory
// CHECK: note: 'ann->act_output' calls act_sigmoid, the only function of its type whose address the translation unit takes that the if around the nest (line [[@LINE+5]]) allows
// CHECK-NOT: last [
void last(const struct net *ann, double *y, const double *x, int n) {
  if (ann->act_output == act_linear)
    y[0] = 1;
  else if (ann->act_output == act_relu)
    y[0] = 0;
  else
    for (int i = 0; i < n; ++i)
      y[i] = ann->act_output(ann, x[i]);
}

// One candidate, and the if rules it out: the target is unknown.
typedef float (*unary_fn)(float);
static float halve(float x) { return 0.5f * x; }
unary_fn pick_unary(void) { return halve; }
// CHECK: function-pointer-guards.c:[[@LINE+3]]:5: note: loop nest not analyzed: indirect call 'g(y[i])': indirect call through 'g': its target is unknown (no function defined in the translation unit with its type has its address taken but those the if around the nest (line [[@LINE+2]]) excludes; give one with --param g=FUNCTION) [roofline-unanalyzable]
void others(float *y, unary_fn g, int n) {
  if (g != halve)
    for (int i = 0; i < n; ++i)
      y[i] = g(y[i]);
}
