// Held-out audit driver for karpathy/llm.c train_gpt2.c (scripts/heldout-audit).
// Our code: it #includes the published file unchanged (its main() renamed
// away) and calls every layer's forward and backward, the AdamW update and
// sample_mult directly, at B=2 T=8 C=16 NH=4 V=50 Vp=64 (B*T a multiple of 8:
// matmul_forward's unrolled path). gpt2b/driver.cpp runs it at other sizes.
// llm.c's own headers (random numbers, data loader, tokenizer: no kernel)
// with the native float, before the shims; their include guards keep
// train_gpt2.c from including them again (llmc/tokenizer.h has none and no
// float).
#undef float
#include <memory>
#include "llmc/utils.h"
#include "llmc/rand.h"
#include "llmc/dataloader.h"
#define float Counted
#include "../shims.h"
#ifndef GPT2_B
#define GPT2_B 2
#define GPT2_T 8
#define GPT2_C 16
#define GPT2_NH 4
#define GPT2_V 50
#define GPT2_VP 64
#endif
#ifndef GPT2_L
#define GPT2_L 2
#endif
#define main heldout_published_main
#include "train_gpt2.c"
#undef main

/// One tensor of ParameterTensors or ActivationTensors: its field and its
/// element count at the driver's sizes.
template <class Tensors> struct TensorSpec {
  const char *Field;
  float *Tensors::*Member;
  int Count;
};
#define PARAM(FIELD, COUNT) {#FIELD, &ParameterTensors::FIELD, COUNT}
#define ACT(FIELD, COUNT) {#FIELD, &ActivationTensors::FIELD, COUNT}

/// A counted array per tensor of \p Specs, registered in their order and
/// \p Into's pointer set to it, named \p Prefix + its field (as the tool
/// names it through gpt2_forward's and gpt2_backward's local copies:
/// params.wte, grads_acts.ln1), the one of \p Field \p FieldName instead.
/// The names are built in a char buffer: a std::string here would link an
/// instrumented copy of the string code runtime.cpp runs on every recorded
/// access, whose own loads and stores would then be traced as well.
template <class Tensors, size_t N> class TensorArrays {
public:
  TensorArrays(const char *Prefix, const TensorSpec<Tensors> (&Specs)[N],
               Tensors &Into, const char *Field = nullptr,
               const char *FieldName = nullptr) {
    for (size_t I = 0; I < N; ++I) {
      char Name[64];
      if (Field && !strcmp(Field, Specs[I].Field))
        snprintf(Name, sizeof Name, "%s", FieldName);
      else
        snprintf(Name, sizeof Name, "%s%s", Prefix, Specs[I].Field);
      Arrays[I] = std::make_unique<oracle::Array<float>>(Name, Specs[I].Count);
      Into.*Specs[I].Member = *Arrays[I];
    }
  }

private:
  std::unique_ptr<oracle::Array<float>> Arrays[N];
};

