// A loop that stops early on the data (issue 18; docs/design.md "Early
// exits"): `if (c) return i;` or `if (c) break;` as the last statement of
// its body, c depending on the data. The condition counts on every
// iteration that runs, and the work and the compulsory bytes are a range:
// from the loop's first iteration per entry (every exit taken at once) to
// all of them (none taken). Loads, stores, no-reuse bytes and iterations
// depend on where it stops and are not given. Where no such range holds,
// the nest stays refused with the reason. The same nests, run and counted,
// are checked against the instrumented run in test/NN/exits.test; the
// differential's form `exit` draws them.
// RUN: roofline-lint --dump-ir %s -- 2>&1 | FileCheck %s --check-prefix=IR
// RUN: roofline-lint --verbosity=normal --no-source --param n=8 --param R=3 --param C=5 %s 2>&1 | FileCheck %s
// RUN: roofline-lint --format=json --param n=8 --nest=sample_mult %s 2>/dev/null | FileCheck %s --check-prefix=JSON
// RUN: roofline-lint --model=cache --param n=8 --nest=sample_mult %s 2>&1 | FileCheck %s --check-prefix=CACHE
// RUN: roofline-lint --emit=%t.emit --nest=sample_mult --param n=8 %s | FileCheck %s --check-prefix=EMIT

// llama2.c's sample_mult: 8 adds and 8 compares at most, 1 of each at least;
// 4 to 32 bytes of the probabilities. The cache model would run every
// iteration: it gives no verdict.
// IR: nest @sample_mult
// IR: for i = 0 to n - 1 exits-early
// CHECK: early-exits.c:[[@LINE+7]]:3: note: 0 MACs, 2 to 16 FLOPs (f32: 16); 4 to 32 bytes compulsory, no-reuse bytes unknown (where the loop at line [[@LINE+7]] stops depends on the data)
// CHECK: early-exits.c:[[@LINE+6]]:3: note: as formulas: MACs = 0, FLOPs = 2 to 2*n, bytes compulsory = 4 to 4*n
// CHECK: early-exits.c:[[@LINE+5]]:3: note: early exit ('return') at line [[@LINE+7]] when 'coin < cdf', which depends on the data
// CHECK: early-exits.c:[[@LINE+4]]:3: note: early exit: the loop at line [[@LINE+4]] may stop after any iteration; the work is a range, from 2 FLOPs (it stops at its first iteration) to 16 (it never stops), and the compulsory bytes from 4 to 32; the lower end assumes it runs at least once; the verdict takes the upper end
// CACHE: early-exits.c:[[@LINE+3]]:3: remark: sample_mult: no verdict on rtx-a6000: cache model: where the loop at line [[@LINE+3]] stops depends on the data (an early exit)
int sample_mult(float *probabilities, int n, float coin) {
  float cdf = 0.0f;
  for (int i = 0; i < n; i++) {
    cdf += probabilities[i];
    if (coin < cdf)
      return i;
  }
  return n - 1;
}

// The counts' ranges, and the intensity at both ends (one run each).
// JSON: "functions": [
// JSON: "bytes": {
// JSON-NEXT: "compulsory": 32,
// JSON-NEXT: "compulsory_min": 4,
// JSON: "flops": 16,
// JSON-NEXT: "flops_min": 2,
// JSON: "nests": [
// JSON: "bytes": {
// JSON: "compulsory": 32,
// JSON-NEXT: "compulsory_min": 4,
// JSON-NEXT: "no_reuse": null
// JSON: "counts": {
// JSON: "flops": 16,
// JSON: "flops_min": 2,
// JSON: "loads": null,
// JSON: "intensity": {
// JSON-NEXT: "cache": null,
// JSON-NEXT: "compulsory": 0.5,
// JSON-NEXT: "compulsory_min": 0.5,

// A row's running sum, stopped at a limit: the inner loop may stop at its
// first element on every row; the rows all run, and out is written whole.
// CHECK: early-exits.c:[[@LINE+3]]:3: note: 0 MACs, 6 to 30 FLOPs (f32: 30); 24 to 72 bytes compulsory
// CHECK: early-exits.c:[[@LINE+2]]:3: note: as formulas: MACs = 0, FLOPs = 2*R to 2*C*R, bytes compulsory = 8*R to 4*C*R + 4*R
void capped_sums(float *out, const float *x, int R, int C, float lim) {
  for (int r = 0; r < R; r++) {
    float s = 0.0f;
    for (int i = 0; i < C; i++) {
      s += x[r * C + i];
      if (s > lim)
        break;
    }
    out[r] = s;
  }
}

