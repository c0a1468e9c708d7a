// A MACs formula stands where a guard left the iteration count without one
// (loop h's bound min(D0 - 1, b - 1)); it too holds only while every trip
// count is >= 0: in the case [scale] loop o runs D0 - 2 times, and at D0 = 1
// the formula 2*D0*M - 2*M gives 0 where 4 MACs run. The note was given only
// with an iterations formula (found by scripts/differential.py, seed 2, nn1021).
// RUN: roofline-lint --format=json --no-source %s | FileCheck %s
#include <math.h>

void nn1021(float *A0, float *A1, float *A2, float *A3, float *A5, float *A6,
            int scale, int M, int D0) {
  for (int b = 0; b < M; ++b) {
    float s0 = 0.0f;
    for (int t = 0; t < D0; t++)
      A1[b * D0 + t] = A0[b * D0 + t] / 0.25f * A0[b * D0 + t] - 0.25f;
    for (int h = 0; h < D0; ++h)
      if (h < b)
        A3[b * D0 + h] = fabsf(A2[b * D0 + h]) * 0.5f;
    for (int o = 0; o < (scale != 0 ? D0 - 2 : D0); o++)
      s0 += A5[(scale != 0 ? 0 : b * D0) + o] * 0.044715f;
    A6[b] = s0;
  }
}
// CHECK: "case": "scale"
// CHECK: "formulas valid while every trip count is >= 0"
// CHECK: "macs": "2*D0*M - 2*M"
