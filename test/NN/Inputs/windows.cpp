// Windows clamped to the input by std::max / std::min in locals, as C++
// reference kernels (TensorFlow Lite's pooling, a 1-D box filter) write
// them: `const int filter_x_start = std::max(0, -in_x_origin);` and the
// loop `for (int fx = filter_x_start; fx < filter_x_end; ++fx)`.
// Part of the test/NN corpus (see docs/testing-nn-corpus.md).
#include <algorithm>

// NHWC average pooling with padding, one batch.
void avg_pool(float *out, const float *in, int H, int W, int C, int FH,
              int FW, int stride, int pad, int OH, int OW) {
  for (int oy = 0; oy < OH; ++oy)
    for (int ox = 0; ox < OW; ++ox)
      for (int c = 0; c < C; ++c) {
        const int in_x_origin = ox * stride - pad;
        const int in_y_origin = oy * stride - pad;
        const int filter_x_start = std::max(0, -in_x_origin);
        const int filter_x_end = std::min(FW, W - in_x_origin);
        const int filter_y_start = std::max(0, -in_y_origin);
        const int filter_y_end = std::min(FH, H - in_y_origin);
        float total = 0.f;
        for (int fy = filter_y_start; fy < filter_y_end; ++fy)
          for (int fx = filter_x_start; fx < filter_x_end; ++fx) {
            const int in_x = in_x_origin + fx;
            const int in_y = in_y_origin + fy;
            total += in[(in_y * W + in_x) * C + c];
          }
        out[(oy * OW + ox) * C + c] = total / (FH * FW);
      }
}

// A centred box filter over each row.
void box_rows(float *out, const float *in, int R, int N, int K) {
  for (int r = 0; r < R; r++)
    for (int x = 0; x < N; x++) {
      int lo = std::max(0, x - K);
      int hi = std::min(N - 1, x + K);
      float s = 0.0f;
      for (int k = lo; k <= hi; k++)
        s += in[r * N + k];
      out[r * N + x] = s;
    }
}
