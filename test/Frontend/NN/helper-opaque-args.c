// An integer argument the tool cannot follow (not an affine index) leaves
// the helper's parameter opaque: a subscript or a condition on it is
// refused with the reason. It was taken as a size of the nest, named after
// the parameter: darknet's im2col_get_pixel(im, ..., row, col, channel, pad),
// called with `h_offset + h * stride` where h_offset = (c / ksize) % ksize,
// read one element of the image for the whole nest (4 bytes) and made its
// padding test `row < 0 || ...` a loop-invariant case (`padded [row < 0]`).
// (darknet's own arguments are indices now: c % ksize runs in groups,
// test/Frontend/NN/split-loops.c; here a square keeps `r` opaque.)
// RUN: roofline-lint --verbosity=normal --no-source --param n=64 %s | FileCheck %s

static float at(const float *x, int i) { return x[i]; }

// CHECK: helper-opaque-args.c:[[@LINE+2]]:3: note: loop nest not analyzed: access 'x[i]': 'i' = argument 'j' of 'at', not an index
void scattered(float *y, const float *x, int n) {
  for (int k = 0; k < n; k++) {
    int j = (k * k) % n;
    y[k] = at(x, j);
  }
}

static float pixel(const float *im, int width, int row, int col) {
  if (row < 0)
    return 0;
  return im[col + width * row];
}

// CHECK-NOT: remark: padded
// CHECK: helper-opaque-args.c:[[@LINE+2]]:3: note: loop nest not analyzed: access 'im[col + width * row]': 'row' = argument 'r - 1' of 'pixel', not an index
void padded(float *out, const float *im, int n, int k) {
  for (int c = 0; c < n * k; c++) {
    int r = (c * c) % k;
    out[c] = pixel(im, n, r - 1, c / k - 1);
  }
}

// CHECK-NOT: remark: padded
// An opaque value used as data, not as an index, is fine: one multiply per
// element, the argument computed at the call.
static float times(float v, int m) { return v * m; }
// CHECK: helper-opaque-args.c:[[@LINE+3]]:3: remark: scaled:
// CHECK: note: 0 MACs, 64 FLOPs (f32: 64); 512 bytes compulsory
void scaled(float *y, const float *x, int n) {
  for (int i = 0; i < n; i++)
    y[i] = times(x[i], (i * i) % n);
}
