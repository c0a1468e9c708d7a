// The same gemm written three ways gives the same counts; two template
// instantiations give different counts; huge sizes do not wrap.
// RUN: roofline-lint --verbosity=normal --no-source %s | FileCheck %s
#include <vector>

constexpr int N = 96;
float A2[N][N], B2[N][N], C2[N][N];

// 96^3 = 884,736 MACs; compulsory 3 * 96^2 * 4 = 110,592 bytes; no-reuse
// (2*96^3 + 3*96^2) * 4 = 7,188,480 (C hoisted out of the k loop).
// CHECK: remark: multi_dim:
// CHECK-NEXT: note: 884,736 MACs, 1,769,472 FLOPs (f32: 1,769,472); 110,592 bytes compulsory, 7,188,480 bytes no-reuse
void multi_dim() {
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      C2[i][j] = 0;
      for (int k = 0; k < N; ++k)
        C2[i][j] += A2[i][k] * B2[k][j];
    }
}

// CHECK: remark: linearized:
// CHECK-NEXT: note: 884,736 MACs, 1,769,472 FLOPs (f32: 1,769,472); 110,592 bytes compulsory, 7,188,480 bytes no-reuse
void linearized(const float *A, const float *B, float *C) {
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      C[i * N + j] = 0;
      for (int k = 0; k < N; ++k)
        C[i * N + j] += A[i * N + k] * B[k * N + j];
    }
}

// CHECK: remark: vectors:
// CHECK-NEXT: note: 884,736 MACs, 1,769,472 FLOPs (f32: 1,769,472); 110,592 bytes compulsory, 7,188,480 bytes no-reuse
void vectors(const std::vector<std::vector<float>> &A,
             const std::vector<std::vector<float>> &B,
             std::vector<std::vector<float>> &C) {
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      C[i][j] = 0;
      for (int k = 0; k < N; ++k)
        C[i][j] += A[i][k] * B[k][j];
    }
}

template <int Rows, int Cols> void rowsum(const float *M, float *out) {
  for (int r = 0; r < Rows; ++r)
    for (int c = 0; c < Cols; ++c)
      out[r] += M[r * Cols + c];
}
// CHECK: remark: rowsum<4, 8>:
// CHECK-NEXT: note: 0 MACs, 32 FLOPs (f32: 32);
// CHECK: remark: rowsum<1000, 3>:
// CHECK-NEXT: note: 0 MACs, 3,000 FLOPs (f32: 3,000);
void instantiate(const float *M, float *out) {
  rowsum<4, 8>(M, out);
  rowsum<1000, 3>(M, out);
}

// 1e7^3 = 1e21 iterations: beyond int64, exact in 128 bits.
// CHECK: remark: huge: does-not-fit on rtx-a6000
// CHECK-NEXT: note: 1,000,000,000,000,000,000,000 MACs, 2,000,000,000,000,000,000,000 FLOPs
constexpr long Big = 10000000;
void huge(const double *A, const double *B, double *C) {
  for (long i = 0; i < Big; ++i)
    for (long j = 0; j < Big; ++j)
      for (long k = 0; k < Big; ++k)
        C[i * Big + j] += A[i * Big + k] * B[k * Big + j];
}

// RUN: roofline-lint --verbosity=normal --format=json %s | FileCheck %s --check-prefix=JSON
// JSON:        "bytes_compulsory": "3200000000000000",
// JSON-NEXT:   "bytes_no_reuse": "16000001600000000000000",
// JSON-NEXT:   "flops": "2000000000000000000000",
// JSON-NEXT:   "iterations": "1000000000000000000000",
// JSON-NEXT:   "loads": "2000000100000000000000",
// JSON-NEXT:   "macs": "1000000000000000000000",
// JSON:        "function": "huge",
