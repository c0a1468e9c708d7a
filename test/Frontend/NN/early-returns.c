// A scalar helper called inside a nest whose body ends in a chain
// `if (c1) return e1; if (c2) return e2; return e3;` (genann's sigmoid with
// its clamps, its activation derivative) returns `c1 ? e1 : c2 ? e2 : e3`,
// and is counted so: a data-dependent condition counts its compare and the
// branch work as a range, a loop-invariant one the known case or each case.
// So is a guard before other statements (the rest is the else). Any other
// early return in a called helper stays refused.
// RUN: roofline-lint --verbosity=normal --no-source --param n=8 --param k=3 %s | FileCheck %s
// RUN: roofline-lint --verbosity=normal --no-source --param n=8 --param k=3 --param act=2 %s | FileCheck %s --check-prefix=KNOWN
#include <math.h>

double genann_act_sigmoid(double a) {
  if (a < -45.0) return 0;
  if (a > 45.0) return 1;
  return 1.0 / (1 + exp(-a));
}

// A clamp returns at once (one compare), or after the second compare; the
// sigmoid costs 2 compares, a division, an addition and exp: 1 to 5 FLOPs.
// CHECK: early-returns.c:[[@LINE+4]]:3: note: 0 MACs, 8 to 40 FLOPs (f64: 40); 128 bytes compulsory
// CHECK: as formulas: MACs = 0, FLOPs = n to 5*n, bytes compulsory = 16*n
// CHECK: early-returns.c:[[@LINE+2]]:3: note: call to genann_act_sigmoid (line [[@LINE+3]]) counted as its body
void run_layer(double *out, const double *in, int n) {
  for (int i = 0; i < n; i++)
    out[i] = genann_act_sigmoid(in[i]);
}

// The derivative by activation: a loop-invariant flag, so one count per
// case (or the case --param gives).
static double genann_act_derivative(int act, double y) {
  if (act == 1) return 1.0 - y * y;
  if (act == 2) return y > 0 ? 1.0 : 0.0;
  if (act == 3) return 1.0;
  return y * (1.0 - y);
}
// CHECK: early-returns.c:[[@LINE+12]]:3: remark: deltas [act == 1]:
// CHECK: note: 8 MACs, 24 FLOPs (f64: 24); 192 bytes compulsory
// CHECK: early-returns.c:[[@LINE+10]]:3: remark: deltas [!(act == 1) && act == 2]:
// CHECK: note: 0 MACs, 16 FLOPs (f64: 16); 192 bytes compulsory
// CHECK: early-returns.c:[[@LINE+8]]:3: remark: deltas [!(act == 1) && !(act == 2) && act == 3]:
// CHECK: note: 0 MACs, 8 FLOPs (f64: 8); 192 bytes compulsory
// CHECK: early-returns.c:[[@LINE+6]]:3: remark: deltas [!(act == 1) && !(act == 2) && !(act == 3)]:
// CHECK: note: 0 MACs, 24 FLOPs (f64: 24); 192 bytes compulsory
// KNOWN: early-returns.c:[[@LINE+4]]:3: remark: deltas:
// KNOWN: note: 0 MACs, 16 FLOPs (f64: 16); 192 bytes compulsory
// KNOWN-NOT: deltas [
void deltas(double *d, const double *o, int n, int act) {
  for (int i = 0; i < n; i++)
    d[i] = genann_act_derivative(act, o[i]) * d[i];
}

// A condition on the loop variable, inside an expression, splits the work:
// each side runs in a guard loop of its side (docs/design.md, "Calls"), one
// FLOP per element, exactly. It was taken as data-dependent, a range per
// operation kind (0 to 16 FLOPs).
static float edge_scale(int i, int k, float x) {
  if (i < k) return x * 2.0f;
  return x + 1.0f;
}
// CHECK: early-returns.c:[[@LINE+2]]:3: note: 0 MACs, 8 FLOPs (f32: 8); 64 bytes compulsory
void edges(float *y, const float *x, int n, int k) {
  for (int i = 0; i < n; i++)
    y[i] = edge_scale(i, k, x[i]);
}

// A guard before other statements of a scalar helper is a branch of it
// (`c ? e : ({ the rest })`); the other early returns stay refused.
// --- Refused: other early returns ---

static double more_than_a_return(double a) {
  if (a < 0.0) {
    double b = -a;
    return b * 2.0;
  }
  return a;
}
// CHECK: early-returns.c:[[@LINE+2]]:3: note: loop nest not analyzed: early exit ('return') in 'more_than_a_return', called inside the nest
void twice_abs(double *y, const double *x, int n) {
  for (int i = 0; i < n; i++)
    y[i] = more_than_a_return(x[i]);
}

// An if/else that only returns in each arm, as the helper's last statement,
// is `c ? e1 : e2` (darknet's stair_activate); here a select of plain
// values, one compare. With more than a return in an arm it stays refused.
static double with_else(double a) {
  if (a < 0.0)
    return 0.0;
  else
    return a;
}
// CHECK: early-returns.c:[[@LINE+2]]:3: note: 0 MACs, 8 FLOPs (f64: 8); 128 bytes compulsory
void relu_else(double *y, const double *x, int n) {
  for (int i = 0; i < n; i++)
    y[i] = with_else(x[i]);
}

static double with_else_work(double a) {
  if (a < 0.0) {
    double b = -a;
    return b * 2.0;
  } else {
    return a;
  }
}
// CHECK: early-returns.c:[[@LINE+2]]:3: note: loop nest not analyzed: early exit ('return') in 'with_else_work', called inside the nest
void twice_abs_else(double *y, const double *x, int n) {
  for (int i = 0; i < n; i++)
    y[i] = with_else_work(x[i]);
}

// A guard before other statements: `a > 45.0 ? 1.0 : ({ e = exp(-a);
// 1.0 / (1.0 + e); })`, the compare and then 0 or 3 FLOPs: 1 to 4 a call.
static double guard_first(double a) {
  if (a > 45.0) return 1.0;
  double e = exp(-a);
  return 1.0 / (1.0 + e);
}
// CHECK: early-returns.c:[[@LINE+2]]:3: note: 0 MACs, 8 to 32 FLOPs (f64: 32); 128 bytes compulsory
void sig_guard(double *y, const double *x, int n) {
  for (int i = 0; i < n; i++)
    y[i] = guard_first(x[i]);
}

// No value: `return;` ends a void helper early.
static void store_positive(double *y, double a) {
  if (a <= 0.0) return;
  *y = a;
}
// CHECK: early-returns.c:[[@LINE+2]]:3: note: loop nest not analyzed: early exit ('return') in 'store_positive', called inside the nest
void keep_positive(double *y, const double *x, int n) {
  for (int i = 0; i < n; i++)
    store_positive(&y[i], x[i]);
}
