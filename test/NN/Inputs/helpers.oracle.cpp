// Oracle driver for helpers.cpp (scripts/nn-oracle.py runs it).
#include "helpers.cpp"

int main() {
  const int N = 3, K = 5, M = 4, C = 6, R = 4, T = 3, W = 10, Ch = 2;
  ORACLE_PARAM("N", N);
  ORACLE_PARAM("K", K);
  ORACLE_PARAM("M", M);
  ORACLE_PARAM("C", C);
  ORACLE_PARAM("R", R);
  ORACLE_PARAM("T", T);
  ORACLE_PARAM("W", W);
  ORACLE_PARAM("channels", Ch);

  oracle::Array<float> out("out", N * M), inp("inp", N * K), w("w", M * K),
      bias("bias", M);
  ORACLE_CALL(matmul_idx(out, inp, w, bias, N, K, M));

  oracle::Array<float> ey("y", R * C), ex("x", 2 * R * C);
  ORACLE_CALL(even_rows(ey, ex, R, C));

  oracle::Array<float> gout("out", N), ginp("inp", N);
  ORACLE_CALL(gelu_lambda(gout, ginp, N));

  oracle::Array<float> rout("out", N * C), rx("x", N * C);
  ORACLE_CALL(rms_lambda(rout, rx, N, C));

  oracle::Vector<float> tm("M", kAlpha * kAlpha * K * T), ty("Y", K * kTile * W);
  ORACLE_CALL(transform_out(tm.vector(), ty.vector(), K, T, W));

  oracle::Array<float> vy("y", R), vA("A", R * C), vx("x", C);
  ORACLE_CALL(gemv2(vy, vA, vx, R, C));

  oracle::Vector<float> data("data", Ch * 25);
  oracle::Array<float> means("means", Ch), stddevs("stddevs", Ch),
      res("eltwise", Ch * 25);
  ORACLE_CASE("eltwise == NULL", batchnorm<25>(Ch, data.vector(), means, stddevs));
  ORACLE_CASE("eltwise != NULL", batchnorm<25>(Ch, data.vector(), means, stddevs, res));

  const int LW = 3, LH = 2, LN = 2, LC = 2, LB = 2;
  ORACLE_PARAM("l.w", LW);
  ORACLE_PARAM("l.h", LH);
  ORACLE_PARAM("l.n", LN);
  ORACLE_PARAM("l.classes", LC);
  ORACLE_PARAM("l.batch", LB);
  ORACLE_PARAM("logistic_rows:count", (1 + LC) * LW * LH);
  oracle::Array<float> lout("l.output", LB * LN * LW * LH * (LC + 5));
  Layer layer{LW, LH, LN, LC, LB, lout};
  ORACLE_CALL(detect_forward(layer));
  oracle::Array<float> rows("x", (1 + LC) * LW * LH);
  ORACLE_CALL(logistic_rows(layer, rows, (1 + LC) * LW * LH));

  const int MR = 3, MCo = 5;
  ORACLE_PARAM("m.rows_", MR);
  ORACLE_PARAM("m.cols_", MCo);
  oracle::Array<float> mdata("m.data_", MR * MCo);
  Mat mat{MR, MCo, mdata};
  ORACLE_CALL(softmax_rows(mat));

  oracle::Array<float> sy("y", N), sx("x", 2 * N);
  ORACLE_CALL(shifted_copy(sy, sx, N));
  oracle::Array<float> qy("y", N), qx("x", N * N);
  ORACLE_CALL(squares(qy, qx, N));
}
