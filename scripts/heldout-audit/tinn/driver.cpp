// Held-out audit driver for glouw/tinn Tinn.c (scripts/heldout-audit).
// Our code: it #includes the published file unchanged and calls fprop,
// bprop and toterr (static, so called here directly) on a network of 6
// inputs, 5 hidden and 3 outputs, built from registered arrays instead of
// xtbuild's calloc.
#include "../shims.h"
#include "Tinn.c"

int main() {
  const int Nips = 6, Nhid = 5, Nops = 3;
  ORACLE_PARAM("t.nips", Nips);
  ORACLE_PARAM("t.nhid", Nhid);
  ORACLE_PARAM("t.nops", Nops);
  ORACLE_PARAM("t.nb", 2);
  ORACLE_PARAM("t.nw", Nhid * (Nips + Nops));
  ORACLE_PARAM("toterr:size", Nops);
  ORACLE_PARAM("xtprint:size", Nops);
  // t.x points into t.w (xtbuild: one block, x = w + nhid * nips): one
  // registered array holds both.
  oracle::Array<float> w("t.w", Nhid * (Nips + Nops)), b("t.b", 2),
      h("t.h", Nhid), o("t.o", Nops), in("in", Nips), tg("tg", Nops, 0.0, 1.0);
  Tinn t;
  t.w = w;
  t.x = t.w + Nhid * Nips;
  t.b = b;
  t.h = h;
  t.o = o;
  t.nb = 2;
  t.nw = Nhid * (Nips + Nops);
  t.nips = Nips;
  t.nhid = Nhid;
  t.nops = Nops;
  ORACLE_CALL(fprop(t, in));
  ORACLE_CALL(bprop(t, in, tg, 0.5f));
  ORACLE_CALL(toterr(tg, o, Nops));
}
