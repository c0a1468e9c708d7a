// A binary-weight GEMM (XNOR-net style, as darknet's gemm_bin is written):
// each sign of A adds or subtracts a row of B into a row of C, and a signed
// scaled update. test/NN/signgemm.test.
void sign_gemm(int M, int N, int K, const char *S, const float *B, float *C) {
  for (int i = 0; i < M; ++i) {
    for (int k = 0; k < K; ++k) {
      char sign = S[i * K + k];
      if (sign) {
        for (int j = 0; j < N; ++j)
          C[i * N + j] += B[k * N + j];
      } else {
        for (int j = 0; j < N; ++j)
          C[i * N + j] -= B[k * N + j];
      }
    }
  }
}

void signed_axpy(int M, int N, int K, const float *G, const float *B, float *C,
                 float w) {
  for (int i = 0; i < M; ++i)
    for (int k = 0; k < K; ++k) {
      if (G[i * K + k] > 0.0f) {
        for (int j = 0; j < N; ++j)
          C[i * N + j] += w * B[k * N + j];
      } else {
        for (int j = 0; j < N; ++j)
          C[i * N + j] -= w * B[k * N + j];
      }
    }
}
