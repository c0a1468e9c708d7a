// Oracle driver for reassigned.c (scripts/nn-oracle.py runs it). The
// model's sizes are given by field name; its buffers are registered arrays.
#include "reassigned.c"

int main() {
  const int Dim = 4, Inner = 6, Rank = 2, Layers = 2, N = 5;
  ORACLE_PARAM("dim", Dim);
  ORACLE_PARAM("inner", Inner);
  ORACLE_PARAM("rank", Rank);
  ORACLE_PARAM("n", N);
  ORACLE_PARAM("half", 3);
  ORACLE_PARAM("k", 2);
  ORACLE_PARAM("off", 1);
  ORACLE_PARAM("layers", Layers);
  ORACLE_PARAM("T", 3);
  ORACLE_PARAM("project:d", Inner);
  ORACLE_PARAM("project:n", Dim);
  ORACLE_PARAM("linear:d", Inner);
  ORACLE_PARAM("linear:n", Rank);
  ORACLE_PARAM("mix:d", Dim);
  ORACLE_PARAM("mix:n", Inner);
  {
    oracle::Array<float> xdb("xdb", Rank + 8), dt("dt", Inner), w("w", Inner * Rank),
        bias("b", Inner);
    State s = {nullptr, xdb, dt, nullptr, nullptr};
    ORACLE_CALL(step_dt(&s, w, bias, Inner, Rank));
    ORACLE_CALL(steps(&s, w, bias, Inner, Rank, 3));
  }
  oracle::Array<float> y("y", N), a("a", 2 * N), b("b", 2 * N);
  ORACLE_CALL(gate(y, a, b, N, 3));
  ORACLE_CALL(pick(y, a, b, N, 1));
  ORACLE_CALL(twice(y, a, b, N));
  ORACLE_CALL(shifted(y, a, N, 2));
  ORACLE_CALL(advance(y, a, N, 1));
  ORACLE_CALL(escaped(y, a, b, N));
  {
    oracle::Array<float> xz("xz", Inner), yy("y", Inner), h("h", Dim);
    oracle::Array<float> w_in("w_in", Layers * Inner * Dim), w_out("w_out", Layers * Dim * Inner);
    Model m = {{Dim, Inner, Rank, 3}, {xz, nullptr, nullptr, yy, h}, w_in, nullptr, nullptr, w_out};
    ORACLE_CALL(layer(&m, 1, h));
    ORACLE_CALL(forward(&m, Layers));
    ORACLE_CALL(forward_y(&m, Layers));
    oracle::Array<float> other("other", N);
    ORACLE_CALL(refield(&m.state, other, N));
  }
}
