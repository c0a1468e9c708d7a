// genann's activations as genann.c writes them (in float here: the oracle
// counts float work): a sigmoid with clamps and an activation derivative
// chosen by a flag, both a chain `if (c) return e; ... return e;` called
// inside the nests. The chain is the conditional c1 ? e1 : ... : e: a
// data-dependent clamp counts its compares and the work as a range; the flag
// is loop-invariant, one count per case. Any other early return in a called
// helper is refused. Part of the test/NN corpus (docs/testing-nn-corpus.md).
#include <math.h>

float genann_act_sigmoid(float a) {
  if (a < -45.0f) return 0;
  if (a > 45.0f) return 1;
  return 1.0f / (1 + expf(-a));
}

static float genann_act_derivative(int act, float y) {
  if (act == 1) return 1.0f - y * y; // tanh
  if (act == 2) return y > 0 ? 1.0f : 0.0f; // relu
  return y * (1.0f - y); // sigmoid
}

// A layer: the bias weight times -1, then one weight per input
// (genann_run, the bias kept apart).
void layer_forward(float *out, const float *bias, const float *w,
                   const float *in, int inputs, int outputs) {
  for (int j = 0; j < outputs; j++) {
    float sum = bias[j] * -1.0f;
    for (int k = 0; k < inputs; k++) {
      sum += w[j * inputs + k] * in[k];
    }
    out[j] = genann_act_sigmoid(sum);
  }
}

// The output deltas (genann_train).
void output_deltas(float *d, const float *o, const float *t, int outputs,
                   int act) {
  for (int j = 0; j < outputs; j++) {
    d[j] = (t[j] - o[j]) * genann_act_derivative(act, o[j]);
  }
}

// --- Refused: an early return that is no guard of the value ---

static float leaky(float a) {
  if (a < 0.0f) {
    float s = 0.01f * a;
    return s;
  }
  return a;
}

void leaky_forward(float *out, const float *in, int outputs) {
  for (int j = 0; j < outputs; j++) {
    out[j] = leaky(in[j]);
  }
}
