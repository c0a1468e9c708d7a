// Oracle driver for runstate.c (scripts/nn-oracle.py runs it). The struct's
// sizes are given to the tool by field name; the RunState's buffers are
// registered arrays, so every access through a field (or a field pointer the
// kernel sets) is traced. The refused nests are not run.
#include "runstate.c"

void reset_state(RunState *s) { (void)s; }

int main() {
  Config cfg = {8, 2, 6, 3};
  const int pos = 3, layer = 1;
  ORACLE_PARAM("dim", cfg.dim);
  ORACLE_PARAM("n_heads", cfg.n_heads);
  ORACLE_PARAM("seq_len", cfg.seq_len);
  ORACLE_PARAM("n_layers", cfg.n_layers);
  ORACLE_PARAM("pos", pos);
  ORACLE_PARAM("layer", layer);
  ORACLE_PARAM("dot:n", cfg.dim);

  const int cache = cfg.n_layers * cfg.seq_len * cfg.dim;
  oracle::Array<float> x("x", cfg.dim), xb("xb", cfg.dim), q("q", cfg.dim),
      att("att", cfg.n_heads * cfg.seq_len), key_cache("key_cache", cache),
      value_cache("value_cache", cache), wk("wk", cfg.dim * cfg.dim),
      w("w", cfg.n_layers * cfg.dim);
  RunState s = {x, xb, q, nullptr, nullptr, att, key_cache, value_cache};

  ORACLE_CALL(kv_store(&s, &cfg, wk, layer, pos));
  ORACLE_CALL(attend(&s, &cfg, layer, pos));
  ORACLE_CALL(residual_copy(&s, &cfg, w));
  ORACLE_CALL(scores(&s, &cfg, pos));
  ORACLE_CALL(dot(att, q, key_cache, cfg.dim));
  ORACLE_CALL(in_nest(&s, &cfg));
}
