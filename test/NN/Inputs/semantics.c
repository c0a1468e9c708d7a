// Small kernels whose counts are derived by hand, to check the oracle
// itself (test/NN/oracle-semantics.test). N = 10 elements, R = 3 rows of 4.
#include <math.h>

#define SCALE sqrtf(2.0f / M_PI)

// Literal-only subexpressions are free: SCALE and 3.0f * 0.5f fold, the
// rest is 4 FLOPs per element (x * 2.0f * 0.25f is two multiplies, then
// the multiply by SCALE and the add). 40 FLOPs; x read 10, y written 10.
void folding(float *y, const float *x, int N) {
  for (int i = 0; i < N; i++)
    y[i] = x[i] * 2.0f * 0.25f * SCALE + 3.0f * 0.5f;
}

// A sign flip is no FLOP, fmaf is 2, the compare 1, expf 1 (w > 0 always
// holds), the division 1 and a math call on an int size 1 (sqrtf(N)): 6 per
// element, 60.
void ops(float *y, const float *x, int N) {
  for (int i = 0; i < N; i++) {
    float v = -x[i];
    float w = fmaf(v, v, 1.0f);
    y[i] = w > 0.0f ? expf(w) : w;
    y[i] = y[i] / sqrtf(N);
  }
}

// Prologue and epilogue FLOPs belong to no nest; two nests in one function
// are measured apart. Nest 1: 10 FLOPs, x read 10 (s is a scalar). Nest 2:
// 10 FLOPs, x read 10, y written 10. The 2 FLOPs between them count nowhere.
void two_nests(float *y, const float *x, float bias, int N) {
  float s = bias * 2.0f;
  for (int i = 0; i < N; i++)
    s += x[i];
  s = s / N;
  for (int i = 0; i < N; i++)
    y[i] = x[i] - s;
}

// First access decides: acc is read first (read 3 + written 3), tmp is
// written first then read (written 3 only), the local array is scratch (no
// bytes), the int index array is read (4 elements of 4 bytes). FLOPs per
// row: 4 adds into part[], 4 adds summing it, 1 add into acc: 27.
void first_access(float *acc, float *tmp, const float *x, const int *col,
                  int R) {
  for (int r = 0; r < R; r++) {
    float part[4];
    for (int j = 0; j < 4; j++)
      part[j] = x[r * 4 + col[j]] + 1.0f;
    float s = 0.0f;
    for (int j = 0; j < 4; j++)
      s += part[j];
    tmp[r] = s;
    acc[r] += tmp[r];
  }
}

// A helper called inside the nest counts at the call's line, in the
// caller's nest: 2 FLOPs and 2 reads per call, 3 calls (rows of 4, the
// middle two elements of each). 6 FLOPs; x read 6, y written 3.
static float pair_sum(const float *row) { return row[1] + row[2] * 1.5f; }
void calls_helper(float *y, const float *x, int R) {
  for (int r = 0; r < R; r++)
    y[r] = pair_sum(x + r * 4);
}

// A helper called outside any nest counts in its own nest: the read of x[0]
// and the multiply before the call belong to no nest; scale_row's nest has
// 10 FLOPs, x read 10, y written 10.
static void scale_row(float *y, const float *x, float a, int n) {
  for (int i = 0; i < n; i++)
    y[i] = a * x[i];
}
void outer_calls(float *y, const float *x, int N) {
  float a = x[0] * 2.0f;
  scale_row(y, x, a, N);
}

// Two plain copies: no FLOPs, x read 10, y written 10 (compare-fails.test
// leaves one out of its canned report and the other without expectation).
void copy_one(float *y, const float *x, int N) {
  for (int i = 0; i < N; i++)
    y[i] = x[i];
}
void copy_two(float *y, const float *x, int N) {
  for (int i = 0; i < N; i++)
    y[i] = x[i];
}
