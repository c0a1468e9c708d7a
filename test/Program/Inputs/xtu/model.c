// A two-layer MLP pass whose kernels live in other files of the program:
// matmul in matmul.c, gelu (and its static helper) in ops.c. With
// -p (a compile_commands.json holding all of them) the pass follows the
// calls into those files (test/Program/cross-tu.test).
#include "ops.h"

static void residual(float *x, const float *y, int n) {
  for (int i = 0; i < n; i++)
    x[i] += y[i];
}

void forward(float *x, float *h, float *g, const float *w, int L, int dim,
             int hid) {
  for (int l = 0; l < L; l++) {
    const float *wl = w + l * 2 * dim * hid;
    matmul(h, x, wl, dim, hid);
    gelu(g, h, hid);
    matmul(h, g, wl + dim * hid, hid, dim);
    residual(x, h, dim);
  }
}
