// No-reuse traffic of loops that run no iteration on some entries
// (docs/design.md, "no-reuse"): a reference invariant in the innermost loop
// is loaded in the loop's preheader, behind its trip-count test, and stored
// after it, so it moves once per entry that runs an iteration, and not at
// all on an entry that runs none.
//
// The oracle is this file compiled with -DORACLE: each kernel written as a
// compiler runs it (the invariant reference in a register, behind the
// trip-count test), counting every load and store per array. The tool's
// per-array loads and stores and its no-reuse bytes must equal them, at two
// sets of sizes. Before this model, the tool moved the invariant reference
// on every entry: group_choice at N=0 gave A1 6 loads and 6 stores (the NN
// differential's nn1499), triangle 7 where 6 entries run, sizes_only 5 at
// K=0.
//
// RUN: clang++-19 -std=c++17 -DORACLE %s -o %t.oracle
// RUN: %t.oracle 0 6 7 9 0 5 > %t.expected0
// RUN: roofline-lint --param N=0 --param M=6 --param T=7 --param E=9 --param K=0 --param R=5 --format=json --no-source %s -o %t.json0
// RUN: %python %S/Inputs/compare-moves.py %t.expected0 %t.json0
// RUN: %t.oracle 3 6 1 3 4 5 > %t.expected1
// RUN: roofline-lint --param N=3 --param M=6 --param T=1 --param E=3 --param K=4 --param R=5 --format=json --no-source %s -o %t.json1
// RUN: %python %S/Inputs/compare-moves.py %t.expected1 %t.json1
//
// Formulas: where whether the loop runs depends on the sizes alone, the
// entries' formula with the assumption stated; where it depends on an outer
// loop variable, none (the values above are exact).
// RUN: roofline-lint --format=json --no-source %s -o %t.sym.json
// RUN: %python %S/Inputs/compare-moves.py --dump %t.sym.json | FileCheck %s --check-prefix=SYM
// RUN: roofline-lint --param K=0 --param R=5 --format=json --no-source %s -o %t.k0.json
// RUN: %python %S/Inputs/compare-moves.py --dump %t.k0.json | FileCheck %s --check-prefix=KZERO

#ifndef ORACLE

// The NN differential's nn1499: the per-iteration choices split the loops,
// and the h loop that picks A1 runs no iteration for t >= N - 1.
void group_choice(float *A0, float *A1, int N, int M) {
  for (int t = 0; t < M; t++) {
    int r0 = t < N - 1 ? 2 : 1;
    for (int h = 0; h < r0; ++h) {
      float *p0 = h == 0 ? A0 : A1;
      p0[t] = p0[t] * 0.25f;
    }
  }
}

// S[i] is invariant in j; the j loop runs no iteration at i = 0.
// i's range cut to i >= 1: T - 1 entries move S[i] (B: T*(T - 1)/2).
// SYM-LABEL: triangle: no_reuse None
// SYM-NEXT:  triangle: formula 2*T^2 + 6*T - 8
// SYM:       triangle: note: the no-reuse formulas assume loop i has values where loop j runs: T - 1 >= 0
void triangle(float *S, const float *B, int T) {
  for (int i = 0; i < T; ++i)
    for (int j = 0; j < i; ++j)
      S[i] += B[j];
}

// j starts at i + 5: it runs for i < E - 5 only (the formula, like the
// others here, holds while every trip count is >= 0, which this nest's
// j < E breaks for i > E - 5).
// SYM-LABEL: empty_tail: no_reuse None
// SYM-NEXT:  empty_tail: formula 2*E^2 - 6*E - 60
// SYM:       empty_tail: note: the no-reuse formulas assume loop i has values where loop j runs: E - 5 >= 0
void empty_tail(float *S, const float *B, int E) {
  for (int i = 0; i < E; ++i)
    for (int j = i + 5; j < E; ++j)
      S[i] += B[j] * B[i];
}

// The k loop runs iff K >= 1, whatever i is: the formula states it.
// SYM-LABEL: sizes_only: no_reuse None
// SYM-NEXT:  sizes_only: formula 4*K*R + 8*R
// SYM:       sizes_only: note: the no-reuse formulas assume loop k runs an iteration on every entry: K - 1 >= 0
// KZERO-LABEL: sizes_only: no_reuse 0
// KZERO-NEXT:  sizes_only: formula none
// KZERO-NOT:   sizes_only: note: the no-reuse
void sizes_only(float *C, const float *A, int R, int K) {
  for (int i = 0; i < R; ++i)
    for (int k = 0; k < K; ++k)
      C[i] += A[k];
}

