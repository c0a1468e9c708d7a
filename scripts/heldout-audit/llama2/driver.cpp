// Held-out audit driver for karpathy/llama2.c run.c (scripts/heldout-audit).
// Our code: it #includes the published file unchanged and calls its kernels
// at small sizes: dim 16, hidden_dim 24, 4 heads (2 kv heads), 1 layer,
// seq_len 8, vocab 20, pos 5.
#include "../shims.h"
#define TESTING // run.c's main() is under #ifndef TESTING
#include "run.c"
#include "../llama2c.h"

int main() {
  using L = heldout::OneLayer;
  const int Dim = L::Dim, Hidden = L::Hidden, Heads = L::Heads, Seq = L::Seq,
            Vocab = L::Vocab, Pos = L::Pos, KvDim = L::KvDim;
  ORACLE_PARAM("rmsnorm:size", Dim);
  ORACLE_PARAM("softmax:size", Pos + 1);
  ORACLE_PARAM("matmul:n", Dim);
  ORACLE_PARAM("matmul:d", Hidden);
  heldout::samplerParams(Vocab);
  L::params();

  oracle::Array<float> o("o", Dim), x("x", Dim), weight("weight", Dim);
  ORACLE_CALL(rmsnorm(o, x, weight, Dim));
  oracle::Array<float> sx("x", Pos + 1, -2.0, 2.0);
  ORACLE_CALL(softmax(sx, Pos + 1));
  oracle::Array<float> xout("xout", Hidden), w("w", Hidden * Dim);
  ORACLE_CALL(matmul(xout, x, w, Dim, Hidden));

  heldout::callSamplers(Vocab);

  // forward() with one layer.
  Transformer T = {};
  T.config = L::config();
  TransformerWeights &W = T.weights;
  RunState &R = T.state;
  oracle::Array<float> emb("w->token_embedding_table", Vocab * Dim),
      rmsAtt("w->rms_att_weight", Dim), rmsFfn("w->rms_ffn_weight", Dim),
      wq("w->wq", Dim * Dim), wk("w->wk", Dim * KvDim),
      wv("w->wv", Dim * KvDim), wo("w->wo", Dim * Dim),
      w1("w->w1", Dim * Hidden), w2("w->w2", Hidden * Dim),
      w3("w->w3", Dim * Hidden), rmsFinal("w->rms_final_weight", Dim),
      wcls("w->wcls", Vocab * Dim);
  W.token_embedding_table = emb;
  W.rms_att_weight = rmsAtt;
  W.rms_ffn_weight = rmsFfn;
  W.wq = wq, W.wk = wk, W.wv = wv, W.wo = wo;
  W.w1 = w1, W.w2 = w2, W.w3 = w3;
  W.rms_final_weight = rmsFinal;
  W.wcls = wcls;
  oracle::Array<float> fx("s->x", Dim), xb("s->xb", Dim), xb2("s->xb2", Dim),
      hb("s->hb", Hidden), hb2("s->hb2", Hidden), q("s->q", Dim),
      att("s->att", Heads * Seq), flogits("s->logits", Vocab),
      kc("s->key_cache", Seq * KvDim), vc("s->value_cache", Seq * KvDim);
  R.x = fx, R.xb = xb, R.xb2 = xb2, R.hb = hb, R.hb2 = hb2, R.q = q;
  R.att = att, R.logits = flogits, R.key_cache = kc, R.value_cache = vc;
  ORACLE_CALL(forward(&T, 3, Pos));
}
