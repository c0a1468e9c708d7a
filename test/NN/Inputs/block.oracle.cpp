// Oracle driver for block.c (scripts/nn-oracle.py runs it): one call of
// block_forward; the sizes are the file's constants, so no ORACLE_PARAM.
#include "block.c"

int main() {
  oracle::Array<float> ln("ln", BATCH * SEQ * CH), h("h", BATCH * SEQ * HIDDEN),
      x("x", BATCH * SEQ * CH), ln_w("ln_w", CH), ln_b("ln_b", CH),
      fc_w("fc_w", HIDDEN * CH);
  ORACLE_CASE("!(bias)", block_forward(ln, h, x, ln_w, ln_b, fc_w));
}
