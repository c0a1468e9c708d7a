// A switch on a loop-invariant value (an activation kind passed down to a
// per-element helper, a mode flag) runs one path of its body in every
// iteration: from the matching label (or default, or none) to a break or a
// return, falling through the labels between. Where the value is known
// (--param mode=1, --param k=ACT_TANH, a constant every call passes) that
// path alone is counted; otherwise one report per label, the default and
// the fall-out (`[k == ACT_SIGMOID]`, `[mode: no case label]`), as for a
// loop-invariant if (docs/design.md, "Conditions"). A switch on data, on a
// loop variable or on a value the nest writes is refused, and so are a
// break under a condition in a case and more than sixteen cases.
// RUN: roofline-lint --verbosity=normal --no-source --param n=64 %s | FileCheck %s
// RUN: roofline-lint --verbosity=normal --no-source --param n=64 --param k=ACT_TANH --param mode=1 %s | FileCheck %s --check-prefix=GIVEN
// RUN: roofline-lint --verbosity=normal --no-source --param n=64 --param k=2 --param mode=7 %s | FileCheck %s --check-prefix=INT
// RUN: roofline-lint --verbosity=normal --no-source --param n=64 --param k=ACT_NOPE %s | FileCheck %s --check-prefix=BADPARAM
// RUN: roofline-lint --format=json --param n=64 %s | FileCheck %s --check-prefix=JSON
#include <math.h>

enum act_kind { ACT_LINEAR, ACT_SIGMOID, ACT_TANH, ACT_RELU, ACT_LEAKY };

static float act_apply(float v, enum act_kind k) {
  switch (k) {
  case ACT_LINEAR:
    return v;
  case ACT_SIGMOID:
    return 1.0f / (1.0f + expf(-v));
  case ACT_TANH:
    return tanhf(v);
  case ACT_RELU:
  case ACT_LEAKY: // the same body: a case each
    return v > 0 ? v : 0.0f;
  }
  return 0;
}

// One report per label and the fall-out (no default): 64 loads and stores
// of y; a sigmoid is 3 FLOPs, tanh 1, a ReLU a compare and a select (a
// range), the identity and the fall-out nothing.
// CHECK: invariant-switch.c:[[@LINE+24]]:3: remark: act_forward [k == ACT_LINEAR]:
// CHECK-NEXT: note: 0 MACs, 0 FLOPs; 512 bytes compulsory
// CHECK: invariant-switch.c:[[@LINE+22]]:3: remark: act_forward [k == ACT_SIGMOID]:
// CHECK-NEXT: note: 0 MACs, 192 FLOPs (f32: 192); 512 bytes compulsory
// CHECK: invariant-switch.c:[[@LINE+20]]:3: remark: act_forward [k == ACT_TANH]:
// CHECK-NEXT: note: 0 MACs, 64 FLOPs (f32: 64); 512 bytes compulsory
// CHECK: invariant-switch.c:[[@LINE+18]]:3: remark: act_forward [k == ACT_RELU]:
// CHECK: invariant-switch.c:[[@LINE+17]]:3: remark: act_forward [k == ACT_LEAKY]:
// CHECK: invariant-switch.c:[[@LINE+16]]:3: remark: act_forward [k: no case label]:
// CHECK-NEXT: note: 0 MACs, 0 FLOPs; 512 bytes compulsory
// GIVEN: invariant-switch.c:[[@LINE+14]]:3: remark: act_forward:
// GIVEN-NEXT: note: 0 MACs, 64 FLOPs (f32: 64); 512 bytes compulsory
// GIVEN-NOT: act_forward [
// INT: invariant-switch.c:[[@LINE+11]]:3: remark: act_forward:
// INT-NEXT: note: 0 MACs, 64 FLOPs (f32: 64); 512 bytes compulsory
// BADPARAM: invariant-switch.c:[[@LINE+9]]:3: note: loop nest not analyzed: --param k=ACT_NOPE: 'ACT_NOPE' is no case label of the switch on 'k'
// JSON: "function": "act_forward [k == ACT_LINEAR]"
// JSON: "case": "k == ACT_LINEAR",
// JSON: "case": "k == ACT_SIGMOID",
// JSON: "case": "k == ACT_TANH",
// JSON: "case": "k == ACT_RELU",
// JSON: "case": "k == ACT_LEAKY",
// JSON: "case": "k: no case label",
void act_forward(float *y, int n, enum act_kind k) {
  for (int i = 0; i < n; ++i)
    y[i] = act_apply(y[i], k);
}

