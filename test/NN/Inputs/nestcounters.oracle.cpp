// Oracle driver for nestcounters.c (scripts/nn-oracle.py runs it).
#include "nestcounters.c"

int main() {
  const int T = 4, T2 = 3, N = 3, M = 5, B = 5, H = 2;
  ORACLE_PARAM("T", T);
  ORACLE_PARAM("T2", T2);
  ORACLE_PARAM("N", N);
  ORACLE_PARAM("M", M);
  ORACLE_PARAM("B", B);
  ORACLE_PARAM("H", H);
  oracle::Array<float> errp("errp", T * M), err("err", T * N),
      uxw("uxw", N * M), uhw("uhw", N * N), xw("xw", N * M), hw("hw", N * N),
      outp("outp", T * M), out("out", T * N, -1.0, 1.0);
  ORACLE_CALL(rnn_feedback(errp, err, uxw, uhw, xw, hw, outp, out, T, T2, N, M));
  oracle::Array<float> y("y", T * N), w("w", N * M), x("x", T * M);
  ORACLE_CALL(dense_steps(y, w, x, T, N, M));
  oracle::Array<float> sp("out", 2 * T * M), in("in", T * M);
  ORACLE_CALL(spread(sp, in, T, M));
  oracle::Array<float> gy("y", B * H), gw("w", B * H * M);
  ORACLE_CALL(guarded_rows(gy, gw, B, H, M));
  oracle::Array<float> vy("y", T), vw("w", M);
  ORACLE_CALL(variant_guard(vy, vw, T, M));
}
