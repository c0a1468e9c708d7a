// Nests the CUDA backend emits (issue 7, docs/cuda.md): test/CodeGen/cuda-compile.test
// compiles every variant with nvcc; scripts/gpu-check.sh checks and times
// them on a GPU. Sizes are arguments so that the checks can sweep them.
#include <cmath>
#include <vector>

// gemm, row-major, C cleared first: the ladder naive .. blocktiled, int8, bf16.
void gemm(int M, int N, int K, const float *A, const float *B, float *C) {
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      C[i * N + j] = 0;
      for (int k = 0; k < K; ++k)
        C[i * N + j] += A[i * K + k] * B[k * N + j];
    }
}

// The memory-bound case: gemv (a warp per row, float4, int8).
void gemv(int M, int K, const float *A, const float *x, float *y) {
  for (int i = 0; i < M; ++i) {
    y[i] = 0;
    for (int k = 0; k < K; ++k)
      y[i] += A[i * K + k] * x[k];
  }
}

// A layer: gemm, then bias and ReLU (fused: the epilogue runs in the store).
void dense_relu(int M, int N, int K, const float *A, const float *W,
                const float *bias, float *C) {
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      C[i * N + j] = 0;
      for (int k = 0; k < K; ++k)
        C[i * N + j] += A[i * K + k] * W[k * N + j];
    }
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      C[i * N + j] = std::fmax(C[i * N + j] + bias[j], 0.0f);
}

// The seed's elementwise chain through temporaries local to the function
// (section 8: unfused 24 bytes per element, fused 8).
void chain3(int n, const float *x, float *y) {
  std::vector<float> t1(n), t2(n);
  for (int i = 0; i < n; ++i)
    t1[i] = x[i] * 2.0f;
  for (int i = 0; i < n; ++i)
    t2[i] = t1[i] + 1.0f;
  for (int i = 0; i < n; ++i)
    y[i] = t2[i] * t2[i];
}
