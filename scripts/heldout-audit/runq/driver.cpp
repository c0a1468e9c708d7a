// Held-out audit driver for karpathy/llama2.c runq.c (scripts/heldout-audit).
// Our code: it #includes the published file unchanged and calls quantize,
// dequantize, rmsnorm, softmax, the int8 matmul and the samplers at n = 32,
// group size GS = 4, d = 24, vocab 20; then forward() with one layer (dim 16,
// hidden_dim 24, 4 heads, 2 kv heads, seq_len 8, pos 5), its weights arrays
// of QuantizedTensor structs, one a layer, as runq.c lays them out.
#include "../shims.h"
#define TESTING // runq.c's main() is under #ifndef TESTING
#include "runq.c"
#include "../llama2c.h"

namespace {

/// One QuantizedTensor: \p Elems int8 values and their group scales,
/// registered under the names the tool gives the members (w->wq[].q).
struct QTensor {
  oracle::Array<int8_t> Q;
  oracle::Array<float> S;
  QuantizedTensor T;
  QTensor(const char *QName, const char *SName, int Elems, int Gs)
      : Q(QName, Elems, -127, 128), S(SName, Elems / Gs), T{Q, S} {}
};

void forwardOneLayer(int Gs) {
  using L = heldout::OneLayer;
  const int Dim = L::Dim, Hidden = L::Hidden, Heads = L::Heads, Seq = L::Seq,
            Vocab = L::Vocab, KvDim = L::KvDim;
  L::params();
  Transformer T = {};
  T.config = L::config();
  TransformerWeights &W = T.weights;
  RunState &R = T.state;
  QTensor wq("w->wq[].q", "w->wq[].s", Dim * Dim, Gs),
      wk("w->wk[].q", "w->wk[].s", KvDim * Dim, Gs),
      wv("w->wv[].q", "w->wv[].s", KvDim * Dim, Gs),
      wo("w->wo[].q", "w->wo[].s", Dim * Dim, Gs),
      w1("w->w1[].q", "w->w1[].s", Hidden * Dim, Gs),
      w2("w->w2[].q", "w->w2[].s", Dim * Hidden, Gs),
      w3("w->w3[].q", "w->w3[].s", Hidden * Dim, Gs),
      wcls("w->wcls[].q", "w->wcls[].s", Vocab * Dim, Gs);
  oracle::Array<float> emb("w->token_embedding_table", Vocab * Dim),
      rmsAtt("w->rms_att_weight", Dim), rmsFfn("w->rms_ffn_weight", Dim),
      rmsFinal("w->rms_final_weight", Dim);
  W.token_embedding_table = emb;
  W.rms_att_weight = rmsAtt, W.rms_ffn_weight = rmsFfn;
  W.rms_final_weight = rmsFinal;
  W.wq = &wq.T, W.wk = &wk.T, W.wv = &wv.T, W.wo = &wo.T;
  W.w1 = &w1.T, W.w2 = &w2.T, W.w3 = &w3.T, W.wcls = &wcls.T;
  oracle::Array<float> fx("s->x", Dim), xb("s->xb", Dim), xb2("s->xb2", Dim),
      hb("s->hb", Hidden), hb2("s->hb2", Hidden), q("s->q", Dim),
      k("s->k", KvDim), v("s->v", KvDim), att("s->att", Heads * Seq),
      logits("s->logits", Vocab), kc("s->key_cache", Seq * KvDim),
      vc("s->value_cache", Seq * KvDim), xs("s->xq.s", Dim / Gs),
      hs("s->hq.s", Hidden / Gs);
  oracle::Array<int8_t> xq("s->xq.q", Dim), hq("s->hq.q", Hidden);
  R.x = fx, R.xb = xb, R.xb2 = xb2, R.hb = hb, R.hb2 = hb2;
  R.xq = {xq, xs}, R.hq = {hq, hs};
  R.q = q, R.k = k, R.v = v, R.att = att, R.logits = logits;
  R.key_cache = kc, R.value_cache = vc;
  ORACLE_CALL(forward(&T, 3, L::Pos));
}

} // namespace

int main() {
  const int N = 32, Gs = 4, D = 24, Vocab = 20, Pos = 5;
  GS = Gs;
  ORACLE_PARAM("GS", Gs);
  ORACLE_PARAM("quantize:n", N);
  ORACLE_PARAM("dequantize:n", N);
  ORACLE_PARAM("rmsnorm:size", N);
  ORACLE_PARAM("softmax:size", Pos + 1);
  ORACLE_PARAM("matmul:n", N);
  ORACLE_PARAM("matmul:d", D);
  heldout::samplerParams(Vocab);

  oracle::Array<float> x("x", N, -3.0, 3.0), xs("qx->s", N / Gs);
  oracle::Array<int8_t> xq("qx->q", N);
  QuantizedTensor qx = {xq, xs};
  ORACLE_CALL(quantize(&qx, x, N));
  oracle::Array<float> dx("x", N);
  ORACLE_CALL(dequantize(&qx, dx, N));

  oracle::Array<float> o("o", N), weight("weight", N);
  ORACLE_CALL(rmsnorm(o, x, weight, N));
  oracle::Array<float> sx("x", Pos + 1, -2.0, 2.0);
  ORACLE_CALL(softmax(sx, Pos + 1));

  oracle::Array<float> xout("xout", D), ws("w->s", D * N / Gs);
  oracle::Array<int8_t> wq("w->q", D * N, -127, 128);
  QuantizedTensor w = {wq, ws};
  ORACLE_CALL(matmul(xout, &qx, &w, N, D));

  heldout::callSamplers(Vocab);
  forwardOneLayer(Gs);
}
