// Oracle driver for test/Program/config.c (scripts/nn-oracle.py --dump):
// one instrumented run of the whole pass, forward() on the Config that
// config.c's main fills (FORM=1), with every buffer registered.
#define FORM 1
#define main config_main
#include "config.c"
#undef main

int main() {
  oracle::Array<float> acts("acts", 3 * 32), h("h", 128), g("g", 128),
      y("y", 32), params("params", 2 * 8 * 64 + 64);
  Config c = {2, 1, 4, 8};
  ORACLE_CALL(forward(&c, acts, h, g, y, params));
}
