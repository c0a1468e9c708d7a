// Suppression comments on a nest's first line (the outermost `for`), as
// for clang-tidy: a bare NOLINT silences every check, NOLINT(list) the
// listed ones (globs allowed), NOLINTNEXTLINE the next line, and a region
// between NOLINTBEGIN and NOLINTEND. A suppressed finding never fails.
// RUN: roofline-lint --no-source --min-intensity=1 %s 2> %t.err | FileCheck %s --implicit-check-not=warning: --implicit-check-not=error:
// RUN: FileCheck %s --check-prefix=SUMMARY < %t.err
// SUMMARY: roofline-lint: 1 file, 11 nests analyzed, 0 not; 0 errors (0 failing the run), 13 warnings, 11 suppressed by NOLINT
//
// With every memory-bound nest failing, only the unsuppressed ones count.
// RUN: %expect-exit 1 roofline-lint --no-source --fail-on=memory-bound %s | FileCheck %s --check-prefix=FAIL --implicit-check-not=error:
constexpr int N = 4096;
float a[N], b[N];

void plain() {
  // CHECK: nolint.cpp:[[@LINE+4]]:3: remark: plain: memory-bound
  // CHECK: nolint.cpp:[[@LINE+3]]:3: warning: plain: memory-bound {{.*}}[roofline-memory-bound]
  // CHECK: nolint.cpp:[[@LINE+2]]:3: warning: plain: arithmetic intensity 0 FLOP/B is below the minimum 1 {{.*}}[roofline-min-intensity]
  // FAIL: nolint.cpp:[[@LINE+1]]:3: error: plain: memory-bound
  for (int i = 0; i < N; ++i)
    b[i] = a[i];
}

void all() {
  // CHECK-NOT: remark: all:
  for (int i = 0; i < N; ++i) // NOLINT
    b[i] = a[i];
}

void only_mb() {
  // CHECK: nolint.cpp:[[@LINE+2]]:3: remark: only_mb: memory-bound
  // CHECK: nolint.cpp:[[@LINE+1]]:3: warning: only_mb: arithmetic intensity {{.*}}[roofline-min-intensity]
  for (int i = 0; i < N; ++i) // NOLINT(roofline-memory-bound)
    b[i] = a[i];
}

void globs() {
  // CHECK: nolint.cpp:[[@LINE+1]]:3: remark: globs: memory-bound
  for (int i = 0; i < N; ++i) // NOLINT(roofline-min-*, roofline-memory-*)
    b[i] = a[i];
}

void next_line() {
  // CHECK-NOT: remark: next_line:
  // CHECK: nolint.cpp:[[@LINE+4]]:3: warning: next_line: memory-bound {{.*}}[roofline-memory-bound]
  // CHECK: nolint.cpp:[[@LINE+3]]:3: warning: next_line: arithmetic intensity
  // FAIL: nolint.cpp:[[@LINE+2]]:3: error: next_line: memory-bound
  // NOLINTNEXTLINE(roofline-verdict)
  for (int i = 0; i < N; ++i)
    b[i] = a[i];
}

void other_check() {
  // CHECK: nolint.cpp:[[@LINE+4]]:3: remark: other_check: memory-bound
  // CHECK: nolint.cpp:[[@LINE+3]]:3: warning: other_check: memory-bound
  // CHECK: nolint.cpp:[[@LINE+2]]:3: warning: other_check: arithmetic intensity
  // FAIL: nolint.cpp:[[@LINE+1]]:3: error: other_check: memory-bound
  for (int i = 0; i < N; ++i) // NOLINT(roofline-max-time)
    b[i] = a[i];
}

// NOLINTBEGIN(roofline-memory-bound, roofline-min-intensity)
void region_one() {
  // CHECK: nolint.cpp:[[@LINE+1]]:3: remark: region_one: memory-bound
  for (int i = 0; i < N; ++i)
    b[i] = a[i];
}
void region_two() {
  // CHECK: nolint.cpp:[[@LINE+1]]:3: remark: region_two: memory-bound
  for (int i = 0; i < N; ++i)
    b[i] = a[i];
}
// NOLINTEND(roofline-memory-bound, roofline-min-intensity)

void after() {
  // CHECK: nolint.cpp:[[@LINE+4]]:3: remark: after:
  // CHECK: nolint.cpp:[[@LINE+3]]:3: warning: after: memory-bound
  // CHECK: nolint.cpp:[[@LINE+2]]:3: warning: after: arithmetic intensity
  // FAIL: nolint.cpp:[[@LINE+1]]:3: error: after: memory-bound
  for (int i = 0; i < N; ++i)
    b[i] = a[i];
}

void wrong_line() {
  // CHECK: nolint.cpp:[[@LINE+4]]:3: remark: wrong_line:
  // CHECK: nolint.cpp:[[@LINE+3]]:3: warning: wrong_line: memory-bound
  // CHECK: nolint.cpp:[[@LINE+2]]:3: warning: wrong_line: arithmetic intensity
  // FAIL: nolint.cpp:[[@LINE+1]]:3: error: wrong_line: memory-bound
  for (int i = 0; i < N; ++i)
    b[i] = a[i]; // NOLINT: not on the nest's first line, no effect
}

void nolintfoo() {
  // CHECK: nolint.cpp:[[@LINE+4]]:3: remark: nolintfoo:
  // CHECK: nolint.cpp:[[@LINE+3]]:3: warning: nolintfoo: memory-bound
  // CHECK: nolint.cpp:[[@LINE+2]]:3: warning: nolintfoo: arithmetic intensity
  // FAIL: nolint.cpp:[[@LINE+1]]:3: error: nolintfoo: memory-bound
  for (int i = 0; i < N; ++i) // NOLINTFOO is not a directive
    b[i] = a[i];
}
