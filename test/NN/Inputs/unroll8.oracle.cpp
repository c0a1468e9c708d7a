// Oracle driver for unroll8.c (scripts/nn-oracle.py runs it);
// unroll8-*.oracle.cpp run it at other sizes.
#ifndef UNROLL8_N
#define UNROLL8_N 21
#endif
#include "unroll8.c"

int main() {
  const int n = UNROLL8_N;
  ORACLE_PARAM("n", n);
  oracle::Array<float> x("x", n), y("y", n);
  float r = 0.0f;
  ORACLE_CALL(r = sdot(n, x, y));
  (void)r;
  ORACLE_CALL(saxpy(n, 0.5f, x, y));
}
