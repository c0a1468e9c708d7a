// Oracle driver for transformer.c (scripts/program-oracle.py): one decoder
// step at position pos through L layers, every buffer registered.
#include "transformer.c"

// Sizes: the defaults, or --define=ORACLE_DIM=... (scripts/program-oracle.py).
#ifndef ORACLE_L
#define ORACLE_L 2
#endif
#ifndef ORACLE_DIM
#define ORACLE_DIM 8
#endif
#ifndef ORACLE_HID
#define ORACLE_HID 24
#endif
#ifndef ORACLE_SEQ
#define ORACLE_SEQ 6
#endif
#ifndef ORACLE_POS
#define ORACLE_POS 3
#endif

int main() {
  const int L = ORACLE_L, dim = ORACLE_DIM, hid = ORACLE_HID, seq = ORACLE_SEQ,
            pos = ORACLE_POS;
  ORACLE_PARAM("L", L);
  ORACLE_PARAM("dim", dim);
  ORACLE_PARAM("hid", hid);
  ORACLE_PARAM("seq", seq);
  ORACLE_PARAM("pos", pos);
  oracle::Array<float> x("x", dim), xb("xb", dim), xb2("xb2", dim), q("q", dim),
      hb("hb", hid), hb2("hb2", hid), att("att", seq),
      kc("kc", L * seq * dim), vc("vc", L * seq * dim),
      rms_att("rms_att", L * dim), rms_ffn("rms_ffn", L * dim),
      wq("wq", L * dim * dim), wk("wk", L * dim * dim), wv("wv", L * dim * dim),
      wo("wo", L * dim * dim), w1("w1", L * dim * hid), w2("w2", L * hid * dim),
      w3("w3", L * dim * hid);
  ORACLE_CALL(forward(x, xb, xb2, q, hb, hb2, att, kc, vc, rms_att, rms_ffn,
                      wq, wk, wv, wo, w1, w2, w3, L, dim, hid, seq, pos));
}
