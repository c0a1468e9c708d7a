// Oracle driver for matmul.c (scripts/nn-oracle.py runs it). Every function
// with a NULL check runs once per case.
#include "matmul.c"

int main() {
  const int B = 2, T = 4, C = 6, OC = 10;
  ORACLE_PARAM("B", B);
  ORACLE_PARAM("T", T);
  ORACLE_PARAM("C", C);
  ORACLE_PARAM("OC", OC);
  oracle::Array<float> out("out", B * T * OC), inp("inp", B * T * C),
      weight("weight", OC * C), bias("bias", OC);
  ORACLE_CASE("bias != NULL", matmul_forward_naive(out, inp, weight, bias, B,
                                                   T, C, OC));
  ORACLE_CASE("bias == NULL", matmul_forward_naive(out, inp, weight, NULL, B,
                                                   T, C, OC));
  ORACLE_CASE("bias != NULL", matmul_forward_blocked(out, inp, weight, bias,
                                                     B, T, C, OC));
  ORACLE_CASE("bias == NULL", matmul_forward_blocked(out, inp, weight, NULL,
                                                     B, T, C, OC));
  oracle::Array<float> dinp("dinp", B * T * C), dweight("dweight", OC * C),
      dbias("dbias", OC), dout("dout", B * T * OC);
  ORACLE_CASE("dbias != NULL", matmul_backward(dinp, dweight, dbias, dout, inp,
                                               weight, B, T, C, OC));
  ORACLE_CASE("dbias == NULL", matmul_backward(dinp, dweight, NULL, dout, inp,
                                               weight, B, T, C, OC));
}
