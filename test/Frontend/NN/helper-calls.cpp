// Index helpers and lambdas (issue 18; LowerHelperCalls.cpp): an index a
// function or lambda computes by one `return e;` is e at the arguments; a
// lambda called inside a nest counts as its body; `float &` outputs write
// the caller's element or float scalar. Refused with the reason: a lambda
// copying a variable that changes, or an array; an index helper that loads
// (a gather) or is not affine; an `int &` bound to a local; a call whose
// result is an index the tool does not follow.
// RUN: roofline-lint --verbosity=normal --no-source --param n=16 %s -- -std=c++17 2>&1 | FileCheck %s

static inline int IDX(int r, int c, int ld) { return r * ld + c; }

// 16*16 MACs; A, B, C of 256 floats each: 3072 bytes.
void gemm_idx(float *C, const float *A, const float *B, int n) {
  auto at = [n](int r, int c) { return IDX(r, c, n); };
// CHECK: helper-calls.cpp:[[@LINE+1]]:3: note: 4,096 MACs, 8,192 FLOPs (f32: 8,192); 3,072 bytes compulsory
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      float s = 0.0f;
      for (int k = 0; k < n; k++)
        s += A[at(i, k)] * B[IDX(k, j, n)];
      C[at(i, j)] = s;
    }
}

// A butterfly through `float &` outputs: 2 FLOPs a pair, x and y read and
// written once (8 pairs, 128 bytes).
static inline void butterfly(float &a, float &b) {
  float t = a;
  a = t + b;
  b = t - b;
}
void butterflies(float *x, int n) {
// CHECK: helper-calls.cpp:[[@LINE+1]]:3: note: 0 MACs, 16 FLOPs (f32: 16); 128 bytes compulsory
  for (int i = 0; i < n / 2; i++)
    butterfly(x[2 * i], x[2 * i + 1]);
}

// The lambda made inside the loop adds to the captured sum.
float sum_sq(const float *x, int n) {
  float ss = 0.0f;
// CHECK: helper-calls.cpp:[[@LINE+1]]:3: note: 16 MACs, 32 FLOPs (f32: 32); 64 bytes compulsory
  for (int i = 0; i < n; i++) {
    auto add = [&](float v) { ss += v * v; };
    add(x[i]);
  }
  return ss;
}

void stale_copy(float *y, const float *x, int n) {
  int off = 1;
  auto at = [off](int i) { return i + off; };
  off = 0;
// CHECK: helper-calls.cpp:[[@LINE+1]]:3: note: loop nest not analyzed: access 'x[at(i)]': lambda 'at' captures 'off' by copy, and 'off' changes in the function
  for (int i = 0; i < n; i++)
    y[i] = x[at(i)];
}

void copied_array(float *y, int n) {
  float w[4] = {1, 2, 3, 4};
  auto scale = [w](float v) { return v * w[0]; };
// CHECK: helper-calls.cpp:[[@LINE+1]]:3: note: loop nest not analyzed: lambda 'scale' copies 'w', an array or object
  for (int i = 0; i < n; i++)
    y[i] = scale(y[i]);
}

static int perm[64];
static inline int permuted(int i) { return perm[i]; }
void gathered(float *y, const float *x, int n) {
// CHECK: helper-calls.cpp:[[@LINE+1]]:3: note: loop nest not analyzed: access 'x[permuted(i)]': gather: the index 'permuted(i)' of 'x' is loaded from memory
  for (int i = 0; i < n; i++)
    y[i] = x[permuted(i)];
}

int next_index(int i);
void opaque(float *y, const float *x, int n) {
// CHECK: helper-calls.cpp:[[@LINE+1]]:3: note: loop nest not analyzed: access 'x[next_index(i)]': the index 'next_index(i)' of 'x' is what a call returns, which the tool does not follow
  for (int i = 0; i < n; i++)
    y[i] = x[next_index(i)];
}

static inline void bump(int &k, float *y) { y[k] += 1.0f; }
void int_ref(float *y, int n) {
  int k = 0;
// CHECK: helper-calls.cpp:[[@LINE+1]]:3: note: loop nest not analyzed: argument 'k' of 'bump': 'k', an integer passed by reference, may be changed by the call
  for (int i = 0; i < n; i++)
    bump(k, y);
}

// Getters: sizes and offsets through a class's const methods, its fields
// named through the object (g.h_, p->w_), or plainly in its own methods
// (h_). 8 rows of 4 when the fields have values.
// RUN: roofline-lint --verbosity=normal --no-source --param g.h_=8 --param g.w_=4 '--param=p->h_=8' '--param=p->w_=4' --param h_=8 --param w_=4 %s -- -std=c++17 2>&1 | FileCheck %s --check-prefix=GET
struct Grid {
  int height() const { return h_; }
  int width() const { return w_; }
  int offset(int y, int x) const { return y * w_ + x; }
  void halve() {
// GET: helper-calls.cpp:[[@LINE+1]]:5: note: 0 MACs, 32 FLOPs (f32: 32); 256 bytes compulsory
    for (int y = 0; y < height(); y++)
      for (int x = 0; x < width(); x++)
        cells_[offset(y, x)] *= 0.5f;
  }
  int h_, w_;
  float *cells_;
};
void halve_ref(Grid &g) {
// GET: helper-calls.cpp:[[@LINE+1]]:3: note: 0 MACs, 32 FLOPs (f32: 32); 256 bytes compulsory
  for (int y = 0; y < g.height(); y++)
    for (int x = 0; x < g.width(); x++)
      g.cells_[g.offset(y, x)] *= 0.5f;
}
void halve_ptr(Grid *p) {
// GET: helper-calls.cpp:[[@LINE+1]]:3: note: 0 MACs, 32 FLOPs (f32: 32); 256 bytes compulsory
  for (int y = 0; y < p->height(); y++)
    for (int x = 0; x < p->width(); x++)
      p->cells_[p->offset(y, x)] *= 0.5f;
}