// A switch in the loop body: `break`, fall-through from case 1 into case 2
// and a default. mode 0: one multiply; mode 1: an add, then case 2's
// multiply; mode 2: the multiply; default: a store of zero.
// CHECK: invariant-switch.c:[[@LINE+13]]:3: remark: scale_mode [mode == 0]:
// CHECK-NEXT: note: 0 MACs, 64 FLOPs (f32: 64); 512 bytes compulsory
// CHECK: invariant-switch.c:[[@LINE+11]]:3: remark: scale_mode [mode == 1]:
// CHECK-NEXT: note: 0 MACs, 128 FLOPs (f32: 128); 512 bytes compulsory
// CHECK: invariant-switch.c:[[@LINE+9]]:3: remark: scale_mode [mode == 2]:
// CHECK-NEXT: note: 0 MACs, 64 FLOPs (f32: 64); 512 bytes compulsory
// CHECK: invariant-switch.c:[[@LINE+7]]:3: remark: scale_mode [mode: default]:
// CHECK-NEXT: note: 0 MACs, 0 FLOPs; 256 bytes compulsory
// GIVEN: invariant-switch.c:[[@LINE+5]]:3: remark: scale_mode:
// GIVEN-NEXT: note: 0 MACs, 128 FLOPs (f32: 128); 512 bytes compulsory
// INT: invariant-switch.c:[[@LINE+3]]:3: remark: scale_mode:
// INT-NEXT: note: 0 MACs, 0 FLOPs; 256 bytes compulsory
void scale_mode(float *y, const float *x, int n, int mode) {
  for (int i = 0; i < n; ++i) {
    switch (mode) {
    case 0:
      y[i] = x[i] * 2.0f;
      break;
    case 1:
      y[i] = x[i] + 1.0f;
      // fall through
    case 2:
      y[i] = x[i] * 3.0f;
      break;
    default:
      y[i] = 0.0f;
    }
  }
}

// Every call in the file passes ACT_SIGMOID: that case alone.
// CHECK: invariant-switch.c:[[@LINE+4]]:3: remark: act_known:
// CHECK-NEXT: note: 0 MACs, 192 FLOPs (f32: 192); 512 bytes compulsory
// CHECK-NOT: act_known [
static void act_known(float *y, int n, enum act_kind k) {
  for (int i = 0; i < n; ++i)
    y[i] = act_apply(y[i], k);
}
void run_known(float *y, int n) { act_known(y, n, ACT_SIGMOID); }

// On data: which case runs is the element's.
// CHECK: invariant-switch.c:[[@LINE+2]]:3: note: loop nest not analyzed: switch on data ('lab[i]'): the case taken, and its work, depend on the data
void by_label(float *y, const int *lab, int n) {
  for (int i = 0; i < n; ++i)
    switch (lab[i]) {
    case 0:
      y[i] = 0.0f;
      break;
    default:
      y[i] = y[i] * 2.0f;
    }
}

// On a loop variable: the case changes every iteration.
// CHECK: invariant-switch.c:[[@LINE+2]]:3: note: loop nest not analyzed: switch on loop variables ('i & 1'): the case taken changes from one iteration to the next
void by_parity(float *y, int n) {
  for (int i = 0; i < n; ++i)
    switch (i & 1) {
    case 0:
      y[i] = 0.0f;
      break;
    default:
      y[i] = 1.0f;
    }
}

// On a value the nest writes.
// CHECK: invariant-switch.c:[[@LINE+2]]:3: note: loop nest not analyzed: switch on 'state', which the nest writes: the case taken changes as it runs
void by_state(float *y, int n, int state) {
  for (int i = 0; i < n; ++i) {
    switch (state) {
    case 0:
      y[i] = 0.0f;
      break;
    default:
      y[i] = 1.0f;
    }
    state = y[i] > 0.5f;
  }
}

