// Oracle driver for fnptr.c (scripts/nn-oracle.py runs it): each nest runs
// once per activation the tool reports a case for; the weights are large
// enough that some sums clamp in the sigmoid. The forward layer's refused
// case (the table) is not run.
#include "fnptr.c"

int main() {
  const int Inputs = 5, Outputs = 12;
  ORACLE_PARAM("inputs", Inputs);
  ORACLE_PARAM("outputs", Outputs);
  oracle::Array<float> w("w", Outputs * Inputs, -30.0, 30.0),
      b("b", Outputs, -30.0, 30.0), x("x", Inputs, -10.0, 10.0),
      o("o", Outputs), y("y", Outputs, -1.0, 1.0), t("t", Outputs),
      d("d", Outputs);
  net ann = {nullptr, nullptr, nullptr};
  net_init(&ann, 0);
  ORACLE_CASE("ann->act_hidden == act_sigmoid",
              hidden_forward(&ann, o, w, b, x, Inputs, Outputs));
  ORACLE_CASE("ann->act_output == act_sigmoid",
              output_deltas(&ann, d, y, t, Outputs));
  net_init(&ann, 1);
  ORACLE_CASE("ann->act_hidden == act_relu",
              hidden_forward(&ann, o, w, b, x, Inputs, Outputs));
  ORACLE_CASE("ann->act_output == act_relu",
              output_deltas(&ann, d, y, t, Outputs));
  net_init(&ann, 2);
  ORACLE_CASE("ann->act_hidden == act_tanh",
              hidden_forward(&ann, o, w, b, x, Inputs, Outputs));
  ORACLE_CASE("ann->act_output == act_tanh",
              output_deltas(&ann, d, y, t, Outputs));
  // The derivative does not call the table: the deltas are counted.
  net_init(&ann, 3);
  ORACLE_CASE("ann->act_output == act_cached",
              output_deltas(&ann, d, y, t, Outputs));
}
