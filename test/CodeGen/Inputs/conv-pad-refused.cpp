// Padded convolutions the implicit gemm refuses (test/CodeGen/conv-quant.test).

#include <algorithm>

// Bounds that are not the input's (r < H - p: row H - 1 never read): not
// zero padding, refused.
void conv_badbound(int C, int K, int H, int W, const float *In, const float *Wt,
                   float *Out) {
  for (int k = 0; k < K; ++k)
    for (int p = 0; p < H; ++p)
      for (int q = 0; q < W; ++q) {
        float acc = 0;
        for (int c = 0; c < C; ++c)
          for (int r = std::max(0, 1 - p); r < std::min(3, H - p); ++r)
            for (int s = std::max(0, 1 - q); s < std::min(3, W + 1 - q); ++s)
              acc += In[(c * H + p + r - 1) * W + q + s - 1] * Wt[((k * C + c) * 3 + r) * 3 + s];
        Out[(k * H + p) * W + q] = acc;
      }
}

// The guard as an `if` around the update: the Frontend's code generation
// refuses conditions on loop variables (write the bounds instead).
void conv_ifguard(int C, int K, int H, int W, const float *In, const float *Wt,
                  float *Out) {
  for (int k = 0; k < K; ++k)
    for (int p = 0; p < H; ++p)
      for (int q = 0; q < W; ++q) {
        float acc = 0;
        for (int c = 0; c < C; ++c)
          for (int r = 0; r < 3; ++r)
            for (int s = 0; s < 3; ++s) {
              int ih = p + r - 1, iw = q + s - 1;
              if (ih >= 0 && ih < H && iw >= 0 && iw < W)
                acc += In[(c * H + ih) * W + iw] * Wt[((k * C + c) * 3 + r) * 3 + s];
            }
        Out[(k * H + p) * W + q] = acc;
      }
}

// An offset with no guard: reads outside In (refused; the nest is not
// run, only emitted).
void conv_noguard(int C, int K, int H, int W, const float *In, const float *Wt,
                  float *Out) {
  for (int k = 0; k < K; ++k)
    for (int p = 1; p < H - 1; ++p)
      for (int q = 1; q < W - 1; ++q) {
        float acc = 0;
        for (int c = 0; c < C; ++c)
          for (int r = 0; r < 3; ++r)
            for (int s = 0; s < 3; ++s)
              acc += In[(c * H + p + r - 1) * W + q + s - 1] * Wt[((k * C + c) * 3 + r) * 3 + s];
        Out[(k * H + p) * W + q] = acc;
      }
}
