// Oracle driver for exits.c (scripts/nn-oracle.py runs it). Each exit is
// taken part way, so the run lies strictly inside the tool's range: a count
// that took either end as exact fails here.
#include "exits.c"

int main() {
  const int R = 3, C = 6, n = 12;
  ORACLE_PARAM("R", R);
  ORACLE_PARAM("C", C);
  ORACLE_PARAM("n", n);
  oracle::Array<float> out("out", R), x("x", R * C, 0.25, 0.5);
  ORACLE_CALL(capped_sums(out, x, R, C, 1.0f));
  oracle::Array<int> keys("keys", n, 0, 3);
  ORACLE_CALL(find_first(keys, n, 2));
  oracle::Array<float> scaled("scaled", n), w("w", n, 0.5, 1.0);
  ORACLE_CALL(cutoff(scaled, w, n, 0.5f, 2.0f));
}
