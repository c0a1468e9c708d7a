// Oracle driver for gathers.c (scripts/nn-oracle.py runs it). The indices
// repeat (fewer rows than picks), so the measured bytes fall strictly
// inside the tool's ranges.
#include "gathers.c"

int main() {
  ORACLE_PARAM("l.n", 12);
  oracle::Array<int> indexes("l.indexes", 12, 0, 5);
  oracle::Array<float> ldelta("l.delta", 12), din("delta_in", 5);
  pool_layer l = {indexes, ldelta, 12};
  ORACLE_CALL(pool_backward(l, din));

  ORACLE_PARAM("N", 10);
  oracle::Array<int> q("q", 10, 0, 4);
  oracle::Array<float> y("y", 10), table("table", 4);
  ORACLE_CALL(lookup(y, table, q, 10));

  oracle::Array<float> out("out", NTOK * EMB), wte("wte", VOCAB * EMB);
  oracle::Array<int> tok("tok", NTOK, 0, VOCAB);
  ORACLE_CALL(embed_table((float(*)[EMB])out.data(), tok,
                          (const float(*)[EMB])wte.data()));

  ORACLE_PARAM("B", 2);
  ORACLE_PARAM("T", 3);
  ORACLE_PARAM("C", 5);
  oracle::Array<float> dwte("dwte", 4 * 5), dout("dout", 2 * 3 * 5);
  oracle::Array<int> inp("inp", 6, 0, 4);
  ORACLE_CALL(embed_backward(dwte, dout, inp, 2, 3, 5));

  oracle::Array<float> logits("out", 3), wt("wte", 4 * 5), xs("x", 3 * 5);
  oracle::Array<int> toks("tok", 3, 0, 2);
  ORACLE_CALL(token_logits(logits, toks, wt, xs, 3, 5));

  ORACLE_PARAM("dot_row:n", 5);
  oracle::Array<float> da("a", 5), db("b", 5);
  ORACLE_CALL(dot_row(da, db, 5));
}
