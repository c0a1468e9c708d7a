// Compulsory bytes that cannot be counted are never left without a reason
// (issue 21): PolyBench's gemm at 300^3 (27.09M iterations, above the
// enumeration limit; C's footprint over the two sibling loops has no closed
// form yet) shows '?' with why, in text and in JSON.
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
// CHECK-NEXT: note: 27,000,000 MACs, 81,090,000 FLOPs (f64: 81,090,000); ? bytes compulsory (the footprint of C has no closed form and the nest has too many iterations to enumerate it; no formula: no closed form for the footprint of C), 650,160,000 bytes no-reuse

// The function's total names the nest that has none; the nest says why.
// JSON:      "functions": [
// JSON:      "bytes": {
// JSON-NEXT:   "compulsory": null,
// JSON-NEXT:   "compulsory_why_not": "the nest at line 15: the footprint of C has no closed form
// JSON:      "nests": [
// JSON:      "bytes": {
// JSON-NEXT:   "cache": {{[0-9]+}},
// JSON-NEXT:   "compulsory": null,
// JSON-NEXT:   "compulsory_why_not": "the footprint of C has no closed form and the nest has too many iterations to enumerate it; no formula: no closed form for the footprint of C",
