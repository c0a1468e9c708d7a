// A size the source fixes (the template argument N = 4096) and one it
// leaves open (M): a config's params may give M, never change N.
template <typename T, int N> void scale(T *x) {
  for (int i = 0; i < N; ++i)
    x[i] *= 2;
}
template void scale<float, 4096>(float *);

void shift(float *y, int M) {
  for (int i = 0; i < M; ++i)
    y[i] += 1.0f;
}
