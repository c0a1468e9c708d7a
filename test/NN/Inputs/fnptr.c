// A genann-style layer whose activation is a function pointer in the
// network's struct (genann.c's `ann->activation_hidden(ann, sum)`), and the
// output deltas through a derivative that compares the pointer with the
// known activations (genann_act_derivative). test/NN/fnptr.test.
#include <math.h>

struct net;
typedef float (*act_fn)(const struct net *ann, float a);
typedef struct net {
  act_fn act_hidden, act_output;
  const float *table;
} net;

float act_sigmoid(const net *ann, float a) {
  if (a < -45.0f) return 0;
  if (a > 45.0f) return 1;
  return 1.0f / (1 + expf(-a));
}
float act_relu(const net *ann, float a) { return a > 0 ? a : 0; }
float act_tanh(const net *ann, float a) { return tanhf(a); }
// A table read where the sum falls: a gather, refused in its case.
float act_cached(const net *ann, float a) { return ann->table[(int)a & 63]; }

void net_init(net *ann, int kind) {
  ann->act_hidden = kind == 0 ? act_sigmoid
                  : kind == 1 ? act_relu
                  : kind == 2 ? act_tanh
                              : act_cached;
  ann->act_output = ann->act_hidden;
}

void hidden_forward(const net *ann, float *o, const float *w, const float *b,
                    const float *x, int inputs, int outputs) {
  for (int j = 0; j < outputs; ++j) {
    float sum = b[j];
    for (int k = 0; k < inputs; ++k)
      sum += w[j * inputs + k] * x[k];
    o[j] = ann->act_hidden(ann, sum);
  }
}

static float act_derivative(act_fn act, float y) {
  if (act == act_tanh) return 1.0f - y * y;
  if (act == act_relu) return y > 0 ? 1.0f : 0.0f;
  return y * (1.0f - y);
}

void output_deltas(const net *ann, float *d, const float *o, const float *t,
                   int outputs) {
  for (int j = 0; j < outputs; ++j)
    d[j] = (t[j] - o[j]) * act_derivative(ann->act_output, o[j]);
}
