// z.cc: .cc is C++ too.
double w[16];
void scale_z() {
  for (int i = 0; i < 16; ++i)
    w[i] *= 2.0;
}
