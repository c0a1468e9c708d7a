// isnan / isinf / isfinite in C++ (std::isnan on float, glibc's isinf(double)
// that std::isinf names for a double): one compare each, in the argument's
// precision (docs/design.md 4.3). Were refused as "call to 'isnan' with
// unknown side effects". test/NN/fpclass.test checks the C macros against
// the instrumented run.
// RUN: %expect-exit 0 roofline-lint --verbosity=normal --no-source --param N=100 %s 2>&1 | FileCheck %s
#include <cassert>
#include <cmath>

// CHECK: fpclass.cpp:[[@LINE+2]]:3: remark: checked: {{.*}}[roofline-verdict]
void checked(float *y, const float *x, int N) {
  for (int i = 0; i < N; i++) {
    assert(!std::isnan(x[i]));
    assert(std::isfinite(x[i]));
    y[i] = 2.0f * x[i];
  }
}
// CHECK-NEXT: note: 0 MACs, 300 FLOPs (f32: 300)

// CHECK: fpclass.cpp:[[@LINE+2]]:3: remark: checked64: {{.*}}[roofline-verdict]
void checked64(double *y, const double *x, int N) {
  for (int i = 0; i < N; i++) {
    assert(!std::isinf(x[i]));
    y[i] = 2.0 * x[i];
  }
}
// CHECK-NEXT: note: 0 MACs, 200 FLOPs (f64: 200)
