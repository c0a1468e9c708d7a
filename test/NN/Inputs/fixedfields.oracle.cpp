// Oracle driver for fixedfields.c (scripts/nn-oracle.py runs it): the first
// call points the activations into the buffer, the second reuses them.
#include "fixedfields.c"

int main() {
  const int B = 2, T = 3, V = 5;
  ORACLE_PARAM("B", B);
  ORACLE_PARAM("T", T);
  ORACLE_PARAM("V", V);
  oracle::Array<float> memory("memory", B * T * V + B * T, -1.0, 1.0);
  Model model = {};
  ORACLE_CALL(model_forward(&model, memory, B, T, V));
  ORACLE_CALL(model_forward(&model, memory, B, T, V));
}
