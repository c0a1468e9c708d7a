// Pooling as Caffe's CPU layer writes it (issue 18; window locals,
// LowerBodyAssignments.cpp): the window's end computed from its start, then
// the start clamped by setting it again, `hstart = max(hstart, 0);`; the
// average pool divides by the padded window's size, computed before both
// ends are clamped again, `hend = min(hend, height);`.
#include <algorithm>
using std::max;
using std::min;

struct PoolParam {
  int height, width, pooled_height, pooled_width;
  int kernel, stride, pad;
};

void max_pool(const PoolParam &p, const float *bottom, float *top) {
  for (int ph = 0; ph < p.pooled_height; ++ph)
    for (int pw = 0; pw < p.pooled_width; ++pw) {
      int hstart = ph * p.stride - p.pad;
      int wstart = pw * p.stride - p.pad;
      int hend = min(hstart + p.kernel, p.height);
      int wend = min(wstart + p.kernel, p.width);
      hstart = max(hstart, 0);
      wstart = max(wstart, 0);
      float m = -1e30f;
      for (int h = hstart; h < hend; ++h)
        for (int w = wstart; w < wend; ++w)
          m = max(m, bottom[h * p.width + w]);
      top[ph * p.pooled_width + pw] = m;
    }
}

void ave_pool(const PoolParam &p, const float *bottom, float *top) {
  for (int ph = 0; ph < p.pooled_height; ++ph)
    for (int pw = 0; pw < p.pooled_width; ++pw) {
      int hstart = ph * p.stride - p.pad;
      int wstart = pw * p.stride - p.pad;
      int hend = min(hstart + p.kernel, p.height + p.pad);
      int wend = min(wstart + p.kernel, p.width + p.pad);
      int pool_size = (hend - hstart) * (wend - wstart);
      hstart = max(hstart, 0);
      wstart = max(wstart, 0);
      hend = min(hend, p.height);
      wend = min(wend, p.width);
      const int pool_index = ph * p.pooled_width + pw;
      top[pool_index] = 0;
      for (int h = hstart; h < hend; ++h)
        for (int w = wstart; w < wend; ++w)
          top[pool_index] += bottom[h * p.width + w];
      top[pool_index] /= pool_size;
    }
}

// Refused: after the clamp the start is an index again.
void clamp_then_index(const PoolParam &p, const float *bottom, float *top) {
  for (int ph = 0; ph < p.pooled_height; ++ph) {
    int hstart = ph * p.stride - p.pad;
    hstart = max(hstart, 0);
    top[ph] = bottom[hstart * p.width];
  }
}
