// A local integer computed at run time before the nest, by a call or a load
// the analysis cannot follow (kann's `n = kad_len(q);`), has one value for the
// whole nest: it is a size of its own, named by the variable, with a note
// saying so. Only with one definition (its initializer or one assignment
// before the nest) and every other use a plain read; otherwise refused.
// RUN: roofline-lint --verbosity=normal --no-source %s 2>&1 | FileCheck %s
// RUN: roofline-lint --verbosity=normal --no-source --param numel_square:n=10 --param rows=3 %s 2>&1 | FileCheck %s --check-prefix=NUM

struct Node { float *x; int d[4]; };
int numel(const Node *T);
void fill(int *N);
void bump(int &N);

// CHECK: runtime-locals.cpp:[[@LINE+6]]:3: note: 0 MACs, n FLOPs (f32: n); 8*n bytes compulsory
// CHECK: runtime-locals.cpp:[[@LINE+5]]:3: note: size n = numel(q) is computed at run time: counted as a size of its own (give it with --param n=VALUE)
// NUM: runtime-locals.cpp:[[@LINE+4]]:3: note: 0 MACs, 10 FLOPs (f32: 10); 80 bytes compulsory
void numel_square(Node *p, const Node *q) {
  int i, n;
  n = numel(q);
  for (i = 0; i < n; ++i)
    p->x[i] = q->x[i] * q->x[i];
}

// A load (the shape's first extent) and a product with it.
// CHECK: runtime-locals.cpp:[[@LINE+6]]:3: note: 0 MACs, 2*rows FLOPs (f32: 2*rows); 16*rows bytes compulsory
// CHECK: runtime-locals.cpp:[[@LINE+5]]:3: note: size rows = q->d[0] is computed at run time: counted as a size of its own (give it with --param rows=VALUE)
// NUM: runtime-locals.cpp:[[@LINE+4]]:3: note: 0 MACs, 6 FLOPs (f32: 6); 48 bytes compulsory
void twice_rows(float *y, const float *x, const Node *q) {
  int rows = q->d[0];
  int n = rows * 2;
  for (int i = 0; i < n; ++i)
    y[i] = 2.0f * x[i];
}

// CHECK: runtime-locals.cpp:[[@LINE+5]]:3: note: loop nest not analyzed: 'n' is assigned 2 times in the function: its value at the nest is not one size
// (Set again under a condition, a clamp, it is a case: clamped-locals.c.)
void assigned_twice(float *y, const Node *q) {
  int n = numel(q);
  n = n - 1;
  for (int i = 0; i < n; ++i)
    y[i] = 0.0f;
}

// CHECK: runtime-locals.cpp:[[@LINE+4]]:3: note: loop nest not analyzed: 'n', a variable computed at run time
void address_taken(float *y) {
  int n = 0;
  fill(&n);
  for (int i = 0; i < n; ++i)
    y[i] = 0.0f;
}

// A reference bound to it may change it: not a plain read.
// CHECK: runtime-locals.cpp:[[@LINE+4]]:3: note: loop nest not analyzed: 'n' may change through its address or a reference
void by_reference(float *y, const Node *q) {
  int n = numel(q);
  bump(n);
  for (int i = 0; i < n; ++i)
    y[i] = 0.0f;
}

// Assigned after the nest: no value at the loop.
// CHECK: runtime-locals.cpp:[[@LINE+3]]:3: note: loop nest not analyzed: 'n' is assigned after the nest: it has no one value at the nest
void assigned_after(float *y, const Node *q) {
  int n;
  for (int i = 0; i < n; ++i)
    y[i] = 0.0f;
  n = numel(q);
}

// Defined inside the nest: a bound that changes per row.
// CHECK: runtime-locals.cpp:[[@LINE+2]]:3: note: loop nest not analyzed: call to 'numel' with unknown side effects
void per_row(float *y, const Node *q, int R) {
  for (int r = 0; r < R; ++r) {
    int n = numel(q + r);
    for (int i = 0; i < n; ++i)
      y[r * 16 + i] += 1.0f;
  }
}

// A const reference is a read: a derived size stays a size.
// CHECK: runtime-locals.cpp:[[@LINE+6]]:3: note: 0 MACs, 0 FLOPs; 4*hs bytes compulsory
template <class T> const T &smaller(const T &A, const T &B) { return B < A ? B : A; }
void const_ref(float *y, int C, int NH) {
  int hs = C / NH;
  int cap = smaller(hs, 64);
  (void)cap;
  for (int i = 0; i < hs; ++i)
    y[i] = 0.0f;
}