// The exit's own loads count on every iteration that runs.
// CHECK: early-exits.c:[[@LINE+2]]:3: note: 0 MACs, 0 FLOPs; 4 to 32 bytes compulsory
int find_first(const int *keys, int n, int key) {
  for (int i = 0; i < n; i++)
    if (keys[i] == key)
      return i;
  return -1;
}

// llama2.c's sample_topp cut-off: the exit first records where it stopped,
// into a local the nest never reads.
// CHECK: early-exits.c:[[@LINE+4]]:3: note: 0 MACs, 2 to 16 FLOPs (f32: 16); 4 to 32 bytes compulsory
int last_below(const float *p, int n, float top) {
  float cum = 0.0f;
  int last = n - 1;
  for (int i = 0; i < n; i++) {
    cum += p[i];
    if (cum > top) {
      last = i;
      break;
    }
  }
  return last;
}

// --- Refused ---

// A record the nest reads: dropping it would change what the nest does.
// CHECK: early-exits.c:[[@LINE+3]]:3: note: loop nest not analyzed: early exit that records 'last', which the nest also reads or writes
int record_read(const float *p, int n, float top) {
  int last = n - 1;
  for (int i = 0; i < n; i++) {
    if (p[i] > top) {
      last = i;
      return last;
    }
  }
  return last;
}

// A record that computes: its work would run on the exit only.
// CHECK: early-exits.c:[[@LINE+3]]:3: note: loop nest not analyzed: early exit that records a computed value 'p[i] * 2.0f'
int record_computed(const float *p, int n, float top) {
  float best = 0.0f;
  for (int i = 0; i < n; i++) {
    if (p[i] > top) {
      best = p[i] * 2.0f;
      break;
    }
  }
  return (int)best;
}

// Work after the exit: the iteration that stops runs only part of its body.
// CHECK: early-exits.c:[[@LINE+2]]:3: note: loop nest not analyzed: early exit ('break') out of the loop
void exit_then_work(float *y, const float *x, int n) {
  for (int i = 0; i < n; i++) {
    if (x[i] < 0.0f)
      break;
    y[i] = x[i];
  }
}

// A return from the inner loop also skips the rest of the outer body.
// CHECK: early-exits.c:[[@LINE+2]]:3: note: loop nest not analyzed: early return under a data-dependent condition 'x[r * C + i] < 0.0f': the iterations that run depend on the data
int first_negative_row(const float *x, int R, int C) {
  for (int r = 0; r < R; r++)
    for (int i = 0; i < C; i++)
      if (x[r * C + i] < 0.0f)
        return r;
  return -1;
}

// A triangular loop may run no iteration on some entries (i = 0 here),
// where "its first iteration" would count one.
// CHECK: early-exits.c:[[@LINE+2]]:3: note: loop nest not analyzed: the loop at line [[@LINE+3]] stops early on the data and its bounds move with loop r: no lower end is known
void tri_capped(float *out, const float *x, int C, float lim) {
  for (int r = 0; r < C; r++)
    for (int i = 0; i < r; i++) {
      out[r] += x[i];
      if (out[r] > lim)
        break;
    }
}

// A returned value loaded from memory: one more load on the exit only.
// CHECK: early-exits.c:[[@LINE+2]]:3: note: loop nest not analyzed: early return of a computed value 'idx[i]' inside the nest
int pick(const float *p, const int *idx, int n, float coin) {
  for (int i = 0; i < n; i++)
    if (coin < p[i])
      return idx[i];
  return 0;
}

// An exit on loop variables stops the loop at a known point: not counted.
// CHECK: early-exits.c:[[@LINE+2]]:3: note: loop nest not analyzed: early exit ('break') out of the loop
void first_four(float *y, int n) {
  for (int i = 0; i < n; i++) {
    y[i] = 0.0f;
    if (i == 3)
      break;
  }
}

// No kernel is emitted for a nest that stops early: its exit is no
// statement of the IR.
// EMIT: not emitted: sample_mult:{{[0-9]+}}: cannot be emitted: {{.*}}early exit
