// Small helpers as C++ NN code writes them (a Leela-Zero-style CPU pipe and
// a hand-written MLP): index helpers, a function `IDX(r, c, ld)` and a
// lambda `[K](int r, int c) { return r * K + c; }`; lambdas called inside a
// nest (an activation, a transform with `float &` outputs into a
// std::array scratch tile, an accumulator captured by reference); a helper
// with `float &` outputs into the caller's float scalars; a batch norm over
// a std::vector with a template size and a null check.
// Part of the test/NN corpus (see docs/testing-nn-corpus.md).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <vector>

static inline int IDX(int r, int c, int ld) { return r * ld + c; }
static inline int ROW2(int r, int ld) { return IDX(2 * r, 0, ld); }

// out[N][M] = inp[N][K] * w[M][K]^T + bias[M]
void matmul_idx(float *out, const float *inp, const float *w,
                const float *bias, int N, int K, int M) {
  auto in_at = [K](int r, int c) { return r * K + c; };
  for (int n = 0; n < N; n++) {
    for (int m = 0; m < M; m++) {
      float acc = bias[m];
      for (int k = 0; k < K; k++)
        acc += inp[in_at(n, k)] * w[IDX(m, k, K)];
      out[IDX(n, m, M)] = acc;
    }
  }
}

// Every other row (an index helper calling another).
void even_rows(float *y, const float *x, int R, int C) {
  for (int r = 0; r < R; r++)
    for (int c = 0; c < C; c++)
      y[r * C + c] = 2.0f * x[ROW2(r, C) + c];
}

void gelu_lambda(float *out, const float *inp, int N) {
  const float s = sqrtf(2.0f / 3.14159265f);
  auto gelu = [s](float x) {
    return 0.5f * x * (1.0f + tanhf(s * (x + 0.044715f * x * x * x)));
  };
  for (int i = 0; i < N; i++)
    out[i] = gelu(inp[i]);
}

// Sum of squares through a lambda that adds to a captured accumulator.
void rms_lambda(float *out, const float *x, int N, int C) {
  for (int n = 0; n < N; n++) {
    float ss = 0.0f;
    auto add = [&](float v) { ss += v * v; };
    for (int c = 0; c < C; c++)
      add(x[n * C + c]);
    float scale = 1.0f / sqrtf(ss / C + 1e-5f);
    for (int c = 0; c < C; c++)
      out[n * C + c] = x[n * C + c] * scale;
  }
}

constexpr int kTile = 4; // outputs per tile edge
constexpr int kAlpha = 6;

// Winograd-style output transform: K channels of T tiles, 6x6 -> 4x4, a
// lambda with `float &` outputs into std::array scratch, the border tiles'
// stores guarded.
void transform_out(const std::vector<float> &M, std::vector<float> &Y, int K,
                   int T, int W) {
  const auto at = [](float &o0, float &o1, float &o2, float &o3, float i0,
                     float i1, float i2, float i3, float i4, float i5) {
    auto p = (i1 + i2) * 0.5f;
    auto q = i3 - i4;
    o0 = i0 + p + i3 + i4;
    o1 = (i1 - i2) + q * 2.0f;
    o2 = p + i3 + i4;
    o3 = (i1 - i2) * 0.25f + q + i5;
  };
  for (int k = 0; k < K; k++) {
    for (int t = 0; t < T; t++) {
      std::array<std::array<float, kAlpha>, kAlpha> m;
      for (int a = 0; a < kAlpha; a++)
        for (int b = 0; b < kAlpha; b++)
          m[a][b] = M[((a * kAlpha + b) * K + k) * T + t];
      std::array<std::array<float, kAlpha>, kTile> tmp;
      for (int j = 0; j < kAlpha; j++)
        at(tmp[0][j], tmp[1][j], tmp[2][j], tmp[3][j], m[0][j], m[1][j],
           m[2][j], m[3][j], m[4][j], m[5][j]);
      std::array<std::array<float, kTile>, kTile> o;
      for (int i = 0; i < kTile; i++)
        at(o[i][0], o[i][1], o[i][2], o[i][3], tmp[i][0], tmp[i][1],
           tmp[i][2], tmp[i][3], tmp[i][4], tmp[i][5]);
      for (int i = 0; i < kTile; i++)
        for (int j = 0; j < kTile; j++)
          if (t * kTile + j < W)
            Y[(k * kTile + i) * W + t * kTile + j] = o[i][j];
    }
  }
}

