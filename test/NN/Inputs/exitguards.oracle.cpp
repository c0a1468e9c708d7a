// Oracle driver for exitguards.c (scripts/nn-oracle.py runs it): the fast
// path at n = 8, the naive one at n = 6; the bias given and absent.
#include "exitguards.c"

int main() {
  const int L = 3;
  ORACLE_PARAM("L", L);
  {
    const int N = 8;
    ORACLE_PARAM("n", N);
    oracle::Array<float> out("out", L * N), in("in", L * N), bias("bias", N);
    ORACLE_CASE("bias != NULL", layers(out, in, bias, L, N));
    oracle::Array<float> o2("out", L * N), i2("in", L * N);
    ORACLE_CASE("bias == NULL", layers(o2, i2, nullptr, L, N));
    // The helpers on their own (clip_or_skip's data stays below its cut).
    oracle::Array<float> y("y", N), x("x", N), b("b", N);
    ORACLE_CALL(scale_naive(y, x, N));
    ORACLE_CALL(scale_rows(y, x, N));
    ORACLE_CALL(maybe_bias(y, b, N));
    ORACLE_CALL(clip_or_skip(y, x, N));
    oracle::Array<float> bo("out", L * N), bb("bias", N);
    ORACLE_CASE("bias != NULL", biased(bo, bb, L, N));
    oracle::Array<float> bo2("out", L * N);
    ORACLE_CASE("bias == NULL", biased(bo2, nullptr, L, N));
    ORACLE_CASE("b != NULL", add_bias(y, b, N));
    ORACLE_CASE("b == NULL", add_bias(y, nullptr, N));
  }
}
