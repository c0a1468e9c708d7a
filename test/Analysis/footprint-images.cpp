// Compulsory bytes of nests with no closed form for a footprint and more
// iterations than the enumeration limit (20M), counted exactly by uniting
// the references' images (issue 21; lib/Analysis/ImageCount.cpp), against a
// brute-force run of the same code: this file is also compiled with
// -DORACLE, where every access goes through a shadow byte per address that
// records whether the element was first read and whether it was written.
// RUN: clang++-19 -std=c++17 -O2 -DORACLE %s -o %t.oracle
// RUN: %t.oracle > %t.expected
// RUN: roofline-lint --format=json %s -o %t.json
// RUN: %python %S/Inputs/compare-compulsory.py %t.expected %t.json | FileCheck %s
//
// The check can fail: an oracle that misses one element of every array
// (INJECT) must mismatch.
// RUN: clang++-19 -std=c++17 -O2 -DORACLE -DINJECT %s -o %t.bad
// RUN: %t.bad > %t.bad.expected
// RUN: %expect-exit 1 %python %S/Inputs/compare-compulsory.py %t.bad.expected %t.json | FileCheck %s --check-prefix=BAD
// BAD: MISMATCH: gemm

#ifdef ORACLE
#include <cstdint>
#include <cstdio>
#include <vector>
static std::vector<unsigned char> Shadow;
static uintptr_t Base;
static long long Bytes;
// Bit 1: touched, bit 2: written.
template <class T> T &touch(T &X, bool Read, bool Write) {
  unsigned char &S = Shadow[reinterpret_cast<uintptr_t>(&X) - Base];
  if (!(S & 1)) {
    S |= 1;
    Bytes += Read ? sizeof(T) : 0;
  }
  if (Write && !(S & 2)) {
    S |= 2;
    Bytes += sizeof(T);
  }
  return X;
}
#define RD(X) touch(X, true, false)
#define WR(X) touch(X, false, true)
#define UP(X) touch(X, true, true)
#else
#define RD(X) (X)
#define WR(X) (X)
#define UP(X) (X)
#endif

// PolyBench's gemm at 300^3 (27M iterations): C is scaled by one loop and
// updated by its sibling.
#define NI 300
#define NJ 300
#define NK 300
double GC[NI][NJ], GA[NI][NK], GB[NK][NJ];
void gemm(double alpha, double beta) {
  for (int i = 0; i < NI; i++) {
    for (int j = 0; j < NJ; j++)
      UP(GC[i][j]) *= beta;
    for (int k = 0; k < NK; k++)
      for (int j = 0; j < NJ; j++)
        UP(GC[i][j]) += alpha * RD(GA[i][k]) * RD(GB[k][j]);
  }
}

// PolyBench's lu at MEDIUM (N = 400, 21M iterations): triangular loops, one
// array read and written through five references.
#define LN 400
double LA[LN][LN];
void lu() {
  for (int i = 0; i < LN; i++) {
    for (int j = 0; j < i; j++) {
      for (int k = 0; k < j; k++)
        UP(LA[i][j]) -= RD(LA[i][k]) * RD(LA[k][j]);
      UP(LA[i][j]) /= RD(LA[j][j]);
    }
    for (int j = i; j < LN; j++)
      for (int k = 0; k < i; k++)
        UP(LA[i][j]) -= RD(LA[i][k]) * RD(LA[k][j]);
  }
}

// llm.c-style matmul_forward with row pointers (25M iterations), out first
// set to the bias by a sibling loop.
#define BT 2
#define TT 64
#define CH 256
#define OC 768
float Out[BT * TT * OC], Inp[BT * TT * CH], Weight[OC * CH], Bias[OC];
void matmul_forward() {
  for (int b = 0; b < BT; b++)
    for (int t = 0; t < TT; t++) {
      const float *inp_bt = Inp + b * TT * CH + t * CH;
      float *out_bt = Out + b * TT * OC + t * OC;
      for (int o = 0; o < OC; o++)
        WR(out_bt[o]) = RD(Bias[o]);
      for (int o = 0; o < OC; o++) {
        const float *wrow = Weight + o * CH;
        for (int i = 0; i < CH; i++)
          UP(out_bt[o]) += RD(inp_bt[i]) * RD(wrow[i]);
      }
    }
}

// syrk's lower triangle (N = 400, M = 300: 24M iterations): A[i][k] and
// A[j][k] are two references to one array with different subscripts.
#define SN 400
#define SM 300
double SC[SN][SN], SA[SN][SM];
void syrk(double alpha) {
  for (int i = 0; i < SN; i++)
    for (int k = 0; k < SM; k++)
      for (int j = 0; j <= i; j++)
        UP(SC[i][j]) += alpha * RD(SA[j][k]) * RD(SA[i][k]);
}

// A strided and shifted pair of references inside a triangle: x[2i + j]
// and x[i + 3j] overlap in part (21M iterations).
#define XN 6500
double X[4 * XN], Y[XN];
void strided_pair() {
  for (int i = 0; i < XN; i++)
    for (int j = i; j < XN; j++)
      UP(Y[i]) += RD(X[2 * i + j]) * RD(X[i + 3 * (j - i)]);
}

// A transposed pair over a strided downward loop and a triangle below the
// diagonal (21M iterations): T[i][j] and T[j][i].
#define TN 6500
float T2[TN][TN], U2[TN];
void transposed_pair() {
  for (int i = TN - 1; i >= 0; i -= 2)
    for (int j = 0; j < i; j++)
      UP(U2[j]) += RD(T2[i][j]) - RD(T2[j][i]);
}

#ifdef ORACLE
template <class T> void span(T &A, uintptr_t &Lo, uintptr_t &Hi) {
  uintptr_t P = reinterpret_cast<uintptr_t>(&A);
  Lo = P < Lo ? P : Lo;
  Hi = P + sizeof(A) > Hi ? P + sizeof(A) : Hi;
}
#define RUN(F, ...)                                                            \
  do {                                                                         \
    Shadow.assign(Hi - Lo, 0);                                                 \
    Bytes = 0;                                                                 \
    F(__VA_ARGS__);                                                            \
    printf("%s %lld\n", #F, Bytes - Inject);                                   \
  } while (0)
int main() {
  uintptr_t Lo = UINTPTR_MAX, Hi = 0;
  span(GC, Lo, Hi), span(GA, Lo, Hi), span(GB, Lo, Hi), span(LA, Lo, Hi);
  span(Out, Lo, Hi), span(Inp, Lo, Hi), span(Weight, Lo, Hi);
  span(Bias, Lo, Hi), span(SC, Lo, Hi), span(SA, Lo, Hi), span(X, Lo, Hi);
  span(Y, Lo, Hi), span(T2, Lo, Hi), span(U2, Lo, Hi);
  Base = Lo;
#ifdef INJECT
  const long long Inject = 8;
#else
  const long long Inject = 0;
#endif
  RUN(gemm, 1.5, 1.2);
  RUN(lu);
  RUN(matmul_forward);
  RUN(syrk, 1.5);
  RUN(strided_pair);
  RUN(transposed_pair);
}
#endif

// CHECK-DAG: ok: gemm: brute force 2880000, tool 2880000
// CHECK-DAG: ok: lu: brute force {{[0-9]+}}
// CHECK-DAG: ok: matmul_forward: brute force {{[0-9]+}}
// CHECK-DAG: ok: syrk: brute force {{[0-9]+}}
// CHECK-DAG: ok: strided_pair: brute force {{[0-9]+}}
// CHECK-DAG: ok: transposed_pair: brute force {{[0-9]+}}
