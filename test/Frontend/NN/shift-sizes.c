// Sizes shifted by a constant (kann's kautodiff.c, issue 18): `n8 =
// n>>3<<3` is 8*floor(n/8), a quotient size "n/8" times 8, like
// `n / 8 * 8`; the loop unrolled by 8 runs to n8 and the remainder loop
// from n8 to n. A remainder loop that starts where the previous loop left
// its variable (`for (; i < n; ++i)`) starts at n8 too (remainder-loops.c).
// RUN: roofline-lint --dump-ir %s 2>&1 | FileCheck %s
// RUN: roofline-lint --verbosity=normal --no-source --param n=21 %s 2>&1 | FileCheck %s --check-prefix=NUM
// RUN: roofline-lint --verbosity=normal --no-source --param n=5 %s 2>&1 | FileCheck %s --check-prefix=SMALL
// RUN: roofline-lint --verbosity=normal --no-source --param n=16 %s 2>&1 | FileCheck %s --check-prefix=EVEN

// CHECK-LABEL: nest @saxpy
// CHECK: param n/8 = ? (derived) = n / 8
// CHECK: param n8 = ? (derived) = 8*n/8
// n = 21: n8 = 16, two unrolled iterations, then five.
// NUM: shift-sizes.c:[[@LINE+10]]:3: note: 2 MACs, 4 FLOPs (f32: 4); 24 bytes compulsory
// NUM: shift-sizes.c:[[@LINE+11]]:3: note: 5 MACs, 10 FLOPs (f32: 10); 60 bytes compulsory
// n = 5 < 8: n8 = 0, the unrolled loop does not run.
// SMALL: shift-sizes.c:[[@LINE+7]]:3: note: 0 MACs, 0 FLOPs; 0 bytes compulsory
// SMALL: shift-sizes.c:[[@LINE+8]]:3: note: 5 MACs, 10 FLOPs (f32: 10); 60 bytes compulsory
// n = 16: n8 = 16, two unrolled iterations and no remainder.
// EVEN: shift-sizes.c:[[@LINE+4]]:3: note: 2 MACs, 4 FLOPs (f32: 4); 24 bytes compulsory
// EVEN: shift-sizes.c:[[@LINE+5]]:3: note: 0 MACs, 0 FLOPs; 0 bytes compulsory
void saxpy(int n, float a, const float *x, float *y) {
  int i, n8 = n >> 3 << 3;
  for (i = 0; i < n8; i += 8)
    y[i] += a * x[i];
  for (i = n8; i < n; ++i)
    y[i] += a * x[i];
}

// NUM: shift-sizes.c:[[@LINE+5]]:3: note: 5 MACs, 10 FLOPs (f32: 10); 60 bytes compulsory
void remainder_from_previous(int n, float a, const float *x, float *y) {
  int i = 0, n8 = n >> 3 << 3;
  for (i = 0; i < n8; i += 8)
    y[i] += a * x[i];
  for (; i < n; ++i)
    y[i] += a * x[i];
}

// A shift of a loop variable is no affine index.
// NUM: shift-sizes.c:[[@LINE+2]]:3: note: loop nest not analyzed: {{.*}}'i >> 1' (a loop variable shifted)
void halves(int n, float *y, const float *x) {
  for (int i = 0; i < n; ++i)
    y[i] = x[i >> 1];
}
