// Oracle driver for remainder8.c (scripts/nn-oracle.py runs it);
// remainder8-13.oracle.cpp runs it at n = 13.
#ifndef REMAINDER8_N
#define REMAINDER8_N 21
#endif
#include "remainder8.c"

int main() {
  const int n = REMAINDER8_N;
  ORACLE_PARAM("n", n);
  oracle::Array<float> x("x", n), y("y", n);
  float r = 0.0f;
  ORACLE_CALL(r = sdot(n, x, y));
  (void)r;
  ORACLE_CALL(saxpy(n, 0.5f, x, y));
  ORACLE_CALL(tail(n, 0.5f, x, y));
  ORACLE_CALL(r = sum_sq4(n, x));
  ORACLE_CALL(from1(n, x, y));
  ORACLE_CALL(r = sum_sq2(n, x));
}
