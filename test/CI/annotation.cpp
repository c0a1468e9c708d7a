// `// roofline: N=4096 M=512` on the line right above a nest pins those
// sizes for that nest only. --param beats it; it beats .roofline.yaml's
// params; a malformed one, or one naming no size of its nest, is a warning
// [roofline-annotation].
// RUN: roofline-lint --verbosity=normal --no-source %s 2>&1 | FileCheck %s
// RUN: roofline-lint --verbosity=normal --no-source --param N=8 %s 2>&1 | FileCheck %s --check-prefix=PARAM
// RUN: roofline-lint --verbosity=normal --no-source --config='{params: {N: 16, M: 2}}' %s 2>&1 | FileCheck %s --check-prefix=CONFIG
// RUN: roofline-lint --verbosity=normal --dump-ir %s | FileCheck %s --check-prefix=IR
// RUN: roofline-lint --verbosity=normal --no-source --checks='-*,roofline-verdict' %s 2>&1 | FileCheck %s --check-prefix=OFF --implicit-check-not=roofline-annotation

void pinned(float *x, int N) {
  // CHECK: annotation.cpp:[[@LINE+4]]:3: remark: pinned: memory-bound on rtx-a6000 {{.*}}time floor 42.7 ns
  // PARAM: annotation.cpp:[[@LINE+3]]:3: remark: pinned: memory-bound on rtx-a6000 {{.*}}time floor 83.3 ps
  // CONFIG: annotation.cpp:[[@LINE+2]]:3: remark: pinned: memory-bound on rtx-a6000 {{.*}}time floor 42.7 ns
  // roofline: N=4096
  for (int i = 0; i < N; ++i)
    x[i] *= 2.0f;
  // The next nest of the same function is not pinned.
  // CHECK: annotation.cpp:[[@LINE+2]]:3: remark: pinned: no verdict on rtx-a6000: sizes without a value: N
  // CONFIG: annotation.cpp:[[@LINE+1]]:3: remark: pinned: memory-bound on rtx-a6000 {{.*}}time floor 167 ps
  for (int i = 0; i < N; ++i)
    x[i] += 1.0f;
}

void two(float *A, int N, int M) {
  // CHECK: annotation.cpp:[[@LINE+3]]:3: remark: two: memory-bound
  // CHECK-NEXT: note: 0 MACs, 131,072 FLOPs (f32: 131,072); 1,048,576 bytes compulsory
  // roofline: N=512, M=256
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < M; ++j)
      A[i * M + j] *= 0.5f;
}

void malformed(float *x, int N) {
  // CHECK: annotation.cpp:[[@LINE+4]]:3: remark: malformed: no verdict
  // CHECK: annotation.cpp:[[@LINE+3]]:3: warning: malformed roofline annotation: 'N=lots' is not NAME=INTEGER (expected '// roofline: N=4096 M=512') [roofline-annotation]
  // OFF: remark: malformed: no verdict
  // roofline: N=lots
  for (int i = 0; i < N; ++i)
    x[i] = 0;
}

void unused(float *x) {
  // CHECK: annotation.cpp:[[@LINE+3]]:3: remark: unused: memory-bound
  // CHECK: annotation.cpp:[[@LINE+2]]:3: warning: roofline annotation sets 'Q', which names no size of this nest [roofline-annotation]
  // roofline: Q=3
  for (int i = 0; i < 64; ++i)
    x[i] = 0;
}

void not_adjacent(float *x, int N) {
  // roofline: N=4096

  // CHECK: annotation.cpp:[[@LINE+1]]:3: remark: not_adjacent: no verdict on rtx-a6000: sizes without a value: N
  for (int i = 0; i < N; ++i)
    x[i] = 0;
}

// IR: nest @pinned at {{.*}}annotation.cpp:16:3
// IR-NEXT: param N = 4096 (annotation)
