// `if (c) return;` inside a nest (issue 18; docs/design.md, "Conditions").
// Under a loop-invariant condition first in the nest it is a case: where it
// returns nothing runs, otherwise the whole nest runs. On the data, as the
// last statement of the outermost loop, it makes the counts a range
// (early-exits.c). Any other early return stops the nest part way: it is
// refused with the reason. (A return in a helper called inside the nest is a
// branch of the helper: early-returns.c.)
// RUN: roofline-lint --verbosity=normal --no-source --param n=8 %s | FileCheck %s
// RUN: roofline-lint --verbosity=normal --no-source --param n=8 --param skip=0 %s | FileCheck %s --check-prefix=KNOWN
#include <stddef.h>

// CHECK: nest-returns.c:[[@LINE+9]]:3: remark: scale [skip]:
// CHECK: nest-returns.c:[[@LINE+8]]:3: note: 0 MACs, 0 FLOPs; 0 bytes compulsory
// CHECK: nest-returns.c:[[@LINE+7]]:3: note: the function returns at line [[@LINE+8]] before any work of the nest: nothing runs in this case
// CHECK: nest-returns.c:[[@LINE+6]]:3: remark: scale [!(skip)]:
// CHECK: nest-returns.c:[[@LINE+5]]:3: note: 0 MACs, 8 FLOPs (f32: 8); 64 bytes compulsory
// KNOWN: nest-returns.c:[[@LINE+4]]:3: remark: scale:
// KNOWN: nest-returns.c:[[@LINE+3]]:3: note: 0 MACs, 8 FLOPs (f32: 8); 64 bytes compulsory
// KNOWN-NOT: scale [
void scale(float *y, const float *x, int n, int skip) {
  for (int i = 0; i < n; i++) {
    if (skip)
      return;
    y[i] = 2.0f * x[i];
  }
}

// In an inner loop, still before any work: a null check returning a value.
// CHECK: nest-returns.c:[[@LINE+4]]:3: remark: add_bias [bias != NULL]:
// CHECK: nest-returns.c:[[@LINE+3]]:3: remark: add_bias [bias == NULL]:
// CHECK: nest-returns.c:[[@LINE+2]]:3: note: 0 MACs, 0 FLOPs; 0 bytes compulsory
int add_bias(float *y, const float *bias, int n) {
  for (int r = 0; r < 2; r++)
    for (int i = 0; i < n; i++) {
      if (bias == NULL)
        return -1;
      y[r * n + i] += bias[i];
    }
  return 0;
}

// --- Refused ---

// llama2.c's sample_mult: where the loop stops depends on the data, so its
// counts are a range (early-exits.c).
// CHECK: nest-returns.c:[[@LINE+3]]:3: note: 0 MACs, 2 to 16 FLOPs (f32: 16); 4 to 32 bytes compulsory
int sample_mult(float *probabilities, int n, float coin) {
  float cdf = 0.0f;
  for (int i = 0; i < n; i++) {
    cdf += probabilities[i];
    if (coin < cdf)
      return i;
  }
  return n - 1;
}

// CHECK: nest-returns.c:[[@LINE+2]]:3: note: loop nest not analyzed: early return under a condition on loop variables 'i == 3': the nest stops part way (not counted)
void first_three(float *y, int n) {
  for (int i = 0; i < n; i++) {
    y[i] = 0.0f;
    if (i == 3)
      return;
  }
}

// CHECK: nest-returns.c:[[@LINE+3]]:3: remark: after_work [!(stop)]:
// CHECK: nest-returns.c:[[@LINE+2]]:3: note: loop nest not analyzed: early return under the loop-invariant condition 'stop' after work in the nest: the nest stops part way in that case
void after_work(float *y, int n, int stop) {
  for (int i = 0; i < n; i++) {
    y[i] = 0.0f;
    if (stop)
      return;
  }
}

// CHECK: nest-returns.c:[[@LINE+2]]:3: note: loop nest not analyzed: early exit ('return') out of the loop
void unconditional(float *y, int n) {
  for (int i = 0; i < n; i++) {
    y[i] = 0.0f;
    return;
  }
}
