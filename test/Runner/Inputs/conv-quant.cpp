// Convolutions for the int8, bf16 and f32 implicit gemms (test/Runner/conv-quant.test):
// NCHW input and output, KCRS weights. Zero padding is written as the filter loops'
// bounds (the input's rows and columns the window covers); the same guard as an
// `if` around the update is refused by code generation (conditions on loop
// variables), test/CodeGen/conv-quant.test.

#include <algorithm>

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

// Zero padding 1 (a "same" convolution).
void conv_pad1(int N, int C, int K, int H, int W, const float *In, const float *Wt,
               float *Out) {
  for (int n = 0; n < N; ++n)
    for (int k = 0; k < K; ++k)
      for (int p = 0; p < H; ++p)
        for (int q = 0; q < W; ++q) {
          float acc = 0;
          for (int c = 0; c < C; ++c)
            for (int r = std::max(0, 1 - p); r < std::min(3, H + 1 - p); ++r)
              for (int s = std::max(0, 1 - q); s < std::min(3, W + 1 - q); ++s)
                acc += In[((n * C + c) * H + p + r - 1) * W + q + s - 1] *
                       Wt[((k * C + c) * 3 + r) * 3 + s];
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
            for (int r = std::max(0, 2 - p); r < std::min(5, H + 2 - p); ++r)
              for (int s = std::max(0, 2 - q); s < std::min(5, W + 2 - q); ++s)
                acc += In[((n * C + c) * H + p + r - 2) * W + q + s - 2] *
                       Wt[((k * C + c) * 5 + r) * 5 + s];
          Out[((n * K + k) * H + p) * W + q] = acc;
        }
}

// Stride 2, padding 1, into a P x Q output of its own (any P, Q: the bounds
// keep every read inside the input).
void conv_s2_pad1(int N, int C, int K, int H, int W, int P, int Q, const float *In,
                  const float *Wt, float *Out) {
  for (int n = 0; n < N; ++n)
    for (int k = 0; k < K; ++k)
      for (int p = 0; p < P; ++p)
        for (int q = 0; q < Q; ++q) {
          float acc = 0;
          for (int c = 0; c < C; ++c)
            for (int r = std::max(0, 1 - 2 * p); r < std::min(3, H + 1 - 2 * p); ++r)
              for (int s = std::max(0, 1 - 2 * q); s < std::min(3, W + 1 - 2 * q); ++s)
                acc += In[((n * C + c) * H + 2 * p + r - 1) * W + 2 * q + s - 1] *
                       Wt[((k * C + c) * 3 + r) * 3 + s];
          Out[((n * K + k) * P + p) * Q + q] = acc;
        }
}
