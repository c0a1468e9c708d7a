// Shared by the drivers of karpathy/llama2.c (llama2 for run.c, runq for
// runq.c; scripts/heldout-audit): the samplers, which both files define
// alike. Included after the published file, whose Sampler and sample_*
// functions it calls.
#ifndef HELDOUT_LLAMA2C_H
#define HELDOUT_LLAMA2C_H

namespace heldout {
/// forward() with one layer: dim 16, hidden_dim 24, 4 heads (2 kv heads),
/// seq_len 8, vocab 20, at pos 5; the Config (run.c and runq.c define it
/// alike) and its sizes by field name.
struct OneLayer {
  static constexpr int Dim = 16, Hidden = 24, Heads = 4, KvHeads = 2, Seq = 8, Vocab = 20,
                       Pos = 5, KvDim = Dim * KvHeads / Heads;
  static Config config() { return {Dim, Hidden, 1, Heads, KvHeads, Vocab, Seq}; }
  static void params() {
    ORACLE_PARAM("dim", Dim);
    ORACLE_PARAM("hidden_dim", Hidden);
    ORACLE_PARAM("n_layers", 1);
    ORACLE_PARAM("n_heads", Heads);
    ORACLE_PARAM("n_kv_heads", KvHeads);
    ORACLE_PARAM("vocab_size", Vocab);
    ORACLE_PARAM("seq_len", Seq);
    ORACLE_PARAM("pos", Pos);
  }
};

/// The samplers' sizes: a vocabulary of \p Vocab.
inline void samplerParams(int Vocab) {
  ORACLE_PARAM("sample_argmax:n", Vocab);
  ORACLE_PARAM("sample_mult:n", Vocab);
  ORACLE_PARAM("sample_topp:n", Vocab);
  ORACLE_PARAM("sampler->vocab_size", Vocab);
}

/// Calls sample_argmax, sample_mult and sample over \p Vocab values.
inline void callSamplers(int Vocab) {
  // Probabilities that sum to 1, so that sample_mult returns inside the
  // loop or at its end depending on the coin.
  oracle::Array<float> probs("probabilities", Vocab, 0.0, 0.1);
  ORACLE_CALL(sample_argmax(probs, Vocab));
  ORACLE_CALL(sample_mult(probs, Vocab, 0.5f));
  Sampler S = {};
  S.vocab_size = Vocab;
  S.temperature = 0.8f;
  S.topp = 1.0f; // sample_mult
  S.rng_state = 42;
  oracle::Array<float> logits("logits", Vocab, -2.0, 2.0);
  ORACLE_CALL(sample(&S, logits));
}
} // namespace heldout

#endif