// Two outputs of a gemv at a time into the caller's float accumulators.
static inline void fma2(float &acc0, float &acc1, float a, float b0,
                        float b1) {
  acc0 += a * b0;
  acc1 += a * b1;
}

void gemv2(float *y, const float *A, const float *x, int R, int C) {
  for (int r = 0; r < R; r += 2) {
    float s0 = 0.0f, s1 = 0.0f;
    for (int c = 0; c < C; c++)
      fma2(s0, s1, x[c], A[r * C + c], A[(r + 1) * C + c]);
    y[r] = s0;
    y[r + 1] = s1;
  }
}

template <std::size_t Spatial>
void batchnorm(std::size_t channels, std::vector<float> &data,
               const float *means, const float *stddevs,
               const float *eltwise = nullptr) {
  for (auto c = std::size_t{0}; c < channels; ++c) {
    const auto mean = means[c];
    const auto scale = stddevs[c];
    const auto arr = &data[c * Spatial];
    if (eltwise == nullptr) {
      for (auto b = std::size_t{0}; b < Spatial; b++)
        arr[b] = std::max(0.0f, scale * (arr[b] - mean));
    } else {
      const auto res = &eltwise[c * Spatial];
      for (auto b = std::size_t{0}; b < Spatial; b++)
        arr[b] = std::max(0.0f, scale * (arr[b] - mean) + res[b]);
    }
  }
}

// Two batch norms of a residual block (instantiates batchnorm<25>).
void bn_block(std::vector<float> &data, const float *means,
              const float *stddevs, const float *res, int C) {
  batchnorm<25>(C, data, means, stddevs);
  batchnorm<25>(C, data, means, stddevs, res);
}

// A detection layer as darknet writes one: the layer struct passed by
// value, entry_index computing an offset through locals.
struct Layer {
  int w, h, n, classes, batch;
  float *output;
};
static int entry_index(Layer l, int batch, int location, int entry) {
  int n = location / (l.w * l.h);
  int loc = location % (l.w * l.h);
  return batch * l.n * l.w * l.h * (l.classes + 5) +
         n * l.w * l.h * (l.classes + 5) + entry * l.w * l.h + loc;
}
static inline float logistic(float x) { return 1.0f / (1.0f + expf(-x)); }
static void logistic_rows(Layer l, float *x, int count) {
  for (int i = 0; i < count; i++)
    x[i] = logistic(x[i]);
}
void detect_forward(const Layer l) {
  for (int b = 0; b < l.batch; b++)
    for (int n = 0; n < l.n; n++) {
      int index = entry_index(l, b, n * l.w * l.h, 4);
      logistic_rows(l, l.output + index, (1 + l.classes) * l.w * l.h);
    }
}

// A matrix class with getters, as C++ code keeps its tensors: sizes and
// offsets through m.rows(), m.cols(), m.at(r, c).
class Mat {
public:
  int rows() const { return rows_; }
  int cols() const { return cols_; }
  int at(int r, int c) const { return r * cols_ + c; }
  int rows_, cols_;
  float *data_;
};
void softmax_rows(Mat &m) {
  for (int r = 0; r < m.rows(); r++) {
    float mx = m.data_[m.at(r, 0)];
    for (int c = 1; c < m.cols(); c++)
      mx = fmaxf(mx, m.data_[m.at(r, c)]);
    float sum = 0.0f;
    for (int c = 0; c < m.cols(); c++) {
      float e = expf(m.data_[m.at(r, c)] - mx);
      m.data_[m.at(r, c)] = e;
      sum += e;
    }
    for (int c = 0; c < m.cols(); c++)
      m.data_[m.at(r, c)] /= sum;
  }
}

// A copy captured before its variable changes: refused.
void shifted_copy(float *y, const float *x, int N) {
  int off = 0;
  auto at = [off](int i) { return off + i; };
  off = N;
  for (int i = 0; i < N; i++)
    y[i] = x[at(i)];
}

// An index helper that is no affine index: refused.
static inline int square_at(int i) { return i * i; }
void squares(float *y, const float *x, int N) {
  for (int i = 0; i < N; i++)
    y[i] = x[square_at(i)];
}
