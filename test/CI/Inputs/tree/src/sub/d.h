// d.h: headers are not searched for (only .c .cc .cpp .cxx .cu).
inline void in_header(float *p) {
  for (int i = 0; i < 8; ++i)
    p[i] = 0;
}
