// A comparison with an integer literal on the left (`0 < x`, cnn.c's
// relu) compares floats: the literal is converted, so it counts one cmp
// FLOP like `x > 0.0`. It counted nothing before.
// RUN: roofline-lint --verbosity=normal --no-source --param N=8 %s | FileCheck %s

static inline double relu(double x) { return (0 < x) ? x : 0; }
static inline double relu_g(double y) { return (0 < y) ? 1 : 0; }

// CHECK: compare-literal.c:[[@LINE+2]]:3: note: 0 MACs, 16 FLOPs (f64: 16); 192 bytes compulsory
void relu_layer(double *y, double *g, const double *x, int N) {
  for (int i = 0; i < N; i++) {
    double v = relu(x[i]);
    y[i] = v;
    g[i] = relu_g(v);
  }
}
// CHECK: compare-literal.c:[[@LINE+2]]:3: note: 0 MACs, 8 FLOPs (f32: 8); 64 bytes compulsory
void inline_select(float *y, const float *x, int N) {
  for (int i = 0; i < N; i++)
    y[i] = 0 < x[i] ? x[i] : 0;
}
