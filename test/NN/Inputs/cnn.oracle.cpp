// Oracle driver for cnn.c (scripts/nn-oracle.py runs it). The layers'
// sizes are struct fields, given per function (conv_forward at stride 2,
// conv_backward at stride 1).
#include "cnn.c"

int main() {
  ORACLE_PARAM("self->nnodes", 5);
  ORACLE_PARAM("prev->nnodes", 6);
  oracle::Array<float> in("prev->outputs", 6), perr("prev->errors", 6),
      out("self->outputs", 5), err("self->errors", 5), w("self->weights", 30),
      uw("self->u_weights", 30), b("self->biases", 5), ub("self->u_biases", 5);
  Layer prev = {}, dense = {};
  prev.nnodes = 6;
  prev.outputs = in;
  prev.errors = perr;
  dense.nnodes = 5;
  dense.outputs = out;
  dense.errors = err;
  dense.weights = w;
  dense.u_weights = uw;
  dense.biases = b;
  dense.u_biases = ub;
  ORACLE_CALL(dense_forward(&dense, &prev));
  ORACLE_CALL(dense_backward(&dense, &prev));

  ORACLE_PARAM("dense_rows:n", 4);
  ORACLE_PARAM("dense_rows:m", 6);
  oracle::Array<float> y("y", 4), rw("w", 24), x("x", 6);
  ORACLE_CALL(dense_rows(y, rw, x, 4, 6));

  ORACLE_PARAM("scatter_rows:n", 3);
  ORACLE_PARAM("scatter_rows:m", 4);
  ORACLE_PARAM("even_rows:n", 3);
  ORACLE_PARAM("even_rows:m", 4);
  oracle::Array<float> so("out", 12), si("in", 12), eo("out", 24);
  ORACLE_CALL(scatter_rows(so, si, 3, 4));
  ORACLE_CALL(even_rows(eo, si, 3, 4));

  // conv_forward: 3x5x5 -> 2x3x3, kernel 3, padding 1, stride 2.
  ORACLE_PARAM("conv_forward:self->depth", 2);
  ORACLE_PARAM("conv_forward:self->height", 3);
  ORACLE_PARAM("conv_forward:self->width", 3);
  ORACLE_PARAM("conv_forward:prev->depth", 3);
  ORACLE_PARAM("conv_forward:prev->height", 5);
  ORACLE_PARAM("conv_forward:prev->width", 5);
  ORACLE_PARAM("conv_forward:self->conv.kernsize", 3);
  ORACLE_PARAM("conv_forward:self->conv.padding", 1);
  ORACLE_PARAM("conv_forward:self->conv.stride", 2);
  {
    oracle::Array<float> cin("prev->outputs", 75), cout("self->outputs", 18),
        cw("self->weights", 54), cb("self->biases", 2);
    Layer p = {}, c = {};
    p.depth = 3; p.height = 5; p.width = 5; p.outputs = cin;
    c.depth = 2; c.height = 3; c.width = 3; c.outputs = cout; c.weights = cw;
    c.biases = cb;
    c.conv.kernsize = 3; c.conv.padding = 1; c.conv.stride = 2;
    ORACLE_CALL(conv_forward(&c, &p));
  }
  // conv_backward: 3x4x4 <- 2x4x4, kernel 3, padding 1, stride 1.
  ORACLE_PARAM("conv_backward:self->depth", 2);
  ORACLE_PARAM("conv_backward:self->height", 4);
  ORACLE_PARAM("conv_backward:self->width", 4);
  ORACLE_PARAM("conv_backward:prev->depth", 3);
  ORACLE_PARAM("conv_backward:prev->height", 4);
  ORACLE_PARAM("conv_backward:prev->width", 4);
  ORACLE_PARAM("conv_backward:self->conv.kernsize", 3);
  ORACLE_PARAM("conv_backward:self->conv.padding", 1);
  ORACLE_PARAM("conv_backward:self->conv.stride", 1);
  {
    oracle::Array<float> cin("prev->outputs", 48), cperr("prev->errors", 48),
        cerr("self->errors", 32), cw("self->weights", 54),
        cuw("self->u_weights", 54), cub("self->u_biases", 2);
    Layer p = {}, c = {};
    p.depth = 3; p.height = 4; p.width = 4; p.outputs = cin; p.errors = cperr;
    c.depth = 2; c.height = 4; c.width = 4; c.errors = cerr; c.weights = cw;
    c.u_weights = cuw; c.u_biases = cub;
    c.conv.kernsize = 3; c.conv.padding = 1; c.conv.stride = 1;
    ORACLE_CALL(conv_backward(&c, &p));
  }
}
