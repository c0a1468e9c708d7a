// Sizes without values: the counts are formulas, the verdict asks for the
// size, and the crossover says where it flips. --param fills it in.
// RUN: roofline-lint --verbosity=normal --no-source %s | FileCheck %s
// RUN: roofline-lint --verbosity=normal --no-source --param N=100 %s | FileCheck %s --check-prefix=SMALL
// RUN: roofline-lint --verbosity=normal --no-source --param N=1000 %s | FileCheck %s --check-prefix=LARGE
// RUN: roofline-lint --verbosity=normal --format=json %s | FileCheck %s --check-prefix=JSON

// CHECK:      symbolic.cpp:[[@LINE+13]]:3: remark: square_gemm: no verdict on rtx-a6000: sizes without a value: N (give --param N=VALUE) [roofline-verdict]
// CHECK-NEXT: note: N^3 MACs, 2*N^3 FLOPs (f32: 2*N^3); 12*N^2 bytes compulsory, 8*N^3 + 4*N^2 bytes no-reuse
// CHECK-NEXT: note: as formulas: MACs = N^3, FLOPs = 2*N^3, bytes compulsory = 12*N^2
// CHECK-NEXT: note: the verdict flips at N = 302.4: memory-bound below, compute-bound above
// SMALL:      remark: square_gemm: memory-bound on rtx-a6000 (compulsory traffic): AI 16.67 FLOP/B below the ridge 50.4
// LARGE:      remark: square_gemm: compute-bound on rtx-a6000 (compulsory traffic): AI 166.7 FLOP/B above the ridge 50.4
// JSON:       "verdict": {
// JSON-NEXT:    "bound": null,
// JSON-NEXT:    "crossover": {
// JSON-NEXT:      "compute_bound_above": true,
// JSON-NEXT:      "param": "N",
// JSON-NEXT:      "value": 302.{{39999|4}}
void square_gemm(const float *A, const float *B, float *C, int N) {
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      float s = 0;
      for (int k = 0; k < N; ++k)
        s += A[i * N + k] * B[k * N + j];
      C[i * N + j] = s;
    }
}

// A triangular update: the formulas have rational coefficients. The
// footprint of x[j] over j <= i has no closed form yet (it needs a
// Fourier-Motzkin projection), so it is reported unknown, not guessed.
// CHECK:      remark: triangle:
// CHECK-NEXT: note: (N^2 + N)/2 MACs, N^2 + N FLOPs (f32: N^2 + N); ? bytes compulsory
void triangle(float *L, const float *x, float *y, int N) {
  for (int i = 0; i < N; ++i)
    for (int j = 0; j <= i; ++j)
      y[i] += L[i * N + j] * x[j];
}
