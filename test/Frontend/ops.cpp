// Counting rules per docs/design.md: a multiply feeding an add is one MAC (also
// fma); other floating + - * / are one op each; math calls by name; integer
// arithmetic on data is INTOPs; int8 x int8 MACs are i8 MACs.
// RUN: roofline-lint --dump-ir %s | FileCheck %s
#include <cmath>
#include <cstdint>

// CHECK-LABEL: nest @forms
void forms(float *a, float *b, float *c, double *d, float s, int n) {
  for (int i = 0; i < n; ++i) {
    c[i] += a[i] * b[i];
    // CHECK: stmt @[[@LINE-1]]:5 {
    // CHECK: ops f32: mac=1{{$}}
    c[i] = a[i] * b[i] + c[i];
    // CHECK: stmt @[[@LINE-1]]:5 {
    // CHECK: ops f32: mac=1{{$}}
    c[i] = c[i] - a[i] * b[i] + s;
    // CHECK: stmt @[[@LINE-1]]:5 {
    // CHECK: ops f32: mac=1 add=1{{$}}
    c[i] = fmaf(a[i], b[i], c[i]);
    // CHECK: stmt @[[@LINE-1]]:5 {
    // CHECK: ops f32: mac=1{{$}}
    d[i] = d[i] * 2.0 / 3.0;
    // CHECK: stmt @[[@LINE-1]]:5 {
    // CHECK: ops f64: mul=1 div=1{{$}}
    c[i] = std::exp(a[i]) + tanhf(b[i]);
    // CHECK: stmt @[[@LINE-1]]:5 {
    // CHECK: ops f32: add=1 exp=1 tanh=1{{$}}
    c[i] = std::fmax(sqrtf(a[i]), 0.0f);
    // CHECK: stmt @[[@LINE-1]]:5 {
    // CHECK: ops f32: fmax=1 sqrt=1{{$}}
  }
}

// CHECK-LABEL: nest @int8_dot
// CHECK:      ops i8: mac=1
// CHECK-LABEL: nest @int_data
// CHECK:      ops i32: mac=1
// CHECK:      intops 2
void int8_dot(const int8_t *x, const int8_t *y, int32_t *acc, int n) {
  for (int i = 0; i < n; ++i)
    acc[0] += x[i] * y[i];
}
void int_data(int32_t *v, int n) {
  for (int i = 0; i < n; ++i)
    v[i] = v[i] * 3 + 1;
  for (int i = 0; i < n; ++i)
    v[i] = v[i] / 3 - 1;
}

// Scalar locals are registers: no access for s.
// CHECK-LABEL: nest @scalar_acc
// CHECK:      for k = 0 to n - 1
// CHECK-NEXT:   stmt
// CHECK-NEXT:     read a[k]
// CHECK-NEXT:     read a[k]
// CHECK-NEXT:     ops f32: mac=1
// CHECK-NEXT:   }
// CHECK-NEXT: }
void scalar_acc(const float *a, float *out, int n) {
  float s = 0;
  for (int k = 0; k < n; ++k)
    s += a[k] * a[k];
  out[0] = s;
}

// Imperfect nests and several nests in one function.
// CHECK-LABEL: nest @imperfect
// CHECK:      for i = 0 to n - 1
// CHECK-NEXT:   stmt
// CHECK-NEXT:     write y[i]
// CHECK:        for j = 0 to n - 1
// CHECK:        stmt
// CHECK-NEXT:     readwrite y[i]
// CHECK-LABEL: nest @imperfect
// CHECK:      for i = 0 to n - 1
void imperfect(const float *A, const float *x, float *y, int n) {
  for (int i = 0; i < n; ++i) {
    y[i] = 0;
    for (int j = 0; j < n; ++j)
      y[i] += A[i * n + j] * x[j];
    y[i] *= 0.5f;
  }
  for (int i = 0; i < n; ++i)
    y[i] = y[i] + 1.0f;
}
