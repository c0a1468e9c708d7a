// Held-out audit driver for pjreddie/darknet src/blas.c, variant of
// darknet-blas (scripts/heldout-audit): shortcut_cpu as shortcut_layer.c's
// forward calls it when the added layer is twice as large (a 2x downsample
// of `add`: w1 = 2*w2, h1 = 2*h2, stride 2), batch 2, 2 channels, out 4x3.
// The other kernels of blas.c are not called here (not-run rows).
#include "../shims.h"
#include "blas.c"

int main() {
  const int B = 2, W1 = 8, H1 = 6, C1 = 2, W2 = 4, H2 = 3, C2 = 2;
  ORACLE_PARAM("batch", B);
  ORACLE_PARAM("w1", W1);
  ORACLE_PARAM("h1", H1);
  ORACLE_PARAM("c1", C1);
  ORACLE_PARAM("w2", W2);
  ORACLE_PARAM("h2", H2);
  ORACLE_PARAM("c2", C2);
  oracle::Array<float> add("add", B * W1 * H1 * C1), out("out", B * W2 * H2 * C2);
  ORACLE_CASE("!(c1 < c2) && !(h1 < h2) && !(w1 < w2)",
              shortcut_cpu(B, W1, H1, C1, add, W2, H2, C2, 0.5f, 2.0f, out));
}
