// Oracle driver for test/Program/computed-fields.c (scripts/program-oracle.py):
// forward() on the Config that the file's configure() fills (FORM=1: literal
// sizes in set_sizes, kv_dim and hidden_dim computed in configure,
// head_size in init), every buffer registered. No ORACLE_PARAM: the tool
// must find every size in the program.
#define FORM 1
#define main kernel_main
#include "computed-fields.c"
#undef main

int main() {
  oracle::Array<float> x("x", 8), xb("xb", 8), q("q", 8), k("k", 4),
      hb("hb", 32), w("w", 2 * 616);
  Config c;
  configure(&c);
  ORACLE_CALL(forward(&c, x, xb, q, k, hb, w));
}
