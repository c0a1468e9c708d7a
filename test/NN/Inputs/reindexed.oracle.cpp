// Oracle driver for reindexed.c (scripts/nn-oracle.py runs it): YOLO's
// forward on 2 images, 3 anchors of 2 classes over a 2x3 grid; the planes
// rescaled three ways. The refused nests run too (their rows are refused).
#include "reindexed.c"

int main() {
  layer l = {};
  l.batch = 2;
  l.n = 3;
  l.w = 2;
  l.h = 3;
  l.classes = 2;
  l.outputs = l.n * l.w * l.h * (4 + l.classes + 1);
  ORACLE_PARAM("l.batch", l.batch);
  ORACLE_PARAM("l.n", l.n);
  ORACLE_PARAM("l.w", l.w);
  ORACLE_PARAM("l.h", l.h);
  ORACLE_PARAM("l.classes", l.classes);
  ORACLE_PARAM("l.outputs", l.outputs);
  oracle::Array<float> output("l.output", l.batch * l.outputs);
  l.output = output;
  ORACLE_CALL(forward_yolo(l));
  ORACLE_PARAM("activate_array:n", 12);
  ORACLE_CALL(activate_array(output, 12));

  const int P = 2, S = 5, N = 6, M = 3;
  ORACLE_PARAM("P", P);
  ORACLE_PARAM("S", S);
  ORACLE_PARAM("N", N);
  ORACLE_PARAM("M", M);
  oracle::Array<float> out("out", P * 3 * S), in("in", P * 3 * S);
  ORACLE_CALL(scale_planes(out, in, P, S));
  oracle::Array<int> idx("idx", N, 0, N);
  ORACLE_CASE("flag", branchy(out, in, N, 1));
  ORACLE_CALL(inner_set(out, in, 2, M));
  ORACLE_CALL(data_set(out, in, idx, N));
}
