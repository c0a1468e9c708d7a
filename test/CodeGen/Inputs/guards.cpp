// Affine `if`s around part of a loop body (guard loops, docs/user-guide.md
// "Conditions"): emitted, built and checked by scripts/check-cpu-variants.py
// (test/CodeGen/guards.test). Sizes are arguments so that the checker can
// sweep them.

// An RNN backward step: the weight gradient needs a next step.
void rnn_step(int T, int N, int M, const float *e, const float *w, float *y,
              float *b) {
  for (int t = 0; t < T; t++)
    for (int i = 0; i < N; i++) {
      float d = e[t * N + i] * 2.0f;
      if (t + 1 < T) {
        for (int j = 0; j < M; j++)
          y[t * M + j] += w[i * M + j] * d;
      }
      b[i] += d;
    }
}

// A mask with else beside other work, and a diagonal.
void mask_diag(int T, int N, float *x, float *y, float *d) {
  for (int t = 0; t < T; t++)
    for (int i = 0; i < N; i++) {
      x[t * N + i] += 1.0f;
      if (i <= t)
        y[t * N + i] = x[t * N + i] * 3.0f;
      else
        y[t * N + i] = 0.0f;
      if (i == t)
        d[i] += x[t * N + i];
    }
}
