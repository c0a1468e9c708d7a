// Nests the differential test emits, builds and checks: every variant of
// each against the double-precision reference (scripts/check-cpu-variants.py,
// test/CodeGen/differential.test). Sizes are arguments so that the checker
// can sweep them.
#include <cmath>
#include <vector>

// gemm, row-major, C cleared first (beta = 0).
void gemm(int M, int N, int K, const float *A, const float *B, float *C) {
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      C[i * N + j] = 0;
      for (int k = 0; k < K; ++k)
        C[i * N + j] += A[i * K + k] * B[k * N + j];
    }
}

// gemm accumulating into C (beta = 1), loops in ikj order.
void gemm_acc(int M, int N, int K, const float *A, const float *B, float *C) {
  for (int i = 0; i < M; ++i)
    for (int k = 0; k < K; ++k)
      for (int j = 0; j < N; ++j)
        C[i * N + j] += A[i * K + k] * B[k * N + j];
}

// C = A * Bt^T with a scalar accumulator: B is stored transposed.
void gemm_nt(int M, int N, int K, const float *A, const float *Bt, float *C) {
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0;
      for (int k = 0; k < K; ++k)
        acc += A[i * K + k] * Bt[j * K + k];
      C[i * N + j] = acc;
    }
}

// Batched gemm.
void bgemm(int Bn, int M, int N, int K, const float *A, const float *B,
           float *C) {
  for (int b = 0; b < Bn; ++b)
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        C[(b * M + i) * N + j] = 0;
        for (int k = 0; k < K; ++k)
          C[(b * M + i) * N + j] +=
              A[(b * M + i) * K + k] * B[(b * K + k) * N + j];
      }
}

// gemv, and its transpose (axpy form).
void gemv(int M, int K, const float *A, const float *x, float *y) {
  for (int i = 0; i < M; ++i) {
    y[i] = 0;
    for (int k = 0; k < K; ++k)
      y[i] += A[i * K + k] * x[k];
  }
}

void gemv_t(int M, int N, const float *A, const float *x, float *y) {
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      y[j] += A[i * N + j] * x[i];
}

// A layer: gemm, then bias and ReLU (the epilogue fuses into the gemm).
void dense_relu(int M, int N, int K, const float *A, const float *W,
                const float *bias, float *C) {
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      C[i * N + j] = 0;
      for (int k = 0; k < K; ++k)
        C[i * N + j] += A[i * K + k] * W[k * N + j];
    }
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      C[i * N + j] = std::fmax(C[i * N + j] + bias[j], 0.0f);
}

// An elementwise chain through temporaries local to the function.
void chain4(int n, const float *x, float *y) {
  std::vector<float> t1(n), t2(n), t3(n);
  for (int i = 0; i < n; ++i)
    t1[i] = x[i] * 1.5f + 0.25f;
  for (int i = 0; i < n; ++i)
    t2[i] = std::fmax(t1[i], -0.5f);
  for (int i = 0; i < n; ++i)
    t3[i] = t2[i] * t2[i] - t1[i];
  for (int i = 0; i < n; ++i)
    y[i] = t3[i] / (1.0f + std::fabs(t2[i]));
}

// 2-D five-point stencil.
void jacobi(int N, int M, const float *A, float *B) {
  for (int i = 1; i < N - 1; ++i)
    for (int j = 1; j < M - 1; ++j)
      B[i * M + j] = 0.2f * (A[i * M + j] + A[(i - 1) * M + j] +
                             A[(i + 1) * M + j] + A[i * M + j - 1] +
                             A[i * M + j + 1]);
}

// Column-order traversal that interchange fixes.
void scale_cols(int N, int M, const float *A, float *B, float alpha) {
  for (int j = 0; j < M; ++j)
    for (int i = 0; i < N; ++i)
      B[i * M + j] = alpha * A[i * M + j] + 1.0f;
}

// Lower-triangular matrix-vector product.
void trmv(int N, const float *L, const float *x, float *y) {
  for (int i = 0; i < N; ++i) {
    y[i] = 0;
    for (int j = 0; j <= i; ++j)
      y[i] += L[i * N + j] * x[j];
  }
}

// A dot product into a scalar of the caller.
float dot(int n, const float *x, const float *y) {
  float s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i] * y[i];
  return s;
}

// Integer gemv with int8 data (wraps around like the C it is).
void gemv_i8(int M, int K, const signed char *A, const signed char *x,
             int *y) {
  for (int i = 0; i < M; ++i) {
    y[i] = 0;
    for (int k = 0; k < K; ++k)
      y[i] += A[i * K + k] * x[k];
  }
}

