// Void helpers that return early on a loop-invariant condition, called
// inside a nest (llm.c's matmul_forward: `if (B*T % 8 != 0) {
// matmul_forward_naive(...); return; }` then the unrolled loops).
// test/NN/exitguards.test.

static void scale_naive(float *y, const float *x, int n) {
  for (int i = 0; i < n; ++i)
    y[i] = 2.0f * x[i];
}

// The fast path needs n a multiple of 4; else the naive one runs.
static void scale_rows(float *y, const float *x, int n) {
  if (n % 4 != 0) {
    scale_naive(y, x, n);
    return;
  }
  for (int i = 0; i < n; i += 4)
    for (int k = 0; k < 4; ++k)
      y[i + k] = 2.0f * x[i + k] + 1.0f;
}

static void maybe_bias(float *y, const float *b, int n) {
  if (b == 0)
    return;
  for (int i = 0; i < n; ++i)
    y[i] += b[i];
}

// The layer loop: each call takes one side of its guard.
void layers(float *out, const float *in, const float *bias, int L, int n) {
  for (int l = 0; l < L; ++l) {
    scale_rows(out + l * n, in + l * n, n);
    maybe_bias(out + l * n, bias, n);
  }
}

// A guard on data: refused, with the reason.
static void clip_or_skip(float *y, const float *x, int n) {
  if (x[0] > 100.0f)
    return;
  for (int i = 0; i < n; ++i)
    y[i] = x[i];
}
void data_guard(float *out, const float *in, int L, int n) {
  for (int l = 0; l < L; ++l)
    clip_or_skip(out + l * n, in + l * n, n);
}

// The caller's pointer passed on as it is: the helper's null check is the
// caller's (it was taken as non-null, wrong for a null bias).
static void add_bias(float *y, const float *b, int n) {
  for (int i = 0; i < n; ++i)
    if (b != 0)
      y[i] += b[i];
}
void biased(float *out, const float *bias, int L, int n) {
  for (int l = 0; l < L; ++l)
    add_bias(out + l * n, bias, n);
}
