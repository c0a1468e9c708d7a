// Two elementwise steps where the second reads one element ahead of what
// the first writes: fused, b[i] would read a[i + 1] before it is written.
constexpr int Count = 1 << 20;

void read_ahead(const float *x, float *a, float *b) {
  for (int i = 0; i < Count; ++i)
    a[i] = x[i] * 2.0f;
  for (int i = 0; i < Count - 1; ++i)
    b[i] = a[i + 1] + 1.0f;
}

void same_domain(const float *x, float *a, float *b) {
  for (int i = 0; i < Count - 1; ++i)
    a[i] = x[i] * 2.0f;
  for (int i = 0; i < Count - 1; ++i)
    b[i] = a[i + 1] + 1.0f;
}
