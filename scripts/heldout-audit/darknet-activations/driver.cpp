// Held-out audit driver for pjreddie/darknet src/activations.c
// (scripts/heldout-audit). Our code: it #includes the published file
// unchanged and runs activate_array and gradient_array (a switch over the
// activation per element) for logistic, relu, leaky, tanh, stair and
// hardtan, n 12.
#include "../shims.h"
#include "activations.c"

int main() {
  const int N = 12;
  ORACLE_PARAM("n", N);
  oracle::Array<float> x("x", N, -3.0, 3.0), delta("delta", N);
  for (ACTIVATION A : {LOGISTIC, RELU, LEAKY, TANH, STAIR, HARDTAN}) {
    ORACLE_CALL(activate_array(x, N, A));
    ORACLE_CALL(gradient_array(x, N, A, delta));
  }
}
