// Conditions on loop variables held in an integer local of the loop body
// and tested later (darknet's max pooling: `int valid = (r >= 0 && ...);`
// then `(valid != 0) ? in[at] : -FLT_MAX`). The local is the condition it
// was initialized with: each side runs where its side holds
// (test/NN/guardlocals.test, test/Frontend/NN/guard-locals.c).
#include <float.h>

// Max pooling with padding over a C x H x W image, keeping the argmax.
void maxpool_fwd(float *out, int *arg, const float *in, int C, int H, int W,
                 int K, int S, int pad) {
  int oh = (H + pad - K) / S + 1;
  int ow = (W + pad - K) / S + 1;
  int off = -pad / 2;
  for (int c = 0; c < C; ++c)
    for (int i = 0; i < oh; ++i)
      for (int j = 0; j < ow; ++j) {
        float best = -FLT_MAX;
        int best_at = -1;
        for (int n = 0; n < K; ++n)
          for (int m = 0; m < K; ++m) {
            int r = off + i * S + n;
            int q = off + j * S + m;
            int at = q + W * (r + H * c);
            int inside = (r >= 0 && r < H && q >= 0 && q < W);
            float v = (inside != 0) ? in[at] : -FLT_MAX;
            best_at = (v > best) ? at : best_at;
            best = (v > best) ? v : best;
          }
        int o = j + ow * (i + oh * c);
        out[o] = best;
        arg[o] = best_at;
      }
}

// The same over a batch, the layer passed by value as darknet passes it.
typedef struct pool_layer {
  int batch, c, h, w, out_h, out_w, size, stride, pad;
  float *output;
  int *indexes;
} pool_layer;

void pool_forward(const pool_layer l, const float *input) {
  int b, k, i, j, n, m;
  int shift = -l.pad / 2;
  for (b = 0; b < l.batch; ++b)
    for (k = 0; k < l.c; ++k)
      for (i = 0; i < l.out_h; ++i)
        for (j = 0; j < l.out_w; ++j) {
          int o = j + l.out_w * (i + l.out_h * (k + l.c * b));
          float mx = -FLT_MAX;
          int mi = -1;
          for (n = 0; n < l.size; ++n)
            for (m = 0; m < l.size; ++m) {
              int y = shift + i * l.stride + n;
              int x = shift + j * l.stride + m;
              int at = x + l.w * (y + l.h * (k + b * l.c));
              int valid = (y >= 0 && y < l.h && x >= 0 && x < l.w);
              float val = (valid != 0) ? input[at] : -FLT_MAX;
              mi = (val > mx) ? at : mi;
              mx = (val > mx) ? val : mx;
            }
          l.output[o] = mx;
          l.indexes[o] = mi;
        }
}

// A guard kept in a local and tested by an if: the window [lo, hi).
void window_scale(float *y, const float *x, int n, int lo, int hi, float s) {
  for (int i = 0; i < n; i++) {
    int in_window = i >= lo && i < hi;
    if (in_window)
      y[i] = s * x[i];
  }
}

// `!= 0` around the whole body: the upper triangle of a square.
void upper_scale(float *a, int n, float s) {
  for (int r = 0; r < n; r++)
    for (int c = 0; c < n; c++) {
      int above = c >= r;
      if (above != 0)
        a[r * n + c] *= s;
    }
}

// Its negation: zero outside the border band, a product inside it.
void border_zero(float *y, const float *x, int rows, int cols, int b) {
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++) {
      int edge = i < b || j < b || i >= rows - b || j >= cols - b;
      y[i * cols + j] = edge ? 0.0f : x[i * cols + j] * 0.5f;
    }
}

// `== 0` and `!`: both test the local's negation.
void shifted_sum(float *y, const float *x, const float *z, int n, int p) {
  for (int i = 0; i < n; i++) {
    int before = i < p;
    float a = before == 0 ? x[i - p] : 0.0f;
    float c = !before ? z[i] * 2.0f : 1.0f;
    y[i] = a + c;
  }
}

// A local set again in the nest holds what the data decided: refused.
void rewritten(float *y, const float *x, const float *z, int n) {
  for (int i = 0; i < n; i++) {
    int ok = i > 0;
    if (x[i] > 0.0f)
      ok = 0;
    y[i] = ok ? z[i] : 0.0f;
  }
}

// A local computed from data: a data-dependent branch, refused.
void datalocal(float *y, const float *x, const float *z, int n) {
  for (int i = 0; i < n; i++) {
    int pos = x[i] > 0.0f;
    y[i] = pos ? z[i] : 0.0f;
  }
}
