// A gemm whose size has no value: the plot draws it as a range of sizes.
void square_gemm(const float *A, const float *B, float *C, int N) {
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      float s = 0;
      for (int k = 0; k < N; ++k)
        s += A[i * N + k] * B[k * N + j];
      C[i * N + j] = s;
    }
}
