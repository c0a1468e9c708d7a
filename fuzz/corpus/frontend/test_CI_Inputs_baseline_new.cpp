// Added after the baseline: a new memory-bound nest and a new compute-bound one.
constexpr int N = 4096;
float u[N], v[N];
float P[384][384], Q[384][384], R[384][384];

void fresh_copy() {
  for (int i = 0; i < N; ++i)
    v[i] = u[i];
}

void fresh_gemm() {
  for (int i = 0; i < 384; ++i)
    for (int j = 0; j < 384; ++j) {
      R[i][j] = 0;
      for (int k = 0; k < 384; ++k)
        R[i][j] += P[i][k] * Q[k][j];
    }
}
