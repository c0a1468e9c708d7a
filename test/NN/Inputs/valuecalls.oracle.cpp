// Oracle driver for valuecalls.c (scripts/nn-oracle.py runs it).
#include "valuecalls.c"

int main() {
  const int M = 5, N = 7, R = 3, C = 6, T = 4, H = 8;
  ORACLE_PARAM("M", M);
  ORACLE_PARAM("N", N);
  ORACLE_PARAM("R", R);
  ORACLE_PARAM("C", C);
  ORACLE_PARAM("T", T);
  ORACLE_PARAM("H", H);
  // The helpers on their own.
  const int Len = 6;
  ORACLE_PARAM("n", Len);
  oracle::Array<float> da("a", Len), db("b", Len), dx("x", Len), row("row", Len);
  ORACLE_CALL(dot(da, db, Len));
  ORACLE_CALL(row_max(dx, Len));
  ORACLE_CALL(sum_sq(dx, Len));
  ORACLE_CALL(scale_row(row, 0.5f, Len));
  oracle::Array<float> y("y", M), W("W", M * N), x("x", N), b("b", M);
  ORACLE_CALL(matvec(y, W, x, b, M, N));
  oracle::Array<float> mx("mx", R), scale("scale", R), X("X", R * C);
  ORACLE_CALL(row_stats(mx, scale, X, R, C));
  oracle::Array<float> att("att", T * T), q("q", T * H), k("k", T * H);
  ORACLE_CALL(scores(att, q, k, T, H));
  oracle::Array<float> gy("y", M), gW("W", M * N), gx("x", N, -1.0, 1.0);
  ORACLE_CALL(gated(gy, gW, gx, M, N));
  oracle::Array<float> tot("tot", R), RX("X", R * C);
  ORACLE_CALL(rescale(tot, RX, R, C));
  ORACLE_CALL(rescale_first(RX, R, C));
  oracle::Array<float> TX("X", R * C, -1.0, 1.0), tw("w", C), tg("g", C);
  ORACLE_CALL(grad_step(TX, tw, tg, C));
  ORACLE_CALL(train_epoch(TX, tw, tg, R, C));
  ORACLE_CALL(rescale_read(tot, RX, R, C));
  ORACLE_CALL(rescale_twice(tot, RX, R, C));
  oracle::Array<int> labels("labels", R, 0, C);
  ORACLE_CALL(xent(TX, 2, C));
  ORACLE_CALL(xent_epoch(TX, labels, R, C));
  oracle::Array<float> hist("hist", C);
  ORACLE_CALL(tally_labels(hist, labels, R));
}
