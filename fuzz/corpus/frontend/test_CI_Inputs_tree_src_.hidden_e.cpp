// In a hidden directory: not searched.
void hidden(float *p) {
  for (int i = 0; i < 8; ++i)
    p[i] = 0;
}
