// Does not fit: 2 x 80 GB of floats on a 48 GB GPU.
void copy(const float *x, float *y, long n) {
  // roofline: n=20000000000
  for (long i = 0; i < n; ++i)
    y[i] = x[i];
}
