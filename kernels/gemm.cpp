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

// Section 6: A is 512x256, B is 256x512 (N = 512, K = 256, M = 512), judged
// on the RTX A6000. Sizes are call-site constants.
void gemm(int n, int k_, int m, const float *a, const float *b, float *c) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j) {
      float acc = 0;
      for (int k = 0; k < k_; ++k)
        acc += a[i * k_ + k] * b[k * m + j];
      c[i * m + j] = acc;
    }
}

void run_gemm_512x256x512(const float *a, const float *b, float *c) {
  gemm(512, 256, 512, a, b, c);
}
