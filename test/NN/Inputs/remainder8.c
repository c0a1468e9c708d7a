// Loops unrolled by 8 up to n8 = n>>3<<3 and the remainder loop that goes
// on from where the unrolled loop left i, as kann's kautodiff.c writes them
// (`for (; i < n; ++i)`, `for (s = 0.; i < n; ++i)`), for
// test/NN/remainder8.test.

float sdot(int n, const float *x, const float *y) {
  int i, n8 = n >> 3 << 3;
  float s, t = 0.0f;
  for (i = 0; i < n8; i += 8)
    for (int u = 0; u < 8; ++u)
      t += x[i + u] * y[i + u];
  for (s = 0.0f; i < n; ++i)
    s += x[i] * y[i];
  return s + t;
}

void saxpy(int n, float a, const float *x, float *y) {
  int i, n8 = n >> 3 << 3;
  for (i = 0; i < n8; i += 8)
    for (int u = 0; u < 8; ++u)
      y[i + u] += a * x[i + u];
  for (; i < n; ++i)
    y[i] += a * x[i];
}

// A start given by an assignment, after a step-1 loop that it overrides.
void tail(int n, float a, const float *x, float *y) {
  int i;
  for (i = 0; i < 2; ++i)
    y[i] = a * x[i];
  i = 3;
  for (; i < n; ++i)
    y[i] += a * x[i];
}

// Unrolled by 4 up to `i <= n - 4` (no multiple of 4 by construction: the
// loop leaves i at 4*(n/4)), the way an rms norm's sum of squares is
// written with four accumulators, then the remainder.
float sum_sq4(int n, const float *x) {
  float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
  int i;
  for (i = 0; i <= n - 4; i += 4) {
    s0 += x[i] * x[i];
    s1 += x[i + 1] * x[i + 1];
    s2 += x[i + 2] * x[i + 2];
    s3 += x[i + 3] * x[i + 3];
  }
  float s = s0 + s1 + s2 + s3;
  for (; i < n; i++)
    s += x[i] * x[i];
  return s;
}

// From 1, up to `i < n - 10`: the loop may not run at all (n <= 11), when
// the remainder starts at 1.
void from1(int n, const float *x, float *y) {
  int i;
  for (i = 1; i < n - 10; i += 4)
    y[i] = 2.0f * x[i];
  for (; i < n; i++)
    y[i] += x[i];
}

// The unrolled loop without init, from the declaration (`int i = 0;
// for (; i <= n - 2; i += 2)`): where it starts is one step further back.
float sum_sq2(int n, const float *x) {
  float s0 = 0.0f, s1 = 0.0f;
  int i = 0;
  for (; i <= n - 2; i += 2) {
    s0 += x[i] * x[i];
    s1 += x[i + 1] * x[i + 1];
  }
  float s = s0 + s1;
  for (; i < n; i++)
    s += x[i] * x[i];
  return s;
}
