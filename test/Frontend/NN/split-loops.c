// A loop variable split by % and / (Caffe's and darknet's im2col:
// `kc = q % k; kr = (q / k) % k; ch = q / k / k;` over q < c*k*k) runs as
// loops over groups of groups, q = (q_g*k + q_r2)*k + q_r, and each
// remainder and quotient is one of them; the bound must be a multiple of
// k*k (a product with it as a factor, or a quotient size whose
// divisibility is stated). A value chosen by a condition on loop variables
// (`i < p ? a : b`, a helper's guarded return) runs each side's work in a
// guard loop of its side. Counts checked by the oracle in
// test/NN/im2col.test and test/NN/paramcopies.test.
// RUN: roofline-lint --dump-ir %s 2>&1 | FileCheck %s
// RUN: roofline-lint --dump-ir %s 2>&1 | FileCheck %s --check-prefix=SKIP
// RUN: roofline-lint --verbosity=normal --no-source --param c=2 --param k=3 --param n=5 --param p=2 %s 2>&1 | FileCheck %s --check-prefix=NUM

// CHECK-LABEL: nest @chain at
// CHECK:      for q_g = 0 to c - 1 @[[@LINE+11]]:3 {
// CHECK-NEXT:   for q_r2 = 0 to k - 1 @[[@LINE+10]]:3 {
// CHECK-NEXT:     for q_r = 0 to k - 1 @[[@LINE+9]]:3 {
// CHECK-NEXT:       stmt @
// CHECK-NEXT:         write y[q_g][q_r2][q_r]
// CHECK-NEXT:         read x[q_g][q_r2]
// CHECK-NEXT:         read w[q_r]
// 18 products; y 18 elements, x 6, w 3.
// NUM: split-loops.c:[[@LINE+3]]:3: note: 0 MACs, 18 FLOPs (f32: 18); 108 bytes compulsory, 216 bytes no-reuse
// NUM: note: as formulas: MACs = 0, FLOPs = c*k^2, bytes compulsory = 4*c*k^2 + 4*c*k + 4*k
void chain(float *y, const float *x, const float *w, int c, int k) {
  for (int q = 0; q < c * k * k; q++) {
    int kc = q % k;
    int kr = (q / k) % k;
    int ch = q / k / k;
    y[q] = x[ch * k + kr] * w[kc];
  }
}

// One division by k*k beside one by k: not one chain of one divisor (the
// loop runs in groups of k*k, and q % k is no part of them).
// SKIP: skipped @squared at {{.*}}: access 'x[q % k]': non-affine index expression 'q % k' (a loop variable's remainder: 'q_r' left over is not provably within [0, k - 1])
void squared(float *y, const float *x, int c, int k) {
  for (int q = 0; q < c * k * k; q++)
    y[q] = x[q / (k * k)] + x[q % k];
}

// The remainder of something else than the variable.
// SKIP: skipped @shifted at {{.*}}: access 'x[(q + 1) % k]': non-affine index expression '(q + 1) % k' (a loop variable's remainder: 'q_r + 1' left over is not provably within [0, k - 1])
void shifted(float *y, const float *x, int n, int k) {
  for (int q = 0; q < n * k; q++)
    y[q] = x[(q + 1) % k];
}

// i < p: the multiply and x[i] where it holds, x[i - p] where not; y[i]
// written either way. n = 5, p = 2: 2 FLOPs, x[0..2] and y[0..4].
// CHECK-LABEL: nest @select at
// CHECK:      for i = 0 to n - 1 @[[@LINE+16]]:3 {
// CHECK-NEXT:   for __if1 = 0 to min(0, -i + p - 1) @
// CHECK-NEXT:     stmt @
// CHECK-NEXT:       read x[i]
// CHECK-NEXT:       ops f32: mul=1
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   for __if2 = 0 to min(0, i - p) @
// CHECK-NEXT:     stmt @
// CHECK-NEXT:       read x[i - p]
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   stmt @
// CHECK-NEXT:     write y[i]
// NUM: split-loops.c:[[@LINE+2]]:3: note: 0 MACs, 2 FLOPs (f32: 2); 32 bytes compulsory, 40 bytes no-reuse
void select(float *y, const float *x, int n, int p) {
  for (int i = 0; i < n; i++)
    y[i] = i < p ? 2.0f * x[i] : x[i - p];
}

// A side that writes: its order against the statement is not followed.
// SKIP: skipped @selectwrite at {{.*}}: a side of the condition 'i < p' on loop variables writes memory inside an expression
void selectwrite(float *y, float *x, int n, int p) {
  for (int i = 0; i < n; i++)
    y[i] = i < p ? (x[i] = 1.0f) : 0.0f;
}

// A side with work under a union of ranges has no guard loop: the choice
// stays a data-dependent one, as before (here refused: only one side reads
// x[i]; mnist's `i == label ? a[i] - 1 : a[i]`, whose other side is two
// ranges, a range).
// SKIP: skipped @outside at {{.*}}: data-dependent branch reads 'x' elements that are not read before it
void outside(float *y, const float *x, int n, int p) {
  for (int i = 0; i < n; i++)
    y[i] = i < p || i >= n - p ? x[i] : 0.0f;
}
// NUM: split-loops.c:[[@LINE+2]]:3: note: 0 MACs, 0 to 5 FLOPs (f32: 5); 40 bytes compulsory
void onehot(float *y, const float *x, int n, int p) {
  for (int i = 0; i < n; i++)
    y[i] = i == p ? x[i] - 1.0f : x[i];
}