// Double precision, 3-D.
void heat3d(int N, const double *A, double *B) {
  for (int i = 1; i < N - 1; ++i)
    for (int j = 1; j < N - 1; ++j)
      for (int k = 1; k < N - 1; ++k)
        B[(i * N + j) * N + k] =
            A[(i * N + j) * N + k] * 0.4 +
            0.1 * (A[((i - 1) * N + j) * N + k] + A[((i + 1) * N + j) * N + k] +
                   A[(i * N + j - 1) * N + k] + A[(i * N + j + 1) * N + k] +
                   A[(i * N + j) * N + k - 1] + A[(i * N + j) * N + k + 1]);
}

// Direct convolutions: implicit gemms (the micro-kernels on input panels
// gathered through offset tables). NCHW input, KCRS weights, stride 1, no
// padding, a scalar accumulator; the output's valid (H-R+1) x (W-S+1)
// region is written into an H x W frame, so that every size sweeps freely.
void conv2d(int N, int C, int K, int H, int W, int R, int S, const float *In,
            const float *Wt, float *Out) {
  for (int n = 0; n < N; ++n)
    for (int k = 0; k < K; ++k)
      for (int p = 0; p < H - R + 1; ++p)
        for (int q = 0; q < W - S + 1; ++q) {
          float acc = 0;
          for (int c = 0; c < C; ++c)
            for (int r = 0; r < R; ++r)
              for (int s = 0; s < S; ++s)
                acc += In[((n * C + c) * H + p + r) * W + q + s] *
                       Wt[((k * C + c) * R + r) * S + s];
          Out[((n * K + k) * H + p) * W + q] = acc;
        }
}

// 1-D, stride 2, accumulating into y (no clearing): 13 outputs of a
// 3-tap filter over rows of 29 inputs; the weights tap-major (RKC).
void conv1d_s2(int K, int C, const float *x, const float *w, float *y) {
  for (int k = 0; k < K; ++k)
    for (int t = 0; t < 13; ++t)
      for (int c = 0; c < C; ++c)
        for (int r = 0; r < 3; ++r)
          y[k * 13 + t] += x[c * 29 + 2 * t + r] * w[(r * K + k) * C + c];
}

// NHWC input, RSCK weights, NHWK output (in an H x W frame), a 3x3 filter:
// the output channel is the contiguous dimension.
void conv_nhwc(int N, int C, int K, int H, int W, const float *In,
               const float *Wt, float *Out) {
  for (int n = 0; n < N; ++n)
    for (int p = 0; p < H - 2; ++p)
      for (int q = 0; q < W - 2; ++q)
        for (int k = 0; k < K; ++k) {
          Out[((n * H + p) * W + q) * K + k] = 0;
          for (int r = 0; r < 3; ++r)
            for (int s = 0; s < 3; ++s)
              for (int c = 0; c < C; ++c)
                Out[((n * H + p) * W + q) * K + k] +=
                    In[((n * H + p + r) * W + q + s) * C + c] *
                    Wt[((r * 3 + s) * C + c) * K + k];
        }
}

// A layer in the NN form: the weights stored transposed (w[o][k]) and the
// bias as the accumulator's first value; a contraction whose epilogue adds
// the bias (recognizeContraction), on the micro-kernel path.
void linear(int M, int N, int K, const float *in, const float *w,
            const float *bias, float *out) {
  for (int i = 0; i < M; ++i)
    for (int o = 0; o < N; ++o) {
      float acc = bias[o];
      for (int k = 0; k < K; ++k)
        acc += in[i * K + k] * w[o * K + k];
      out[i * N + o] = acc;
    }
}

// matmul, then bias and GELU (tanh form): the fused variant applies the
// epilogue to C in registers (bench-cpu-variants.py: fused vs the pair).
void dense_gelu(int M, int N, int K, const float *A, const float *B,
                const float *bias, float *C) {
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float acc = 0;
      for (int k = 0; k < K; ++k)
        acc += A[i * K + k] * B[k * N + j];
      C[i * N + j] = acc;
    }
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float x = C[i * N + j] + bias[j];
      C[i * N + j] =
          0.5f * x * (1.0f + std::tanh(0.7978845608f * (x + 0.044715f * x * x * x)));
    }
}

// A residual block's tail: the sum into the skip connection's output, a
// row scale, ReLU as a select.
void residual_relu(int M, int N, int K, const float *A, const float *B,
                   const float *skip, const float *scale, float *C) {
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      C[i * N + j] = 0;
      for (int k = 0; k < K; ++k)
        C[i * N + j] += A[i * K + k] * B[k * N + j];
      float y = C[i * N + j] * scale[i] + skip[i * N + j];
      C[i * N + j] = y > 0.0f ? y : 0.0f;
    }
}
