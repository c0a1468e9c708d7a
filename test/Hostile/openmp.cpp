// OpenMP: a worksharing or simd loop runs each iteration once in all and is
// counted as written; a loop inside a 'parallel' region runs once per thread
// and is refused with the directive's name, as is a directive inside a nest.
// RUN: %expect-exit 0 roofline-lint --verbosity=normal --no-source %s -- -fopenmp 2>&1 | FileCheck %s
// Without -fopenmp the pragmas are ignored and every loop is counted.
// RUN: roofline-lint --verbosity=normal --no-source %s 2>&1 | FileCheck %s --check-prefix=NOOMP

// CHECK: openmp.cpp:[[@LINE+4]]:3: remark: parallel_for: {{.*}}[roofline-verdict]
// CHECK-NEXT: note: 0 MACs, 1,024 FLOPs (f32: 1,024); 8,192 bytes compulsory
void parallel_for(float *A, float *B) {
#pragma omp parallel for
  for (int i = 0; i < 1024; ++i)
    A[i] = B[i] * 2.0f;
}

// CHECK: openmp.cpp:[[@LINE+3]]:1: note: loop nest not analyzed: loop inside an OpenMP 'parallel' region: each thread of a team may run it; only worksharing and simd loops are counted [roofline-unanalyzable]
// NOOMP: openmp.cpp:[[@LINE+4]]:5: remark: parallel_region:
void parallel_region(float *A) {
#pragma omp parallel
  {
    for (int i = 0; i < 1024; ++i)
      A[i] += 1.0f;
  }
}

// CHECK: openmp.cpp:[[@LINE+3]]:3: remark: inner_simd: {{.*}}[roofline-verdict]
// CHECK-NEXT: note: 0 MACs, 4,096 FLOPs (f32: 4,096); 32,768 bytes compulsory
void inner_simd(float *A) {
  for (int i = 0; i < 64; ++i) {
#pragma omp simd
    for (int j = 0; j < 64; ++j)
      A[i * 64 + j] += 1.0f;
  }
}

// CHECK: openmp.cpp:[[@LINE+2]]:3: note: loop nest not analyzed: OpenMP 'critical' directive inside the nest [roofline-unanalyzable]
void critical_inside(float *A) {
  for (int i = 0; i < 64; ++i) {
#pragma omp critical
    A[i] += 1.0f;
  }
}
// NOOMP: 4 nests analyzed, 0 not
