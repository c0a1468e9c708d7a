// A local integer initialized with a constant, or with constants and
// locals folded already, and never written in the function is its value,
// as a compiler folds it (docs/user-guide.md, "What is folded"). One that
// is written (++, =, its address, a non-const reference) is not.
// RUN: roofline-lint --dump-ir %s | FileCheck %s
// RUN: roofline-lint --verbosity=normal --no-source --param dim=8 --param seq=4 --param pos=2 --param n=5 %s 2>&1 | FileCheck %s --check-prefix=NUM

void touch(int &v);

// A layer loop cut down to its first layer: l = 0, so loff = 0 and the
// key rows are exact rows of dim, with no 'l' left in the nest.
// CHECK-LABEL: nest @first_layer
// CHECK-NOT: param l
// CHECK-NOT: param loff
// CHECK: array kc : f32[?][dim]
// CHECK: read kc[t][i]
// NUM: const-locals.cpp:[[@LINE+8]]:3: note: 24 MACs, 48 FLOPs (f32: 48); 140 bytes compulsory
// NUM-NOT: overlap
void first_layer(float *att, const float *q, const float *kc,
                 const float *wq, int dim, int seq, int pos) {
  unsigned long long l = 0;
  int loff = l * seq * dim;
  const float *w = wq + l * dim * dim;
  (void)w;
  for (int t = 0; t <= pos; t++) {
    const float *k = kc + loff + t * dim;
    float s = 0.0f;
    for (int i = 0; i < dim; i++)
      s += q[i] * k[i];
    att[t] = s;
  }
}

// const, constexpr and a local computed from them: loop bounds of 8 and 2.
// CHECK-LABEL: nest @consts
// CHECK-NOT: param
// CHECK: for i = 0 to 7
// CHECK: for j = 0 to 1
// NUM: const-locals.cpp:[[@LINE+5]]:3: note: 16 MACs, 32 FLOPs (f32: 32)
void consts(float *y, const float *x) {
  const int n = 8;
  constexpr long m = 2;
  int nm = n * m;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      y[i * m + j] += 2.0f * x[i * m + j + nm - 16];
}

// Written later (l++): not folded, refused as a run-time variable.
// NUM: const-locals.cpp:[[@LINE+5]]:3: note: loop nest not analyzed: {{.*}}'l', a variable computed at run time
void stepped(float *y, const float *x, int n) {
  int l = 0;
  if (x[0] > 0)
    l++;
  for (int i = 0; i < n; i++)
    y[l * n + i] = x[i];
}

// Assigned: not folded.
// NUM: const-locals.cpp:[[@LINE+4]]:3: note: loop nest not analyzed: {{.*}}'l', a variable computed at run time
void assigned(float *y, const float *x, int n) {
  int l = 0;
  l = (int)x[0];
  for (int i = 0; i < n; i++)
    y[l * n + i] = x[i];
}

// Its address taken: not folded.
// NUM: const-locals.cpp:[[@LINE+4]]:3: note: loop nest not analyzed: {{.*}}'l', a variable computed at run time
void address(float *y, const float *x, int n, int **out) {
  int l = 0;
  *out = &l;
  for (int i = 0; i < n; i++)
    y[l * n + i] = x[i];
}

// Passed by non-const reference: not folded.
// NUM: const-locals.cpp:[[@LINE+4]]:3: note: loop nest not analyzed: {{.*}}'l', a variable computed at run time
void by_reference(float *y, const float *x, int n) {
  int l = 0;
  touch(l);
  for (int i = 0; i < n; i++)
    y[l * n + i] = x[i];
}

// Bound to a non-const reference: not folded.
// NUM: const-locals.cpp:[[@LINE+5]]:3: note: loop nest not analyzed: {{.*}}'l', a variable computed at run time
void ref_alias(float *y, const float *x, int n) {
  int l = 0;
  int &r = l;
  r = 3;
  for (int i = 0; i < n; i++)
    y[l * n + i] = x[i];
}

// Written inside the nest: not folded.
// NUM: const-locals.cpp:[[@LINE+3]]:3: note: loop nest not analyzed:
void in_nest(float *y, const float *x, int n) {
  int l = 0;
  for (int i = 0; i < n; i++) {
    y[l * n + i] = x[i];
    l = i;
  }
}
