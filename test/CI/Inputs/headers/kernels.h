// A project header: reported when --header-filter matches its path.
inline void header_scale(float *p) {
  for (int i = 0; i < 128; ++i)
    p[i] *= 2.0f;
}
