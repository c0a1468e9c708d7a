// Held-out audit driver for pjreddie/darknet src/blas.c (scripts/heldout-audit).
// Our code: it #includes the published file unchanged and calls its CPU
// kernels (batch norm statistics, axpy-style BLAS level 1, losses, softmax,
// upsample, shortcut, weighted sums) at small sizes, with unit strides as
// darknet's layers call them.
#include "../shims.h"
#include "blas.c"

int main() {
  const int B = 2, F = 3, S = 5, N = 12;
  ORACLE_PARAM("batch", B);
  ORACLE_PARAM("filters", F);
  ORACLE_PARAM("spatial", S);
  ORACLE_PARAM("n", N);
  ORACLE_PARAM("N", N);
  ORACLE_PARAM("INCX", 1);
  ORACLE_PARAM("INCY", 1);
  {
    oracle::Array<float> x("x", B * F * S), mean("mean", F), var("variance", F),
        dx("dx", B * F * S);
    ORACLE_CALL(mean_cpu(x, B, F, S, mean));
    ORACLE_CALL(variance_cpu(x, mean, B, F, S, var));
    ORACLE_CALL(normalize_cpu(x, mean, var, B, F, S));
    ORACLE_CALL(l2normalize_cpu(x, dx, B, F, S));
  }
  {
    oracle::Array<float> X("X", N), Y("Y", N), Z("Z", N);
    ORACLE_CALL(const_cpu(N, 0.5f, X, 1));
    ORACLE_CALL(mul_cpu(N, X, 1, Y, 1));
    ORACLE_CALL(pow_cpu(N, 2.0f, X, 1, Y, 1));
    ORACLE_CALL(axpy_cpu(N, 0.5f, X, 1, Y, 1));
    ORACLE_CALL(scal_cpu(N, 0.5f, X, 1));
    ORACLE_CALL(fill_cpu(N, 0.5f, X, 1));
    ORACLE_CALL(copy_cpu(N, X, 1, Y, 1));
    ORACLE_CALL(mult_add_into_cpu(N, X, Y, Z));
    ORACLE_CALL(dot_cpu(N, X, 1, Y, 1));
    ORACLE_PARAM("softmax:stride", 1);
    ORACLE_CALL(softmax(X, N, 1.0f, 1, Y));
  }
  {
    oracle::Array<float> pred("pred", N, 0.05, 0.95), truth("truth", N, 0.0, 1.0),
        delta("delta", N), error("error", N);
    ORACLE_CALL(smooth_l1_cpu(N, pred, truth, delta, error));
    ORACLE_CALL(l1_cpu(N, pred, truth, delta, error));
    ORACLE_CALL(softmax_x_ent_cpu(N, pred, truth, delta, error));
    ORACLE_CALL(logistic_x_ent_cpu(N, pred, truth, delta, error));
    ORACLE_CALL(l2_cpu(N, pred, truth, delta, error));
  }
  {
    oracle::Array<float> a("a", N), b("b", N), s("s", N), c("c", N),
        da("da", N), db("db", N), ds("ds", N);
    ORACLE_CASE("b != NULL", weighted_sum_cpu(a, b, s, N, c));
    ORACLE_CASE("b == NULL", weighted_sum_cpu(a, nullptr, s, N, c));
    ORACLE_CASE("da != NULL && db != NULL", weighted_delta_cpu(a, b, s, da, db, ds, N, c));
    ORACLE_CASE("da != NULL && db == NULL", weighted_delta_cpu(a, b, s, da, nullptr, ds, N, c));
    ORACLE_CASE("da == NULL && db != NULL", weighted_delta_cpu(a, b, s, nullptr, db, ds, N, c));
    ORACLE_CASE("da == NULL && db == NULL", weighted_delta_cpu(a, b, s, nullptr, nullptr, ds, N, c));
  }
  {
    const int W = 4, H = 3, C = 2;
    ORACLE_PARAM("w", W);
    ORACLE_PARAM("h", H);
    ORACLE_PARAM("c", C);
    ORACLE_PARAM("upsample_cpu:stride", 2);
    ORACLE_PARAM("forward", 1);
    oracle::Array<float> in("in", W * H * C * B), out("out", 4 * W * H * C * B);
    ORACLE_CASE("forward", upsample_cpu(in, W, H, C, B, 2, 1, 1.0f, out));
  }
  {
    // softmax_cpu as softmax_layer.c's forward calls it with groups:
    // softmax_cpu(net.input, l.inputs/l.groups, l.batch, l.inputs, l.groups,
    // l.inputs/l.groups, 1, l.temperature, l.output); 12 inputs, 3 groups.
    const int Inputs = 12, G = 3;
    ORACLE_PARAM("softmax_cpu:n", Inputs / G);
    ORACLE_PARAM("groups", G);
    ORACLE_PARAM("batch_offset", Inputs);
    ORACLE_PARAM("group_offset", Inputs / G);
    ORACLE_PARAM("softmax_cpu:stride", 1);
    oracle::Array<float> in("input", B * Inputs), out("output", B * Inputs);
    ORACLE_CALL(softmax_cpu(in, Inputs / G, B, Inputs, G, Inputs / G, 1, 1.0f, out));
  }
  {
    // shortcut_cpu as shortcut_layer.c's forward calls it, the added layer
    // of the same size: shortcut_cpu(l.batch, l.w, l.h, l.c, from.output,
    // l.out_w, l.out_h, l.out_c, l.alpha, l.beta, l.output). The 2x
    // downsample (w1 = 2*w2) is the variant corpus dkblasb (one value per
    // size name).
    const int W = 4, H = 3, C = 2;
    ORACLE_PARAM("w1", W);
    ORACLE_PARAM("h1", H);
    ORACLE_PARAM("c1", C);
    ORACLE_PARAM("w2", W);
    ORACLE_PARAM("h2", H);
    ORACLE_PARAM("c2", C);
    oracle::Array<float> add("add", B * W * H * C), out("out", B * W * H * C);
    ORACLE_CASE("!(c1 < c2) && !(h1 < h2) && !(w1 < w2)",
                shortcut_cpu(B, W, H, C, add, W, H, C, 0.5f, 2.0f, out));
  }
}
