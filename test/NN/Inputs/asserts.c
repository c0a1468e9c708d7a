// Kernels with assert() in their nests and early returns (test/NN/asserts.test,
// docs/design.md "Conditions"): an assert counts as the run where it holds,
// its condition every iteration; an early return under a loop-invariant
// condition first in the nest is a case where nothing runs.
#include <assert.h>
#include <stddef.h>

// A NaN check on every input, then a scale.
void checked_scale(float *y, const float *x, int N) {
  for (int i = 0; i < N; i++) {
    assert(x[i] == x[i]);
    y[i] = 2.0f * x[i];
  }
}

// Bounds on weights inside a matrix-vector product, a check of the sum per row
// and one of sizes and pointers (no work).
void matvec_checked(float *y, const float *w, const float *x, int N, int M) {
  for (int r = 0; r < N; r++) {
    float acc = 0.0f;
    assert(w != NULL && M > 0);
    for (int c = 0; c < M; c++) {
      assert(w[r * M + c] >= -10.0f && w[r * M + c] <= 10.0f);
      acc += w[r * M + c] * x[c];
    }
    assert(acc < 1e30f);
    y[r] = acc;
  }
}

// The condition reads elements nothing else reads: a mask checked, not used.
void masked_copy(float *y, const float *x, const float *mask, int N) {
  for (int i = 0; i < N; i++) {
    assert(mask[i] >= 0.0f);
    y[i] = x[i];
  }
}

// An inlined helper asserting its argument.
static float act(float v) {
  assert(v > -1e30f);
  return v * 0.5f + 1.0f;
}
void apply_act(float *y, const float *x, int N) {
  for (int i = 0; i < N; i++)
    y[i] = act(x[i]);
}

// rnn.c's feedBack: counters checked after the row loops.
void counted_rows(float *w, const float *x, int N, int M) {
  for (int t = 0; t < N; t++) {
    int k = 0;
    for (int j = 0; j < M; j++) {
      w[t * M + j] = x[j] * 3.0f;
      k++;
    }
    assert(k == M);
  }
}

// An early return under a flag, first in the nest: the case where it
// returns runs nothing.
void scale_unless(float *y, const float *x, int N, int skip) {
  for (int i = 0; i < N; i++) {
    if (skip)
      return;
    y[i] = x[i] * 0.5f;
  }
}

// Refused: where the assertion holds, b of `a || b` may not have run.
void either(float *y, const float *x, int N) {
  for (int i = 0; i < N; i++) {
    assert(x[i] > 0.0f || x[i] < -0.5f);
    y[i] = x[i];
  }
}

// llama2.c's sample_mult: where it stops depends on the data, so its counts are
// a range (docs/design.md "Early exits").
int sample_mult(const float *probabilities, int N, float coin) {
  float cdf = 0.0f;
  for (int i = 0; i < N; i++) {
    cdf += probabilities[i];
    if (coin < cdf)
      return i;
  }
  return N - 1;
}
