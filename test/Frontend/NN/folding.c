// Subexpressions a compiler folds cost nothing; index and address
// arithmetic is not work (docs/design.md, "Counting rules").
// RUN: roofline-lint --dump-ir %s | FileCheck %s
#include <math.h>
#define GELU_SCALING_FACTOR sqrtf(2.0f / M_PI)
static const float kHalf = 0.5f;

// tanh form of GELU: 9 FLOPs per element, no f64 from M_PI.
// CHECK-LABEL: nest @gelu
// CHECK: read inp[i]
// CHECK-NEXT: }
// CHECK: ops f32: mul=3
// CHECK: ops f32: add=2 mul=3 tanh=1
// CHECK-NOT: f64
void gelu(float *out, const float *inp, int N) {
  for (int i = 0; i < N; i++) {
    float x = inp[i];
    float cube = 0.044715f * x * x * x;
    out[i] = kHalf * x * (1.0f + tanhf(GELU_SCALING_FACTOR * (x + cube)));
  }
}

// Folded only where constant as written: x * 3.0f * 0.044715f is two
// multiplies, 3.0f * 0.044715f * x one.
// CHECK-LABEL: nest @order
// CHECK: ops f32: mul=2
// CHECK: ops f32: mul=1
void order(float *a, float *b, const float *x, int N) {
  for (int i = 0; i < N; i++) {
    a[i] = x[i] * 3.0f * 0.044715f;
    b[i] = 3.0f * 0.044715f * x[i];
  }
}

// Offsets and indices computed from loop variables and sizes are
// addressing, not integer work; integer arithmetic on data is.
// CHECK-LABEL: nest @addressing
// CHECK-NOT: intops
// CHECK: ops f32: add=1
// CHECK-NOT: intops
// CHECK: nest @histogram
// CHECK: intops 1
void addressing(float *out, const float *a, const float *b, int T, int C) {
  for (int t = 0; t < T; t++) {
    const float *arow = a + t * C;
    int base = t * C;
    for (int i = 0; i < C; i++)
      out[base + i] = arow[i] + b[(t + 1) * C - 1 - i];
  }
}
void histogram(int *count, const int *tok, int N) {
  for (int i = 0; i < N; i++)
    count[i] = tok[i] * 2;
}
