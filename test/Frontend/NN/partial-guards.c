// Affine conditions on part of a loop body: the guarded statements run in a
// loop of at most one iteration whose bounds carry the condition
// (docs/user-guide.md, "Conditions"). Counts checked by brute force at
// T=5, N=4, M=3 (a Python run of each body, counting executed FLOPs and the
// distinct elements first read and written).
// RUN: roofline-lint --dump-ir %s | FileCheck %s
// RUN: roofline-lint --verbosity=normal --no-source --param T=5 --param N=4 --param M=3 %s | FileCheck %s --check-prefix=NUM

// On an outer loop's variable (an RNN backward step): 4*4*3 MACs.
// CHECK-LABEL: nest @outer
// CHECK:      for __if1 = 0 to min(0, T - t - 2) @[[@LINE+7]]:7 {
// CHECK-NEXT:   for j = 0 to M - 1
// NUM: partial-guards.c:[[@LINE+2]]:3: note: 48 MACs, 136 FLOPs (f64: 136); 416 bytes compulsory, 1,632 bytes no-reuse
void outer(int T, int N, int M, double *e, const double *w, double *b) {
  for (int t = 0; t < T; t++)
    for (int i = 0; i < N; i++) {
      double d = e[t * N + i] * 2.0;
      if ((t + 1) < T) {
        for (int j = 0; j < M; j++)
          e[t * N + j] += w[i * M + j] * d;
      }
      b[i] += d;
    }
}

// On the innermost loop's variable, after work: 20 scaled, 10 guarded adds.
// CHECK-LABEL: nest @inner
// CHECK: for __if1 = 0 to min(0, -i + t) @
// NUM: partial-guards.c:[[@LINE+2]]:3: note: 0 MACs, 34 FLOPs (f32: 34); 192 bytes compulsory, 328 bytes no-reuse
void inner(int T, int N, float *x, float *y) {
  for (int t = 0; t < T; t++)
    for (int i = 0; i < N; i++) {
      x[t * N + i] *= 2.0f;
      if (i <= t)
        y[i] += x[t * N + i];
    }
}

// With else: the negated condition guards the other branch.
// CHECK-LABEL: nest @with_else
// CHECK: for __if1 = 0 to min(0, -i + t - 1) @
// CHECK: for __if2 = 0 to min(0, i - t) @
// NUM: partial-guards.c:[[@LINE+2]]:3: note: 0 MACs, 30 FLOPs (f32: 30); 240 bytes compulsory, 280 bytes no-reuse
void with_else(int T, int N, float *x, float *y) {
  for (int t = 0; t < T; t++)
    for (int i = 0; i < N; i++) {
      x[t * N + i] += 1.0f;
      if (i < t)
        y[t * N + i] = x[t * N + i] * 3.0f;
      else
        y[t * N + i] = 0.0f;
    }
}

// '==': both bounds carry it (the diagonal: 4 of the 5*4).
// CHECK-LABEL: nest @diag
// CHECK: for __if1 = max(0, i - t) to min(0, i - t) @
// NUM: partial-guards.c:[[@LINE+2]]:3: note: 0 MACs, 24 FLOPs (f32: 24); 192 bytes compulsory, 208 bytes no-reuse
void diag(int T, int N, float *x, float *d) {
  for (int t = 0; t < T; t++)
    for (int i = 0; i < N; i++) {
      x[t * N + i] += 1.0f;
      if (t == i)
        d[i] += x[t * N + i];
    }
}

// Nested guards and a conjunction: 1 <= t, then i < t inside it.
// CHECK-LABEL: nest @nested
// CHECK:      for __if1 = 0 to min(0, t - 1, N - t - 1) @
// CHECK:        for __if2 = 0 to min(0, -i + t - 1) @
// NUM: partial-guards.c:[[@LINE+2]]:3: note: 0 MACs, 38 FLOPs (f32: 38); 256 bytes compulsory, 328 bytes no-reuse
void nested(int T, int N, float *x, float *y) {
  for (int t = 0; t < T; t++)
    for (int i = 0; i < N; i++) {
      x[t * N + i] += 1.0f;
      if (t >= 1 && t < N) {
        y[t * N + i] += 2.0f;
        if (i < t)
          y[t * N + i] *= x[(t - 1) * N + i];
      }
    }
}

// Unions of ranges (LowerUnionGuards.cpp): one guard loop per disjoint part.
// i != t is i < t, then i > t: 20 adds, 16 of the 20 (t, i) have i != t.
// NUM: partial-guards.c:[[@LINE+3]]:3: remark: not_equal:
// NUM: note: 0 MACs, 36 FLOPs (f32: 36); 160 bytes compulsory
void not_equal(int T, int N, float *x) {
  for (int t = 0; t < T; t++)
    for (int i = 0; i < N; i++) {
      x[t * N + i] += 1.0f;
      if (i != t)
        x[t * N + i] *= 2.0f;
    }
}

// i < t, then i >= t && i > 2: 1 + 2 + 3 + 4 + 4 = 14 of the 20.
// NUM: partial-guards.c:[[@LINE+3]]:3: remark: either:
// NUM: note: 0 MACs, 34 FLOPs (f32: 34); 160 bytes compulsory
void either(int T, int N, float *x) {
  for (int t = 0; t < T; t++)
    for (int i = 0; i < N; i++) {
      x[t * N + i] += 1.0f;
      if (i < t || i > 2)
        x[t * N + i] *= 2.0f;
    }
}

// The else of a conjunction runs on a union of ranges.
// Each (t, i) runs one of the branches: 20 + 20.
// NUM: partial-guards.c:[[@LINE+3]]:3: remark: else_of_and:
// NUM: note: 0 MACs, 40 FLOPs (f32: 40); 160 bytes compulsory
void else_of_and(int T, int N, float *x) {
  for (int t = 0; t < T; t++)
    for (int i = 0; i < N; i++) {
      x[t * N + i] += 1.0f;
      if (i < t && i > 0)
        x[t * N + i] *= 2.0f;
      else
        x[t * N + i] *= 3.0f;
    }
}

// Refusals kept, each with its reason.
// A counter stepped under the guard is refused.
// NUM: partial-guards.c:[[@LINE+3]]:3: note: loop nest not analyzed: access 'w[kx]': {{.*}}'kx++' is under a condition ('if')
void counter(int T, int N, int M, double *e, const double *w) {
  int kx = 0;
  for (int t = 0; t < T; t++)
    for (int i = 0; i < N; i++) {
      e[t * N + i] *= 2.0;
      if ((t + 1) < T) {
        for (int j = 0; j < M; j++) {
          e[t * N + j] += w[kx];
          kx++;
        }
      }
    }
}

// The whole body of the inner loop, but on the outer loop's variable, whose
// body holds other work: it cannot narrow loop t, so it is a guard loop too
// (was refused: "condition on 't' guards only part of the loop over it").
// 5 + 8 adds, each element read and written once.
// CHECK-LABEL: nest @outer_whole_inner
// CHECK: for __if1 = 0 to min(0, -t + 1) @
// NUM: partial-guards.c:[[@LINE+2]]:3: note: 0 MACs, 13 FLOPs (f32: 13); 104 bytes compulsory, 104 bytes no-reuse
void outer_whole_inner(int T, int N, float *x, float *y) {
  for (int t = 0; t < T; t++) {
    x[t] += 1.0f;
    for (int i = 0; i < N; i++)
      if (t < 2)
        y[t * N + i] += 1.0f;
  }
}
