// Oracle driver for structrows.c (scripts/nn-oracle.py runs it). Every row
// of a table of pointers, and every member array of a struct, is a
// registered array of its own; the arrays of structs are registered
// arrays laid out as the structs.
#include "structrows.c"

int main() {
  const int L = 3, n = 8, d = 5, N = 4;
  ORACLE_PARAM("L", L);
  ORACLE_PARAM("n", n);
  ORACLE_PARAM("d", d);
  ORACLE_PARAM("N", N);
  oracle::Array<float> w0("W0", d * n), w1("W1", d * n), w2("W2", d * n);
  oracle::Array<float> x("x", n), y("y", L * d);
  float *W[L] = {w0, w1, w2};
  ORACLE_CALL(rowptr_sum(W, x, y, L, n));
  ORACLE_CALL(rowptr_matvec(W, x, y, L, n, d));

  oracle::Array<int8_t> xq("xq->q", n, -127, 128), q0("q0", d * n, -127, 128),
      q1("q1", d * n, -127, 128), q2("q2", d * n, -127, 128);
  oracle::Array<float> xs("xq->s", n / GS), s0("s0", d * n / GS),
      s1("s1", d * n / GS), s2("s2", d * n / GS);
  oracle::Array<float> out("out", L * d);
  QTensor X = {xq, xs};
  QTensor Wq[L] = {{q0, s0}, {q1, s1}, {q2, s2}};
  ORACLE_CALL(qmatmul(out, &X, &Wq[1], n, d));
  ORACLE_CALL(qlayers(out, &X, Wq, L, n, d));
  ORACLE_CALL(qscales(out, Wq, L, n));

  oracle::Array<uint8_t> images("images", N * PIXELS, 0, 255);
  oracle::Array<float> w("w", PIXELS), grad("grad", PIXELS);
  ORACLE_CALL(accumulate(
      reinterpret_cast<Image *>(static_cast<uint8_t *>(images)), w, grad));
  ORACLE_CALL(image_grad(
      reinterpret_cast<Image *>(static_cast<uint8_t *>(images)), w, grad, N));

  const int RecFloats = sizeof(Rec) / sizeof(float);
  oracle::Array<float> recs("recs", N * RecFloats), dots("dots", N);
  Rec *R = reinterpret_cast<Rec *>(static_cast<float *>(recs));
  ORACLE_CALL(rec_dot(R, dots, N));
  ORACLE_CALL(rec_scale(R, dots, N));

  oracle::Array<float> pairs("pairs", 2 * N), prob("prob", N);
  ORACLE_CALL(fill_pairs(reinterpret_cast<Pair *>(static_cast<float *>(pairs)),
                         prob, N));
}
