// Oracle driver for runtime.c (scripts/nn-oracle.py runs it): nodes of
// shape 3 x 5; the run-time lengths reach the tool by --param, scoped to the
// function, as a user gives them.
#include "runtime.c"

int main() {
  ORACLE_PARAM("op_square:n", 15);
  ORACLE_PARAM("op_ce_backward:n1", 5);
  ORACLE_PARAM("op_ce_backward:d0", 3);
  oracle::Array<float> px("p->x", 15), qx("q->x", 15);
  node_t p = {2, {3, 5}, px, nullptr}, q = {2, {3, 5}, qx, nullptr};
  ORACLE_CALL(op_square(&p, &q));
  // n = kad_len(q) = 15 > 8: clamped to 8 (the case the value picks).
  ORACLE_PARAM("op_clamped:n", 15);
  ORACLE_CALL(op_clamped(&p, &q));
  ORACLE_PARAM("kad_len:p->n_d", 2);
  oracle_register("p->d", q.d, 4, sizeof(int), 0);
  ORACLE_CALL(kad_len(&q));
  oracle_unregister(q.d);
  oracle::Array<float> y1x("y1->x", 15, 0.5, 1.0), y1g("y1->g", 15),
      y0x("y0->x", 15);
  node_t y1 = {2, {3, 5}, y1x, y1g}, y0 = {2, {3, 5}, y0x, nullptr};
  ORACLE_CALL(op_ce_backward(&y1, &y0, 0.25f));
  ORACLE_PARAM("scale_row:n", 6);
  oracle::Array<float> x("x", 24);
  oracle::Array<int> lens("lens", 3, 6, 7);
  ORACLE_CALL(scale_row(x, lens, 2, 0.5f));
}
