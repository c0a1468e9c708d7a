// Gradients and activations written the way darknet's activations.h writes
// them: `&&` and `||` in a condition on the data (lhtan, hardtan, plse), and
// a helper whose if/else both return (stair). test/NN/shortcircuit.test.
#include <math.h>

static inline float band_gradient(float x) {
  if (x > 0 && x < 1)
    return 1;
  return .001f;
}
static inline float clip_gradient(float x) {
  return (x < 0 || x > 1) ? .01f : .125f;
}
static inline float stair(float x) {
  int n = (int)floorf(x);
  if (n % 2 == 0)
    return floorf(x / 2.f);
  else
    return (x - n) + floorf(x / 2.f);
}

void band_backward(const float *x, int n, float *delta) {
  for (int i = 0; i < n; ++i)
    delta[i] *= band_gradient(x[i]);
}

void clip_backward(const float *x, int n, float *delta) {
  for (int i = 0; i < n; ++i)
    delta[i] *= clip_gradient(x[i]);
}

void stair_forward(float *x, int n) {
  for (int i = 0; i < n; ++i)
    x[i] = stair(x[i]);
}

// The second operand reads only what the first has read: the bytes stay
// exact; its work (a multiply and a compare) is the range.
void gate(const float *x, const float *y, float *out, int n) {
  for (int i = 0; i < n; ++i) {
    float v = x[i], w = y[i];
    out[i] = (v > 0 && w * v < 1) ? v : w;
  }
}

// The second operand reads y[i], which nothing read before: the bytes
// depend on the data, refused.
void gate_reads(const float *x, const float *y, float *out, int n) {
  for (int i = 0; i < n; ++i)
    out[i] = (x[i] > 0 || y[i] > 0) ? 1.0f : 0.0f;
}
