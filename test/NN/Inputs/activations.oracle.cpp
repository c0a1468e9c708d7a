// Oracle driver for activations.c (scripts/nn-oracle.py runs it). The
// weights are large enough that some sums clamp at either end; the
// derivative runs once per case the tool reports.
#include "activations.c"

int main() {
  const int Inputs = 5, Outputs = 12;
  ORACLE_PARAM("inputs", Inputs);
  ORACLE_PARAM("outputs", Outputs);
  oracle::Array<float> bias("bias", Outputs, -30.0, 30.0),
      w("w", Outputs * Inputs, -30.0, 30.0), in("in", Inputs, -10.0, 10.0),
      out("out", Outputs), o("o", Outputs, 0.0, 1.0), t("t", Outputs),
      d("d", Outputs);
  ORACLE_CALL(layer_forward(out, bias, w, in, Inputs, Outputs));
  ORACLE_CASE("act == 1", output_deltas(d, o, t, Outputs, 1));
  ORACLE_CASE("!(act == 1) && act == 2", output_deltas(d, o, t, Outputs, 2));
  ORACLE_CASE("!(act == 1) && !(act == 2)", output_deltas(d, o, t, Outputs, 0));
}
