// Integer arithmetic that reads no memory is index arithmetic, not work,
// even where the tool cannot follow its value (docs/design.md, "Counting
// rules"): here K0 is assigned twice before the nest, so it is no size.
// Such a value used as an index is refused, naming the local and why; used
// in floating arithmetic only the floating operations count.
// RUN: roofline-lint --dump-ir %s 2>&1 | FileCheck %s
// RUN: roofline-lint --no-source %s 2>&1 | FileCheck %s --check-prefix=WHY
// RUN: roofline-lint --no-source --verbosity=normal --param scale=0 --param N=3 --param M=4 %s 2>&1 | FileCheck %s --check-prefix=NUM
// WHY-NOT: gather

// In the case !(scale) x2 is dead: nothing but the f32 add is counted.
// CHECK-LABEL: nest @dead_index [!(scale)]
// CHECK-NOT: i32
// CHECK-NOT: intops
// CHECK: ops f32: add=1
// CHECK-NOT: i32
// CHECK-NOT: intops
// In the case scale the nest is refused because of x2, and says so.
// WHY: opaque-ints.c:[[@LINE+5]]:3: note: loop nest not analyzed: access 'A[x2 + i]': 'x2' = '2 * K0 + b * (3 * K0)' is not an index: 'K0'
// NUM: opaque-ints.c:[[@LINE+4]]:3: note: 0 MACs, 12 FLOPs (f32: 12); 112 bytes compulsory
void dead_index(float *A, const float *X, int scale, int N, int M) {
  int K0 = 4;
  K0 = 5;
  for (int b = 0; b < N; ++b) {
    int x2 = 2 * K0 + b * (3 * K0);
    for (int i = 0; i < M; i++) {
      if (scale != 0)
        A[x2 + i] += X[i];
      else
        A[b * M + i] += X[i];
    }
  }
}

// The same product written inline: the int multiply is free, the f32 MAC
// counts.
// CHECK-LABEL: nest @inline_product
// CHECK: ops f32: mac=1
// CHECK-NOT: intops
// CHECK-LABEL: nest @local_product
void inline_product(float *A, const float *X, int N, int M) {
  int K0 = 4;
  K0 = 5;
  for (int b = 0; b < N; ++b)
    for (int i = 0; i < M; i++)
      A[b * M + i] += X[i] * (K0 * b);
}

// CHECK-NOT: i32
// CHECK: ops f32: mac=1
// CHECK-NOT: intops
// CHECK-LABEL: nest @loaded
void local_product(float *A, const float *X, int N, int M) {
  int K0 = 4;
  K0 = 5;
  for (int b = 0; b < N; ++b) {
    int s = K0 * b + 1;
    for (int i = 0; i < M; i++)
      A[b * M + i] += X[i] * s;
  }
}

// A condition on such a value that changes with the loops is neither
// invariant nor affine: refused with the reason.
// WHY: opaque-ints.c:[[@LINE+4]]:3: note: loop nest not analyzed: {{.*}}'s' = 'K0 * b' is not an index
void varying_condition(float *A, const float *X, int N, int M) {
  int K0 = 4;
  K0 = 5;
  for (int b = 0; b < N; ++b) {
    int s = K0 * b;
    for (int i = 0; i < M; i++)
      if (s > 3)
        A[b * M + i] += X[i];
  }
}

// Integer arithmetic on loaded data stays work.
// CHECK: intops 1
// CHECK: intops 1
void loaded(int *A, const int *X, int N) {
  int K0 = 4;
  K0 = 5;
  for (int i = 0; i < N; i++) {
    int v = X[i] * K0;
    A[i] = v + 1;
  }
}
