// Windows clamped in int locals the way C code writes them: conditionals
// and MIN/MAX macros (issue 18; LowerIndex.cpp minMaxChoice). A local used
// only as a loop bound is that min or max bound; one also used as an index
// splits its loop as before.
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))

// A centred box filter over rows of W, windows of 2*K + 1.
void box_rows(float *out, const float *in, int R, int W, int K) {
  for (int r = 0; r < R; r++)
    for (int x = 0; x < W; x++) {
      int lo = x - K < 0 ? 0 : x - K;
      int hi = x + K + 1 > W ? W : x + K + 1;
      float s = 0.0f;
      for (int k = lo; k < hi; k++)
        s += in[r * W + k];
      out[r * W + x] = s / (hi - lo);
    }
}

// Max pooling of one plane with padding and stride, windows clamped by
// macros (F x F, from oy*S - P).
void max_pool(float *out, const float *in, int H, int W, int OH, int OW,
              int S, int P, int F) {
  for (int oy = 0; oy < OH; oy++)
    for (int ox = 0; ox < OW; ox++) {
      int y0 = MAX(oy * S - P, 0), y1 = MIN(oy * S - P + F, H);
      int x0 = MAX(ox * S - P, 0), x1 = MIN(ox * S - P + F, W);
      float m = -1e30f;
      for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++)
          m = MAX(m, in[y * W + x]);
      out[oy * OW + ox] = m;
    }
}

// Caffe's spelling, the start clamped after the end is computed from it:
// the end reads the start as it was there.
void caffe_pool(float *out, const float *in, int H, int OH, int S, int P,
                int F) {
  for (int oy = 0; oy < OH; oy++) {
    int hs = oy * S - P;
    int he = MIN(hs + F, H);
    hs = MAX(hs, 0);
    float a = 0.0f;
    for (int y = hs; y < he; y++)
      a += in[y];
    out[oy] = a;
  }
}