int main() {
  const int B = GPT2_B, T = GPT2_T, C = GPT2_C, NH = GPT2_NH, V = GPT2_V,
            Vp = GPT2_VP, OC = 4 * C, N = B * T * C, P = 100;
  ORACLE_PARAM("B", B);
  ORACLE_PARAM("T", T);
  ORACLE_PARAM("C", C);
  ORACLE_PARAM("NH", NH);
  ORACLE_PARAM("V", V);
  ORACLE_PARAM("Vp", Vp);
  ORACLE_PARAM("OC", OC);
  ORACLE_PARAM("N", N);
  ORACLE_PARAM("n", V);
  ORACLE_PARAM("model->num_parameters", P);
  ORACLE_PARAM("t", 3);

  oracle::Array<int> tok("inp", B * T, 0, V), targets("targets", B * T, 0, V);
  oracle::Array<float> out("out", B * T * C), wte("wte", V * C),
      wpe("wpe", T * C);
  ORACLE_CALL(encoder_forward(out, tok, wte, wpe, B, T, C));
  oracle::Array<float> dwte("dwte", V * C), dwpe("dwpe", T * C),
      dout("dout", B * T * C);
  ORACLE_CALL(encoder_backward(dwte, dwpe, dout, tok, B, T, C));

  oracle::Array<float> mean("mean", B * T), rstd("rstd", B * T),
      inp("inp", B * T * C), weight("weight", C), bias("bias", C);
  ORACLE_CALL(layernorm_forward(out, mean, rstd, inp, weight, bias, B, T, C));
  oracle::Array<float> dinp("dinp", B * T * C), dweight("dweight", C),
      dbias("dbias", C);
  ORACLE_CALL(layernorm_backward(dinp, dweight, dbias, dout, inp, weight, mean,
                                 rstd, B, T, C));

  // Matmuls: inp (B,T,C) -> out (B,T,OC), with and without a bias.
  oracle::Array<float> mout("out", B * T * OC), mw("weight", OC * C),
      mb("bias", OC);
  ORACLE_CASE("bias != NULL",
              matmul_forward_naive(mout, inp, mw, mb, B, T, C, OC));
  ORACLE_CASE("bias == NULL",
              matmul_forward_naive(mout, inp, mw, NULL, B, T, C, OC));
  ORACLE_CASE("bias != NULL", matmul_forward(mout, inp, mw, mb, B, T, C, OC));
  ORACLE_CASE("bias == NULL", matmul_forward(mout, inp, mw, NULL, B, T, C, OC));
  oracle::Array<float> mdout("dout", B * T * OC), mdw("dweight", OC * C),
      mdb("dbias", OC);
  ORACLE_CASE("dbias != NULL", matmul_backward(dinp, mdw, mdb, mdout, inp, mw,
                                               B, T, C, OC));
  ORACLE_CASE("dbias == NULL", matmul_backward(dinp, mdw, NULL, mdout, inp,
                                               mw, B, T, C, OC));

  // Attention: inp (B,T,3C) -> out (B,T,C), preatt/att (B,NH,T,T).
  oracle::Array<float> qkv("inp", B * T * 3 * C), preatt("preatt", B * NH * T * T),
      att("att", B * NH * T * T);
  ORACLE_CALL(attention_forward(out, preatt, att, qkv, B, T, C, NH));
  oracle::Array<float> dqkv("dinp", B * T * 3 * C),
      dpreatt("dpreatt", B * NH * T * T), datt("datt", B * NH * T * T);
  ORACLE_CALL(attention_backward(dqkv, dpreatt, datt, dout, qkv, att, B, T, C,
                                 NH));

  oracle::Array<float> g("inp", N, -4.0, 4.0), gout("out", N), gd("dinp", N);
  ORACLE_CALL(gelu_forward(gout, g, N));
  ORACLE_CALL(gelu_backward(gd, g, dout, N));
  oracle::Array<float> r2("inp2", N), rd2("dinp2", N);
  ORACLE_CALL(residual_forward(gout, inp, r2, N));
  ORACLE_CALL(residual_backward(dinp, rd2, dout, N));

  oracle::Array<float> logits("logits", B * T * Vp, -3.0, 3.0),
      probs("probs", B * T * Vp, 0.001, 1.0), losses("losses", B * T),
      dlogits("dlogits", B * T * Vp), dlosses("dlosses", B * T);
  ORACLE_CALL(softmax_forward(probs, logits, B, T, V, Vp));
  ORACLE_CALL(crossentropy_forward(losses, probs, targets, B, T, Vp));
  ORACLE_CALL(crossentropy_softmax_backward(dlogits, dlosses, probs, targets,
                                            B, T, V, Vp));

  // AdamW on P parameters; the moments already allocated.
  oracle::Array<float> params("model->params_memory", P),
      grads("model->grads_memory", P), m("model->m_memory", P),
      v("model->v_memory", P, 0.0, 1.0);
  GPT2 model = {};
  model.num_parameters = P;
  model.params_memory = params;
  model.grads_memory = grads;
  model.m_memory = m;
  model.v_memory = v;
  ORACLE_CALL(gpt2_update(&model, 1e-3f, 0.9f, 0.999f, 1e-8f, 0.0f, 3));

  // The whole forward pass at L layers: every parameter and activation tensor
  // its own array, named as the tool names it through gpt2_forward's local
  // copies `params` and `acts` (the mean loss reads model->acts.losses).
  // acts_memory and params_memory only need to be non-null: the tensors
  // are set here, so gpt2_forward allocates nothing.
  const int L = GPT2_L;
  ORACLE_PARAM("model->config.channels", C);
  ORACLE_PARAM("model->config.num_heads", NH);
  ORACLE_PARAM("model->config.num_layers", L);
  GPT2 net = {};
  net.config = {T, V, Vp, L, NH, C};
  const TensorSpec<ParameterTensors> Params[] = {
      PARAM(wte, Vp * C),          PARAM(wpe, T * C),
      PARAM(ln1w, L * C),          PARAM(ln1b, L * C),
      PARAM(qkvw, L * 3 * C * C),  PARAM(qkvb, L * 3 * C),
      PARAM(attprojw, L * C * C),  PARAM(attprojb, L * C),
      PARAM(ln2w, L * C),          PARAM(ln2b, L * C),
      PARAM(fcw, L * 4 * C * C),   PARAM(fcb, L * 4 * C),
      PARAM(fcprojw, L * C * 4 * C), PARAM(fcprojb, L * C),
      PARAM(lnfw, C),              PARAM(lnfb, C)};
  static_assert(sizeof Params / sizeof *Params == NUM_PARAMETER_TENSORS);
  TensorArrays ParamArrays("params.", Params, net.params);
  const int BT = B * T, LBT = L * B * T, Att = L * B * NH * T * T;
  const TensorSpec<ActivationTensors> Acts[] = {
      ACT(encoded, BT * C),        ACT(ln1, LBT * C),
      ACT(ln1_mean, LBT),          ACT(ln1_rstd, LBT),
      ACT(qkv, LBT * 3 * C),       ACT(atty, LBT * C),
      ACT(preatt, Att),            ACT(att, Att),
      ACT(attproj, LBT * C),       ACT(residual2, LBT * C),
      ACT(ln2, LBT * C),           ACT(ln2_mean, LBT),
      ACT(ln2_rstd, LBT),          ACT(fch, LBT * 4 * C),
      ACT(fch_gelu, LBT * 4 * C),  ACT(fcproj, LBT * C),
      ACT(residual3, LBT * C),     ACT(lnf, BT * C),
      ACT(lnf_mean, BT),           ACT(lnf_rstd, BT),
      ACT(logits, BT * Vp),        ACT(probs, BT * Vp),
      ACT(losses, BT)};
  static_assert(sizeof Acts / sizeof *Acts == NUM_ACTIVATION_TENSORS);
  TensorArrays ActArrays("acts.", Acts, net.acts, "losses",
                         "model->acts.losses");
  float NotNull = 0;
  net.params_memory = &NotNull;
  net.acts_memory = &NotNull;
  net.batch_size = B;
  net.seq_len = T;
  std::vector<int> Inputs(BT), Targets(BT);
  net.inputs = Inputs.data();
  net.targets = Targets.data();
  ORACLE_CASE("targets != NULL", gpt2_forward(&net, tok, targets, B, T));

  // The backward pass through the same tensors: the gradients' own arrays,
  // named through gpt2_backward's local copies `grads` and `grads_acts`.
  ORACLE_PARAM("model->batch_size", B);
  ORACLE_PARAM("model->seq_len", T);
  TensorArrays GradArrays("grads.", Params, net.grads);
  TensorArrays GradActArrays("grads_acts.", Acts, net.grads_acts);
  net.grads_memory = &NotNull;
  net.grads_acts_memory = &NotNull;
  ORACLE_CALL(gpt2_backward(&net));

  // Probabilities that sum to about 1.
  oracle::Array<float> sp("probabilities", V, 0.0, 0.04);
  ORACLE_CALL(sample_mult(sp, V, 0.5f));
}
