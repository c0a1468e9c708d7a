// Oracle driver for semantics.c (test/NN/oracle-semantics.test).
#include "semantics.c"

int main() {
  const int N = 10, R = 3;
  oracle::Array<float> y("y", N), x("x", N);
  ORACLE_CALL(folding(y, x, N));
  ORACLE_CALL(ops(y, x, N));
  ORACLE_CALL(two_nests(y, x, 0.5f, N));
  oracle::Array<float> acc("acc", R), tmp("tmp", R), xr("x", R * 4);
  oracle::Array<int> col("col", 4);
  for (int j = 0; j < 4; j++)
    col[j] = 3 - j;
  ORACLE_CALL(first_access(acc, tmp, xr, col, R));
  ORACLE_CALL(calls_helper(y, xr, R));
  ORACLE_CALL(outer_calls(y, x, N));
  ORACLE_CALL(copy_one(y, x, N));
  ORACLE_CALL(copy_two(y, x, N));
}
