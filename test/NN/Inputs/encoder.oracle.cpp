// Oracle driver for encoder.c (scripts/nn-oracle.py runs it). The token ids
// repeat (V < B*T), so a count that took every row as distinct is wrong.
#include "encoder.c"

int main() {
  const int B = 2, T = 4, C = 6, V = 5;
  ORACLE_PARAM("B", B);
  ORACLE_PARAM("T", T);
  ORACLE_PARAM("C", C);
  oracle::Array<float> out("out", B * T * C), wte("wte", V * C),
      wpe("wpe", T * C);
  oracle::Array<int> inp("inp", B * T, 0, V);
  ORACLE_CALL(encoder_forward(out, inp, wte, wpe, B, T, C));
  oracle::Array<float> dwte("dwte", V * C), dwpe("dwpe", T * C),
      dout("dout", B * T * C);
  ORACLE_CALL(encoder_backward(dwte, dwpe, dout, inp, B, T, C));
  oracle::Array<float> x("x", B * T * C);
  ORACLE_CALL(position_add(x, wpe, B, T, C));
}
