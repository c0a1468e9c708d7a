// Oracle driver for grouped.c (scripts/nn-oracle.py runs it): GS divides
// every length it groups, and n_kv_heads divides n_heads, as the loader of
// such code checks.
#include "grouped.c"

int main() {
  GS = 4;
  Config cfg = {16, 4, 2, 8};
  const int pos = 5;
  const int n = 16, d = 8;
  ORACLE_PARAM("GS", GS);
  ORACLE_PARAM("dim", cfg.dim);
  ORACLE_PARAM("n_heads", cfg.n_heads);
  ORACLE_PARAM("n_kv_heads", cfg.n_kv_heads);
  ORACLE_PARAM("seq_len", cfg.seq_len);
  ORACLE_PARAM("pos", pos);
  ORACLE_PARAM("dequantize:n", 2 * n);
  ORACLE_PARAM("matmul_q:n", n);
  ORACLE_PARAM("matmul_q:d", d);

  oracle::Array<int8_t> q("qx->q", 2 * n, -127, 128);
  oracle::Array<float> s("qx->s", 2 * n / 4), x("x", 2 * n);
  QTensor qx = {q, s};
  ORACLE_CALL(dequantize(&qx, x, 2 * n));

  oracle::Array<int8_t> xq("x->q", n, -127, 128), wq("w->q", d * n, -127, 128);
  oracle::Array<float> xs("x->s", n / 4), ws("w->s", d * n / 4),
      xout("xout", d);
  QTensor xt = {xq, xs}, wt = {wq, ws};
  ORACLE_CALL(matmul_q(xout, &xt, &wt, n, d));

  int kv_dim = cfg.dim * cfg.n_kv_heads / cfg.n_heads;
  oracle::Array<float> att("att", cfg.n_heads * cfg.seq_len),
      qv("q", cfg.dim), key_cache("key_cache", cfg.seq_len * kv_dim);
  ORACLE_CALL(attention_gqa(att, qv, key_cache, &cfg, pos));

  oracle::Array<float> kv("k", kv_dim);
  ORACLE_CALL(rope_gqa(qv, kv, &cfg, pos));
}