// A break under a condition inside a case: the path depends on it.
// CHECK: invariant-switch.c:[[@LINE+2]]:3: note: loop nest not analyzed: 'break' under a condition inside a switch: the path the case runs depends on it
void cond_break(float *y, int n, int mode) {
  for (int i = 0; i < n; ++i)
    switch (mode) {
    case 0:
      if (y[i] > 0)
        break;
      y[i] = 0.0f;
      break;
    default:
      y[i] = 1.0f;
    }
}

// A return inside a switch in the nest's own body leaves the nest.
// CHECK: invariant-switch.c:[[@LINE+2]]:3: note: loop nest not analyzed: early exit ('return') in a switch inside the nest
void switch_return(float *y, int n, int mode) {
  for (int i = 0; i < n; ++i)
    switch (mode) {
    case 0:
      return;
    default:
      y[i] = 1.0f;
    }
}

// Seventeen labels, no default: eighteen cases are too many to list.
// CHECK: invariant-switch.c:[[@LINE+2]]:3: note: loop nest not analyzed: the nest would be reported in more than 16 cases: the switch on 'op' has 18 (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, none): give its value with --param op=LABEL
void many_ops(float *y, int n, int op) {
  for (int i = 0; i < n; ++i)
    switch (op) {
    case 0: y[i] += 0.0f; break;
    case 1: y[i] += 1.0f; break;
    case 2: y[i] += 2.0f; break;
    case 3: y[i] += 3.0f; break;
    case 4: y[i] += 4.0f; break;
    case 5: y[i] += 5.0f; break;
    case 6: y[i] += 6.0f; break;
    case 7: y[i] += 7.0f; break;
    case 8: y[i] += 8.0f; break;
    case 9: y[i] += 9.0f; break;
    case 10: y[i] += 10.0f; break;
    case 11: y[i] += 11.0f; break;
    case 12: y[i] += 12.0f; break;
    case 13: y[i] += 13.0f; break;
    case 14: y[i] += 14.0f; break;
    case 15: y[i] += 15.0f; break;
    case 16: y[i] += 16.0f; break;
    }
}

// Two switches on one value: the second takes the case the first decided
// (in `kind: no case label`, the second's default).
// CHECK: invariant-switch.c:[[@LINE+9]]:3: remark: two_switches [kind == 0]:
// CHECK-NEXT: note: 0 MACs, 128 FLOPs (f32: 128); 512 bytes compulsory
// CHECK: invariant-switch.c:[[@LINE+7]]:3: remark: two_switches [kind == 1]:
// CHECK-NEXT: note: 0 MACs, 64 FLOPs (f32: 64); 512 bytes compulsory
// CHECK: invariant-switch.c:[[@LINE+5]]:3: remark: two_switches [kind: no case label]:
// CHECK-NEXT: note: 0 MACs, 0 FLOPs; 256 bytes compulsory
// CHECK-NOT: two_switches [kind == 0 &&
// CHECK-NOT: remark: two_switches [kind: default]
void two_switches(float *y, int n, int kind) {
  for (int i = 0; i < n; ++i) {
    switch (kind) {
    case 0: y[i] *= 2.0f; break;
    case 1: y[i] += 1.0f; break;
    }
    switch (kind) {
    case 0: y[i] += 3.0f; break;
    default: y[i] = 0.0f;
    }
  }
}

// Where the second has a label the first lacks, the first's fall-out does
// not decide it: that case is refused.
// CHECK: invariant-switch.c:[[@LINE+4]]:3: remark: mismatched_switches [kind == 0]:
// CHECK: invariant-switch.c:[[@LINE+3]]:3: note: loop nest not analyzed: switch on 'kind' with a label (1) an earlier switch on it does not have: its cases do not decide this one
// JSON: "function": "mismatched_switches [kind: no case label]"
void mismatched_switches(float *y, int n, int kind) {
  for (int i = 0; i < n; ++i) {
    switch (kind) {
    case 0: y[i] *= 2.0f; break;
    }
    switch (kind) {
    case 1: y[i] += 1.0f; break;
    }
  }
}
