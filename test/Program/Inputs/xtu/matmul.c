// matmul for model.c, in a translation unit of its own.
#include "ops.h"

void matmul(float *out, const float *x, const float *w, int n, int d) {
  for (int i = 0; i < d; i++) {
    float v = 0.0f;
    for (int j = 0; j < n; j++)
      v += w[i * n + j] * x[j];
    out[i] = v;
  }
}
