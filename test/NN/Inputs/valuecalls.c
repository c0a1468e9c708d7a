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

// A helper that writes memory in its loop, called in an expression: its
// loops run before the statement, as the statement's store waits for its
// value (its reads would not).
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

// The statement's store into the row the helper scales: after the call.
void rescale_first(float *X, int R, int C) {
  for (int r = 0; r < R; ++r)
    X[r * C] = scale_row(X + r * C, 0.5f, C);
}

// A training loop's `loss += step(...)`: the helper accumulates a
// gradient over the samples and returns the sample's loss.
static float grad_step(const float *x, const float *w, float *g, int n) {
  float err = -1.0f;
  for (int k = 0; k < n; ++k)
    err += w[k] * x[k];
  for (int k = 0; k < n; ++k)
    g[k] += err * x[k];
  return err * err;
}
float train_epoch(const float *X, const float *w, float *g, int R, int C) {
  float loss = 0.0f;
  for (int r = 0; r < R; ++r)
    loss += grad_step(X + r * C, w, g, C);
  return loss;
}

// The expression reads the row the helper writes: C does not order the
// read against the call. Refused.
void rescale_read(float *tot, float *X, int R, int C) {
  for (int r = 0; r < R; ++r)
    tot[r] = X[r * C] + scale_row(X + r * C, 0.5f, C);
}

// Two helpers of one expression, one writing what the other reads: no
// order either. Refused.
void rescale_twice(float *tot, float *X, int R, int C) {
  for (int r = 0; r < R; ++r)
    tot[r] = scale_row(X + r * C, 0.5f, C) + sum_sq(X + r * C, C);
}

// A cross-entropy helper reads its own array at the element the label
// picks: a scratch array moves no bytes, whichever element it is.
static float xent(const float *x, int label, int n) {
  float e[8];
  float s = 0.0f;
  for (int k = 0; k < n; ++k) {
    e[k] = expf(x[k]);
    s += e[k];
  }
  return logf(s) - logf(e[label]);
}
float xent_epoch(const float *X, const int *labels, int R, int C) {
  float loss = 0.0f;
  for (int r = 0; r < R; ++r)
    loss += xent(X + r * C, labels[r], C);
  return loss;
}

// The same label picking an element of an array the caller passed: which
// element moves depends on the data. Refused.
static void tally(float *hist, int label) { hist[label] += 1.0f; }
void tally_labels(float *hist, const int *labels, int R) {
  for (int r = 0; r < R; ++r)
    tally(hist, labels[r]);
}
