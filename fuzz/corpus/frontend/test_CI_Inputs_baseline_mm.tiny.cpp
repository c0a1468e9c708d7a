// tiny: AI 0.8% lower, within the default 1% tolerance.
constexpr int N = 508; // AI 84.7: 0.8% lower
float A[N][N], B[N][N], C[N][N];

void gemm() {
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      C[i][j] = 0;
      for (int k = 0; k < N; ++k)
        C[i][j] += A[i][k] * B[k][j];
    }
}
