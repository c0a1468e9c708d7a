// Arrays that provably share memory get a warning: the counts (and the
// generated variants) treat every array as distinct. Pointer parameters with
// no such evidence keep the plain "assumed not to alias" note.
// RUN: %expect-exit 0 roofline-lint --no-source %s 2>&1 | FileCheck %s
// RUN: %expect-exit 1 roofline-lint --no-source --warnings-as-errors=roofline-aliasing %s 2>&1 | FileCheck %s --check-prefix=ERR

// CHECK: aliasing.cpp:[[@LINE+2]]:3: warning: 'X' and 'Y' are the same array at the call on line [[@LINE+5]], which passes 'Z' for both; the counts treat them as distinct arrays, so bytes may be counted twice, and generated variants assume they do not overlap [roofline-aliasing]
void axpy(float *X, float *Y, int n) {
  for (int i = 0; i < n; ++i)
    Y[i] += 2.0f * X[i];
}
void twice(float *Z) { axpy(Z, Z, 1024); }
// ERR: aliasing.cpp:[[@LINE-4]]:3: error: 'X' and 'Y' are the same array

// A pointer into another array of the nest is that array at an offset: the
// elements are counted once, by address, and nothing is assumed.
// CHECK: aliasing.cpp:[[@LINE+4]]:3: remark: shifted:
// CHECK: aliasing.cpp:[[@LINE+3]]:3: note: 0 MACs, 1,023 FLOPs (f32: 1,023); 4,096 bytes compulsory
void shifted(float *A) {
  float *B = A + 1;
  for (int i = 0; i < 1023; ++i)
    B[i] = A[i] * 0.5f;
}

// CHECK: aliasing.cpp:[[@LINE+3]]:3: note: 0 MACs, 64 FLOPs (f32: 64); 768 bytes compulsory
void row(float *M) {
  float *Row = &M[64];
  for (int i = 0; i < 64; ++i)
    M[i] += Row[i];
}

// Distinct arrays at every call: no warning.
// CHECK: aliasing.cpp:[[@LINE+3]]:3: note: arrays Q, P come from pointers and are assumed not to alias
// CHECK-NOT: [roofline-aliasing]
void copy(float *P, float *Q) {
  for (int i = 0; i < 16; ++i)
    Q[i] = P[i];
}
void distinct(float *U, float *V) { copy(U, V); copy(V + 16, U); }
