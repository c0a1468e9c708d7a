// Section 8, tiling: an untiled N = 1024 gemm. Under the no-reuse model every
// A and B reference goes to memory (AI ~0.25); the compulsory ideal reads each
// matrix once (AI = N/6 ~170 in float32, N/3 in bf16).

constexpr int N = 1024;

void gemm_f32(const float *A, const float *B, float *C) {
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      C[i * N + j] = 0;
      for (int k = 0; k < N; ++k)
        C[i * N + j] += A[i * N + k] * B[k * N + j];
    }
}

void gemm_bf16(const __bf16 *A, const __bf16 *B, __bf16 *C) {
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      C[i * N + j] = 0;
      for (int k = 0; k < N; ++k)
        C[i * N + j] += A[i * N + k] * B[k * N + j];
    }
}
