// Oracle driver for accessors.cpp (scripts/nn-oracle.py runs it).
#include "accessors.cpp"

int main() {
  const int N = 3, K = 5, M = 4, T = 4, HS = 3, C = 6;
  ORACLE_PARAM("in.rows", N);
  ORACLE_PARAM("in.cols", K);
  ORACLE_PARAM("W.rows", M);
  ORACLE_PARAM("W.cols", K);
  ORACLE_PARAM("out.cols", M);
  oracle::Array<float> lo("out.data", N * M), li("in.data", N * K),
      lw("W.data", M * K), lb("b", M);
  Matrix mo{N, M, lo}, mi{N, K, li}, mw{M, K, lw};
  ORACLE_CALL(linear_call(mo, mi, mw, lb));

  ORACLE_PARAM("in.rows_", N);
  ORACLE_PARAM("in.cols_", C);
  ORACLE_PARAM("out.cols_", C);
  oracle::Array<float> ny("out.data_", N * C), nx("in.data_", N * C),
      ng("gamma", C), nb("beta", C);
  Tensor2 to(N, C, ny), ti(N, C, nx);
  ORACLE_CALL(layernorm_rows(to, ti, ng, nb));

  ORACLE_PARAM("T", T);
  ORACLE_PARAM("hs", HS);
  ORACLE_PARAM("att.stride", T);
  ORACLE_PARAM("q.stride", HS);
  ORACLE_PARAM("k.stride", HS);
  oracle::Array<float> aa("att.base", T * T), aq("q.base", T * HS),
      ak("k.base", T * HS);
  Rows ra{T, T, aa}, rq{T, HS, aq}, rk{T, HS, ak};
  ORACLE_CALL(causal_scores(ra, rq, rk, T, HS));

  ORACLE_PARAM("n", C);
  oracle::Vector<float> vv("x.v_", C);
  Vec vx(vv.vector());
  ORACLE_CALL(relu_vec(vx, C));

  ORACLE_PARAM("dW.rows", M);
  ORACLE_PARAM("dW.cols", K);
  ORACLE_PARAM("dout.cols", M);
  oracle::Array<float> gw("dW.data", M * K), gd("dout.data", N * M),
      gi("in.data", N * K);
  Matrix bw{M, K, gw}, bd{N, M, gd}, bi{N, K, gi};
  ORACLE_CALL(linear_backward_w(bw, bd, bi));

  ORACLE_PARAM("C", C);
  oracle::Array<float> ro("out", T * C), ri("inp", T * C);
  ORACLE_CALL(residual_lambda(ro, ri, T, C));

  const int QR = 3, QC = 8;
  ORACLE_PARAM("w.rows_", QR);
  ORACLE_PARAM("w.cols_", QC);
  oracle::Array<signed char> qq("w.q_", QR * QC, -100, 100);
  oracle::Array<float> qs("w.scales_", QR * QC / 4), qo("out", QR * QC);
  QRows qw{QR, QC, std::unique_ptr<signed char[]>(qq.data()),
           std::shared_ptr<float[]>(qs.data(), [](float *) {})};
  ORACLE_CALL(dequant_rows(qo, qw));
  qw.q_.release(); // the oracle's array owns it

  const int V = 7;
  ORACLE_PARAM("e.dim", C);
  oracle::Array<float> et("e.table", V * C), eo("out", T * C);
  oracle::Array<int> ids("e.ids", T, 0, V - 1);
  Embedding emb{C, et, ids};
  ORACLE_CALL(embed(eo, emb, T));

  oracle::Array<float> so("out", C), sd("s.data", C);
  Stream st{0, sd};
  ORACLE_CALL(drain(so, st, C));
}
