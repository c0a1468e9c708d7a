// A small CNN in the style of hand-written C networks: dense layers that
// walk their weights with a running index (`w[k++]`, `k++` at the end of a
// body, a row offset `r += n`), and convolution layers whose output index
// is a counter kept across the nest and whose padding test uses the stride
// and padding of the layer (struct fields in an anonymous union, given as
// --param). Part of the test/NN corpus (see docs/testing-nn-corpus.md).
#include <math.h>

typedef struct Layer {
  int depth, width, height, nnodes;
  union {
    struct {
      int kernsize, padding, stride;
    } conv;
  };
  float *outputs, *errors, *weights, *u_weights, *biases, *u_biases;
} Layer;

// Y = W X + B: the weights are read in order, with k++ in the index.
void dense_forward(Layer *self, const Layer *prev) {
  int k = 0;
  for (int i = 0; i < self->nnodes; i++) {
    float x = self->biases[i];
    for (int j = 0; j < prev->nnodes; j++) {
      x += prev->outputs[j] * self->weights[k++];
    }
    self->outputs[i] = tanhf(x);
  }
}

// The same weights, k advanced as a statement after both uses.
void dense_backward(Layer *self, Layer *prev) {
  int k = 0;
  for (int i = 0; i < self->nnodes; i++) {
    float dnet = self->errors[i];
    for (int j = 0; j < prev->nnodes; j++) {
      prev->errors[j] += self->weights[k] * dnet;
      self->u_weights[k] += dnet * prev->outputs[j];
      k++;
    }
    self->u_biases[i] += dnet;
  }
}

// A row pointer at a running offset advanced by a size.
void dense_rows(float *y, const float *w, const float *x, int n, int m) {
  int r = 0;
  for (int i = 0; i < n; i++) {
    const float *row = w + r;
    float s = 0.0f;
    for (int j = 0; j < m; j++)
      s += row[j] * x[j];
    y[i] = s;
    r += m;
  }
}

// Pre-increment from -1, and a counter stepped in two loop levels (every
// other row of the output: k skips m after each row).
void scatter_rows(float *out, const float *in, int n, int m) {
  int k = -1;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      out[++k] = 2.0f * in[i * m + j];
}
void even_rows(float *out, const float *in, int n, int m) {
  int k = 0;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < m; j++) {
      out[k] = in[i * m + j] + 1.0f;
      k++;
    }
    k += m;
  }
}

// Convolution, output index n kept across the nest, padding by test.
void conv_forward(Layer *self, const Layer *prev) {
  int ks = self->conv.kernsize;
  int n = 0;
  for (int c1 = 0; c1 < self->depth; c1++) {
    int wbase = c1 * prev->depth * ks * ks;
    for (int r1 = 0; r1 < self->height; r1++) {
      int r0 = self->conv.stride * r1 - self->conv.padding;
      for (int s1 = 0; s1 < self->width; s1++) {
        int s0 = self->conv.stride * s1 - self->conv.padding;
        float acc = self->biases[c1];
        for (int c0 = 0; c0 < prev->depth; c0++) {
          int ibase = c0 * prev->width * prev->height;
          for (int dr = 0; dr < ks; dr++) {
            int r = r0 + dr;
            if (0 <= r && r < prev->height) {
              int ip = ibase + r * prev->width;
              int wp = wbase + (c0 * ks + dr) * ks;
              for (int ds = 0; ds < ks; ds++) {
                int s = s0 + ds;
                if (0 <= s && s < prev->width)
                  acc += prev->outputs[ip + s] * self->weights[wp + ds];
              }
            }
          }
        }
        self->outputs[n] = acc > 0.0f ? acc : 0.0f;
        n++;
      }
    }
  }
}

// Its backward pass: errors to the previous layer and weight updates.
void conv_backward(Layer *self, Layer *prev) {
  int ks = self->conv.kernsize;
  int n = 0;
  for (int c1 = 0; c1 < self->depth; c1++) {
    int wbase = c1 * prev->depth * ks * ks;
    for (int r1 = 0; r1 < self->height; r1++) {
      int r0 = self->conv.stride * r1 - self->conv.padding;
      for (int s1 = 0; s1 < self->width; s1++) {
        int s0 = self->conv.stride * s1 - self->conv.padding;
        float dnet = self->errors[n];
        for (int c0 = 0; c0 < prev->depth; c0++) {
          int ibase = c0 * prev->width * prev->height;
          for (int dr = 0; dr < ks; dr++) {
            int r = r0 + dr;
            if (0 <= r && r < prev->height) {
              int ip = ibase + r * prev->width;
              int wp = wbase + (c0 * ks + dr) * ks;
              for (int ds = 0; ds < ks; ds++) {
                int s = s0 + ds;
                if (0 <= s && s < prev->width) {
                  prev->errors[ip + s] += self->weights[wp + ds] * dnet;
                  self->u_weights[wp + ds] += dnet * prev->outputs[ip + s];
                }
              }
            }
          }
        }
        self->u_biases[c1] += dnet;
        n++;
      }
    }
  }
}
