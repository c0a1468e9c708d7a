// The cache model on a triangle and on two references to one array (issue
// 21), against an LRU simulation of the same code with the machine's caches
// (epyc-7763: L1 32 KiB 8-way, L2 512 KiB 8-way, L3 32 MiB 16-way, 64 B
// lines; Inputs/lru-sim.h): this file is also compiled with -DORACLE, where
// every access goes through the simulated caches, from cold, per function.
// RUN: clang++-19 -std=c++17 -O2 -DORACLE -I%S/Inputs %s -o %t.oracle
// RUN: %t.oracle > %t.expected
// RUN: roofline-lint --machine=epyc-7763 --format=json %s -o %t.json
// RUN: %python %S/Inputs/compare-cache.py %t.expected %t.json 0.15 | FileCheck %s
//
// The check can fail: a simulation that counts 30% more must miss.
// RUN: clang++-19 -std=c++17 -O2 -DORACLE -DINJECT -I%S/Inputs %s -o %t.bad
// RUN: %t.bad > %t.bad.expected
// RUN: %expect-exit 1 %python %S/Inputs/compare-cache.py %t.bad.expected %t.json 0.15 | FileCheck %s --check-prefix=BAD
// BAD: MISS: syrk_threshold L2

#ifdef ORACLE
#include "lru-sim.h"
static Layout Lay;
static Cache *L1, *L2, *L3;
template <class T> T &touch(T &X) {
  uint64_t A = Lay.addr(&X);
  L1->access(A), L2->access(A), L3->access(A);
  return X;
}
#define T(X) touch(X)
#else
#define T(X) (X)
#endif

// syrk, M = 100, N = 1000: the i loop's body touches rows 0..i of A
// (800 (i + 1) bytes), which fit the 512 KiB L2 for i below about 650 and
// not above: A is reused across i in L2 for two thirds of the rows only.
// Taken at its average (405 KB, fits) the model predicted 5 MB crossing L2
// where 218 MB do; with the body measured in strata it is a few percent off.
// In L1 the j walk down A's column (i + 1 lines) outgrows 32 KiB likewise.
#define M1 100
#define N1 1000
double C1[N1][N1], A1[N1][M1];
void syrk_threshold(double alpha, double beta) {
  for (int i = 0; i < N1; i++) {
    for (int j = 0; j <= i; j++)
      T(C1[i][j]) *= beta;
    for (int k = 0; k < M1; k++)
      for (int j = 0; j <= i; j++)
        T(C1[i][j]) += alpha * T(A1[i][k]) * T(A1[j][k]);
  }
}
// CHECK-DAG: ok: syrk_threshold L1:
// CHECK-DAG: ok: syrk_threshold L2:
// CHECK-DAG: ok: syrk_threshold L3:

// syrk, M = 100, N = 150 (C 180 KB, A 120 KB: inside L2): A[i][k] and
// A[j][k] fetch the same lines, counted once (their union), not once per
// reference (counted per reference, A twice: +55%).
#define M2 100
#define N2 150
double C2[N2][N2], A2[N2][M2];
void syrk_union(double alpha, double beta) {
  for (int i = 0; i < N2; i++) {
    for (int j = 0; j <= i; j++)
      T(C2[i][j]) *= beta;
    for (int k = 0; k < M2; k++)
      for (int j = 0; j <= i; j++)
        T(C2[i][j]) += alpha * T(A2[i][k]) * T(A2[j][k]);
  }
}
// CHECK-DAG: ok: syrk_union L2:
// CHECK-DAG: ok: syrk_union L3:

#ifdef ORACLE
#ifdef INJECT
const double Scale = 1.3;
#else
const double Scale = 1.0;
#endif
#define RUN(F, ...)                                                            \
  do {                                                                         \
    Cache C1s(32768, 8, 64), C2s(524288, 8, 64), C3s(33554432, 16, 64);        \
    L1 = &C1s, L2 = &C2s, L3 = &C3s;                                           \
    F(__VA_ARGS__);                                                            \
    const char *Names[] = {"L1", "L2", "L3"};                                  \
    Cache *Cs[] = {L1, L2, L3};                                                \
    for (int I = 0; I < 3; ++I)                                                \
      printf("%s %s %.0f\n", #F, Names[I],                                     \
             static_cast<double>(Cs[I]->Misses * 64) * Scale);                 \
  } while (0)
int main() {
  // Declaration order, as the model places the arrays.
  Lay.add(C1, sizeof C1), Lay.add(A1, sizeof A1);
  Lay.add(C2, sizeof C2), Lay.add(A2, sizeof A2);
  RUN(syrk_threshold, 1.5, 1.2);
  RUN(syrk_union, 1.5, 1.2);
}
#endif
