// Oracle driver for indexed.c (scripts/nn-oracle.py runs it).
#include "indexed.c"

int main() {
  const int B = 2, T = 5, C = 8, OC = 6, HS = 4;
  ORACLE_PARAM("B", B);
  ORACLE_PARAM("T", T);
  ORACLE_PARAM("C", C);
  ORACLE_PARAM("OC", OC);
  ORACLE_PARAM("HS", HS);
  oracle::Array<float> out("out", B * T * C), mean("mean", B * T),
      rstd("rstd", B * T), inp("inp", B * T * C), weight("weight", OC * C),
      bias("bias", C);
  ORACLE_CALL(layernorm_indexed(out, mean, rstd, inp, weight, bias, B, T, C));
  oracle::Array<float> mout("out", B * T * OC);
  ORACLE_CALL(matmul_indexed(mout, inp, weight, B, T, C, OC));
  oracle::Array<float> inp1("inp1", B * T * C), inp2("inp2", B * T * C);
  ORACLE_CALL(residual_indexed(out, inp1, inp2, B, T, C));
  oracle::Array<float> preatt("preatt", T * T), q("q", T * HS), k("k", T * HS);
  ORACLE_CALL(attention_scores_indexed(preatt, q, k, 0.5f, T, HS));
}
