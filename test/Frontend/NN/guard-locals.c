// A condition on loop variables kept in an integer local of the nest and
// tested later (darknet's max pooling: `int valid = (cur_h >= 0 && ...);`
// then `(valid != 0) ? net.input[index] : -FLT_MAX`) is the condition it was
// initialized with: a `?:` on it runs each side in a guard loop, an `if` on
// it is an affine if. Its parts are taken where it is declared. A local set
// again, or computed from data, stays a data-dependent condition. Counts
// checked by the oracle in test/NN/guardlocals.test.
// RUN: roofline-lint --dump-ir %s 2>&1 | FileCheck %s
// RUN: roofline-lint --dump-ir %s 2>&1 | FileCheck %s --check-prefix=SKIP
// RUN: roofline-lint --verbosity=normal --no-source --param n=6 --param k=3 --param pad=1 --param p=2 --param m=4 --param r=2 %s 2>&1 | FileCheck %s --check-prefix=NUM
#include <float.h>

// The window's reads run where `valid` holds; the running max compares
// every time. n = 6, k = 3, pad = 1: 18 compares, in[0..5] and out[0..5].
// CHECK-LABEL: nest @pool1d at
// CHECK:      for i = 0 to n - 1 @[[@LINE+13]]:3 {
// CHECK-NEXT:   for m = 0 to k - 1 @
// CHECK-NEXT:     for __if1 = 0 to min(0, i + m - pad, -i - m + n + pad - 1) @[[@LINE+16]]:17 {
// CHECK-NEXT:       stmt @
// CHECK-NEXT:         read in[i + m - pad]
// CHECK-NEXT:       }
// CHECK-NEXT:     }
// CHECK-NEXT:     stmt @[[@LINE+12]]:7 {
// CHECK-NEXT:       ops f32: cmp=1
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// NUM: guard-locals.c:[[@LINE+2]]:3: note: 0 MACs, 18 FLOPs (f32: 18); 48 bytes compulsory, 88 bytes no-reuse
void pool1d(float *out, const float *in, int n, int k, int pad) {
  for (int i = 0; i < n; i++) {
    float best = -FLT_MAX;
    for (int m = 0; m < k; m++) {
      int at = i + m - pad;
      int valid = (at >= 0 && at < n);
      float v = (valid != 0) ? in[at] : -FLT_MAX;
      best = (v > best) ? v : best;
    }
    out[i] = best;
  }
}

// `if (!skip)` on a local of the outer body narrows the outer loop.
// CHECK-LABEL: nest @bias_rows at
// CHECK:      for i = max(0, r) to n - 1 @[[@LINE+5]]:3 {
// CHECK-NEXT:   for j = 0 to m - 1 @
// 4 rows of 4: 16 adds.
// NUM: guard-locals.c:[[@LINE+2]]:3: note: 0 MACs, 16 FLOPs (f32: 16); 144 bytes compulsory, 192 bytes no-reuse
void bias_rows(float *y, const float *b, int n, int m, int r) {
  for (int i = 0; i < n; i++) {
    int skip = i < r;
    for (int j = 0; j < m; j++)
      if (!skip)
        y[i * m + j] += b[j];
  }
}

// `ok != 0` as a whole body is the local's condition (not two ranges of
// `ok < 0` and `ok > 0`, as `i != j` would be): it narrows the loop.
// CHECK-LABEL: nest @upper at
// CHECK:      for t = 0 to m - 1 @[[@LINE+5]]:3 {
// CHECK-NEXT:   for o = 0 to min(n - 1, n - t) @
// m = 4, n = 6: 6 + 6 + 5 + 4 = 21 adds.
// NUM: guard-locals.c:[[@LINE+2]]:3: note: 0 MACs, 21 FLOPs (f32: 21)
void upper(float *y, int n, int m) {
  for (int t = 0; t < m; t++)
    for (int o = 0; o < n; o++) {
      int ok = o + t <= n;
      if (ok != 0)
        y[o] += 1.0f;
    }
}

// `== 0` tests the negation; an `||` local whose negation is one range.
// CHECK-LABEL: nest @band at
// CHECK:      for __if{{[0-9]+}} = 0 to min(0, i - p, -i + n - p - 1) @
// CHECK-NEXT:   stmt @
// CHECK-NEXT:     read x[i]
// CHECK-NEXT:     ops f32: mul=1
// n = 6, p = 2: x[2], x[3] doubled; y[0..5] written.
// NUM: guard-locals.c:[[@LINE+2]]:3: note: 0 MACs, 2 FLOPs (f32: 2); 32 bytes compulsory
void band(float *y, const float *x, int n, int p) {
  for (int i = 0; i < n; i++) {
    int edge = i < p || i >= n - p;
    y[i] = edge == 0 ? 2.0f * x[i] : 0.0f;
  }
}

// The side with work holds on a union of ranges: no guard loop runs it.
// SKIP: skipped @edges at {{.*}}: condition 'edge' on loop variables chooses a value that no guard loop runs ('edge' = 'i < p || i >= n - p': a side with work holds on a union of ranges; data-dependent branch reads 'x' elements that are not read before it: the bytes depend on the data)
void edges(float *y, const float *x, int n, int p) {
  for (int i = 0; i < n; i++) {
    int edge = i < p || i >= n - p;
    y[i] = edge ? x[i] : 0.0f;
  }
}

// A condition on a local assigned twice: no guard loop, and the reason.
// SKIP: skipped @twice at {{.*}}: condition 'ok' on loop variables chooses a value that no guard loop runs ('ok' = 'i < lim': condition 'i < lim': 'lim', a variable computed at run time; data-dependent branch reads 'x' elements that are not read before it: the bytes depend on the data)
void twice(float *y, const float *x, int n) {
  int lim = 2;
  lim = 3;
  for (int i = 0; i < n; i++) {
    int ok = i < lim;
    y[i] = ok ? 2.0f * x[i] : 0.0f;
  }
}

// Set again in the nest: what the data decided.
// SKIP: skipped @rewritten at {{.*}}: data-dependent branch reads 'z' elements that are not read before it: the bytes depend on the data
void rewritten(float *y, const float *x, const float *z, int n) {
  for (int i = 0; i < n; i++) {
    int ok = i > 0;
    if (x[i] > 0.0f)
      ok = 0;
    y[i] = ok ? z[i] : 0.0f;
  }
}

// Computed from data.
// SKIP: skipped @datalocal at {{.*}}: data-dependent branch reads 'z' elements that are not read before it: the bytes depend on the data
void datalocal(float *y, const float *x, const float *z, int n) {
  for (int i = 0; i < n; i++) {
    int pos = x[i] > 0.0f;
    y[i] = pos ? z[i] : 0.0f;
  }
}

// Both sides read the same element: a data-dependent choice as written
// inline (`i == p ? x[i] - 1 : x[i]`), counted as a range.
// NUM: guard-locals.c:[[@LINE+2]]:3: note: 0 MACs, 0 to 6 FLOPs (f32: 6); 48 bytes compulsory
void onehot(float *y, const float *x, int n, int p) {
  for (int i = 0; i < n; i++) {
    int hot = i == p;
    y[i] = hot ? x[i] - 1.0f : x[i];
  }
}
