// GEMM_N comes from the target's compile definitions (via compile_commands.json).
float A[GEMM_N][GEMM_N], B[GEMM_N][GEMM_N], C[GEMM_N][GEMM_N];

void gemm() {
  for (int i = 0; i < GEMM_N; ++i)
    for (int j = 0; j < GEMM_N; ++j) {
      C[i][j] = 0;
      for (int k = 0; k < GEMM_N; ++k)
        C[i][j] += A[i][k] * B[k][j];
    }
}
