// Oracle driver for ptrinc.c (scripts/nn-oracle.py runs it).
#include "ptrinc.c"

int main() {
  const int H = 5, I = 7, O = 3, B = 4, C = 6, N = 9;
  ORACLE_PARAM("H", H);
  ORACLE_PARAM("I", I);
  ORACLE_PARAM("O", O);
  ORACLE_PARAM("B", B);
  ORACLE_PARAM("C", C);
  ORACLE_PARAM("N", N);
  oracle::Array<float> y("y", H), W("W", H * I + O * H), b("b", H),
      x("x", I);
  ORACLE_CALL(dense_forward(y, W, b, x, H, I));
  oracle::Array<float> h("h", H), out("out", O);
  ORACLE_CALL(two_layers(h, out, W, x, H, I, O));
  oracle::Array<float> delta("delta", O), target("target", O),
      output("output", O);
  ORACLE_CALL(output_delta(delta, target, output, O));
  ORACLE_CALL(sgd_rows(W, delta, x, 0.1f, O, I));
  oracle::Array<float> sums("out", B), inp("inp", B * C);
  ORACLE_CALL(row_sums(sums, inp, B, C));
  oracle::Array<float> scaled("out", B * C), scale("scale", B);
  ORACLE_CALL(scale_rows(scaled, inp, scale, B, C));
  oracle::Array<float> compact("out", N), cinp("inp", N);
  ORACLE_CALL(compact_positive(compact, cinp, N));
  ORACLE_CALL(output_delta_call(delta, target, output, O));
  ORACLE_CALL(derivative_steps(delta, output, O));
}
