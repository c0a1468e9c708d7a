// Oracle driver for pointgather.c (scripts/nn-oracle.py runs it). Labels are
// drawn at random, so rows pick different columns, some the same.
#include "pointgather.c"

int main() {
  const int N = 7, V = 10, B = 2, T = 3, Vp = 12, K = 4;
  ORACLE_PARAM("N", N);
  ORACLE_PARAM("V", V);
  ORACLE_PARAM("B", B);
  ORACLE_PARAM("T", T);
  ORACLE_PARAM("Vp", Vp);
  ORACLE_PARAM("C", V);
  ORACLE_PARAM("K", K);
  oracle::Array<float> loss("loss", N), logp("logp", N * V, -5.0, 0.0);
  oracle::Array<int> labels("labels", N, 0, V);
  ORACLE_CALL(nll_loss(loss, logp, labels, N, V));
  ORACLE_CALL(nll_fixed(loss, (const float(*)[10])(float *)logp, labels, N));
  oracle::Array<float> dlogits("dlogits", B * T * Vp);
  oracle::Array<int> targets("targets", B * T, 0, Vp);
  ORACLE_CALL(onehot_sub(dlogits, targets, B, T, Vp));
  oracle::Array<float> scores("scores", N * V);
  ORACLE_CALL(mark_label(scores, labels, N, V));
  oracle::Array<float> margin("margin", N), probs("probs", N * V, 0.0, 1.0);
  ORACLE_CALL(label_margin(margin, probs, labels, N, V));
  oracle::Array<float> out("out", N * K);
  ORACLE_CALL(repeat_read(out, probs, labels, N, V, K));
  oracle::Array<float> table("table", B * V), o2("o2", B * T);
  oracle::Array<int> idx("idx", B * T, 0, V);
  ORACLE_CALL(shared_row(o2, table, idx, B, T, V));
  ORACLE_CALL(with_first(margin, probs, labels, N, V));
  oracle::Array<float> x("x", N + V);
  oracle::Array<int> off("off", N, 0, V);
  ORACLE_CALL(sliding(margin, x, off, N));
  oracle::Array<float> wte("wte", V * V), emb("emb", N * V);
  oracle::Array<int> tok("tok", N, 0, V);
  ORACLE_CALL(embed(emb, wte, tok, N, V));
}
