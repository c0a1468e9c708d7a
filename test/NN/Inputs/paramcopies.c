// Helpers that adjust their by-value index parameters before using them,
// as darknet's im2col_get_pixel does with `row -= pad; col -= pad;`
// (test/NN/paramcopies.test, test/Frontend/NN/helper-param-copies.c).

static void put(float *y, const float *x, int n, int i, int pad) {
  i -= pad;
  if (i >= 0 && i < n)
    y[i] += 3.0f * x[i];
}

void scatter(float *y, const float *x, int n, int pad) {
  for (int k = 0; k < n; k++)
    put(y, x, n, k, pad);
}

static void put2(float *y, const float *x, int w, int r, int c) {
  r -= 1;
  c = c - 1;
  if (r >= 0 && c >= 0)
    y[r * w + c] = x[r * w + c] * 0.5f;
}

void scatter2(float *y, const float *x, int h, int w) {
  for (int i = 0; i < h; i++)
    for (int j = 0; j < w; j++)
      put2(y, x, w, i, j);
}

static float fetch(const float *x, int w, int r, int c) {
  --r;
  c -= w;
  c++;
  return x[r * w + c + w];
}

void gather(float *y, const float *x, int h, int w) {
  for (int i = 1; i < h; i++)
    for (int j = 0; j < w - 1; j++)
      y[i * w + j] = 2.0f * fetch(x, w, i, j);
}

// A 3x3 window summed through a helper that shifts its row and column by
// the padding and tests the image bounds itself (one channel).
static void tap(float *out, int o, const float *img, const float *wt,
                int rows, int cols, int r, int c, int k, int pad) {
  r -= pad;
  c -= pad;
  if (r >= 0 && r < rows && c >= 0 && c < cols)
    out[o] += img[r * cols + c] * wt[k];
}

void blur(float *out, const float *img, const float *wt, int rows, int cols,
          int pad) {
  for (int y = 0; y < rows; y++)
    for (int x = 0; x < cols; x++) {
      out[y * cols + x] = 0.0f;
      for (int dy = 0; dy < 3; dy++)
        for (int dx = 0; dx < 3; dx++)
          tap(out, y * cols + x, img, wt, rows, cols, y + dy, x + dx,
              dy * 3 + dx, pad);
    }
}

static float clampat(const float *x, int row) {
  if (row < 0)
    row = 0;
  return x[row];
}

void clamped(float *y, const float *x, int n) {
  for (int i = 0; i < n; i++)
    y[i] = clampat(x, i - 1);
}
