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
#define main heldout_published_main
#include "train_gpt2.c"
#undef main

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

  // Probabilities that sum to about 1.
  oracle::Array<float> sp("probabilities", V, 0.0, 0.04);
  ORACLE_CALL(sample_mult(sp, V, 0.5f));
}
