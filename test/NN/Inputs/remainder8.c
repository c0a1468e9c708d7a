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
