// A NOLINTBEGIN without its NOLINTEND suppresses nothing (a typo must not
// silence the rest of the file) and is reported, as clang-tidy does.
// RUN: roofline-lint --no-source %s 2> %t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=ERR < %t.err
// ERR: nolint-unmatched.cpp:9:1: warning: unmatched 'NOLINTBEGIN' comment without a subsequent 'NOLINTEND' comment; it suppresses nothing
// ERR: nolint-unmatched.cpp:15:1: warning: unmatched 'NOLINTEND' comment without a previous 'NOLINTBEGIN' comment (with the same check list)
float a[4096], b[4096];

// NOLINTBEGIN(roofline-memory-bound)
void f() {
  // CHECK: nolint-unmatched.cpp:[[@LINE+1]]:3: warning: f: memory-bound
  for (int i = 0; i < 4096; ++i)
    b[i] = a[i];
}
// NOLINTEND(roofline-min-intensity)
