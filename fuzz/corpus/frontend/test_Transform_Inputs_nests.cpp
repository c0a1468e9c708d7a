// Nests the Transform lit tests schedule (--schedule ... --dump-ir).
constexpr int N = 256;

void gemm(const float *A, const float *B, float *C) {
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      C[i * N + j] = 0;
      for (int k = 0; k < N; ++k)
        C[i * N + j] += A[i * N + k] * B[k * N + j];
    }
}

// A wavefront: A[i][j] depends on A[i-1][j+1], distance (1, -1).
void wavefront(float *A) {
  for (int i = 1; i < N; ++i)
    for (int j = 0; j < N - 1; ++j)
      A[i * N + j] = A[(i - 1) * N + j + 1] * 0.5f;
}

void triangle(const float *L, const float *x, float *y) {
  for (int i = 0; i < N; ++i)
    for (int j = 0; j <= i; ++j)
      y[i] += L[i * N + j] * x[j];
}

void gemv(const float *A, const float *x, float *y) {
  for (int i = 0; i < N; ++i) {
    y[i] = 0;
    for (int j = 0; j < N; ++j)
      y[i] += A[i * N + j] * x[j];
  }
}

void steps(const float *x, float *t1, float *t2, float *y) {
  for (int i = 0; i < N; ++i)
    t1[i] = x[i] * 2.0f;
  for (int i = 0; i < N; ++i)
    t2[i] = t1[i] + 1.0f;
  for (int i = 0; i < N; ++i)
    y[i] = t2[i] * t2[i];
}

// Fusing these would read t[i + 1] before the first loop wrote it.
void shifted(const float *x, float *t, float *y) {
  for (int i = 0; i < N - 1; ++i)
    t[i] = x[i] * 2.0f;
  for (int i = 0; i < N - 1; ++i)
    y[i] = t[i + 1];
}
