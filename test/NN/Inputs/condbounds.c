// Conditional expressions in loop bounds, subscripts and pointer offsets
// (genann's genann_train, issue 18): a condition on an outer loop variable
// splits that loop in two, a loop-invariant one is a case. Checked by
// test/NN/condbounds.test at several sizes, one part empty in some.

// genann's hidden deltas: the last layer reads O deltas, the others H.
void hidden_deltas(float *d, const float *o, const float *w, int L, int H,
                   int O) {
  for (int h = L - 1; h >= 0; --h) {
    const float *dd = d + (h + 1) * H;
    const float *ww = w + h * (H + 1) * H;
    for (int j = 0; j < H; ++j) {
      float delta = 0;
      for (int k = 0; k < (h == L - 1 ? O : H); ++k)
        delta += dd[k] * ww[k * (H + 1) + j + 1];
      d[h * H + j] = o[h * H + j] * delta;
    }
  }
}

// genann's hidden layer training: the first layer reads the I inputs, the
// others H outputs of a layer before; three conditions, one split. (Layers
// here start on row boundaries: genann's own offsets are a row block off a
// row boundary, a form of its own.)
void train_hidden(float *w, const float *d, const float *out, int L, int I,
                  int H, float rate) {
  for (int h = L - 1; h >= 0; --h) {
    const float *dl = d + h * H;
    const float *in = out + (h ? H * (h + 1) : 0);
    float *wl = w + (h ? (H + 1) * H * (h + 1) : 0);
    for (int j = 0; j < H; ++j) {
      wl[j * (H + 1)] += dl[j] * rate;
      for (int k = 1; k < (h == 0 ? I : H) + 1; ++k)
        wl[j * (H + 1) + k] += dl[j] * rate * in[k - 1];
    }
  }
}

// genann's output training after P hidden layers: the condition is a
// size, a case.
void train_outputs(float *w, const float *d, const float *out, int P, int I,
                   int H, int O, float rate) {
  float *wo = w + (P ? (H + 1) * O : 0);
  const float *in = out + (P ? H : 0);
  for (int j = 0; j < O; ++j)
    for (int k = 1; k < (P ? H : I) + 1; ++k)
      wo[j * ((P ? H : I) + 1) + k] += d[j] * rate * in[k - 1];
}

// The first value of an upward loop in a subscript: a clamped left
// neighbour.
void smooth(float *y, const float *x, int N) {
  for (int i = 0; i < N; ++i)
    y[i] = 0.5f * (x[i == 0 ? 0 : i - 1] + x[i]);
}

// A relational condition on the outer variable: rows below K are long.
void ragged(float *y, const float *x, int R, int K, int M, int N) {
  for (int i = 0; i < R; ++i)
    for (int j = 0; j < (i < K ? M : N); ++j)
      y[i] += x[i * M + j] * 2.0f;
}

// Refused: a bound that depends on the data.
void by_data(float *y, const float *x, const float *g, int R, int M, int N) {
  for (int i = 0; i < R; ++i)
    for (int j = 0; j < (g[i] > 0.0f ? M : N); ++j)
      y[i] += x[i * M + j];
}

// Refused: two different conditions split the same loop.
void two_splits(float *y, const float *x, int R, int K, int M, int N) {
  for (int i = 0; i < R; ++i) {
    for (int j = 0; j < (i < K ? M : N); ++j)
      y[i] += x[i * M + j];
    for (int j = 0; j < (i == 0 ? M : N); ++j)
      y[i] += x[i * M + j];
  }
}
