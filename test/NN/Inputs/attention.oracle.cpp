// Oracle driver for attention.c (scripts/nn-oracle.py runs it).
#include "attention.c"

int main() {
  const int B = 2, T = 5, C = 8, NH = 2;
  ORACLE_PARAM("B", B);
  ORACLE_PARAM("T", T);
  ORACLE_PARAM("C", C);
  ORACLE_PARAM("NH", NH);
  oracle::Array<float> out("out", B * T * C), preatt("preatt", B * NH * T * T),
      att("att", B * NH * T * T), inp("inp", B * T * 3 * C);
  ORACLE_CALL(attention_forward(out, preatt, att, inp, B, T, C, NH));
  oracle::Array<float> dinp("dinp", B * T * 3 * C),
      dpreatt("dpreatt", B * NH * T * T), datt("datt", B * NH * T * T),
      dout("dout", B * T * C);
  ORACLE_CALL(attention_backward(dinp, dpreatt, datt, dout, inp, att, B, T, C,
                                 NH));
}
