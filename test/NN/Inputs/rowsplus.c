// Constant locals folded and rows of length M+1 (genann.c's weights: a bias,
// then one weight per input), for test/NN/rowsplus.test.

// A layer loop cut to its first layer: l = 0 folds, loff = 0.
void first_layer(float *att, const float *q, const float *kc,
                 const float *wq, int dim, int seq, int pos) {
  unsigned long long l = 0;
  int loff = l * seq * dim;
  const float *w = wq + l * dim * dim;
  (void)w;
  for (int t = 0; t <= pos; t++) {
    const float *k = kc + loff + t * dim;
    float s = 0.0f;
    for (int i = 0; i < dim; i++)
      s += q[i] * k[i];
    att[t] = s;
  }
}

// The same with a layer index that is written: not folded, refused.
void some_layer(float *att, const float *q, const float *kc, int dim,
                int seq, int pos) {
  int l = 0;
  if (q[0] > 0.0f)
    l = 1;
  for (int t = 0; t <= pos; t++) {
    float s = 0.0f;
    for (int i = 0; i < dim; i++)
      s += q[i] * kc[l * seq * dim + t * dim + i];
    att[t] = s;
  }
}

// genann_run's layer: each row is a bias and then I weights, walked by *w++.
void bias_rows_ptr(float *out, const float *weight, const float *in, int H,
                   int I) {
  const float *w = weight;
  float *o = out;
  for (int j = 0; j < H; ++j) {
    float sum = *w++ * -1.0f;
    for (int k = 0; k < I; ++k)
      sum += *w++ * in[k];
    *o++ = sum;
  }
}

// The same indexed with the row stride I+1.
void bias_rows_idx(float *out, const float *w, const float *in, int H, int I) {
  for (int j = 0; j < H; ++j) {
    float sum = w[j * (I + 1)] * -1.0f;
    for (int k = 0; k < I; ++k)
      sum += w[j * (I + 1) + k + 1] * in[k];
    out[j] = sum;
  }
}

// genann_train's hidden deltas: ww[k*(H+1) + (j+1)], bias column skipped.
void back_deltas(float *d, const float *ww, const float *dd, int H, int O) {
  for (int j = 0; j < H; ++j) {
    float delta = 0.0f;
    for (int k = 0; k < O; ++k) {
      const int windex = k * (H + 1) + (j + 1);
      delta += dd[k] * ww[windex];
    }
    d[j] = delta;
  }
}

// Layers of H rows of H+1: the layer stride H*(H+1).
void hidden_stack(float *out, const float *weight, const float *in, int L,
                  int H) {
  for (int h = 0; h < L; ++h)
    for (int j = 0; j < H; ++j) {
      float sum = weight[h * H * (H + 1) + j * (H + 1)] * -1.0f;
      for (int k = 0; k < H; ++k)
        sum += weight[h * H * (H + 1) + j * (H + 1) + k + 1] * in[h * H + k];
      out[h * H + j] = sum;
    }
}

// The diagonal a[i*(N+1)] beside rows of N: both taken in rows of N.
void diag_and_rows(float *a, const float *b, int N) {
  for (int i = 0; i < N; ++i) {
    a[i * (N + 1)] += 1.0f;
    for (int j = 0; j < N; ++j)
      a[i * N + j] += b[j];
  }
}
