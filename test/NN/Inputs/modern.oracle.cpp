// Oracle driver for modern.cpp (scripts/nn-oracle.py runs it).
#include "modern.cpp"

int main() {
  const int N = 3, C = 8, In = 6, Out = 5, Rows = 8, K = 7, P = 10;
  ORACLE_PARAM("N", N);
  ORACLE_PARAM("C", C);
  ORACLE_PARAM("in", In);
  ORACLE_PARAM("out", Out);
  ORACLE_PARAM("gemv_rows4:N", Rows);
  ORACLE_PARAM("K", K);
  ORACLE_PARAM("poly_eval:N", P);
  // the trip count of `for (float &v : act)`, named as written
  ORACLE_PARAM("act.size()", 20);

  oracle::Vector<float> out("out", N * C), inp("inp", N * C), gain("gain", C);
  ORACLE_CALL(rmsnorm_rows(out.vector(), inp.vector(), gain.vector(), N, C));

  Linear lin{In, Out};
  oracle::Array<float> x("x", In), y("y", Out);
  oracle::Vector<float> W("W", Out * In), b("b", Out);
  ORACLE_CALL(lin.forward(std::span<const float>(x.data(), In),
                          std::span<float>(y.data(), Out), W.vector(),
                          b.vector()));

  oracle::Vector<float> act("act", 20);
  ORACLE_CALL(silu_inplace(act.vector()));

  oracle::Array<float> gy("y", Rows), A("A", Rows * K), gx("x", K);
  ORACLE_CALL(gemv_rows4(gy, A, gx, Rows, K));

  oracle_register("kPoly", kPoly, 4, sizeof(float), 0);
  oracle::Array<float> py("y", P), px("x", P);
  ORACLE_CALL(poly_eval(py, px, P));
}
