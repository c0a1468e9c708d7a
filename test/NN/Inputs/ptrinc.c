// Layers written with advancing pointers, the way genann.c writes them
// (issue 18): a weight pointer walked with *w++ through a dense layer and on
// into the next one, outputs written with *o++, deltas as *d++ = *t++ - *o++,
// a row pointer advanced by += C, and a row pointer declared in the nest.
// Part of the test/NN corpus (see docs/testing-nn-corpus.md).

// Dense layer with bias: y = W x + b, every pointer advancing.
void dense_forward(float *y, const float *W, const float *b, const float *x,
                   int H, int I) {
  const float *w = W, *bias = b;
  float *o = y;
  for (int j = 0; j < H; ++j) {
    float sum = *bias++;
    for (int k = 0; k < I; ++k)
      sum += *w++ * x[k];
    *o++ = sum;
  }
}

// Two layers through one weight pointer: the second nest starts where the
// first left it.
void two_layers(float *h, float *out, const float *W, const float *x, int H,
                int I, int O) {
  const float *w = W;
  for (int j = 0; j < H; ++j) {
    float sum = 0.0f;
    for (int k = 0; k < I; ++k)
      sum += *w++ * x[k];
    h[j] = sum > 0.0f ? sum : 0.0f;
  }
  for (int j = 0; j < O; ++j) {
    float sum = 0.0f;
    for (int k = 0; k < H; ++k)
      sum += *w++ * h[k];
    out[j] = sum;
  }
}

// Output deltas of a linear output layer.
void output_delta(float *delta, const float *target, const float *output,
                  int O) {
  float *d = delta;
  const float *t = target, *o = output;
  for (int j = 0; j < O; ++j) {
    *d++ = *t++ - *o++;
  }
}

// SGD step on a weight matrix: one row per delta, walked with *w++ and the
// delta pointer stepped after the row.
void sgd_rows(float *W, const float *delta, const float *in, float lr, int O,
              int I) {
  float *w = W;
  const float *d = delta;
  for (int j = 0; j < O; ++j) {
    for (int k = 0; k < I; ++k)
      *w++ += *d * lr * in[k];
    ++d;
  }
}

// Row sums with a row pointer advanced by the row length.
void row_sums(float *out, const float *inp, int B, int C) {
  const float *x = inp;
  for (int b = 0; b < B; b++) {
    float s = 0.0f;
    for (int i = 0; i < C; i++)
      s += x[i];
    out[b] = s;
    x += C;
  }
}

// Row scaling with a pointer declared in the nest and walked with *++p.
void scale_rows(float *out, const float *inp, const float *scale, int B,
                int C) {
  for (int b = 0; b < B; b++) {
    float *p = out + b * C - 1;
    const float *q = inp + b * C;
    for (int i = 0; i < C; i++)
      *++p = *q++ * scale[b];
  }
}

// Refused: the pointer steps only where the data says so.
void compact_positive(float *out, const float *inp, int N) {
  float *o = out;
  for (int i = 0; i < N; i++) {
    *o = inp[i];
    if (inp[i] > 0.0f)
      o++;
  }
}

// genann_train's output deltas: the pointer read as the argument of an
// inlined call, then stepped by `++o; ++t;` at the end of the body.
static float sigmoid_derivative(float y) { return y * (1.0f - y); }
void output_delta_call(float *delta, const float *target, const float *output,
                       int O) {
  float *d = delta;
  const float *t = target, *o = output;
  for (int j = 0; j < O; ++j) {
    *d++ = (*t - *o) * sigmoid_derivative(*o);
    ++o;
    ++t;
  }
}

// The argument itself steps: deriv(*o++).
void derivative_steps(float *delta, const float *output, int O) {
  float *d = delta;
  const float *o = output;
  for (int j = 0; j < O; ++j)
    *d++ = sigmoid_derivative(*o++);
}
