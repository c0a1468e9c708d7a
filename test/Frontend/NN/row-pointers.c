// Pointers into arrays are the arrays themselves at an offset: the element
// x[i] of `x = inp + b*T*C + t*C` is inp[b][t][i], counted once per distinct
// address; pointer arithmetic is not work.
// RUN: roofline-lint --dump-ir %s | FileCheck %s
// RUN: roofline-lint --verbosity=normal --no-source --param B=2 --param T=3 --param C=4 %s | FileCheck %s --check-prefix=NUM

// CHECK-LABEL: nest @rows
// CHECK: array inp : f32[?][T][C] pointer
// CHECK: array out : f32[?][T][C] pointer
// CHECK: write out[b][t][i]
// CHECK-NEXT: read inp[b][t][i]
// CHECK-NEXT: ops f32: mul=1
// CHECK-NEXT: }
// NUM: row-pointers.c:[[@LINE+3]]:3: remark: rows:
// NUM: row-pointers.c:[[@LINE+2]]:3: note: 0 MACs, 24 FLOPs (f32: 24); 192 bytes compulsory
void rows(float *out, const float *inp, int B, int T, int C) {
  for (int b = 0; b < B; b++)
    for (int t = 0; t < T; t++) {
      const float *x = inp + b * T * C + t * C;
      float *o = out + b * T * C + t * C;
      for (int i = 0; i < C; i++)
        o[i] = x[i] * 2.0f;
    }
}

// &A[...], *p, p + k, a pointer set before the nest, a row of a 2-D array.
// The split into rows of N holds while A[i][j + 1] and A[0][j + 3] stay in
// their rows: stated, since N has no value.
// CHECK-LABEL: nest @forms
// CHECK-NEXT: param N = ? (argument)
// CHECK-NEXT: condition N - 7 >= 0 (rows of 'A' do not overlap)
// CHECK-NEXT: array A : f32[?][N] pointer
// CHECK: array M : f32[8][16]
// CHECK: read A[i][j]
// CHECK-NEXT: read A[i][j + 1]
// CHECK-NEXT: read M[i][j]
// CHECK-NEXT: read A[0][j + 3]
// NUM: row-pointers.c:[[@LINE+4]]:3: note: 0 MACs, 48 FLOPs (f32: 48); 216 bytes compulsory
void forms(float *A, float *out, int N) {
  float M[8][16] = {0};
  const float *shifted = A + 3;
  for (int i = 0; i < 4; i++) {
    const float *row = &A[i * N];
    const float *mrow = M[i];
    for (int j = 0; j < 4; j++)
      out[i * 4 + j] = *(row + j) + row[j + 1] + mrow[j] + shifted[j];
  }
}

// A gather: the row comes from memory. Never counted as exact: the bytes
// are a range, one row of wte (16 bytes) to one per t (48; row-gathers.c).
// NUM: row-pointers.c:[[@LINE+2]]:3: note: 0 MACs, 0 FLOPs; 76 to 108 bytes compulsory, 108 bytes no-reuse
void embed(float *out, const int *tok, const float *wte, int T, int C) {
  for (int t = 0; t < T; t++) {
    int ix = tok[t];
    const float *w = wte + ix * C;
    for (int i = 0; i < C; i++)
      out[t * C + i] = w[i];
  }
}
// NUM: row-pointers.c:[[@LINE+2]]:3: note: loop nest not analyzed: access 'v[idx[i]]': gather: the index 'idx[i]' of 'v' is loaded from memory
void gather(float *out, const float *v, const int *idx, int N) {
  for (int i = 0; i < N; i++)
    out[i] = v[idx[i]];
}

// A pointer reassigned inside the nest is refused by name where a use may
// see another iteration's value (here the use comes first in the body).
// NUM: row-pointers.c:[[@LINE+3]]:3: note: loop nest not analyzed: access 'p[1]': pointer 'p', which the nest advances, is not affine in the loop variables: 'p' is written or aliased by 'p = A + i'
void advanced(float *A, int N) {
  float *p = A;
  for (int i = 0; i < N; i++) {
    p[1] = 1.0f;
    p = A + i;
    p[0] = 1.0f;
  }
}

// Assigned first in the body, before every use: a declaration there
// (test/NN/bodyassign.test).
// CHECK-LABEL: nest @assigned_first
// CHECK: write A[i]
// NUM: row-pointers.c:[[@LINE+3]]:3: remark: assigned_first:
void assigned_first(float *A, int N) {
  float *p;
  for (int i = 0; i < N; i++) {
    p = A + i;
    p[0] = 1.0f;
  }
}
