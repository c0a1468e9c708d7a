// Oracle driver for crossentropy.c (scripts/nn-oracle.py runs it).
#include "crossentropy.c"

int main() {
  const int B = 2, T = 3, V = 10, Vp = 12;
  ORACLE_PARAM("B", B);
  ORACLE_PARAM("T", T);
  ORACLE_PARAM("V", V);
  ORACLE_PARAM("Vp", Vp);
  oracle::Array<float> probs("probs", B * T * Vp),
      logits("logits", B * T * Vp, -3.0, 3.0);
  ORACLE_CALL(softmax_forward(probs, logits, B, T, V, Vp));
  oracle::Array<float> losses("losses", B * T);
  oracle::Array<int> targets("targets", B * T, 0, V);
  ORACLE_CALL(crossentropy_forward(losses, probs, targets, B, T, Vp));
  oracle::Array<float> dlogits("dlogits", B * T * Vp), dlosses("dlosses", B * T);
  ORACLE_CALL(crossentropy_softmax_backward(dlogits, dlosses, probs, targets, B,
                                            T, V, Vp));
}
