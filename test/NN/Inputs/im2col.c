// Image-to-columns as convolution code writes it (Caffe, darknet): one loop
// over channels*k*k whose variable is split by % and / into the kernel
// column, the kernel row and the channel, and a helper that shifts its row
// and column by the padding and returns 0 outside the image
// (test/NN/im2col.test, test/Frontend/NN/split-loops.c).

static float padded_at(const float *img, int rows, int cols, int ch, int r,
                       int c, int pad) {
  r -= pad;
  c = c - pad;
  if (r < 0 || c < 0 || r >= rows || c >= cols)
    return 0.0f;
  return img[(ch * rows + r) * cols + c];
}

void unfold(const float *img, int chans, int rows, int cols, int k,
            int stride, int pad, float *out) {
  int orows = (rows + 2 * pad - k) / stride + 1;
  int ocols = (cols + 2 * pad - k) / stride + 1;
  for (int q = 0; q < chans * k * k; q++) {
    int kc = q % k;
    int kr = (q / k) % k;
    int ch = q / k / k;
    for (int y = 0; y < orows; y++)
      for (int x = 0; x < ocols; x++)
        out[(q * orows + y) * ocols + x] =
            padded_at(img, rows, cols, ch, kr + y * stride, kc + x * stride,
                      pad);
  }
}

// The same at stride 2 (given per function in the driver).
void unfold2(const float *img, int chans, int rows, int cols, int k,
             int stride, int pad, float *out) {
  int orows = (rows + 2 * pad - k) / stride + 1;
  int ocols = (cols + 2 * pad - k) / stride + 1;
  for (int q = 0; q < chans * k * k; q++) {
    int kc = q % k;
    int kr = (q / k) % k;
    int ch = q / k / k;
    for (int y = 0; y < orows; y++)
      for (int x = 0; x < ocols; x++)
        out[(q * orows + y) * ocols + x] =
            padded_at(img, rows, cols, ch, kr + y * stride, kc + x * stride,
                      pad);
  }
}

// Its adjoint without padding: columns summed back into the image.
void fold(float *img, int chans, int rows, int cols, int k,
          const float *col) {
  int orows = rows - k + 1;
  int ocols = cols - k + 1;
  for (int q = 0; q < chans * k * k; q++) {
    int kc = q % k;
    int kr = (q / k) % k;
    int ch = q / k / k;
    for (int y = 0; y < orows; y++)
      for (int x = 0; x < ocols; x++)
        img[(ch * rows + kr + y) * cols + kc + x] +=
            col[(q * orows + y) * ocols + x];
  }
}

// One level: a row index and a column index from one flat loop.
void outer_flat(float *y, const float *a, const float *b, int n, int m) {
  for (int t = 0; t < n * m; t++)
    y[t] = a[t / m] * b[t % m];
}

// Two divisors in one chain: refused, with the reason.
void mixed(float *y, const float *x, const float *z, int a, int b, int k) {
  for (int q = 0; q < a * b * k; q++) {
    int r = q % k;
    int m = (q / k) % b;
    int o = q / k / b;
    y[q] = x[o * b + m] + z[r];
  }
}
