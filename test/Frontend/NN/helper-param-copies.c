// A helper's by-value integer parameter is its own copy of the argument:
// darknet's im2col_get_pixel starts with `row -= pad; col -= pad;` before it
// tests and subscripts them. Straight-line adjustments at the top of the
// helper's body (`p -= e`, `p = p - e`, `p += e`, `++p`, `p--`) bind the
// parameter to the argument's index adjusted by them, exactly; every nest
// below was refused as "'put' modifies its parameter 'i'". Any other change
// (under a condition, in a loop, address taken, after other statements, an
// unsigned copy, an argument that is no index) is still refused with that
// reason. Counts checked by the oracle in test/NN/paramcopies.test.
// RUN: roofline-lint --verbosity=normal --no-source --param n=6 --param pad=1 --param w=4 --param h=3 %s 2>&1 | FileCheck %s

// k - pad in [0, n): k = 1..5 at n = 6, pad = 1: 5 MACs; y read and
// written, x read, 5 elements each.
static void put(float *y, const float *x, int n, int i, int pad) {
  i -= pad;
  if (i >= 0 && i < n)
    y[i] += 3.0f * x[i];
}
// CHECK: helper-param-copies.c:[[@LINE+3]]:3: remark: scatter:
// CHECK: note: 5 MACs, 10 FLOPs (f32: 10); 60 bytes compulsory
void scatter(float *y, const float *x, int n, int pad) {
  for (int k = 0; k < n; k++)
    put(y, x, n, k, pad);
}

// Two parameters, two spellings: i = 1..2, j = 1..3 at h = 3, w = 4.
static void put2(float *y, const float *x, int w, int r, int c) {
  r -= 1;
  c = c - 1;
  if (r >= 0 && c >= 0)
    y[r * w + c] = x[r * w + c] * 0.5f;
}
// CHECK: helper-param-copies.c:[[@LINE+3]]:3: remark: scatter2:
// CHECK: note: 0 MACs, 6 FLOPs (f32: 6); 48 bytes compulsory
void scatter2(float *y, const float *x, int h, int w) {
  for (int i = 0; i < h; i++)
    for (int j = 0; j < w; j++)
      put2(y, x, w, i, j);
}

// Steps and a size: x[(i - 1)*w + j + 1], one element per iteration.
static float fetch(const float *x, int w, int r, int c) {
  --r;
  c -= w;
  c++;
  return x[r * w + c + w];
}
// CHECK: helper-param-copies.c:[[@LINE+3]]:3: remark: gather:
// CHECK: note: as formulas: MACs = 0, FLOPs = h*w - h - w + 1, bytes compulsory = 8*h*w - 8*h - 8*w + 8
void gather(float *y, const float *x, int h, int w) {
  for (int i = 1; i < h; i++)
    for (int j = 0; j < w - 1; j++)
      y[i * w + j] = 2.0f * fetch(x, w, i, j);
}

// Refused: a change under a condition (a clamp) is no straight-line copy.
static float clampat(const float *x, int row) {
  if (row < 0)
    row = 0;
  return x[row];
}
// CHECK: helper-param-copies.c:[[@LINE+2]]:3: note: loop nest not analyzed: 'clampat' modifies its parameter 'row'
void clamped(float *y, const float *x, int n) {
  for (int i = 0; i < n; i++)
    y[i] = clampat(x, i - 1);
}

// Refused: a step in the helper's loop.
static float twice(const float *x, int row) {
  float s = 0;
  for (int k = 0; k < 2; k++) {
    s += x[row];
    row++;
  }
  return s;
}
// CHECK: helper-param-copies.c:[[@LINE+2]]:3: note: loop nest not analyzed: 'twice' modifies its parameter 'row'
void looped(float *y, const float *x, int n) {
  for (int i = 0; i < n; i++)
    y[i] = twice(x, i);
}

// Refused: its address is taken after the adjustment.
static float viaptr(const float *x, int row) {
  row -= 1;
  int *p = &row;
  return x[*p];
}
// CHECK: helper-param-copies.c:[[@LINE+2]]:3: note: loop nest not analyzed: 'viaptr' modifies its parameter 'row'
void addressed(float *y, const float *x, int n) {
  for (int i = 1; i < n; i++)
    y[i] = viaptr(x, i);
}

// Refused: changed after a statement that reads it.
static float later(const float *x, int row) {
  float v = x[row];
  row -= 1;
  return v + x[row];
}
// CHECK: helper-param-copies.c:[[@LINE+2]]:3: note: loop nest not analyzed: 'later' modifies its parameter 'row'
void afterwards(float *y, const float *x, int n) {
  for (int i = 1; i < n; i++)
    y[i] = later(x, i);
}

// Refused: an unsigned copy wraps where the index would go negative.
static float uat(const float *x, unsigned row) {
  row -= 1;
  return x[row];
}
// CHECK: helper-param-copies.c:[[@LINE+2]]:3: note: loop nest not analyzed: 'uat' modifies its parameter 'row'
void unsignedrow(float *y, const float *x, int n) {
  for (int i = 1; i < n; i++)
    y[i] = uat(x, i);
}

// Refused: the argument is no index (a remainder), so neither is the copy.
static float opaque(const float *x, int row, int pad) {
  row -= pad;
  return x[row];
}
// CHECK: helper-param-copies.c:[[@LINE+2]]:3: note: loop nest not analyzed: 'opaque' modifies its parameter 'row', whose argument is no index
void scrambled(float *y, const float *x, int n, int pad) {
  for (int i = 0; i < n; i++)
    y[i] = opaque(x, (i * i) % n, pad);
}

// Refused: the adjustment is no index.
static float halved(const float *x, int row, int pad) {
  row = row * row;
  return x[row];
}
// CHECK: helper-param-copies.c:[[@LINE+2]]:3: note: loop nest not analyzed: 'halved' modifies its parameter 'row': non-affine index expression 'row * row'
void squared(float *y, const float *x, int n, int pad) {
  for (int i = 0; i < n; i++)
    y[i] = halved(x, i, pad);
}
