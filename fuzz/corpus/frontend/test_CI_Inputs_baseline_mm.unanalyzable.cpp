// unanalyzable: a data-dependent branch in the nest.
constexpr int N = 512;
float A[N][N], B[N][N], C[N][N];

void gemm() {
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      C[i][j] = 0;
      for (int k = 0; k < N; ++k)
        if (A[i][k] > 0) C[i][j] += A[i][k] * B[k][j];
    }
}
