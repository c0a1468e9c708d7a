// Per-layer tensors kept the ways hand-written C keeps them: a table of
// row pointers (float **), an array of structs of pointers passed one
// struct at a time (llama2.c's runq: `w->wq + l`), an array of structs
// holding one array each (a MNIST trainer's `&images[i]`) and structs of
// several members (each member's rows the struct's size apart).
// Part of the test/NN corpus (see docs/testing-nn-corpus.md).
#include <stdint.h>

// y += sum over layers of the rows W[l] (each its own allocation) times x.
void rowptr_sum(float **W, const float *x, float *y, int L, int n) {
  for (int l = 0; l < L; l++)
    for (int i = 0; i < n; i++)
      y[i] += W[l][i] * x[i];
}

// A row pointer taken once per layer, then indexed as a matrix.
void rowptr_matvec(float *const *W, const float *x, float *y, int L, int n,
                   int d) {
  for (int l = 0; l < L; l++) {
    const float *w = W[l];
    for (int i = 0; i < d; i++) {
      float acc = 0.0f;
      for (int j = 0; j < n; j++)
        acc += w[i * n + j] * x[j];
      y[l * d + i] = acc;
    }
  }
}

typedef struct {
  int8_t *q; // quantized values
  float *s;  // one scale per group of GS values
} QTensor;

#define GS 4

// W (d,n) @ x (n,) in groups of GS, as runq's matmul.
void qmatmul(float *xout, QTensor *x, QTensor *w, int n, int d) {
  for (int i = 0; i < d; i++) {
    float val = 0.0f;
    int32_t ival = 0;
    int in = i * n;
    for (int j = 0; j <= n - GS; j += GS) {
      for (int k = 0; k < GS; k++)
        ival += ((int32_t)x->q[j + k]) * ((int32_t)w->q[in + j + k]);
      val += ((float)ival) * w->s[(in + j) / GS] * x->s[j / GS];
      ival = 0;
    }
    xout[i] = val;
  }
}

// Every layer's weights: one struct of the array each.
void qlayers(float *out, QTensor *xq, QTensor *wq, int L, int n, int d) {
  for (int l = 0; l < L; l++)
    qmatmul(out + l * d, xq, wq + l, n, d);
}

// The same, the struct's members named in place.
void qscales(float *out, QTensor *wq, int L, int n) {
  for (int l = 0; l < L; l++)
    for (int g = 0; g < n / GS; g++)
      out[l] += wq[l].s[g] * (float)(wq + l)->q[g * GS];
}

#define PIXELS 16
typedef struct {
  uint8_t pixels[PIXELS];
} Image;

static void accumulate(Image *image, const float *w, float *grad) {
  for (int j = 0; j < PIXELS; j++)
    grad[j] += w[j] * ((float)image->pixels[j] / 255.0f);
}

// The gradient over a set of images, one struct each.
void image_grad(Image *images, const float *w, float *grad, int N) {
  for (int i = 0; i < N; i++)
    accumulate(&images[i], w, grad);
}

typedef struct {
  float x[4];
  float w[4];
  int id;
} Rec;

// Two array members of each struct, rows of 9 floats apart.
void rec_dot(Rec *r, float *out, int N) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < 4; j++)
      out[i] += r[i].x[j] * r[i].w[j];
}

// A number member: one element of each struct's row.
void rec_scale(Rec *r, float *out, int N) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < 4; j++)
      out[i] += r[i].x[j] * (float)r[i].id;
}

typedef struct {
  float prob;
  float logit;
} Pair;

// Writes to number members of an array of structs (as a sampler's
// ProbIndex table is filled).
void fill_pairs(Pair *p, const float *prob, int N) {
  for (int i = 0; i < N; i++) {
    p[i].prob = prob[i] * 2.0f;
    p[i].logit = prob[i];
  }
}

// The struct picked by data is a gather: refused with the reason.
void pick_pair(Pair *p, const int *idx, float *out, int N) {
  for (int i = 0; i < N; i++)
    out[i] = p[idx[i]].prob;
}
