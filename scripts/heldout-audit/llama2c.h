// Shared by the drivers of karpathy/llama2.c (llama2 for run.c, runq for
// runq.c; scripts/heldout-audit): the samplers, which both files define
// alike. Included after the published file, whose Sampler and sample_*
// functions it calls.
#ifndef HELDOUT_LLAMA2C_H
#define HELDOUT_LLAMA2C_H

namespace heldout {
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
