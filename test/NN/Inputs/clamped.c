// Locals set again under a condition before the nest (test/NN/clamped.test):
// a residual shortcut between feature maps whose sizes differ by an integer
// factor, its strides clamped to 1 (as darknet writes it), a block of rows
// clamped to the extent, and a length picked on a flag.

void shortcut_add(int batch, int w1, int h1, int c1, const float *add, int w2,
                  int h2, int c2, float *out) {
  int stride = w1 / w2;
  int sample = w2 / w1;
  if (stride < 1)
    stride = 1;
  if (sample < 1) {
    sample = 1;
  }
  int minw = w1 < w2 ? w1 : w2;
  int minh = h1 < h2 ? h1 : h2;
  int minc = c1 < c2 ? c1 : c2;
  for (int b = 0; b < batch; ++b)
    for (int k = 0; k < minc; ++k)
      for (int j = 0; j < minh; ++j)
        for (int i = 0; i < minw; ++i)
          out[((b * c2 + k) * h2 + j * sample) * w2 + i * sample] +=
              add[((b * c1 + k) * h1 + j * stride) * w1 + i * stride];
}

void head_rows(float *x, int n, int d, float s) {
  int rows = 4;
  if (n < rows)
    rows = n;
  for (int r = 0; r < rows; ++r)
    for (int j = 0; j < d; ++j)
      x[r * d + j] *= s;
}

void pick_len(float *y, const float *x, int n, int d, int transposed) {
  int len;
  if (transposed)
    len = n;
  else
    len = d;
  for (int i = 0; i < len; ++i)
    y[i] = x[i] * x[i] + 1.0f;
}
