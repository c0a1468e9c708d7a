#include "kernels.h"

void other_loop(float *p) {
  for (int i = 0; i < 8; ++i)
    p[i] = 3.0f;
}
