/* b.c: parsed as C. */
float u[256], v[256];
void scale_b(void) {
  for (int i = 0; i < 256; ++i)
    v[i] = 3.0f * u[i];
}
