// Held-out audit driver for 100/Cranium src/function.h (scripts/heldout-audit).
// Our code: it #includes the published header unchanged and runs its
// activations on a 3x4 matrix the driver owns: sigmoid, relu (Cranium's
// MAX(0, x): a data-dependent choice), tanH (tanh of a float, in double) and
// softmax (its row sums, then each element's exp over the sum).
#include "../shims.h"
#include "function.h"

int main() {
  const int R = 3, C = 4;
  ORACLE_PARAM("input->rows", R);
  ORACLE_PARAM("input->cols", C);
  oracle::Array<float> x("input->data", R * C);
  Matrix Input;
  Input.rows = R;
  Input.cols = C;
  Input.data = x;
  ORACLE_CALL(sigmoid(&Input));
  ORACLE_CALL(relu(&Input));
  ORACLE_CALL(tanH(&Input));
  ORACLE_CALL(softmax(&Input));
}
