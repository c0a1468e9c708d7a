// Arrays reached through small C++ classes, as hand-written C++ NN code
// does: a matrix with `float &operator()(int r, int c)`, a tensor with
// `float *row(int r)` and size getters, rows by `float *operator[](int r)`,
// a vector wrapper with `operator[]`, a free function and a lambda
// returning a reference to an element; int8 rows with block scales kept in
// std::unique_ptr/std::shared_ptr arrays, through accessors with assertions
// and a local row pointer. An accessor that reads its element
// through a loaded index, and one that changes the object, are refused.
// Part of the test/NN corpus (see docs/testing-nn-corpus.md).
#include <cassert>
#include <cmath>
#include <cstddef>
#include <memory>
#include <vector>

struct Matrix {
  int rows, cols;
  float *data;
  float &operator()(int r, int c) { return data[r * cols + c]; }
  float operator()(int r, int c) const { return data[r * cols + c]; }
};

// The NN form: out = in * W^T + b, through the matrix's call operator.
void linear_call(Matrix &out, const Matrix &in, const Matrix &W,
                 const float *b) {
  for (int i = 0; i < in.rows; i++)
    for (int o = 0; o < W.rows; o++) {
      float s = b[o];
      for (int k = 0; k < in.cols; k++)
        s += in(i, k) * W(o, k);
      out(i, o) = s;
    }
}

class Tensor2 {
public:
  Tensor2(int r, int c, float *d) : rows_(r), cols_(c), data_(d) {}
  int rows() const { return rows_; }
  int cols() const { return cols_; }
  float *row(int r) { return data_ + r * cols_; }
  const float *row(int r) const { return data_ + r * cols_; }

private:
  int rows_, cols_;
  float *data_;
};

void layernorm_rows(Tensor2 &out, const Tensor2 &in, const float *gamma,
                    const float *beta) {
  const int C = in.cols();
  for (int r = 0; r < in.rows(); r++) {
    const float *x = in.row(r);
    float *y = out.row(r);
    float mean = 0.0f;
    for (int c = 0; c < C; c++)
      mean += x[c];
    mean /= C;
    float var = 0.0f;
    for (int c = 0; c < C; c++) {
      float d = x[c] - mean;
      var += d * d;
    }
    var /= C;
    float rs = 1.0f / sqrtf(var + 1e-5f);
    for (int c = 0; c < C; c++)
      y[c] = (x[c] - mean) * rs * gamma[c] + beta[c];
  }
}

struct Rows {
  int n, stride;
  float *base;
  float *operator[](int r) { return base + r * stride; }
  const float *operator[](int r) const { return base + r * stride; }
};

// Causal attention scores: att[t][t2] = q[t] . k[t2] * scale for t2 <= t.
void causal_scores(Rows &att, const Rows &q, const Rows &k, int T, int hs) {
  float scale = 1.0f / sqrtf((float)hs);
  for (int t = 0; t < T; t++)
    for (int t2 = 0; t2 <= t; t2++) {
      float s = 0.0f;
      for (int i = 0; i < hs; i++)
        s += q[t][i] * k[t2][i];
      att[t][t2] = s * scale;
    }
}

class Vec {
public:
  explicit Vec(std::vector<float> &v) : v_(v) {}
  float &operator[](size_t i) { return v_[i]; }
  float operator[](size_t i) const { return v_[i]; }

private:
  std::vector<float> &v_;
};

void relu_vec(Vec &x, int n) {
  for (int i = 0; i < n; i++)
    x[i] = x[i] > 0.0f ? x[i] : 0.0f;
}

static float &at(Matrix &m, int r, int c) { return m.data[r * m.cols + c]; }

// dW += dout^T * in, through a free function returning the element.
void linear_backward_w(Matrix &dW, Matrix &dout, Matrix &in) {
  for (int o = 0; o < dW.rows; o++)
    for (int k = 0; k < dW.cols; k++)
      for (int i = 0; i < in.rows; i++)
        at(dW, o, k) += at(dout, i, o) * at(in, i, k);
}

void residual_lambda(float *out, const float *inp, int T, int C) {
  auto X = [&](int t, int c) -> const float & { return inp[t * C + c]; };
  auto Y = [&](int t, int c) -> float & { return out[t * C + c]; };
  for (int t = 0; t < T; t++)
    for (int c = 0; c < C; c++)
      Y(t, c) += X(t, c);
}

// Quantized weights as inference code keeps them: int8 rows and one scale
// per block of 4, owned by smart pointers, reached through accessors that
// assert their arguments first.
class QRows {
public:
  int rows_, cols_;
  std::unique_ptr<signed char[]> q_;
  std::shared_ptr<float[]> scales_;
  const signed char *row(int r) const {
    assert(r >= 0 && r < rows_);
    const signed char *p = q_.get() + r * cols_;
    return p;
  }
  float scale(int r, int b) const {
    assert(b < cols_ / 4);
    return scales_[r * (cols_ / 4) + b];
  }
};

void dequant_rows(float *out, const QRows &w) {
  for (int r = 0; r < w.rows_; r++) {
    const signed char *q = w.row(r);
    for (int b = 0; b < w.cols_ / 4; b++) {
      float s = w.scale(r, b);
      for (int j = 0; j < 4; j++)
        out[r * w.cols_ + b * 4 + j] = s * q[b * 4 + j];
    }
  }
}

struct Embedding {
  int dim;
  float *table;
  const int *ids;
  const float &token(int t, int c) const { return table[ids[t] * dim + c]; }
};

void embed(float *out, const Embedding &e, int T) {
  for (int t = 0; t < T; t++)
    for (int c = 0; c < e.dim; c++)
      out[t * e.dim + c] = e.token(t, c);
}

struct Stream {
  int pos;
  float *data;
  float &next() { return data[pos++]; }
};

void drain(float *out, Stream &s, int n) {
  for (int i = 0; i < n; i++)
    out[i] = s.next();
}
