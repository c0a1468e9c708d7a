// NN kernels as C++ code writes them: std::vector buffers, std::span rows,
// range-based for over spans, vectors and C arrays, a std::array scratch
// accumulator, and a layer class whose sizes are members (this->out).
// Part of the test/NN corpus (see docs/testing-nn-corpus.md).
#include <array>
#include <cmath>
#include <span>
#include <vector>

// Row-wise RMS normalization of an (N, C) matrix, one std::span per row.
void rmsnorm_rows(std::vector<float> &out, const std::vector<float> &inp,
                  const std::vector<float> &gain, int N, int C) {
  for (int n = 0; n < N; ++n) {
    std::span<const float> x(inp.data() + n * C, C);
    std::span<float> y(out.data() + n * C, C);
    float ss = 0.0f;
    for (float v : x)
      ss += v * v;
    float scale = 1.0f / std::sqrt(ss / C + 1e-6f);
    for (int i = 0; i < C; ++i)
      y[i] = x[i] * scale * gain[i];
  }
}

// A dense layer: y = W x + b, with its sizes as members.
class Linear {
public:
  int in;
  int out;
  void forward(std::span<const float> x, std::span<float> y,
               const std::vector<float> &W, const std::vector<float> &b) const {
    for (int o = 0; o < out; ++o) {
      float acc = b[o];
      for (int i = 0; i < in; ++i)
        acc += W[o * in + i] * x[i];
      y[o] = acc;
    }
  }
};

// In-place SiLU over a whole buffer, by reference.
void silu_inplace(std::vector<float> &act) {
  for (float &v : act)
    v = v / (1.0f + std::exp(-v));
}

// Four dot products at a time into a std::array accumulator (scratch: not
// memory traffic), N rows of length K against one vector.
void gemv_rows4(float *y, const float *A, const float *x, int N, int K) {
  for (int r = 0; r < N; r += 4) {
    std::array<float, 4> acc{};
    for (int k = 0; k < K; ++k) {
      float xk = x[k];
      for (int j = 0; j < 4; ++j)
        acc[j] += A[(r + j) * K + k] * xk;
    }
    for (int j = 0; j < 4; ++j)
      y[r + j] = acc[j];
  }
}

// A polynomial with coefficients from a constant table, by range-for over
// the C array.
const float kPoly[4] = {0.25f, -0.5f, 1.0f, 0.125f};
void poly_eval(float *y, const float *x, int N) {
  for (int i = 0; i < N; ++i) {
    float acc = 0.0f;
    float xi = x[i];
    for (float c : kPoly)
      acc = acc * xi + c;
    y[i] = acc;
  }
}
