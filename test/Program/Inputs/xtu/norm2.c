void norm(float *x, int n) {
  for (int i = 0; i < n; i++)
    x[i] = x[i] * 3.0f;
}
