// Included by no translation unit.
inline void orphan(float *x) {
  for (int i = 0; i < 8; ++i)
    x[i] = 0;
}
