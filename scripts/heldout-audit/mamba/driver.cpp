// Held-out audit driver for kroggen/mamba.c mamba.c (scripts/heldout-audit).
// Our code: it #includes the published file unchanged and calls its kernels
// at small sizes: dim 8, d_inner 16, dt_rank 2, d_state 4, d_conv 4,
// 2 layers, vocab 20 (rounded to 24). The state-space step (forward_layer)
// sets `dt` again before its softplus loop, and reads its sizes through
// `Config *p = &mamba->config;` inside forward's loop over layers.
#include "../shims.h"
#define TESTING // mamba.c's main() is under #ifndef TESTING
#include "mamba.c"
#include "../llama2c.h"

namespace {
constexpr int Dim = 8, Inner = 16, Rank = 2, State = 4, Conv = 4, Layers = 2, Vocab = 20,
              Rounded = 24, XDb = Rank + 2 * State;

void params() {
  ORACLE_PARAM("n_layers", Layers);
  ORACLE_PARAM("vocab_size", Vocab);
  ORACLE_PARAM("rounded_vocab_size", Rounded);
  ORACLE_PARAM("dim", Dim);
  ORACLE_PARAM("d_inner", Inner);
  ORACLE_PARAM("dt_rank", Rank);
  ORACLE_PARAM("d_state", State);
  ORACLE_PARAM("d_conv", Conv);
  // The helpers on their own, at the sizes of their calls below.
  ORACLE_PARAM("rmsnorm:size", Dim);
  ORACLE_PARAM("softmax:size", Vocab);
  ORACLE_PARAM("shift_matrix_left:rows", Inner);
  ORACLE_PARAM("shift_matrix_left:cols", Conv);
  ORACLE_PARAM("update_last_column:rows", Inner);
  ORACLE_PARAM("update_last_column:cols", Conv);
  ORACLE_PARAM("rowwise_dot_product:rows", Inner);
  ORACLE_PARAM("rowwise_dot_product:cols", State);
  ORACLE_PARAM("matmul:d", 2 * Inner);
  ORACLE_PARAM("matmul:n", Dim);
  ORACLE_PARAM("linear:d", Inner);
  ORACLE_PARAM("linear:n", Rank);
  ORACLE_PARAM("broadcast_multiply:d", Inner);
  ORACLE_PARAM("broadcast_multiply:n", State);
  ORACLE_PARAM("elementwise_multiply:total_elements", Inner * Conv);
  ORACLE_PARAM("elementwise_add:total_elements", Inner);
  ORACLE_PARAM("elementwise_multiply_and_add:total_elements", Inner * State);
  ORACLE_PARAM("outer_product:d", Inner);
  ORACLE_PARAM("outer_product:n", State);
  ORACLE_PARAM("sum_along_last_dim:rows", Inner);
  ORACLE_PARAM("sum_along_last_dim:cols", Conv);
  heldout::samplerParams(Vocab);
}

void helpers() {
  oracle::Array<float> o("o", Dim), x("x", Dim), weight("weight", Dim);
  ORACLE_CALL(rmsnorm(o, x, weight, Dim));
  oracle::Array<float> sx("x", Vocab, -2.0, 2.0);
  ORACLE_CALL(softmax(sx, Vocab));
  oracle::Array<float> conv("matrix", Inner * Conv), col("x", Inner);
  ORACLE_CALL(shift_matrix_left(conv, Inner, Conv));
  ORACLE_CALL(update_last_column(conv, col, Inner, Conv));
  oracle::Array<float> ssm("matrix", Inner * State), c("weights", State), y("out", Inner);
  ORACLE_CALL(rowwise_dot_product(y, ssm, c, Inner, State));
  oracle::Array<float> xz("xout", 2 * Inner), w("w", 2 * Inner * Dim);
  ORACLE_CALL(matmul(xz, x, w, 2 * Inner, Dim));
  oracle::Array<float> dt("xout", Inner), dtin("x", Rank), dtw("w", Inner * Rank),
      dtb("b", Inner);
  ORACLE_CALL(linear(dt, dtin, dtw, dtb, Inner, Rank));
  oracle::Array<float> dA("out", Inner * State), A("y", Inner * State);
  ORACLE_CALL(broadcast_multiply(dA, dt, A, Inner, State));
  oracle::Array<float> tmp("result", Inner * Conv), cw("matrix2", Inner * Conv);
  ORACLE_CALL(elementwise_multiply(tmp, conv, cw, Inner * Conv));
  oracle::Array<float> sum("result", Inner), bias("matrix2", Inner);
  ORACLE_CALL(elementwise_add(sum, col, bias, Inner));
  oracle::Array<float> dB("matrix3", Inner * State), h("result", Inner * State);
  ORACLE_CALL(elementwise_multiply_and_add(h, ssm, dA, dB, Inner * State));
  oracle::Array<float> Bv("y", State);
  ORACLE_CALL(outer_product(dB, dt, Bv, Inner, State));
  ORACLE_CALL(sum_along_last_dim(sum, tmp, Inner, Conv));
}

/// A Mamba of Layers layers over registered arrays, as mamba.c lays them out.
struct Model {
  oracle::Array<float> emb{"w->token_embedding_table", Rounded * Dim},
      in_proj{"w->in_proj", Layers * 2 * Inner * Dim},
      conv1d_weight{"w->conv1d_weight", Layers * Inner * Conv},
      conv1d_bias{"w->conv1d_bias", Layers * Inner},
      x_proj{"w->x_proj", Layers * XDb * Inner},
      dt_proj_weight{"w->dt_proj_weight", Layers * Inner * Rank},
      dt_proj_bias{"w->dt_proj_bias", Layers * Inner},
      A{"w->A", Layers * Inner * State, -1.0, -0.1}, D{"w->D", Layers * Inner},
      out_proj{"w->out_proj", Layers * Dim * Inner}, norm{"w->norm", Layers * Dim},
      final_norm{"w->final_norm", Dim}, lm_head{"w->lm_head", Rounded * Dim};
  oracle::Array<float> input{"s->input", Dim}, hidden{"s->hidden_state", Dim},
      xz{"s->xz", 2 * Inner}, x_db{"s->x_db", XDb}, dt{"s->dt", Inner},
      dA{"s->dA", Inner * State}, dB{"s->dB", Inner * State}, temp{"s->temp", Inner * State},
      y{"s->y", Inner}, logits{"s->logits", Rounded},
      conv_state{"s->conv_state", Layers * Inner * Conv},
      ssm_state{"s->ssm_state", Layers * Inner * State};
  Mamba M = {};

  Model() {
    M.config = {Layers, Vocab, Dim, Inner, Rank, State, Conv, 1, Rounded};
    MambaWeights &W = M.weights;
    W.token_embedding_table = emb, W.in_proj = in_proj, W.conv1d_weight = conv1d_weight;
    W.conv1d_bias = conv1d_bias, W.x_proj = x_proj, W.dt_proj_weight = dt_proj_weight;
    W.dt_proj_bias = dt_proj_bias, W.A = A, W.D = D, W.out_proj = out_proj;
    W.norm = norm, W.final_norm = final_norm, W.lm_head = lm_head;
    RunState &S = M.state;
    S.input = input, S.hidden_state = hidden, S.xz = xz, S.x_db = x_db, S.dt = dt;
    S.dA = dA, S.dB = dB, S.temp = temp, S.y = y, S.logits = logits;
    S.conv_state = conv_state, S.ssm_state = ssm_state;
  }
};
} // namespace

int main() {
  params();
  helpers();
  heldout::callSamplers(Vocab);
  Model Mo;
  ORACLE_CALL(forward_layer(&Mo.M, 1, Mo.hidden));
  ORACLE_CALL(forward(&Mo.M, 3));
}
