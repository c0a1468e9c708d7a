// assert() in C++ (test/Frontend/NN/assert.c for C): <cassert> makes it
// `static_cast<bool>(c) ? void(0) : __assert_fail(...)`, counted as the run
// where it holds: the condition every iteration, the failing arm dropped.
// RUN: roofline-lint --verbosity=normal --no-source --param n=10 %s -- -std=c++20 | FileCheck %s
// RUN: roofline-lint --verbosity=normal --no-source --param n=10 %s -- -std=c++20 -DNDEBUG | FileCheck %s --check-prefix=NDEBUG
#include <cassert>
#include <cmath>
#include <span>

// CHECK: assert.cpp:[[@LINE+4]]:3: note: 0 MACs, 20 FLOPs (f32: 20); 80 bytes compulsory
// CHECK: assert.cpp:[[@LINE+3]]:3: note: assert (line [[@LINE+4]]): its condition is counted, the failing branch assumed not taken
// NDEBUG: assert.cpp:[[@LINE+2]]:3: note: 0 MACs, 10 FLOPs (f32: 10); 80 bytes compulsory
void positive(std::span<const float> x, std::span<float> y, int n) {
  for (int i = 0; i < n; i++) {
    assert(x[i] > 0.0f);
    y[i] = x[i] * 2.0f;
  }
}

// Inside an inlined helper, with a compare of a local holding data.
static float clipped(float v) {
  float a = v * v;
  assert(a < 1e6f && "overflow");
  return a + 1.0f;
}
// CHECK: assert.cpp:[[@LINE+3]]:3: note: 0 MACs, 30 FLOPs (f32: 30); 80 bytes compulsory
// NDEBUG: assert.cpp:[[@LINE+2]]:3: note: 0 MACs, 20 FLOPs (f32: 20); 80 bytes compulsory
void square_plus(const float *x, float *y, int n) {
  for (int i = 0; i < n; i++)
    y[i] = clipped(x[i]);
}

// Refused: `a || b` where the assertion holds may not have run b.
// CHECK: assert.cpp:[[@LINE+2]]:3: note: loop nest not analyzed: assert condition 'x[i] > 0.0f || x[i] < -1.0f': its right side runs on some runs only (the work depends on the data)
void either(const float *x, float *y, int n) {
  for (int i = 0; i < n; i++) {
    assert(x[i] > 0.0f || x[i] < -1.0f);
    y[i] = x[i];
  }
}

// A library's own check macro that aborts (TensorFlow Lite's
// `TFLITE_DCHECK_GE(i, 0)`: `(i >= 0) ? (void)0 : abort()`) is an assertion
// too, in a nest and inside an accessor: the shape's dimensions read through
// `Dims(i)`, an int multiply per dimension after the first.
#include <cstdlib>
#define CHECK_GE(x, y) ((x) >= (y)) ? (void)0 : abort()
struct Shape {
  int size_;
  int dims_[6];
  int Dims(int i) const {
    CHECK_GE(i, 0);
    return dims_[i];
  }
};
// CHECK: assert.cpp:[[@LINE+3]]:3: note: 0 MACs, 10 FLOPs (f32: 10); 80 bytes compulsory
// CHECK: assert.cpp:[[@LINE+2]]:3: note: assert (line [[@LINE+3]]): its condition is counted, the failing branch assumed not taken
void checked(const float *x, float *y, int n) {
  for (int i = 0; i < n; i++) {
    CHECK_GE(x[i], 0.0f);
    y[i] = x[i];
  }
}
// CHECK: assert.cpp:[[@LINE+3]]:3: note: 0 MACs, 0 FLOPs; 20 bytes compulsory, 20 bytes no-reuse
int volume(const Shape &shape) {
  int prod = 1;
  for (int i = 1; i < 6; ++i)
    prod *= shape.Dims(i);
  return prod;
}
