// Row blocks that start off a row boundary (genann.c's weights, issue 18,
// in float where genann has double: the oracle counts float): layer h's block of rows of H+1 starts at (I+1)*H + (h-1)*(H+1)*H, no
// multiple of H+1, so the index does not split into disjoint rows; it is
// counted as one dimension at the sizes given. For test/NN/rowblocks.test.

// genann_run: the input layer, then the hidden layers, each row a bias and
// then one weight per input, all walked by one pointer.
void run_layers(float *outputs, const float *weight, int I, int H, int L) {
  const float *w = weight;
  float *o = outputs + I;
  const float *i = outputs;
  for (int j = 0; j < H; ++j) {
    float sum = *w++ * -1.0f;
    for (int k = 0; k < I; ++k)
      sum += *w++ * i[k];
    *o++ = sum;
  }
  i += I;
  for (int h = 1; h < L; ++h) {
    for (int j = 0; j < H; ++j) {
      float sum = *w++ * -1.0f;
      for (int k = 0; k < H; ++k)
        sum += *w++ * i[k];
      *o++ = sum;
    }
    i += H;
  }
}

// genann_train's backward step for one layer: the following layer's
// weights, indexed from a block start that is no multiple of a row.
void back_layer(float *d, const float *weight, const float *delta,
                int I, int H, int layer) {
  const float *dd = delta + (layer + 1) * H;
  const float *ww = weight + ((I + 1) * H) + ((H + 1) * H * layer);
  for (int j = 0; j < H; ++j) {
    float s = 0.0f;
    for (int k = 0; k < H; ++k) {
      const int windex = k * (H + 1) + (j + 1);
      s += dd[k] * ww[windex];
    }
    d[j] = s;
  }
}

// Overlapping windows of one flat array (K > S): the same elements are read
// by several rows, and counted once each.
void windows(float *y, const float *x, int N, int S, int K) {
  for (int i = 0; i < N; ++i) {
    float s = 0.0f;
    for (int k = 0; k < K; ++k)
      s += x[i * S + k];
    y[i] = s;
  }
}
