// Oracle driver for memcalls.cpp (scripts/nn-oracle.py runs it): the oracle's
// memset, memcpy and memmove store and load element by element, and
// std::fill / std::copy assign elements, so the tracing sees every one.
#include "memcalls.cpp"

int main() {
  const int T = 3, C = 8, N = 5;
  ORACLE_PARAM("T", T);
  ORACLE_PARAM("C", C);
  ORACLE_PARAM("N", N);

  oracle::Array<float> xb("xb", C), att("att", T), v("v", T * C);
  ORACLE_CALL(attend(xb, att, v, T, C));
  oracle::Array<float> out("out", T * C), inp("inp", T * C);
  ORACLE_CALL(copy_rows(out, inp, T, C));
  oracle::Array<double> acc("acc", T * C);
  ORACLE_CALL(clear(acc, T, C));
  oracle::Array<float> buf("buf", N);
  ORACLE_CALL(shift(buf, N));
  oracle::Array<float> g("g", T * C);
  ORACLE_CALL(std_forms(out, inp, g, T, C));
  oracle::Array<float> dst("dst", T * C), src("src", C);
  ORACLE_CALL(std_n(dst, src, T, C));
}
