// A mutable global that the analyzed function never assigns (a group size
// set once by the loader) is a size like an argument: named by the global,
// valued by --param, its initializer ignored. Assigned in the function, or
// by a function it calls, it is refused.
// RUN: roofline-lint --verbosity=normal --no-source --param GROUP=4 --param n=32 %s 2>&1 | FileCheck %s

int GROUP = 0;
static int Calls;

// CHECK: globals.c:[[@LINE+4]]:3: note: 0 MACs, 32 FLOPs (f32: 32); 256 bytes compulsory
// CHECK: globals.c:[[@LINE+3]]:3: note: as formulas: MACs = 0, FLOPs = GROUP*groups, bytes compulsory = 8*GROUP*groups
void scale_groups(float *x, const float *s, int n) {
  int groups = n / GROUP;
  for (int g = 0; g < groups; g++)
    for (int i = 0; i < GROUP; i++)
      x[g * GROUP + i] *= 2.0f;
}

// CHECK: globals.c:[[@LINE+3]]:3: note: loop nest not analyzed: {{.*}}'GROUP', a variable computed at run time
void set_then_scale(float *x) {
  GROUP = 8;
  for (int i = 0; i < GROUP; i++)
    x[i] *= 2.0f;
}

static void pick_group(void) { GROUP = 16; }
static void count_call(void) { Calls++; }

// CHECK: globals.c:[[@LINE+3]]:3: note: loop nest not analyzed: {{.*}}'GROUP', a global that a called function assigns
void pick_then_scale(float *x) {
  pick_group();
  for (int i = 0; i < GROUP; i++)
    x[i] *= 2.0f;
}

// A call that assigns another global does not matter.
// CHECK: globals.c:[[@LINE+3]]:3: note: 0 MACs, 4 FLOPs (f32: 4); 32 bytes compulsory
void count_then_scale(float *x) {
  count_call();
  for (int i = 0; i < GROUP; i++)
    x[i] *= 2.0f;
}
