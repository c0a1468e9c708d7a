#include "sizes.h"
float x[AXPY_N], y[AXPY_N];

void axpy(float a) {
  for (int i = 0; i < AXPY_N; ++i)
    y[i] += a * x[i];
}
