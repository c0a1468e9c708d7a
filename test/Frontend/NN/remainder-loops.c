// The remainder loop of a loop unrolled by hand (kann's kautodiff.c, issue
// 18): `for (; i < n; ++i)` starts where the code before it left i. Counted
// exactly where that value is certain (LowerLoopStart.cpp): the loop before,
// `for (i = 0; i < n8; i += 8)`, leaves i at n8 = 8*floor(n/8) (0 and n8 are
// multiples of 8), a loop whose bound is no multiple of its step leaves it at
// a quotient size (`i < n` by 8: 8*((n + 7)/8)); an assignment or the
// declaration gives it otherwise.
// Anything else is refused with the reason.
// RUN: roofline-lint --verbosity=normal --no-source --param n=21 %s 2>&1 | FileCheck %s --check-prefix=NUM
// RUN: roofline-lint --verbosity=normal --no-source --param n=16 %s 2>&1 | FileCheck %s --check-prefix=EVEN
// RUN: roofline-lint --verbosity=normal --no-source --param n=5 %s 2>&1 | FileCheck %s --check-prefix=SMALL
// RUN: roofline-lint --verbosity=normal --no-source --param n=21 %s 2>&1 | FileCheck %s --check-prefix=WHY

void saxpy(int n, float a, const float *x, float *y) {
  int i, n8 = n >> 3 << 3;
  // n = 21: two unrolled iterations, then five; n = 16: no remainder;
  // n = 5 < 8: the unrolled loop runs no iteration.
// NUM: remainder-loops.c:[[@LINE+3]]:3: note: 16 MACs, 32 FLOPs (f32: 32); 192 bytes compulsory
// EVEN: remainder-loops.c:[[@LINE+2]]:3: note: 16 MACs, 32 FLOPs (f32: 32); 192 bytes compulsory
// SMALL: remainder-loops.c:[[@LINE+1]]:3: note: 0 MACs, 0 FLOPs; 0 bytes compulsory
  for (i = 0; i < n8; i += 8) {
    y[i] += a * x[i];
    y[i + 1] += a * x[i + 1];
    y[i + 2] += a * x[i + 2];
    y[i + 3] += a * x[i + 3];
    y[i + 4] += a * x[i + 4];
    y[i + 5] += a * x[i + 5];
    y[i + 6] += a * x[i + 6];
    y[i + 7] += a * x[i + 7];
  }
// NUM: remainder-loops.c:[[@LINE+3]]:3: note: 5 MACs, 10 FLOPs (f32: 10); 60 bytes compulsory
// EVEN: remainder-loops.c:[[@LINE+2]]:3: note: 0 MACs, 0 FLOPs; 0 bytes compulsory
// SMALL: remainder-loops.c:[[@LINE+1]]:3: note: 5 MACs, 10 FLOPs (f32: 10); 60 bytes compulsory
  for (; i < n; ++i)
    y[i] += a * x[i];
}

// The init sets the accumulator, not i (kad_sdot).
float sdot(int n, const float *x, const float *y) {
  int i, n8 = n >> 3 << 3;
  float s = 0, t = 0;
  for (i = 0; i < n8; i += 8)
    t += x[i] * y[i];
// NUM: remainder-loops.c:[[@LINE+3]]:3: note: 5 MACs, 10 FLOPs (f32: 10); 40 bytes compulsory
// EVEN: remainder-loops.c:[[@LINE+2]]:3: note: 0 MACs, 0 FLOPs; 0 bytes compulsory
// SMALL: remainder-loops.c:[[@LINE+1]]:3: note: 5 MACs, 10 FLOPs (f32: 10); 40 bytes compulsory
  for (s = 0.f; i < n; ++i)
    s += x[i] * y[i];
  return s + t;
}

