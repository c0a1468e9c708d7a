// Oracle driver for llama.c (scripts/nn-oracle.py runs it). The sizes of
// the struct are given to the tool by field name; those of the helpers by
// FUNCTION:NAME.
#include "llama.c"

int main() {
  Config cfg = {16, 24, 4, 8};
  const int pos = 5;
  ORACLE_PARAM("dim", cfg.dim);
  ORACLE_PARAM("hidden_dim", cfg.hidden_dim);
  ORACLE_PARAM("n_heads", cfg.n_heads);
  ORACLE_PARAM("seq_len", cfg.seq_len);
  ORACLE_PARAM("pos", pos);
  ORACLE_PARAM("rmsnorm:size", cfg.dim);
  ORACLE_PARAM("softmax:size", pos + 1);
  ORACLE_PARAM("matmul:n", cfg.dim);
  ORACLE_PARAM("matmul:d", cfg.hidden_dim);

  oracle::Array<float> o("o", cfg.dim), x("x", cfg.dim),
      weight("weight", cfg.dim);
  ORACLE_CALL(rmsnorm(o, x, weight, cfg.dim));
  oracle::Array<float> sx("x", pos + 1, -2.0, 2.0);
  ORACLE_CALL(softmax(sx, pos + 1));
  oracle::Array<float> xout("xout", cfg.hidden_dim),
      w("w", cfg.hidden_dim * cfg.dim);
  ORACLE_CALL(matmul(xout, x, w, cfg.dim, cfg.hidden_dim));
  oracle::Array<float> q("q", cfg.dim), k("k", cfg.dim);
  ORACLE_CALL(rope(q, k, &cfg, pos));
  oracle::Array<float> xb("xb", cfg.dim), att("att", cfg.n_heads * cfg.seq_len),
      key_cache("key_cache", cfg.seq_len * cfg.dim),
      value_cache("value_cache", cfg.seq_len * cfg.dim);
  ORACLE_CALL(attention(xb, att, q, key_cache, value_cache, &cfg, pos));
  oracle::Array<float> hb("hb", cfg.hidden_dim), hb2("hb2", cfg.hidden_dim);
  ORACLE_CALL(swiglu(hb, hb2, &cfg));
}
