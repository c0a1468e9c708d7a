// Oracle driver for guardlocals.c (scripts/nn-oracle.py runs it).
#include "guardlocals.c"

int main() {
  // 2 channels of 5x6, 3x3 windows at stride 2, padding 2: out 3x3; the
  // windows at the border read the padding.
  ORACLE_PARAM("maxpool_fwd:C", 2);
  ORACLE_PARAM("maxpool_fwd:H", 5);
  ORACLE_PARAM("maxpool_fwd:W", 6);
  ORACLE_PARAM("maxpool_fwd:K", 3);
  ORACLE_PARAM("maxpool_fwd:S", 2);
  ORACLE_PARAM("maxpool_fwd:pad", 2);
  {
    oracle::Array<float> out("out", 2 * 3 * 3), in("in", 2 * 5 * 6);
    oracle::Array<int> arg("arg", 2 * 3 * 3, 0, 1);
    ORACLE_CALL(maxpool_fwd(out, arg, in, 2, 5, 6, 3, 2, 2));
  }
  // darknet's shape: batch 2, 3 channels of 4x4, 2x2 windows at stride 2,
  // padding 1 (out 3x3: (4 + 1 - 2)/2 + 1).
  ORACLE_PARAM("l.batch", 2);
  ORACLE_PARAM("l.c", 3);
  ORACLE_PARAM("l.h", 4);
  ORACLE_PARAM("l.w", 4);
  ORACLE_PARAM("l.out_h", 3);
  ORACLE_PARAM("l.out_w", 3);
  ORACLE_PARAM("l.size", 2);
  ORACLE_PARAM("l.stride", 2);
  ORACLE_PARAM("l.pad", 1);
  {
    oracle::Array<float> output("l.output", 2 * 3 * 9), input("input", 2 * 3 * 16);
    oracle::Array<int> indexes("l.indexes", 2 * 3 * 9, 0, 1);
    pool_layer l = {};
    l.batch = 2; l.c = 3; l.h = 4; l.w = 4; l.out_h = 3; l.out_w = 3;
    l.size = 2; l.stride = 2; l.pad = 1;
    l.output = output;
    l.indexes = indexes;
    ORACLE_CALL(pool_forward(l, input));
  }
  ORACLE_PARAM("window_scale:n", 9);
  ORACLE_PARAM("window_scale:lo", 2);
  ORACLE_PARAM("window_scale:hi", 6);
  {
    oracle::Array<float> y("y", 9), x("x", 9);
    ORACLE_CALL(window_scale(y, x, 9, 2, 6, 3.0f));
  }
  ORACLE_PARAM("upper_scale:n", 4);
  {
    oracle::Array<float> a("a", 16);
    ORACLE_CALL(upper_scale(a, 4, 0.5f));
  }
  ORACLE_PARAM("rows", 5);
  ORACLE_PARAM("cols", 6);
  ORACLE_PARAM("b", 1);
  {
    oracle::Array<float> y("y", 30), x("x", 30);
    ORACLE_CALL(border_zero(y, x, 5, 6, 1));
  }
  ORACLE_PARAM("shifted_sum:n", 7);
  ORACLE_PARAM("shifted_sum:p", 3);
  {
    oracle::Array<float> y("y", 7), x("x", 7), z("z", 7);
    ORACLE_CALL(shifted_sum(y, x, z, 7, 3));
  }
  ORACLE_PARAM("rewritten:n", 6);
  ORACLE_PARAM("datalocal:n", 6);
  {
    oracle::Array<float> y("y", 6), x("x", 6), z("z", 6);
    ORACLE_CALL(rewritten(y, x, z, 6));
    ORACLE_CALL(datalocal(y, x, z, 6));
  }
}
