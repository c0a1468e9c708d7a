// A vendored header, kept out by a narrower filter.
inline void vendor_zero(float *p) {
  for (int i = 0; i < 16; ++i)
    p[i] = 0;
}
