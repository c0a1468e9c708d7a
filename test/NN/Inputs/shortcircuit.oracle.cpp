// Oracle driver for shortcircuit.c (scripts/nn-oracle.py runs it): the data
// spans both outcomes of every condition (x in [-2, 2]).
#include "shortcircuit.c"

int main() {
  const int N = 23;
  ORACLE_PARAM("n", N);
  oracle::Array<float> x("x", N, -2.0, 2.0), y("y", N, -2.0, 2.0),
      delta("delta", N, -1.0, 1.0), out("out", N), s("s", N, -5.0, 5.0);
  ORACLE_CALL(band_backward(x, N, delta));
  ORACLE_CALL(clip_backward(x, N, delta));
  ORACLE_CALL(stair_forward(s, N));
  ORACLE_CALL(gate(x, y, out, N));
}
