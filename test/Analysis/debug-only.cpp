// --debug-only=TYPE traces why each analysis did what it did, on stderr
// (docs/design.md, "Debug tracing"); in every build, not only with
// assertions, so no REQUIRES.
// RUN: roofline-lint --quiet --param N=1000 --model=cache --debug-only=roofline-lower,roofline-counts,roofline-footprint,roofline-cache %s -- 2>&1 >/dev/null | FileCheck %s
// Only the types named:
// RUN: roofline-lint --quiet --param N=1000 --model=cache --debug-only=roofline-counts %s -- 2>&1 >/dev/null | FileCheck %s --check-prefix=COUNTS --implicit-check-not=lower: --implicit-check-not=footprint: --implicit-check-not=cache:
// roofline-frontend: each skipped nest, the kind of its reason and where
// it was decided:
// RUN: roofline-lint --quiet --param N=1000 --debug-only=roofline-frontend %s -- 2>&1 >/dev/null | FileCheck %s --check-prefix=FRONTEND --implicit-check-not=lower: --implicit-check-not=counts:
// Nothing without it:
// RUN: roofline-lint --quiet --param N=1000 --model=cache %s -- 2>&1 >/dev/null | count 0

// CHECK: lower: {{.*}}debug-only.cpp:[[@LINE+16]]:5: refused [while-loop]: while loop inside the nest
// CHECK: counts: nest scale at {{.*}}debug-only.cpp:[[@LINE+8]]
// CHECK-NEXT: counts:   loop i: 1000
// CHECK: footprint: A: projection, formula, value
// CHECK: footprint: B: projection, formula, value
// CHECK: cache: nest scale at {{.*}} (cold): L1 fetch {{.*}}; memory
// COUNTS: counts: nest scale
// COUNTS-NEXT: counts:   loop i: 1000
void scale(float *A, const float *B, int N) {
  for (int i = 0; i < N; ++i)
    A[i] = 2 * B[i];
}

void until(float *A, int N) {
  for (int i = 0; i < N; ++i) {
    int k = 0;
    while (A[k] > 0)
      ++k;
    A[i] = k;
  }
}
// FRONTEND: frontend: {{.*}}debug-only.cpp:[[@LINE-5]]:5: nest of until at line [[@LINE-7]] refused [while-loop]: while loop inside the nest: trip count is not statically known
// FRONTEND-NOT: frontend:
