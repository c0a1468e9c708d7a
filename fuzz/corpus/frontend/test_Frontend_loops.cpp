// Loop forms the Frontend normalizes: every condition becomes an inclusive
// last value, every increment a constant step.
// RUN: roofline-lint --dump-ir %s | FileCheck %s

void loops(float *A, float *B, int N) {
  // CHECK: nest @loops at {{.*}}loops.cpp:[[@LINE+5]]:3
  // CHECK-NEXT: param N = ? (argument)
  // CHECK-NEXT: array A : f32[?] pointer
  // CHECK-NEXT: for i = 0 to N - 1 @[[@LINE+2]]:3 {
  // CHECK-NEXT:   stmt @[[@LINE+2]]:5 {
  for (int i = 0; i < N; ++i)
    A[i] = 0;
  // CHECK:      for i = 0 to N @
  for (int i = 0; i <= N; i++)
    A[i] = 1;
  // CHECK:      for i = N - 1 to 0 step -1 @
  for (int i = N - 1; i >= 0; --i)
    A[i] = 2;
  // CHECK:      for i = N to 1 step -1 @
  for (int i = N; i > 0; i--)
    A[i] = 3;
  // CHECK:      for i = 1 to N - 1 step 2 @
  for (int i = 1; i < N; i += 2)
    A[i] = 4;
  // CHECK:      for i = N to 1 step -3 @
  for (int i = N; i >= 1; i -= 3)
    A[i] = 5;
  // CHECK:      for i = 0 to N - 1 @
  for (int i = 0; i != N; ++i)
    A[i] = 6;
  // CHECK:      for i = 0 to N - 1 @
  for (int i = 0; N > i; i = i + 1)
    A[i] = 7;
  // Triangular and offset bounds.
  // CHECK:      for i = 0 to N - 1 @
  // CHECK-NEXT:   for j = 0 to i @
  // CHECK:      for i = 0 to N - 1 @
  // CHECK-NEXT:   for j = i + 1 to N - 1 @
  for (int i = 0; i < N; ++i)
    for (int j = 0; j <= i; ++j)
      A[i] += B[j];
  for (int i = 0; i < N; ++i)
    for (int j = i + 1; j < N; ++j)
      A[i] += B[j];
  // Tiled loops: min bounds, and a division.
  // CHECK:      for ii = 0 to N - 1 step 32 @
  // CHECK-NEXT:   for i = ii to min(ii + 31, N - 1) @
  for (int ii = 0; ii < N; ii += 32)
    for (int i = ii; i < (ii + 32 < N ? ii + 32 : N); ++i)
      A[i] = 8;
  // CHECK:      for i = 0 to floor((N - 2)/2) @
  for (int i = 0; i < N / 2; ++i)
    A[i] = 9;
}
