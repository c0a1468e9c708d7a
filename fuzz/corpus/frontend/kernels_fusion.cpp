// Section 8, fusion: 1M float32 values through three elementwise steps.
// Unfused, each step reads 4 MB and writes 4 MB (24 MB in all); fused, the
// input is read once and the result written once (8 MB).

constexpr int Count = 1 << 20;

void three_steps_unfused(const float *x, float *t1, float *t2, float *y) {
  for (int i = 0; i < Count; ++i)
    t1[i] = x[i] * 2.0f;
  for (int i = 0; i < Count; ++i)
    t2[i] = t1[i] + 1.0f;
  for (int i = 0; i < Count; ++i)
    y[i] = t2[i] * t2[i];
}

void three_steps_fused(const float *x, float *y) {
  for (int i = 0; i < Count; ++i) {
    float t = x[i] * 2.0f + 1.0f;
    y[i] = t * t;
  }
}
