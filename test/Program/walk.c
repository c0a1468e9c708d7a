// What the walk follows and what it leaves out, by name.
//
// decode: a loop over positions that passes pos + 1, so each call has its
// own size; by hand at steps=4, hs=8: FLOPs = sum over n = 1..4 of 2*n*8 =
// 160; bytes = sum of (hs + n*hs + n) * 4 = 4*32 + 36*(1+2+3+4) = 488.
// RUN: roofline-lint --no-source --quiet --entry=decode --param steps=4 --param hs=8 %s -- | FileCheck %s --check-prefix=DECODE
//
// RUN: roofline-lint --no-source --quiet --entry=odd --param n=16 --param flag=1 %s -- | FileCheck %s --check-prefix=ODD
// A condition the walk can decide picks its branch:
// RUN: roofline-lint --no-source --quiet --entry=odd --param n=16 --param flag=0 %s -- | FileCheck %s --check-prefix=FLAG0

#include <stdio.h>

void scores(float *att, const float *q, const float *k, int n, int hs) {
  for (int t = 0; t < n; t++) {
    float s = 0.0f;
    for (int i = 0; i < hs; i++)
      s += q[i] * k[t * hs + i];
    att[t] = s;
  }
}

void decode(float *att, const float *q, const float *k, int steps, int hs) {
  for (int pos = 0; pos < steps; pos++)
    scores(att, q, k, pos + 1, hs);
}

// DECODE: remark: pass 'decode' on rtx-a6000: time floor {{.*}}, 160 FLOP, 488 B,
// DECODE: 4 160 488 B {{.*}} scores ({{.*}}walk.c:15) via decode > scores
// DECODE-NOT: left out

void scale(float *x, int n) {
  for (int i = 0; i < n; i++)
    x[i] *= 2.0f;
}

void opaque(float *x, int n); // defined elsewhere

int depth(float *x, int n) { return n > 0 ? depth(x, n - 1) : 0; }

void odd(float *x, int n, int flag, void (*hook)(float *, int)) {
  scale(x, n);
  if (flag)
    scale(x, 2 * n);
  hook(x, n);
  opaque(x, n);
  depth(x, n);
  int m = n;
  while (m > 1) {
    scale(x, m);
    m /= 2;
  }
  printf("done\n");
}

// ODD: remark: pass 'odd' on rtx-a6000: time floor {{.*}}, 48 FLOP, 384 B, {{.*}}; incomplete, see 'left out' [roofline-program]
// ODD: 2 48 384 B {{.*}} scale ({{.*}}walk.c:33) via odd > scale
// ODD: left out (not in the totals):
// ODD-NEXT: walk.c:45: odd: a call through a function pointer ('hook'): the callee is not known
// ODD-NEXT: walk.c:46: odd: calls to 'opaque', which has no body here: not counted
// ODD-NEXT: walk.c:39: odd > depth: a recursive call to 'depth': not followed
// ODD-NEXT: walk.c:49: odd: a while or do loop around calls: its trip count is not known statically; the calls in it are not counted (calls to scale)
// ODD-NEXT: walk.c:53: odd: calls to 'printf', which has no body here: not counted

// FLAG0: remark: pass 'odd' on rtx-a6000: time floor {{.*}}, 16 FLOP, 128 B,
