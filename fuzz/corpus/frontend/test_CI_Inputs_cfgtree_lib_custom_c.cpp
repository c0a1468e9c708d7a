float a[4096], b[4096];
void copy_s() {
  for (int i = 0; i < 4096; ++i)
    b[i] = a[i];
}
