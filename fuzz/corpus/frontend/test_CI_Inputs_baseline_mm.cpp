// v1: compute-bound gemm (AI = N/6 = 85.33 at N = 512).
constexpr int N = 512;
float A[N][N], B[N][N], C[N][N];

void gemm() {
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      C[i][j] = 0;
      for (int k = 0; k < N; ++k)
        C[i][j] += A[i][k] * B[k][j];
    }
}
