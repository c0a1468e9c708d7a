// Clearing and copying rows inside NN loops, the C and the C++ way: memset
// before an accumulation, memcpy of rows, std::memset of doubles, memmove of
// an overlapping range, std::copy / std::fill / std::fill_n / std::copy_n over
// pointers. Part of the test/NN corpus (docs/testing-nn-corpus.md); the same
// kernels as test/Frontend/NN/mem-calls.cpp, here against the brute force.
#include <algorithm>
#include <cstring>

void attend(float *xb, const float *att, const float *v, int T, int C) {
  for (int t0 = 0; t0 < 1; t0++) {
    memset(xb, 0, C * sizeof(float));
    for (int t = 0; t < T; t++)
      for (int i = 0; i < C; i++)
        xb[i] += att[t] * v[t * C + i];
  }
}

void copy_rows(float *out, const float *inp, int T, int C) {
  for (int t = 0; t < T; t++)
    memcpy(out + t * C, inp + t * C, C * sizeof(*out));
}

void clear(double *acc, int T, int C) {
  for (int t = 0; t < T; t++)
    std::memset(&acc[t * C], 0, sizeof(double) * C);
}

void shift(float *buf, int N) {
  for (int r = 0; r < 1; r++)
    memmove(buf, buf + 1, (N - 1) * sizeof(float));
}

void std_forms(float *out, const float *inp, float *g, int T, int C) {
  for (int t = 0; t < T; t++) {
    std::copy(inp + t * C, inp + t * C + C, out + t * C);
    std::fill(g + t * C, g + (t + 1) * C, 0.0f);
    for (int i = 0; i < C; i++)
      g[t * C + i] += out[t * C + i];
  }
}

void std_n(float *dst, const float *src, int T, int C) {
  for (int t = 0; t < T; t++) {
    std::fill_n(dst + t * C, C, 1.0f);
    std::copy_n(src, C, dst + t * C);
  }
}

