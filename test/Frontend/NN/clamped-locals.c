// A local set before the nest and set again under a condition (darknet's
// shortcut_cpu: `int sample = w2/w1; ... if (sample < 1) sample = 1;`): at
// the nest it is `cond ? value : value before`, the condition a
// loop-invariant case of the nest spelled with the value before the if.
// Only at the function's top level, with plain assignments, and nothing the
// condition reads changed after it; otherwise refused. Was "'n' is assigned
// 2 times in the function". Counts checked by test/NN/clamped.test.
// RUN: roofline-lint --verbosity=normal --no-source %s 2>&1 | FileCheck %s
// RUN: roofline-lint --verbosity=normal --no-source --param n=3 --param d=5 %s 2>&1 | FileCheck %s --check-prefix=SMALL
// RUN: roofline-lint --verbosity=normal --no-source --param n=9 --param d=5 %s 2>&1 | FileCheck %s --check-prefix=BIG

int numel(const float *q);

// A run-time length clamped to 8.
// CHECK: clamped-locals.c:[[@LINE+8]]:3: remark: clamp_runtime [numel(q) > 8]:
// CHECK: note: 0 MACs, 8 FLOPs (f32: 8); 64 bytes compulsory
// CHECK: clamped-locals.c:[[@LINE+6]]:3: remark: clamp_runtime [!(numel(q) > 8)]:
// CHECK: note: 0 MACs, n FLOPs (f32: n); 8*n bytes compulsory
void clamp_runtime(float *y, const float *x, const float *q) {
  int n = numel(q);
  if (n > 8)
    n = 8;
  for (int i = 0; i < n; ++i)
    y[i] = 2.0f * x[i];
}

// A constant block clamped to a size, in braces: rows = min(4, n).
// CHECK: clamped-locals.c:[[@LINE+13]]:3: remark: head_rows [n < 4]:
// CHECK: note: 0 MACs, d*n FLOPs (f32: d*n); 8*d*n bytes compulsory
// CHECK: clamped-locals.c:[[@LINE+11]]:3: remark: head_rows [!(n < 4)]:
// CHECK: note: 0 MACs, 4*d FLOPs (f32: 4*d); 32*d bytes compulsory
// SMALL: clamped-locals.c:[[@LINE+9]]:3: remark: head_rows:
// SMALL: note: 0 MACs, 15 FLOPs (f32: 15); 120 bytes compulsory
// BIG: clamped-locals.c:[[@LINE+7]]:3: remark: head_rows:
// BIG: note: 0 MACs, 20 FLOPs (f32: 20); 160 bytes compulsory
void head_rows(float *x, int n, int d, float s) {
  int rows = 4;
  if (n < rows) {
    rows = n;
  }
  for (int r = 0; r < rows; ++r)
    for (int j = 0; j < d; ++j)
      x[r * d + j] *= s;
}

// Set on both arms of an if/else: the flag is the case.
// CHECK: clamped-locals.c:[[@LINE+8]]:3: remark: pick_rows [transposed]:
// CHECK: note: 0 MACs, n FLOPs (f32: n); 8*n bytes compulsory
// CHECK: clamped-locals.c:[[@LINE+6]]:3: remark: pick_rows [!(transposed)]:
// CHECK: note: 0 MACs, d FLOPs (f32: d); 8*d bytes compulsory
void pick_rows(float *y, const float *x, int n, int d, int transposed) {
  int len;
  if (transposed) len = n;
  else len = d;
  for (int i = 0; i < len; ++i)
    y[i] = x[i] + 1.0f;
}

// A clamp that depends on the data: no one size.
// CHECK: clamped-locals.c:[[@LINE+5]]:3: note: loop nest not analyzed: 'n' is set under the condition 'x[0] > 0', which depends on the data: its value at the nest is not one size
void clamp_on_data(float *y, const float *x, int m) {
  int n = m;
  if (x[0] > 0)
    n = 8;
  for (int i = 0; i < n; ++i)
    y[i] = 0.0f;
}

// What the condition reads changes after the if.
// CHECK: clamped-locals.c:[[@LINE+6]]:3: note: loop nest not analyzed: 'n' is set under 'n > m', and 'm', which that reads, changes after it: its value at the nest is not known
void bound_changes(float *y, int m) {
  int n = 16;
  if (n > m)
    n = m;
  m = m + 1;
  for (int i = 0; i < n; ++i)
    y[i] = 0.0f;
}

// The clamp under a loop, or twice: not one clamp; refused as before.
// CHECK: clamped-locals.c:[[@LINE+7]]:3: note: loop nest not analyzed: 'n' is assigned 3 times in the function: its value at the nest is not one size
void clamped_twice(float *y, int m) {
  int n = m;
  if (n > 8)
    n = 8;
  if (n < 2)
    n = 2;
  for (int i = 0; i < n; ++i)
    y[i] = 0.0f;
}
