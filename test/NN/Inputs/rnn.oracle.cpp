// Oracle driver for rnn.c (scripts/nn-oracle.py runs it).
#include "rnn.c"

int main() {
  const int T = 5, H = 4;
  ORACLE_PARAM("T", T);
  ORACLE_PARAM("H", H);
  oracle::Array<float> delta("delta", T * H), dwh("dwh", H * H),
      h("h", T * H, -1.0, 1.0), dy("dy", T * H);
  ORACLE_CALL(rnn_backward(delta, dwh, h, dy, T, H));
  oracle::Array<float> s("s", T * T), diag("diag", T), upper("upper", T * T);
  ORACLE_CALL(score_parts(s, diag, upper, T));
}
