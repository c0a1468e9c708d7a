// Oracle driver for windows.cpp (scripts/nn-oracle.py runs it).
#include "windows.cpp"

int main() {
  const int H = 5, W = 6, C = 2, FH = 3, FW = 3, S = 2, P = 1;
  const int OH = (H + 2 * P - FH) / S + 1, OW = (W + 2 * P - FW) / S + 1;
  ORACLE_PARAM("H", H);
  ORACLE_PARAM("W", W);
  ORACLE_PARAM("C", C);
  ORACLE_PARAM("FH", FH);
  ORACLE_PARAM("FW", FW);
  ORACLE_PARAM("stride", S);
  ORACLE_PARAM("pad", P);
  ORACLE_PARAM("OH", OH);
  ORACLE_PARAM("OW", OW);
  oracle::Array<float> po("out", OH * OW * C), pi("in", H * W * C);
  ORACLE_CALL(avg_pool(po, pi, H, W, C, FH, FW, S, P, OH, OW));

  const int R = 3, N = 7, K = 2;
  ORACLE_PARAM("R", R);
  ORACLE_PARAM("N", N);
  ORACLE_PARAM("K", K);
  oracle::Array<float> bo("out", R * N), bi("in", R * N);
  ORACLE_CALL(box_rows(bo, bi, R, N, K));
}
