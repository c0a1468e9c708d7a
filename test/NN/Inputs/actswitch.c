// Activations chosen by a switch on a kind the layer is given (the way
// darknet's activate() and gradient() are written), a helper called per
// element, and a layer whose body switches on a mode with fall-through and
// break. test/NN/actswitch.test.
#include <math.h>

typedef enum { K_IDENTITY, K_SIGMOID, K_RELU, K_LEAKY, K_SOFTSIGN } kind_t;

static float act_value(float v, kind_t k) {
  switch (k) {
  case K_IDENTITY:
    return v;
  case K_SIGMOID:
    return 1.0f / (1.0f + expf(-v));
  case K_RELU:
    return v * (v > 0);
  case K_LEAKY:
    return v > 0 ? v : 0.1f * v;
  case K_SOFTSIGN:
    return v / (1.0f + fabsf(v));
  }
  return 0;
}

static float act_slope(float y, kind_t k) {
  switch (k) {
  case K_SIGMOID:
    return y * (1.0f - y);
  case K_RELU:
  case K_LEAKY:
    return y > 0 ? 1.0f : (k == K_LEAKY ? 0.1f : 0.0f);
  default:
    break;
  }
  return 1.0f;
}

void act_forward(float *x, int n, kind_t k) {
  for (int i = 0; i < n; ++i)
    x[i] = act_value(x[i], k);
}

void act_backward(const float *y, int n, kind_t k, float *delta) {
  for (int i = 0; i < n; ++i)
    delta[i] *= act_slope(y[i], k);
}

// mode 0: out = in * s; mode 1: out = in + s, then (falling through) the
// product; mode 2: the product; anything else: a copy.
void scale_mode(float *out, const float *in, float s, int n, int mode) {
  for (int i = 0; i < n; ++i) {
    switch (mode) {
    case 0:
      out[i] = in[i] * s;
      break;
    case 1:
      out[i] = in[i] + s;
      /* fall through */
    case 2:
      out[i] = out[i] * s;
      break;
    default:
      out[i] = in[i];
    }
  }
}
