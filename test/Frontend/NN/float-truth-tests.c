// A float used as a condition compares it with zero: one FLOP, as `x != 0`
// is. darknet's softmax_x_ent_cpu writes `error[i] = (t) ? -log(p) : 0;`;
// the truth test went uncounted, so the FLOP range was below what runs.
// RUN: roofline-lint --verbosity=normal --no-source --param n=10 %s | FileCheck %s

// The select's compare (10) and the multiply on the taken side (0..10).
// CHECK: float-truth-tests.c:[[@LINE+3]]:3: remark: select:
// CHECK: note: 0 MACs, 10 to 20 FLOPs (f32: 20)
void select(float *e, const float *t, const float *p, int n) {
  for (int i = 0; i < n; i++) {
    float q = p[i];
    e[i] = (t[i]) ? 2.0f * q : 0;
  }
}

// `if (x)` and `!x` on a double: one compare each, and the add.
// CHECK: float-truth-tests.c:[[@LINE+3]]:3: remark: branch:
// CHECK: note: 0 MACs, 30 FLOPs (f64: 30)
void branch(double *y, const double *x, int n) {
  for (int i = 0; i < n; i++) {
    double v = 0.0;
    if (x[i])
      v = 1.0;
    y[i] = v + !x[i];
  }
}

// An int condition is no FLOP.
// CHECK: float-truth-tests.c:[[@LINE+3]]:3: remark: ints:
// CHECK: note: 0 MACs, 0 FLOPs
void ints(float *y, const int *m, int n) {
  for (int i = 0; i < n; i++)
    y[i] = m[i] ? 1.0f : 0.0f;
}
