// The seed's tri-loop gemm (section 2): C = A x B with three loops, one MAC
// per innermost iteration. C is cleared before the k loop, so its first
// access is a write: compulsory traffic reads A and B once and writes C once.

constexpr int N = 64; // rows of A and C
constexpr int K = 64; // columns of A, rows of B
constexpr int M = 64; // columns of B and C

float A[N][K], B[K][M], C[N][M];

void gemm_64() {
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < M; ++j) {
      C[i][j] = 0;
      for (int k = 0; k < K; ++k)
        C[i][j] += A[i][k] * B[k][j];
    }
}
