// Oracle driver for adamw.c (scripts/nn-oracle.py runs it): the decay flag
// on and off, one call each.
#include "adamw.c"

int main() {
  const int N = 50;
  ORACLE_PARAM("num_parameters", N);
  oracle::Array<float> params("params", N), grads("grads", N),
      m("m_memory", N), v("v_memory", N, 0.0, 1.0);
  ORACLE_CASE("decay", adamw_update(params, grads, m, v, N, 1e-3f, 0.9f,
                                    0.999f, 1e-8f, 0.01f, 1, 3));
  ORACLE_CASE("!(decay)", adamw_update(params, grads, m, v, N, 1e-3f, 0.9f,
                                       0.999f, 1e-8f, 0.01f, 0, 3));
}
