// Section 8, quantization: gemv with N = 1024 does 2,097,152 FLOPs either way;
// float32 moves 4,202,496 bytes (AI ~0.5), int8 moves 1,050,624 (AI ~2.0).
#include <cstdint>

#define GEMV_N 1024

void gemv_f32(const float (*A)[GEMV_N], const float *x, float *y) {
  for (int i = 0; i < GEMV_N; ++i) {
    y[i] = 0;
    for (int j = 0; j < GEMV_N; ++j)
      y[i] += A[i][j] * x[j];
  }
}

void gemv_i8(const int8_t (*A)[GEMV_N], const int8_t *x, int8_t *y) {
  for (int i = 0; i < GEMV_N; ++i) {
    y[i] = 0;
    for (int j = 0; j < GEMV_N; ++j)
      y[i] += A[i][j] * x[j];
  }
}
