// A lambda's body is a function of its own: its loops are analyzed there (a
// generic lambda per instantiation), not dropped and not counted twice in
// the enclosing function.
// RUN: %expect-exit 0 roofline-lint --verbosity=normal --no-source %s 2>&1 | FileCheck %s

void outer(float *A, double *D) {
  // CHECK: lambdas.cpp:[[@LINE+2]]:5: remark: outer(float *, double *)::(anonymous class)::operator(): {{.*}}[roofline-verdict]
  auto Scale = [&](int) {
    for (int i = 0; i < 100; ++i)
      A[i] *= 2.0f;
  };
  Scale(3);
  // CHECK: lambdas.cpp:[[@LINE+2]]:28: remark: outer(float *, double *)::(anonymous class)::operator()<float>: {{.*}}[roofline-verdict]
  // CHECK-NEXT: note: 0 MACs, 10 FLOPs (f32: 10)
  auto Inc = [](auto *P) { for (int i = 0; i < 10; ++i) P[i] += 1; };
  Inc(A);
  // CHECK: lambdas.cpp:[[@LINE-2]]:28: remark: outer(float *, double *)::(anonymous class)::operator()<double>: {{.*}}[roofline-verdict]
  // CHECK-NEXT: note: 0 MACs, 10 FLOPs (f64: 10)
  Inc(D);
}
// CHECK: 3 nests analyzed, 0 not
