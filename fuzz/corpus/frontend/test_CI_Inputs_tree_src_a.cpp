// a.cpp: one memory-bound nest.
float x[1024], y[1024];
void scale_a() {
  for (int i = 0; i < 1024; ++i)
    y[i] = 2.0f * x[i];
}
