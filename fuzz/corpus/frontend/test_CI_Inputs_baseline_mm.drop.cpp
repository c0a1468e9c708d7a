// drop: still compute-bound, AI 2.3% lower.
constexpr int N = 500; // AI 83.3: 2.3% lower
float A[N][N], B[N][N], C[N][N];

void gemm() {
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      C[i][j] = 0;
      for (int k = 0; k < N; ++k)
        C[i][j] += A[i][k] * B[k][j];
    }
}
