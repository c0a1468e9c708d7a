// Array forms: C arrays, pointers to arrays, linearized pointers (which are
// delinearized when the stride is a named size), std::vector and std::array.
// RUN: roofline-lint --dump-ir %s -- -std=c++17 | FileCheck %s
#include <array>
#include <cstdint>
#include <vector>

constexpr int N = 8;
float G[N][N];

// CHECK-LABEL: nest @multi_dim
// CHECK: param N = 8 (constexpr)
// CHECK: array G : f32[8][8]
// CHECK: readwrite G[i][j]
void multi_dim() {
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j)
      G[i][j] *= 2.0f;
}

// CHECK-LABEL: nest @linearized
// CHECK: param K = ? (argument)
// CHECK: array A : f64[?][K] pointer
// CHECK: read A[i][k]
void linearized(const double *A, double *y, int M, int K) {
  for (int i = 0; i < M; ++i)
    for (int k = 0; k < K; ++k)
      y[i] += A[i * K + k];
}

// CHECK-LABEL: nest @three_d
// CHECK: read X[c][h][w]
void three_d(const float *X, float *Y, int C, int H, int W) {
  for (int c = 0; c < C; ++c)
    for (int h = 0; h < H; ++h)
      for (int w = 0; w < W; ++w)
        Y[w] += X[(c * H + h) * W + w];
}

// CHECK-LABEL: nest @ptr_to_array
// CHECK: array P : i32[?][16] pointer
void ptr_to_array(int32_t (*P)[16], int M) {
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < 16; ++j)
      P[i][j] = P[i][j] + 1;
}

// CHECK-LABEL: nest @containers
// CHECK: param v.size() = ? (container)
// CHECK: array v : f32[?] pointer
// CHECK: array a : f64[4] pointer
void containers(std::vector<float> &v, std::array<double, 4> &a) {
  for (std::size_t i = 0; i < v.size(); ++i)
    v[i] = v[i] * a[2];
}

// CHECK-LABEL: nest @types
// CHECK: array h : f16[?] pointer
// CHECK: array b : bf16[?] pointer
// CHECK: array q : i8[?] pointer
// CHECK: ops f16: mul=1
// CHECK: ops bf16: add=1
void types(_Float16 *h, __bf16 *b, int8_t *q, int n) {
  for (int i = 0; i < n; ++i) {
    h[i] = h[i] * h[i];
    b[i] = b[i] + b[i];
    q[i] = q[i] + 1;
  }
}

// A linearized pointer also read through one plain subscript: A[M + i] is
// split along A's rows, A[1][i], the same address (was: refused, "accessed
// with different numbers of dimensions"; found by scripts/differential.py).
// CHECK-LABEL: nest @linearized_mixed
// CHECK: array A : f32[?][M] pointer
// CHECK: readwrite A[i + 2][k]
// CHECK: read A[1][i]
// CHECK: read A[0][i]
void linearized_mixed(float *A, int M, int N) {
  for (int i = 0; i < N; ++i)
    for (int k = 0; k < M; ++k)
      A[(i + 2) * M + k] += A[1 * M + i] * A[i];
}
