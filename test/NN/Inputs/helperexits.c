// Void helpers that return early on a condition on the caller's loop
// variables, called inside a nest: a pixel outside the image is skipped
// (a col2im-style scatter), a tap past the end of a row, a clipped window.
// The statements before the return run where the condition holds, the rest
// of the helper where it fails. test/NN/helperexits.test.

static void put_pixel(float *img, int h, int w, int r, int c, int ch,
                      int pad, float v) {
  r -= pad;
  c -= pad;
  if (r < 0 || c < 0 || r >= h || c >= w)
    return;
  img[c + w * (r + h * ch)] += v;
}

// Columns back to the image: every column element adds to the pixel it
// came from, when that pixel is inside the image.
void cols_to_image(const float *cols, int channels, int h, int w, int k,
                   int pad, float *img) {
  int oh = h + 2 * pad - k + 1;
  int ow = w + 2 * pad - k + 1;
  for (int c = 0; c < channels * k * k; ++c) {
    int kw = c % k;
    int kh = (c / k) % k;
    int ch = c / k / k;
    for (int y = 0; y < oh; ++y)
      for (int x = 0; x < ow; ++x) {
        float v = cols[(c * oh + y) * ow + x];
        put_pixel(img, h, w, kh + y, kw + x, ch, pad, v);
      }
  }
}

// With a stride: the pixel's row is `kh + y * stride`, a size times a loop
// variable, which the condition's guard takes at the stride's given value.
void cols_to_image_strided(const float *cols, int channels, int h, int w,
                           int k, int stride, int pad, float *img) {
  int oh = (h + 2 * pad - k) / stride + 1;
  int ow = (w + 2 * pad - k) / stride + 1;
  for (int c = 0; c < channels * k * k; ++c) {
    int kw = c % k;
    int kh = (c / k) % k;
    int ch = c / k / k;
    for (int y = 0; y < oh; ++y)
      for (int x = 0; x < ow; ++x) {
        float v = cols[(c * oh + y) * ow + x];
        put_pixel(img, h, w, kh + y * stride, kw + x * stride, ch, pad, v);
      }
  }
}

// One tap of a 1-D filter: nothing past the end of the row.
static void tap(float *out, const float *in, int n, int i, int d,
                float wgt) {
  if (i + d >= n)
    return;
  out[i] += wgt * in[i + d];
}

void conv1d_valid(float *out, const float *in, const float *wgt, int rows,
                  int n, int taps) {
  for (int r = 0; r < rows; ++r)
    for (int i = 0; i < n; ++i)
      for (int d = 0; d < taps; ++d)
        tap(out + r * n, in + r * n, n, i, d, wgt[d]);
}

// Work before the return: the first element of each row is counted apart,
// then the helper returns; the others are scaled.
static void first_or_scale(float *y, const float *x, int i, float *count) {
  if (i == 0) {
    count[0] += x[0];
    return;
  }
  y[i] = 0.5f * x[i] + x[i - 1];
}

void rows_first(float *y, const float *x, float *count, int rows, int n) {
  for (int r = 0; r < rows; ++r)
    for (int i = 0; i < n; ++i)
      first_or_scale(y + r * n, x + r * n, i, count + r);
}
