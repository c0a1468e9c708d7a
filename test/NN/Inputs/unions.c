// Conditions that hold on a union of ranges (test/NN/unions.test): a causal
// mask that also skips left padding, the border of a grid, a band and its
// complement, and a diagonal skipped beside other work.

// Scores of a causal window past P padded positions.
void attn_pad(float *att, const float *q, const float *k, int T, int P) {
  for (int t = 0; t < T; t++)
    for (int t2 = 0; t2 < T; t2++) {
      if (t2 > t || t2 < P)
        continue;
      att[t * T + t2] = q[t] * k[t2];
    }
}

// Only the first row and the first column.
void border(float *y, const float *x, int n) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      if (i > 0 && j > 0)
        continue;
      y[i * n + j] = x[i * n + j] + 1.0f;
    }
}

// Outside a band of width w: zero; inside: scaled.
void band(float *y, const float *x, int n, int w) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      if (j < i - w || j > i + w)
        y[i * n + j] = 0.0f;
      else
        y[i * n + j] = 2.0f * x[i * n + j];
    }
}

// The diagonal skipped, after other work in the body.
void off_diag(float *y, float *s, const float *x, int n) {
  for (int i = 0; i < n; i++) {
    y[i] = 0.0f;
    for (int j = 0; j < n; j++) {
      s[i] += x[j];
      if (i != j)
        y[i] += x[i * n + j];
    }
  }
}

// A union with a condition on the data: refused.
void by_data(float *y, const float *x, int n) {
  for (int i = 0; i < n; i++) {
    if (i < 2 || x[i] > 0.0f)
      continue;
    y[i] = x[i];
  }
}
