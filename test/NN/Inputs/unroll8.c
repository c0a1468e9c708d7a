// Loops unrolled by 8 up to n8 = n>>3<<3 and a remainder loop from n8
// (kann's kautodiff.c, written without SIMD intrinsics), for
// test/NN/unroll8.test.

float sdot(int n, const float *x, const float *y) {
  int i, n8 = n >> 3 << 3;
  float s = 0.0f;
  for (i = 0; i < n8; i += 8) {
    float t = 0.0f;
    for (int u = 0; u < 8; ++u)
      t += x[i + u] * y[i + u];
    s += t;
  }
  for (i = n8; i < n; ++i)
    s += x[i] * y[i];
  return s;
}

void saxpy(int n, float a, const float *x, float *y) {
  int i, n8 = n >> 3 << 3;
  for (i = 0; i < n8; i += 8)
    for (int u = 0; u < 8; ++u)
      y[i + u] += a * x[i + u];
  for (i = n8; i < n; ++i)
    y[i] += a * x[i];
}
