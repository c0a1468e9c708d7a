// Oracle driver for layernorm.c (scripts/nn-oracle.py runs it).
#include "layernorm.c"

int main() {
  const int B = 2, T = 3, C = 8;
  ORACLE_PARAM("B", B);
  ORACLE_PARAM("T", T);
  ORACLE_PARAM("C", C);
  oracle::Array<float> out("out", B * T * C), mean("mean", B * T),
      rstd("rstd", B * T), inp("inp", B * T * C), weight("weight", C),
      bias("bias", C);
  ORACLE_CALL(layernorm_forward(out, mean, rstd, inp, weight, bias, B, T, C));
  oracle::Array<float> dinp("dinp", B * T * C), dweight("dweight", C),
      dbias("dbias", C), dout("dout", B * T * C);
  ORACLE_CALL(layernorm_backward(dinp, dweight, dbias, dout, inp, weight, mean,
                                 rstd, B, T, C));
}
