// Compulsory bytes that cannot be counted are never left without a reason
// (issue 21). PolyBench's gemm at 300^3 (27.09M iterations, above the
// enumeration limit; C's footprint over the two sibling loops has no closed
// form) is counted exactly from the references' images, and so is a nest
// where which element is first read depends on the order of the accesses
// (W written at i + j, read at j + k; 27M iterations, too many to
// enumerate). Where it cannot be counted (here a size without a value) the
// text and the JSON say why.
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
// W[0] is first written (i = j = k = 0, the write's statement comes first);
// every other element is first read at i = 0, before any write of it (a
// write of W[e] needs i + j = e, so j = e at i = 0, after the read at j = 0,
// k = e; for e >= 300 it needs i > 0). W: 598 elements read and 599
// written, X 300 read, S 300 read and written: 1,797 + 300 doubles.
// CHECK-NEXT: note: 0 MACs, 27,000,000 FLOPs (f64: 27,000,000); 16,776 bytes compulsory, 864,720,000 bytes no-reuse

// The same nest with a size that has no value: no closed form for W, so
// '?' with why (--param n=300 gives the count above).
void ordered_n(int n) {
  // CHECK: compulsory-why.c:[[@LINE+1]]:3: remark: ordered_n:
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      for (int k = 0; k < n; k++) {
        W[i + j] = X[k];
        S[k] += W[j + k];
      }
}
// CHECK-NEXT: note: 0 MACs, n^3 FLOPs (f64: n^3); ? bytes compulsory (the footprint of W has no closed form and its sizes have no values; no formula: no closed form for the footprint of W), 32*n^3 + 8*n^2 bytes no-reuse

// The function's total names the nest that has none; the nest says why.
// JSON:      "functions": [
// JSON:      "compulsory": 2880000,
// JSON:      "function": "gemm"
// JSON:      "compulsory": 16776,
// JSON:      "function": "ordered"
// JSON:      "compulsory": null,
// JSON-NEXT: "compulsory_why_not": "the nest at line {{[0-9]+}}: the footprint of W has no closed form and its sizes have no values
// JSON:      "function": "ordered_n"
// JSON:      "nests": [
// JSON:      "compulsory": 2880000,
// JSON:      "compulsory": 16776,
// JSON:      "compulsory": null,
// JSON-NEXT: "compulsory_why_not": "the footprint of W has no closed form and its sizes have no values; no formula: no closed form for the footprint of W",
