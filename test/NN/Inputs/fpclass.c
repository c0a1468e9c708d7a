// NaN and infinity checks inside nests (test/NN/fpclass.test): isnan(x),
// isinf(x), isfinite(x) are one compare each, as `x != x` is, whether in an
// assert, an if or a select (docs/user-guide.md, "What is counted").
#include <assert.h>
#include <math.h>

// genann's check before its activation: assert(!isnan(a)) on every input.
void checked_sigmoid(float *y, const float *x, int N) {
  for (int i = 0; i < N; i++) {
    assert(!isnan(x[i]));
    y[i] = 1.0f / (1.0f + expf(-x[i]));
  }
}

// NaN to zero: a select between plain values on a data condition.
void nan_to_zero(float *y, const float *x, int N) {
  for (int i = 0; i < N; i++)
    y[i] = isnan(x[i]) ? 0.0f : x[i];
}

// Finite entries per row: the branch updates a scalar (a range).
void finite_rows(float *out, const float *a, int R, int C) {
  for (int r = 0; r < R; r++) {
    float n = 0.0f;
    for (int c = 0; c < C; c++)
      if (isfinite(a[r * C + c]))
        n += 1.0f;
    out[r] = n;
  }
}

// Infinities clamped before a scale: both arms write the same element.
void clamp_inf(float *y, const float *x, int N) {
  for (int i = 0; i < N; i++) {
    if (isinf(x[i]))
      y[i] = 0.0f;
    else
      y[i] = 2.0f * x[i];
  }
}

// Branch hints: likely(x) is __builtin_expect(!!(x), 1), whose value is x.
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
void hinted_relu(float *y, const float *x, int N) {
  for (int i = 0; i < N; i++)
    y[i] = likely(x[i] > 0.0f) ? x[i] : 0.0f;
}

// A data-dependent continue stays refused through the hint.
void skip_nan(float *y, const float *x, int N) {
  for (int i = 0; i < N; i++) {
    if (unlikely(isnan(x[i])))
      continue;
    y[i] = 2.0f * x[i];
  }
}
