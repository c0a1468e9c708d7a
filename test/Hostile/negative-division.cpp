// '/' in a loop bound is lowered as floor division; C truncates toward
// zero. The two differ for a negative dividend ('(N - 1) / 3' at N = 0 is 0
// in C, so 'i <= 0' runs once; floored it would be -1 and run never). With
// the sizes known, such a nest is refused; a dividend that stays >= 0 is
// counted. Found by scripts/differential.py.
// RUN: %expect-exit 0 roofline-lint --verbosity=normal --no-source %s 2>&1 | FileCheck %s
// RUN: roofline-lint --verbosity=normal --no-source --param N=10 %s 2>&1 | FileCheck %s --check-prefix=TEN

constexpr int N = 0;
// CHECK: negative-division.cpp:[[@LINE+2]]:26: note: loop nest not analyzed: '/' in a loop bound divides a value that can be negative (N - 1 can be -1): C rounds it toward zero, not down [roofline-unanalyzable]
// TEN: negative-division.cpp:[[@LINE+1]]:26: remark: at_zero: {{.*}}[roofline-verdict]
void at_zero(float *A) { for (int i = 0; i <= (N - 1) / 3; i++) A[i] += 1.0f; }
// TEN-NEXT: note: 0 MACs, 4 FLOPs

// The dividend as written (i - 1 >= 0 for i >= 1) decides, not the shifted
// bound 'j <= (i - 3) / 2' the IR keeps.
// CHECK: negative-division.cpp:[[@LINE+2]]:3: remark: inner_ok: {{.*}}[roofline-verdict]
void inner_ok(float *A) {
  for (int i = 1; i < 10; i++)
    for (int j = 0; j < (i - 1) / 2; ++j)
      A[j] += 1.0f;
}
// CHECK-NEXT: note: 0 MACs, 16 FLOPs
