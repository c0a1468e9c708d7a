// Helpers whose value an expression uses and whose body has a loop: a dot
// product, a row sum, a norm (test/NN/valuecalls.test).
#include <math.h>

static float dot(const float *a, const float *b, int n) {
  float s = 0.0f;
  for (int k = 0; k < n; ++k)
    s += a[k] * b[k];
  return s;
}

static float row_max(const float *x, int n) {
  float m = x[0];
  for (int k = 1; k < n; ++k)
    m = x[k] > m ? x[k] : m;
  return m;
}

static float sum_sq(const float *x, int n) {
  float s = 0.0f;
  for (int k = 0; k < n; ++k)
    s += x[k] * x[k];
  return s;
}

// y = W x + b, the dot through a helper on a row pointer.
void matvec(float *y, const float *W, const float *x, const float *b, int M,
            int N) {
  for (int i = 0; i < M; ++i)
    y[i] = b[i] + dot(W + i * N, x, N);
}

// A softmax's max and an rmsnorm's scale per row, in the row loop.
void row_stats(float *mx, float *scale, const float *X, int R, int C) {
  for (int r = 0; r < R; ++r) {
    const float *row = &X[r * C];
    mx[r] = row_max(row, C);
    float ss = sum_sq(row, C) / C + 1e-5f;
    scale[r] = 1.0f / sqrtf(ss);
  }
}

// Attention scores: q . k for every earlier position (a causal mask).
void scores(float *att, const float *q, const float *k, int T, int H) {
  for (int t = 0; t < T; ++t)
    for (int t2 = 0; t2 <= t; ++t2)
      att[t * T + t2] = dot(q + t * H, k + t2 * H, H) * 0.125f;
}

// A helper with a loop in a data-dependent branch: the loop runs on some
// paths only. Refused.
void gated(float *y, const float *W, const float *x, int M, int N) {
  for (int i = 0; i < M; ++i)
    y[i] = x[i] > 0 ? dot(W + i * N, x, N) : 0.0f;
}

// A helper that writes memory in its loop, called in an expression.
static float scale_row(float *row, float a, int n) {
  float s = 0.0f;
  for (int k = 0; k < n; ++k) {
    row[k] *= a;
    s += row[k];
  }
  return s;
}
void rescale(float *tot, float *X, int R, int C) {
  for (int r = 0; r < R; ++r)
    tot[r] = scale_row(X + r * C, 0.5f, C);
}