// A step of 1 leaves i at max(S, B); an assignment and a declaration give
// the start too.
void starts(int n, float a, const float *x, float *y) {
  int i;
  for (i = 0; i < 3; ++i)
    y[i] += a * x[i];
// NUM: remainder-loops.c:[[@LINE+2]]:3: note: 18 MACs, 36 FLOPs (f32: 36); 216 bytes compulsory
// SMALL: remainder-loops.c:[[@LINE+1]]:3: note: 2 MACs, 4 FLOPs (f32: 4); 24 bytes compulsory
  for (; i < n; ++i)
    y[i] += a * x[i];
  i = 2;
// NUM: remainder-loops.c:[[@LINE+2]]:3: note: 19 MACs, 38 FLOPs (f32: 38); 228 bytes compulsory
// SMALL: remainder-loops.c:[[@LINE+1]]:3: note: 3 MACs, 6 FLOPs (f32: 6); 36 bytes compulsory
  for (; i < n; ++i)
    y[i] += a * x[i];
  int j = 1;
// NUM: remainder-loops.c:[[@LINE+2]]:3: note: 20 MACs, 40 FLOPs (f32: 40); 240 bytes compulsory
// SMALL: remainder-loops.c:[[@LINE+1]]:3: note: 4 MACs, 8 FLOPs (f32: 8); 48 bytes compulsory
  for (; j < n; ++j)
    y[j] += a * x[j];
  // i <= 6 stops at 7; n = 5: the loop before leaves i at 7, none left.
  for (i = 0; i <= 6; ++i)
    y[i] += a * x[i];
// NUM: remainder-loops.c:[[@LINE+2]]:3: note: 14 MACs, 28 FLOPs (f32: 28); 168 bytes compulsory
// SMALL: remainder-loops.c:[[@LINE+1]]:3: note: 0 MACs, 0 FLOPs; 0 bytes compulsory
  for (; i < n; ++i)
    y[i] += a * x[i];
}

void changed_between(int n, float a, const float *x, float *y) {
  int i, n8 = n >> 3 << 3;
  for (i = 0; i < n8; i += 8)
    y[i] += a * x[i];
  i++;
// WHY: remainder-loops.c:[[@LINE+1]]:3: note: loop nest not analyzed: loop variable 'i' starts where earlier code left it, and this statement changes 'i' in a way not followed (its starting value is unknown)
  for (; i < n; ++i)
    y[i] += a * x[i];
}

void unknown_start(int n, int i, float a, const float *x, float *y) {
// WHY: remainder-loops.c:[[@LINE+1]]:3: note: loop nest not analyzed: loop variable 'i' starts where earlier code left it, and it is no plain local of this function (its starting value is unknown)
  for (; i < n; ++i)
    y[i] += a * x[i];
}

void no_value(int n, float a, const float *x, float *y) {
  int i;
// WHY: remainder-loops.c:[[@LINE+1]]:3: note: loop nest not analyzed: loop variable 'i' starts where earlier code left it, and its declaration gives no value
  for (; i < n; ++i)
    y[i] += a * x[i];
}

void set_outside(int n, float a, const float *x, float *y) {
  int i = 0;
  {
// WHY: remainder-loops.c:[[@LINE+1]]:5: note: loop nest not analyzed: loop variable 'i' starts where earlier code left it, and nothing before it in its block sets 'i' (its starting value is unknown)
    for (; i < n; ++i)
      y[i] += a * x[i];
  }
}

// A step of 8 up to n, no multiple of 8 by construction: the loop leaves i
// at 8*((n + 7)/8), a quotient size (24 at n = 21, 8 at n = 5), and the
// remainder runs from there to n + 7.
void exit_stepped(int n, float a, const float *x, float *y) {
  int i;
  for (i = 0; i < n; i += 8)
    y[i] += a * x[i];
// NUM: remainder-loops.c:[[@LINE+2]]:3: note: 5 MACs, 10 FLOPs (f32: 10); 60 bytes compulsory
// SMALL: remainder-loops.c:[[@LINE+1]]:3: note: 5 MACs, 10 FLOPs (f32: 10); 60 bytes compulsory
  for (; i < n + 8; ++i)
    y[i] += a * x[i];
}

void bound_changed(int n, int m, float a, const float *x, float *y) {
  int i;
  i = m;
  m = 0;
// WHY: remainder-loops.c:[[@LINE+1]]:3: note: loop nest not analyzed: 'm', in the start of loop variable 'i', changes before the loop
  for (; i < n; ++i)
    y[i] += a * x[i];
}

void ends_early(int n, float a, const float *x, float *y) {
  int i, n8 = n >> 3 << 3;
  for (i = 0; i < n8; i += 8)
    if (x[i] > 0)
      break;
// WHY: remainder-loops.c:[[@LINE+1]]:3: note: loop nest not analyzed: loop variable 'i' starts where the loop before it left it, and that loop may end early (where it leaves 'i' is unknown)
  for (; i < n; ++i)
    y[i] += a * x[i];
}
