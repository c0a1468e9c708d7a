// A NOLINTBEGIN without its NOLINTEND suppresses nothing (a typo must not
// silence the rest of the file) and is reported, as clang-tidy does.
// RUN: roofline-lint --no-source %s 2> %t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=ERR < %t.err
// ERR: nolint-unmatched.cpp:9:1: warning: unmatched 'NOLINTBEGIN' comment without a subsequent 'NOLINTEND' comment; it suppresses nothing [roofline-nolint]
// ERR: nolint-unmatched.cpp:15:1: warning: unmatched 'NOLINTEND' comment without a previous 'NOLINTBEGIN' comment (with the same check list) [roofline-nolint]
float a[4096], b[4096];

// NOLINTBEGIN(roofline-memory-bound)
void f() {
  // CHECK: nolint-unmatched.cpp:[[@LINE+1]]:3: warning: f: memory-bound
  for (int i = 0; i < 4096; ++i)
    b[i] = a[i];
}
// NOLINTEND(roofline-min-intensity)

// The warning is a check of its own: --checks can turn it off.
// RUN: roofline-lint --no-source --checks=-roofline-nolint %s 2>&1 >/dev/null | FileCheck %s --check-prefix=OFF --allow-empty
// OFF-NOT: unmatched
