// C++ containers, scratch arrays and calls inside nests.
// RUN: roofline-lint --dump-ir %s -- -std=c++20 | FileCheck %s
// RUN: roofline-lint --no-source --param N=6 --param C=4 %s -- -std=c++20 | FileCheck %s --check-prefix=NUM
#include <array>
#include <span>
#include <vector>

// Range-based for: by reference the element itself, by value one read.
// CHECK-LABEL: nest @scale_all
// CHECK: param v.size() = ? (container)
// CHECK: for x_i = 0 to v.size() - 1
// CHECK: readwrite v[x_i]
// NUM: constructs.cpp:[[@LINE+2]]:3: remark: scale_all: no verdict
void scale_all(std::vector<float> &v) {
  for (float &x : v)
    x *= 2.0f;
}
// CHECK-LABEL: nest @sum_array
// CHECK: for x_i = 0 to 15
// CHECK: read a[x_i]
// NUM: constructs.cpp:[[@LINE+3]]:3: note: 0 MACs, 16 FLOPs (f32: 16); 64 bytes compulsory
float sum_array(const float (&a)[16]) {
  float s = 0;
  for (float x : a)
    s += x;
  return s;
}

// A span of (pointer, length) per row; std::array as scratch.
// CHECK-LABEL: nest @rows
// CHECK: array acc : f32[4] scratch
// CHECK: for v_i = 0 to C - 1
// CHECK: read in[n][v_i]
// NUM: constructs.cpp:[[@LINE+2]]:3: note: 24 MACs, 48 FLOPs (f32: 48); 120 bytes compulsory
void rows(std::span<const float> in, std::span<float> out, int N, int C) {
  for (int n = 0; n < N; n++) {
    std::span<const float> x(in.data() + n * C, C);
    std::array<float, 4> acc{};
    for (float v : x)
      acc[0] += v * 2.0f;
    out[n] = acc[0];
  }
}

// A call to a function of the file is its body at the call's arguments.
// CHECK-LABEL: nest @layer
// CHECK: array x : f32[?][C] pointer
// CHECK: for i.2 = 0 to C - 1
// CHECK: write x[i][i.2]
// CHECK-NEXT: read x[i][i.2]
static void scale_row(float *r, int n, float s) {
  for (int i = 0; i < n; i++)
    r[i] = r[i] * s;
}
static float twice(float v) { return v + v; }
// Each row of C is x + i*C; the callee's loop variable i stays apart from
// the caller's.
// NUM: constructs.cpp:[[@LINE+3]]:3: note: 0 MACs, 30 FLOPs (f32: 30); 192 bytes compulsory
// NUM: constructs.cpp:[[@LINE+2]]:3: note: call to scale_row (line [[@LINE+3]]) counted as its body
void layer(float *x, int N, int C) {
  for (int i = 0; i < N; i++) {
    scale_row(x + i * C, C, 2.0f);
    x[i * C] = twice(x[i * C]);
  }
}

// Recursion is refused by name.
// NUM: constructs.cpp:[[@LINE+4]]:3: note: loop nest not analyzed: recursive call to 'rec'
void rec(float *a, int n) {
  if (n <= 0)
    return;
  for (int i = 0; i < n; i++)
    rec(a, n - 1);
}