// Downward: j runs for i < T - 1.
// SYM-LABEL: downward: no_reuse None
// SYM-NEXT:  downward: formula 2*T^2 + 6*T - 8
// SYM:       downward: note: the no-reuse formulas assume loop i has values where loop j runs: T - 1 >= 0
void downward(float *S, const float *B, int T) {
  for (int i = T - 1; i >= 0; --i)
    for (int j = T - 1; j > i; --j)
      S[i] += B[j];
}

#else // ORACLE: the kernels as a compiler runs them, counting moves.

#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

static std::map<std::string, std::map<std::string, long>> Loads, Stores;
static std::string Fn;
static float ld(const char *A, const float &X) {
  ++Loads[Fn][A];
  return X;
}
static void st(const char *A, float &X, float V) {
  ++Stores[Fn][A];
  X = V;
}

void group_choice(float *A0, float *A1, int N, int M) {
  for (int t = 0; t < M; t++) {
    int r0 = t < N - 1 ? 2 : 1;
    for (int h = 0; h < r0; ++h) {
      float *p0 = h == 0 ? A0 : A1;
      const char *Name = h == 0 ? "A0" : "A1";
      st(Name, p0[t], ld(Name, p0[t]) * 0.25f);
    }
  }
}

void triangle(float *S, const float *B, int T) {
  for (int i = 0; i < T; ++i)
    if (0 < i) { // the j loop's trip-count test
      float s = ld("S", S[i]);
      for (int j = 0; j < i; ++j)
        s += ld("B", B[j]);
      st("S", S[i], s);
    }
}

void empty_tail(float *S, const float *B, int E) {
  for (int i = 0; i < E; ++i)
    if (i + 5 < E) {
      float s = ld("S", S[i]), b = ld("B", B[i]);
      for (int j = i + 5; j < E; ++j)
        s += ld("B", B[j]) * b;
      st("S", S[i], s);
    }
}

void sizes_only(float *C, const float *A, int R, int K) {
  for (int i = 0; i < R; ++i)
    if (0 < K) {
      float c = ld("C", C[i]);
      for (int k = 0; k < K; ++k)
        c += ld("A", A[k]);
      st("C", C[i], c);
    }
}

void downward(float *S, const float *B, int T) {
  for (int i = T - 1; i >= 0; --i)
    if (T - 1 > i) {
      float s = ld("S", S[i]);
      for (int j = T - 1; j > i; --j)
        s += ld("B", B[j]);
      st("S", S[i], s);
    }
}

static float X0[64], X1[64], X2[64];

int main(int argc, char **argv) {
  if (argc != 7)
    return 2;
  int N = atoi(argv[1]), M = atoi(argv[2]), T = atoi(argv[3]),
      E = atoi(argv[4]), K = atoi(argv[5]), R = atoi(argv[6]);
  // Every kernel's arrays listed, so that an array with no move is checked
  // to be 0.
  std::map<std::string, const char *> Arrays = {
      {"group_choice", "A0 A1"}, {"triangle", "S B"}, {"empty_tail", "S B"},
      {"sizes_only", "C A"},     {"downward", "S B"}};
  Fn = "group_choice";
  group_choice(X0, X1, N, M);
  Fn = "triangle";
  triangle(X0, X1, T);
  Fn = "empty_tail";
  empty_tail(X0, X1, E);
  Fn = "sizes_only";
  sizes_only(X2, X1, R, K);
  Fn = "downward";
  downward(X0, X1, T);
  for (const auto &[F, List] : Arrays) {
    std::string Names = List;
    size_t P = 0;
    while (P < Names.size()) {
      size_t Q = Names.find(' ', P);
      if (Q == std::string::npos)
        Q = Names.size();
      std::string A = Names.substr(P, Q - P);
      printf("%s %s %ld %ld\n", F.c_str(), A.c_str(), Loads[F][A],
             Stores[F][A]);
      P = Q + 1;
    }
  }
}

#endif
