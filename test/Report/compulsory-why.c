// Compulsory bytes that cannot be counted are never left without a reason
// (issue 21). PolyBench's gemm at 300^3 (27.09M iterations, above the
// enumeration limit; C's footprint over the two sibling loops has no closed
// form) is counted exactly from the references' images; a nest where which
// element is first read depends on the order of the accesses (W written at
// i + j, read at j + k) and too large to enumerate shows '?' with why, in
// text and in JSON.
// RUN: roofline-lint --verbosity=normal --machine=epyc-7763 --no-source %s | FileCheck %s
// RUN: roofline-lint --machine=epyc-7763 --format=json %s | FileCheck %s --check-prefix=JSON

#define NI 300
#define NJ 300
#define NK 300
double C[NI][NJ], A[NI][NK], B[NK][NJ];

void gemm(double alpha, double beta) {
  // CHECK: compulsory-why.c:[[@LINE+1]]:3: remark: gemm:
  for (int i = 0; i < NI; i++) {
    for (int j = 0; j < NJ; j++)
      C[i][j] *= beta;
    for (int k = 0; k < NK; k++)
      for (int j = 0; j < NJ; j++)
        C[i][j] += alpha * A[i][k] * B[k][j];
  }
}
// 4 x 300^2 doubles: C read and written, A and B read.
// CHECK-NEXT: note: 27,000,000 MACs, 81,090,000 FLOPs (f64: 81,090,000); 2,880,000 bytes compulsory, 650,160,000 bytes no-reuse

double W[600], X[300], S[300];
void ordered(void) {
  // CHECK: compulsory-why.c:[[@LINE+1]]:3: remark: ordered:
  for (int i = 0; i < 300; i++)
    for (int j = 0; j < 300; j++)
      for (int k = 0; k < 300; k++) {
        W[i + j] = X[k];
        S[k] += W[j + k];
      }
}
// CHECK-NEXT: note: 0 MACs, 27,000,000 FLOPs (f64: 27,000,000); ? bytes compulsory (the footprint of W has no closed form, which element of W is first read depends on the order of its accesses, and the nest has too many iterations to enumerate it; no formula: no closed form for the footprint of W), 864,720,000 bytes no-reuse

// The function's total names the nest that has none; the nest says why.
// JSON:      "functions": [
// JSON:      "compulsory": 2880000,
// JSON:      "function": "gemm"
// JSON:      "compulsory": null,
// JSON-NEXT: "compulsory_why_not": "the nest at line 32: the footprint of W has no closed form, which element of W is first read depends on the order of its accesses, and the nest has too many iterations to enumerate it
// JSON:      "function": "ordered"
// JSON:      "nests": [
// JSON:      "compulsory": 2880000,
// JSON:      "compulsory": null,
// JSON-NEXT: "compulsory_why_not": "the footprint of W has no closed form, which element of W is first read depends on the order of its accesses, and the nest has too many iterations to enumerate it; no formula: no closed form for the footprint of W",
