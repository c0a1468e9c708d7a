// A size the source leaves open: --param, an annotation or the config
// gives N.
void scale(float *x, int N) {
  for (int i = 0; i < N; ++i)
    x[i] *= 2.0f;
}
