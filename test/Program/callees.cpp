// Callees the walk cannot follow are left out by name, never counted as
// zero: a body-less function (in a nest or around calls), mutual recursion,
// a virtual call whose override is not fixed statically, a function pointer.
// Virtual calls the static type fixes (a final class, an object by value,
// an explicitly qualified call) are followed: by hand at n=4, scale runs at
// 3n (Fin), n (by value) and n (Layer::run qualified): 20 elements, 1 FLOP
// and 8 bytes each; ping > pong > scale once at n: 4 more.
//
// RUN: roofline-lint --no-source --quiet --entry=entry --param n=4 %s -- | FileCheck %s

void scale(float *x, int n) {
  for (int i = 0; i < n; i++)
    x[i] *= 2.0f;
}

void opaque(float *x, int n);
float ext(float v);

void ping(float *x, int n);
void pong(float *x, int n) {
  scale(x, n);
  if (n > 1)
    ping(x, n - 1);
}
void ping(float *x, int n) { pong(x, n); }

struct Layer {
  virtual void run(float *x, int n) { scale(x, n); }
};
struct Big : Layer {
  void run(float *x, int n) override { scale(x, 2 * n); }
};
struct Fin final : Layer {
  void run(float *x, int n) override { scale(x, 3 * n); }
};

void entry(float *x, int n, Layer *L, Fin *F, Layer V) {
  for (int l = 0; l < 3; l++)
    opaque(x, n);
  for (int i = 0; i < n; i++)
    x[i] = ext(x[i]);
  ping(x, n);
  L->run(x, n);
  F->run(x, n);
  V.run(x, n);
  L->Layer::run(x, n);
  void (*fp)(float *, int) = scale;
  fp(x, n);
}

// CHECK: remark: pass 'entry' on rtx-a6000: time floor {{.*}}, 24 FLOP, 192 B, {{.*}}; incomplete, see 'left out' [roofline-program]
// CHECK-DAG: 3 20 160 B {{.*}} scale ({{.*}}callees.cpp:12) via entry > run > scale
// CHECK-DAG: 1 4 32 B {{.*}} scale ({{.*}}callees.cpp:12) via entry > ping > pong > scale
// CHECK: left out (not in the totals):
// CHECK-NEXT: callees.cpp:38: entry: nest not analyzed: call to 'opaque' with unknown side effects
// CHECK-NEXT: callees.cpp:40: entry: nest not analyzed: call to 'ext' with unknown side effects
// CHECK-NEXT: callees.cpp:23: entry > ping > pong: a recursive call to 'ping': not followed
// CHECK-NEXT: callees.cpp:43: entry: a virtual call to 'Layer::run': which override runs is not known statically; not counted
// CHECK-NEXT: callees.cpp:48: entry: a call through a function pointer ('fp'): the callee is not known
// CHECK-NOT: callees.cpp
