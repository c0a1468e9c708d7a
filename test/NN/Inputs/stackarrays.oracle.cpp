// Oracle driver for stackarrays.c (test/NN/oracle-stack-arrays.test).
#include "stackarrays.c"

int main() {
  oracle::Array<float> x("x", 12), y("y", 16), w("w", 16);
  shape_t S = {{1, 2, 3, 4, 5, 6}};
  ORACLE_CALL(local_outside(y, x));
  ORACLE_CALL(struct_local(w, x));
  ORACLE_CALL(scratch_inside(y, x));
  ORACLE_CALL(by_value(S, y, x));
}
