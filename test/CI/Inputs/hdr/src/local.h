// Included by a source beside it (found without a compilation database).
inline void local_copy(float *a, const float *b) {
  for (int i = 0; i < 256; ++i)
    a[i] = b[i];
}
