// Oracle driver for kvcache.c (scripts/program-oracle.py): one attention
// step at position pos through n_layers layers, every buffer registered.
#include "kvcache.c"

// Sizes: the defaults, or --define=ORACLE_DIM=... (scripts/program-oracle.py).
#ifndef ORACLE_L
#define ORACLE_L 2
#endif
#ifndef ORACLE_DIM
#define ORACLE_DIM 8
#endif
#ifndef ORACLE_HEADS
#define ORACLE_HEADS 4
#endif
#ifndef ORACLE_KV_HEADS
#define ORACLE_KV_HEADS 2
#endif
#ifndef ORACLE_SEQ
#define ORACLE_SEQ 6
#endif
#ifndef ORACLE_POS
#define ORACLE_POS 3
#endif

int main() {
  Config c = {ORACLE_DIM, ORACLE_HEADS, ORACLE_KV_HEADS, ORACLE_SEQ, ORACLE_L};
  const int pos = ORACLE_POS;
  ORACLE_PARAM("dim", c.dim);
  ORACLE_PARAM("n_heads", c.n_heads);
  ORACLE_PARAM("n_kv_heads", c.n_kv_heads);
  ORACLE_PARAM("seq_len", c.seq_len);
  ORACLE_PARAM("n_layers", c.n_layers);
  ORACLE_PARAM("pos", pos);
  const int kv_dim = c.dim * c.n_kv_heads / c.n_heads;
  oracle::Array<float> q("q", c.dim), att("att", c.n_heads * c.seq_len),
      xb("xb", c.dim), key_cache("key_cache", c.n_layers * c.seq_len * kv_dim),
      value_cache("value_cache", c.n_layers * c.seq_len * kv_dim);
  ORACLE_CALL(forward(&c, q, att, xb, key_cache, value_cache, pos));
}
