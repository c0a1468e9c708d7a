// Held-out audit driver for pjreddie/darknet src/batchnorm_layer.c
// (scripts/heldout-audit). Our code: it #includes the published file
// unchanged and calls the four CPU nests of batch norm's backward pass
// (backward_scale_cpu, mean_delta_cpu, variance_delta_cpu,
// normalize_delta_cpu) as backward_batchnorm_layer calls them: batch 2,
// 3 filters, 5 spatial. forward/backward_batchnorm_layer call only helpers
// of other files between their nests (blas.c, included for them, and three
// of convolutional_layer.c, stubbed below: not called).
#include "../shims.h"
#include "blas.c"
#include "batchnorm_layer.c"

void scale_bias(float *, float *, int, int, int) { abort(); }
void add_bias(float *, float *, int, int, int) { abort(); }
void backward_bias(float *, float *, int, int, int) { abort(); }

int main() {
  const int B = 2, F = 3, S = 5;
  ORACLE_PARAM("batch", B);
  ORACLE_PARAM("filters", F);
  ORACLE_PARAM("n", F);
  ORACLE_PARAM("spatial", S);
  ORACLE_PARAM("size", S);
  oracle::Array<float> x("x", B * F * S), xn("x_norm", B * F * S), delta("delta", B * F * S);
  oracle::Array<float> mean("mean", F), var("variance", F, 0.5, 1.5);
  oracle::Array<float> su("scale_updates", F), md("mean_delta", F), vd("variance_delta", F);
  ORACLE_CALL(backward_scale_cpu(xn, delta, B, F, S, su));
  ORACLE_CALL(mean_delta_cpu(delta, var, B, F, S, md));
  ORACLE_CALL(variance_delta_cpu(x, delta, mean, var, B, F, S, vd));
  ORACLE_CALL(normalize_delta_cpu(x, mean, var, md, vd, B, F, S, delta));
}
