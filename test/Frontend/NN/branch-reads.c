// Reads in the arms of a data-dependent ?: or if. An element every arm
// reads first, as often, is read whichever way the branch goes: counted
// (mnist-neural-network-plain-c's `b_grad = (i == label) ? act[i] - 1 :
// act[i]`, refused before). The statement's own target is written after
// its value is read: `A[i] = c ? A[i] : 0.5f * A[i]` reads A[i] first. Its
// write was taken as touching A[i] before the arms, so the read was
// dropped (80 bytes where 120 move) and `A[i] = c ? 2 : A[i]`, which reads
// A[i] on one path only, was counted as if it read nothing.
// RUN: roofline-lint --verbosity=normal --no-source --param n=10 %s | FileCheck %s

// CHECK: branch-reads.c:[[@LINE+3]]:3: remark: own_target:
// CHECK: note: 0 MACs, 10 to 20 FLOPs (f32: 20); 120 bytes compulsory, 120 bytes no-reuse
void own_target(float *A, const float *c, int n) {
  for (int i = 0; i < n; i++) {
    float v = c[i];
    A[i] = (v > 0.0f) ? A[i] : 0.5f * A[i];
  }
}

// CHECK: branch-reads.c:[[@LINE+3]]:3: remark: gradient:
// CHECK: note: 0 MACs, 10 to 20 FLOPs (f32: 20); 120 bytes compulsory, 120 bytes no-reuse
void gradient(float *g, const float *act, const float *w, int n) {
  for (int i = 0; i < n; i++) {
    float b = (w[i] > 0.0f) ? act[i] - 1 : act[i];
    g[i] = b;
  }
}

// Read on one path only: the bytes depend on the data.
// CHECK: branch-reads.c:[[@LINE+2]]:3: note: loop nest not analyzed: data-dependent branch reads 'A' elements that are not read before it
void one_path(float *A, const float *c, int n) {
  for (int i = 0; i < n; i++)
    A[i] = (c[i] > 0.0f) ? 2.0f : A[i];
}
