// assert() inside a nest (issue 18; docs/design.md, "Conditions"): counted
// as the run where it holds. The condition's loads and compares count every
// iteration, the failing branch (__assert_fail never returns) is dropped and
// glibc's `(void) sizeof ((c) ? 1 : 0)` is not evaluated. With -DNDEBUG an
// assert is `((void) 0)` and costs nothing.
// RUN: roofline-lint --verbosity=normal --no-source --param n=10 %s | FileCheck %s
// RUN: roofline-lint --verbosity=normal --no-source --param n=10 %s -- -DNDEBUG | FileCheck %s --check-prefix=NDEBUG
// RUN: roofline-lint --dump-ir %s | FileCheck %s --check-prefix=IR
#include <assert.h>
#include <stddef.h>

// One compare and one multiply per element: 20 FLOPs; x read, y written.
// IR-LABEL: nest @positive
// IR: read x[i]
// IR-NEXT: ops f32: cmp=1
// IR-NOT: maybe
// CHECK: assert.c:[[@LINE+5]]:3: note: 0 MACs, 20 FLOPs (f32: 20); 80 bytes compulsory
// CHECK: assert.c:[[@LINE+4]]:3: note: assert (line [[@LINE+5]]): its condition is counted, the failing branch assumed not taken
// NDEBUG: assert.c:[[@LINE+3]]:3: note: 0 MACs, 10 FLOPs (f32: 10); 80 bytes compulsory
// NDEBUG-NOT: assert (line
void positive(const float *x, float *y, int n) {
  for (int i = 0; i < n; i++) {
    assert(x[i] > 0.0f);
    y[i] = x[i] * 2.0f;
  }
}

// The condition reads elements nothing else reads: their bytes count.
// CHECK: assert.c:[[@LINE+3]]:3: note: 0 MACs, 20 FLOPs (f32: 20); 120 bytes compulsory
// NDEBUG: assert.c:[[@LINE+2]]:3: note: 0 MACs, 10 FLOPs (f32: 10); 80 bytes compulsory
void divide(const float *num, const float *den, float *q, int n) {
  for (int i = 0; i < n; i++) {
    assert(den[i] != 0.0f);
    q[i] = num[i] / 2.0f;
  }
}

// Where the assertion holds, both sides of && ran, and !(a || b) too.
// CHECK: assert.c:[[@LINE+2]]:3: note: 0 MACs, 50 FLOPs (f32: 50); 80 bytes compulsory
void in_range(const float *x, float *y, int n) {
  for (int i = 0; i < n; i++) {
    assert(x[i] >= 0.0f && x[i] < 1.0f);
    assert(!(x[i] > 2.0f || x[i] < -2.0f));
    y[i] = x[i] + 1.0f;
  }
}

// Conditions on loop variables, sizes and loop-invariant values are index
// arithmetic or hoisted: no work, and no case (the assertion holds in every
// case), not even for a null check.
// CHECK: assert.c:[[@LINE+4]]:3: remark: bounds:
// CHECK-NOT: bounds [
// CHECK: assert.c:[[@LINE+2]]:3: note: 0 MACs, 10 FLOPs (f32: 10); 80 bytes compulsory
void bounds(const float *x, float *y, int n) {
  for (int i = 0; i < n; i++) {
    assert(x != NULL && i < n && n > 0);
    y[i] = x[i] * 3.0f;
  }
}

// A helper inlined in the nest: its assert counts at each call.
static float half_checked(float v) {
  assert(v == v);
  return v * 0.5f;
}
// CHECK: assert.c:[[@LINE+3]]:3: note: 0 MACs, 20 FLOPs (f32: 20); 80 bytes compulsory
// NDEBUG: assert.c:[[@LINE+2]]:3: note: 0 MACs, 10 FLOPs (f32: 10); 80 bytes compulsory
void halve(const float *x, float *y, int n) {
  for (int i = 0; i < n; i++)
    y[i] = half_checked(x[i]);
}

// Written out by hand, the same pattern (glibc declares __assert_fail
// without NDEBUG only).
#ifndef NDEBUG
// CHECK: assert.c:[[@LINE+2]]:3: note: 0 MACs, 20 FLOPs (f32: 20); 80 bytes compulsory
void by_hand(const float *x, float *y, int n) {
  for (int i = 0; i < n; i++) {
    if (!(x[i] < 100.0f))
      __assert_fail("x[i] < 100.0f", __FILE__, __LINE__, __func__);
    y[i] = x[i] - 1.0f;
  }
}
#endif

// rnn.c's RNNLayer_feedBack: a check of counters the nest advances is
// index arithmetic.
// CHECK: assert.c:[[@LINE+2]]:3: note: 0 MACs, 0 FLOPs; 40 bytes compulsory
void counted(float *w, int n) {
  for (int t = 0; t < 2; t++) {
    int k = 0;
    for (int i = 0; i < 5; i++) {
      w[t * 5 + i] = 0.0f;
      k++;
    }
    assert(k == 5);
  }
}

// Refused: where the assertion holds, `a || b` may not have run b.
// CHECK: assert.c:[[@LINE+2]]:3: note: loop nest not analyzed: assert condition 'x[i] > 0.0f || y[i] > 0.0f': its right side runs on some runs only (the work depends on the data)
void either(const float *x, float *y, int n) {
  for (int i = 0; i < n; i++) {
    assert(x[i] > 0.0f || y[i] > 0.0f);
    y[i] = x[i];
  }
}
