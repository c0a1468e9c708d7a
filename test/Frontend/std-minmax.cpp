// std::min / std::max in loop bounds: their arguments bind to const int &,
// so 'i + 3' arrives wrapped in a temporary (was refused as "non-affine loop
// bound expression 'i + 3'"; found by scripts/differential.py).
// RUN: %expect-exit 0 roofline-lint --verbosity=normal --no-source %s 2>&1 | FileCheck %s
// RUN: roofline-lint --verbosity=normal --dump-ir %s | FileCheck %s --check-prefix=IR
#include <algorithm>

// CHECK: std-minmax.cpp:[[@LINE+2]]:3: remark: band: {{.*}}[roofline-verdict]
void band(float *X) {
  for (int i = 0; i < 10; ++i)
    for (int j = std::max(0, i - 2); j < std::min(10, i + 3); ++j)
      X[j] += 1.0f;
}
// 3 + 4 + 5 + 5*5 + 4 + 3 iterations.
// CHECK-NEXT: note: 0 MACs, 44 FLOPs (f32: 44)
// IR: for j = max(0, i - 2) to min(9, i + 2)
