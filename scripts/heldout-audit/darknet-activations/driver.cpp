// Held-out audit driver for pjreddie/darknet src/activations.c
// (scripts/heldout-audit). Our code: it #includes the published file
// unchanged and runs activate_array and gradient_array (a switch over the
// activation per element) for every activation, n 12. The tool reports one
// case per label of the switch (`a == LOGISTIC`; docs/user-guide.md,
// "Conditions"): each call is that case. Not run: SELU (both) and RAMP's
// gradient, whose `(x >= 0)*1.0507` and `(x>0)+.1` are arithmetic on a
// comparison's int and a literal, in double: the oracle's counting float
// does not see it (docs/testing-nn-corpus.md, "floating arithmetic on an
// int variable and a literal alone ... is invisible"), the tool counts the
// f64 multiply or add, so the run cannot check those cases.
#include "../shims.h"
#include "activations.c"

int main() {
  const int N = 12;
  ORACLE_PARAM("n", N);
  oracle::Array<float> x("x", N, -3.0, 3.0), delta("delta", N);
  struct {
    ACTIVATION A;
    const char *Case;
  } const Acts[] = {
      {LOGISTIC, "a == LOGISTIC"}, {RELU, "a == RELU"},   {RELIE, "a == RELIE"},
      {LINEAR, "a == LINEAR"},     {RAMP, "a == RAMP"},   {TANH, "a == TANH"},
      {PLSE, "a == PLSE"},         {LEAKY, "a == LEAKY"}, {ELU, "a == ELU"},
      {LOGGY, "a == LOGGY"},       {STAIR, "a == STAIR"}, {HARDTAN, "a == HARDTAN"},
      {LHTAN, "a == LHTAN"},       {SELU, "a == SELU"}};
  for (const auto &Act : Acts) {
    if (Act.A != SELU)
      ORACLE_CASE(Act.Case, activate_array(x, N, Act.A));
    if (Act.A != SELU && Act.A != RAMP)
      ORACLE_CASE(Act.Case, gradient_array(x, N, Act.A, delta));
  }
}
