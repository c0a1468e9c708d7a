// One element of each row picked by an index loaded from memory (a point
// gather, docs/design.md "Point gathers"): the access is recorded at its
// row's element 0 with the index named, the assumption that the index stays
// in its row is stated, and the nest is not emitted (its value would read
// element 0). The analysis refuses it where rows repeat or another access
// of the array may touch the picked element. Counts checked by the oracle
// in test/NN/pointgather.test.
// RUN: roofline-lint --dump-ir %s 2>&1 | FileCheck %s
// RUN: roofline-lint --verbosity=normal --no-source --param B=2 --param T=3 --param Vp=12 --param N=7 --param C=10 %s 2>&1 | FileCheck %s --check-prefix=NUM
// RUN: rm -rf %t && roofline-lint --emit=%t --nest=xent --quiet --param B=2 --param T=3 --param Vp=12 %s 2>&1 | FileCheck %s --check-prefix=EMIT
#include <math.h>

// CHECK-LABEL: nest @xent
// CHECK: array probs : f32[?][T][Vp] pointer
// CHECK:      stmt @[[@LINE+15]]:7 {
// CHECK-NEXT:   read targets[b][t]
// CHECK-NEXT: }
// CHECK-NEXT: stmt @[[@LINE+13]]:7 {
// CHECK-NEXT:   write losses[b][t]
// CHECK-NEXT:   read probs[b][t][0] + ix (point gather)
// 6 rows: 6 targets, 6 probabilities and 6 losses, 72 bytes.
// NUM: point-gathers.c:[[@LINE+5]]:3: note: 0 MACs, 6 FLOPs (f32: 6); 72 bytes compulsory
// NUM: point-gathers.c:[[@LINE+4]]:3: note: 'probs' is accessed at one element of each row, picked by 'ix' (loaded from memory): counted as one element a row, assuming 0 <= ix < Vp
// EMIT: not emitted: xent:[[@LINE+3]]: cannot be emitted: {{.*}}an element picked by an index loaded from memory
void xent(float *losses, const float *probs, const int *targets, int B, int T,
          int Vp) {
  for (int b = 0; b < B; b++) {
    for (int t = 0; t < T; t++) {
      const float *probs_bt = probs + b * T * Vp + t * Vp;
      int ix = targets[b * T + t];
      losses[b * T + t] = -logf(probs_bt[ix]);
    }
  }
}

// `scores[n*C + c]`: an index plus the loaded one, written.
// CHECK-LABEL: nest @mark
// CHECK: write scores[n][0] + c (point gather)
// NUM: point-gathers.c:[[@LINE+2]]:3: note: 0 MACs, 0 FLOPs; 56 bytes compulsory
void mark(float *scores, const int *labels, int N, int C) {
  for (int n = 0; n < N; n++) {
    int c = labels[n];
    scores[n * C + c] = 1.0f;
  }
}

// The rows do not move with t: refused by the analysis.
// NUM: point-gathers.c:[[@LINE+3]]:3: note: loop nest not analyzed: gather: the element of 'table' that 'ix' picks may repeat: the rows it starts from are not distinct on every execution
void shared(float *out, const float *table, const int *idx, int B, int T,
            int C) {
  for (int b = 0; b < B; b++)
    for (int t = 0; t < T; t++) {
      int ix = idx[b * T + t];
      out[b * T + t] = table[b * C + ix];
    }
}

// The index is not loaded in the body that reads it: a gather (as a row
// gather, the row start moves with n as well).
// NUM: point-gathers.c:[[@LINE+2]]:3: note: loop nest not analyzed: gather: 'probs(row y)[n][0]' moves with the loop over 'n' (where 'y' is loaded) or one around it, besides the row 'y' picks
void outer(float *out, const float *probs, const int *labels, int N, int C) {
  for (int n = 0; n < N; n++) {
    int y = labels[n];
    for (int k = 0; k < 4; k++)
      out[n * 4 + k] = probs[n * C + y];
  }
}
