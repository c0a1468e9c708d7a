// Oracle driver for rowsplus.c (scripts/nn-oracle.py runs it).
#include "rowsplus.c"

int main() {
  const int dim = 8, seq = 6, pos = 3, H = 5, I = 7, O = 3, L = 2, N = 6;
  ORACLE_PARAM("dim", dim);
  ORACLE_PARAM("seq", seq);
  ORACLE_PARAM("pos", pos);
  ORACLE_PARAM("H", H);
  ORACLE_PARAM("I", I);
  ORACLE_PARAM("O", O);
  ORACLE_PARAM("L", L);
  ORACLE_PARAM("N", N);
  oracle::Array<float> att("att", seq), q("q", dim), kc("kc", seq * dim),
      wq("wq", dim * dim);
  ORACLE_CALL(first_layer(att, q, kc, wq, dim, seq, pos));
  oracle::Array<float> kc2("kc", 2 * seq * dim);
  ORACLE_CALL(some_layer(att, q, kc2, dim, seq, pos));
  oracle::Array<float> out("out", H), weight("weight", H * (I + 1)),
      in("in", I);
  ORACLE_CALL(bias_rows_ptr(out, weight, in, H, I));
  oracle::Array<float> w("w", H * (I + 1));
  ORACLE_CALL(bias_rows_idx(out, w, in, H, I));
  oracle::Array<float> d("d", H), ww("ww", O * (H + 1)), dd("dd", O);
  ORACLE_CALL(back_deltas(d, ww, dd, H, O));
  oracle::Array<float> hout("out", L * H), hw("weight", L * H * (H + 1)),
      hin("in", L * H);
  ORACLE_CALL(hidden_stack(hout, hw, hin, L, H));
  oracle::Array<float> a("a", N * N), b("b", N);
  ORACLE_CALL(diag_and_rows(a, b, N));
}
