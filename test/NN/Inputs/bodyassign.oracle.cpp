// Oracle driver for bodyassign.c (scripts/nn-oracle.py runs it). The State's
// buffers are registered arrays, so every access through a field (or a field
// pointer the kernel sets) is traced. The refused nests are not run.
#include "bodyassign.c"

void reset_state(State *s) { (void)s; }

int main() {
  Config cfg = {4, 5, 3};
  const int pos = 2, L = 3, N = 4, M = 3;
  ORACLE_PARAM("dim", cfg.dim);
  ORACLE_PARAM("seq_len", cfg.seq_len);
  ORACLE_PARAM("n_layers", cfg.n_layers);
  ORACLE_PARAM("pos", pos);
  ORACLE_PARAM("L", L);
  ORACLE_PARAM("N", N);
  ORACLE_PARAM("M", M);
  ORACLE_PARAM("add:n", N);
  ORACLE_PARAM("scale:n", cfg.dim);

  oracle::Array<float> encoded("encoded", N), residual3("residual3", L * N),
      w("w", L * N);
  ORACLE_CALL(layers(encoded, residual3, w, L, N));
  ORACLE_CALL(add(residual3, encoded, w, N));
  oracle::Array<float> dencoded("dencoded", N), dresidual3("dresidual3", L * N);
  ORACLE_CALL(back_layers(encoded, dencoded, residual3, dresidual3, w, L, N));

  oracle::Array<float> out("out", M), A("A", M * N), x("x", N);
  ORACLE_CALL(rows(out, A, x, M, N));

  const int cache = cfg.n_layers * cfg.seq_len * cfg.dim;
  oracle::Array<float> sx("sx", cfg.dim),
      att("att", cfg.n_layers * (pos + 1)), key_cache("key_cache", cache),
      wk("wk", cfg.n_layers * cfg.dim), q("q", cfg.dim), sc("sc", 1),
      so("so", cfg.n_layers * cfg.dim);
  State s = {sx, nullptr, att, key_cache, {q, sc}};
  ORACLE_CALL(kv_layers(&s, &cfg, wk, pos));
  ORACLE_CALL(scaled_layers(&s, &cfg, so));
  QTensor t = {q, sc};
  ORACLE_CALL(scale(&t, sx, cfg.dim));
}
