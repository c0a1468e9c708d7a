// Loops hidden in macros are found and counted at the macro's use. A literal
// in a function-like macro's body is a constant, not a size named after the
// macro (regression: 'FOR(i, 64)' gave a parameter 'FOR = 0'), while an
// object-like macro still names its size.
// RUN: %expect-exit 0 roofline-lint --verbosity=normal --no-source %s 2>&1 | FileCheck %s
// RUN: roofline-lint --verbosity=normal --dump-ir %s | FileCheck %s --check-prefix=IR
#define FOR(i, n) for (int i = 0; i < (n); ++i)
#define SCALE(A, n) FOR(q, n) A[q] *= 2.0f
#define N 128

void hidden(float *A, float *B) {
  // CHECK: macros.cpp:[[@LINE+2]]:3: remark: hidden: {{.*}}[roofline-verdict]
  // CHECK-NEXT: note: 0 MACs, 4,096 FLOPs (f32: 4,096); 49,152 bytes compulsory
  FOR(i, 64) FOR(j, 64) A[i * 64 + j] += B[j * 64 + i];
  // CHECK: macros.cpp:[[@LINE+2]]:3: remark: hidden: {{.*}}[roofline-verdict]
  // CHECK: note: as formulas: MACs = 0, FLOPs = 128, bytes compulsory = 1024
  SCALE(A, N);
  // CHECK: macros.cpp:[[@LINE+2]]:3: remark: hidden: {{.*}}[roofline-verdict]
  // CHECK: note: as formulas: MACs = 0, FLOPs = N, bytes compulsory = 8*N
  for (int i = 0; i < N; ++i)
    B[i] += 1.0f;
}
// IR: nest @hidden at {{.*}}macros.cpp:14:3
// IR-NOT: param
// IR: for i = 0 to 63
// IR: nest @hidden at {{.*}}macros.cpp:17:3
// IR-NOT: param
// IR: for q = 0 to 127
// IR: nest @hidden at {{.*}}macros.cpp:20:3
// IR-NEXT: param N = 128 (macro)
// IR: for i = 0 to N - 1
