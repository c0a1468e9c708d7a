// Compute-bound on rtx-a6000: 512^3 gemm, compulsory AI = 2*512^3 / (3*512^2*4) = 85.3.
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
