// Convolutions for the int8 and bf16 implicit gemms (test/Runner/conv-quant.test):
// NCHW input and output (an H x W frame), KCRS weights, 3x3 filters.

// No padding: the valid (H-2) x (W-2) region.
void conv_valid(int N, int C, int K, int H, int W, const float *In, const float *Wt,
                float *Out) {
  for (int n = 0; n < N; ++n)
    for (int k = 0; k < K; ++k)
      for (int p = 0; p < H - 2; ++p)
        for (int q = 0; q < W - 2; ++q) {
          float acc = 0;
          for (int c = 0; c < C; ++c)
            for (int r = 0; r < 3; ++r)
              for (int s = 0; s < 3; ++s)
                acc += In[((n * C + c) * H + p + r) * W + q + s] *
                       Wt[((k * C + c) * 3 + r) * 3 + s];
          Out[((n * K + k) * H + p) * W + q] = acc;
        }
}

// Zero padding 1 (a "same" convolution), the input index guarded.
void conv_pad1(int N, int C, int K, int H, int W, const float *In, const float *Wt,
               float *Out) {
  for (int n = 0; n < N; ++n)
    for (int k = 0; k < K; ++k)
      for (int p = 0; p < H; ++p)
        for (int q = 0; q < W; ++q) {
          float acc = 0;
          for (int c = 0; c < C; ++c)
            for (int r = 0; r < 3; ++r)
              for (int s = 0; s < 3; ++s) {
                int ih = p + r - 1, iw = q + s - 1;
                if (ih >= 0 && ih < H && iw >= 0 && iw < W)
                  acc += In[((n * C + c) * H + ih) * W + iw] *
                         Wt[((k * C + c) * 3 + r) * 3 + s];
              }
          Out[((n * K + k) * H + p) * W + q] = acc;
        }
}

// Zero padding 2 around a 5x5 filter, weights KCRS with sizes R = S = 5.
void conv_pad2(int N, int C, int K, int H, int W, const float *In, const float *Wt,
               float *Out) {
  for (int n = 0; n < N; ++n)
    for (int k = 0; k < K; ++k)
      for (int p = 0; p < H; ++p)
        for (int q = 0; q < W; ++q) {
          float acc = 0;
          for (int c = 0; c < C; ++c)
            for (int r = 0; r < 5; ++r)
              for (int s = 0; s < 5; ++s) {
                int ih = p + r - 2, iw = q + s - 2;
                if (ih >= 0 && ih < H && iw >= 0 && iw < W)
                  acc += In[((n * C + c) * H + ih) * W + iw] *
                         Wt[((k * C + c) * 5 + r) * 5 + s];
              }
          Out[((n * K + k) * H + p) * W + q] = acc;
        }
}

// Stride 2, padding 1, into a P x Q output of its own (any P, Q: the guard
// keeps every read inside the input).
void conv_s2_pad1(int N, int C, int K, int H, int W, int P, int Q, const float *In,
                  const float *Wt, float *Out) {
  for (int n = 0; n < N; ++n)
    for (int k = 0; k < K; ++k)
      for (int p = 0; p < P; ++p)
        for (int q = 0; q < Q; ++q) {
          float acc = 0;
          for (int c = 0; c < C; ++c)
            for (int r = 0; r < 3; ++r)
              for (int s = 0; s < 3; ++s) {
                int ih = 2 * p + r - 1, iw = 2 * q + s - 1;
                if (ih >= 0 && ih < H && iw >= 0 && iw < W)
                  acc += In[((n * C + c) * H + ih) * W + iw] *
                         Wt[((k * C + c) * 3 + r) * 3 + s];
              }
          Out[((n * K + k) * P + p) * Q + q] = acc;
        }
}

// A guard that is not the input's bounds (ih <= H reads a row past it):
// refused, not emitted as padding.
void conv_badguard(int C, int K, int H, int W, const float *In, const float *Wt,
                   float *Out) {
  for (int k = 0; k < K; ++k)
    for (int p = 0; p < H; ++p)
      for (int q = 0; q < W; ++q) {
        float acc = 0;
        for (int c = 0; c < C; ++c)
          for (int r = 0; r < 3; ++r)
            for (int s = 0; s < 3; ++s) {
              int ih = p + r - 1, iw = q + s - 1;
              if (ih >= 0 && ih < H - 1 && iw >= 0 && iw < W)
                acc += In[(c * H + ih) * W + iw] * Wt[((k * C + c) * 3 + r) * 3 + s];
            }
        Out[(k * H + p) * W + q] = acc;
      }
}
