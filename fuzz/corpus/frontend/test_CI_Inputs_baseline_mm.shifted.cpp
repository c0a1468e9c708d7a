// shifted: ten lines added above; the nest is matched by function and ordinal.
// filler 1
// filler 2
// filler 3
// filler 4
// filler 5
// filler 6
// filler 7
// filler 8
// filler 9
// filler 10
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
