// Sizes as hand-written code has them: products, locals computed from
// sizes, struct fields, per-function --param.
// RUN: roofline-lint --dump-ir %s | FileCheck %s
// RUN: roofline-lint --no-source --param B=2 --param T=4 --param C=8 --param NH=2 --param dim=6 --param scale:N=5 --param N=7 %s | FileCheck %s --check-prefix=NUM

typedef struct {
  int dim;
  int n_heads;
} Config;

// B*T is a size; its formulas come out in B and T.
// CHECK-LABEL: nest @flat
// CHECK: param B*T = ? (product)
// CHECK: for i = 0 to B*T - 1
// NUM: sizes.c:[[@LINE+3]]:3: note: 64 MACs, 128 FLOPs (f32: 128); 512 bytes compulsory
// NUM: sizes.c:[[@LINE+2]]:3: note: as formulas: MACs = B*C*T, FLOPs = 2*B*C*T, bytes compulsory = 8*B*C*T
void flat(float *y, const float *x, int B, int T, int C) {
  for (int i = 0; i < B * T; i++)
    for (int c = 0; c < C; c++)
      y[i * C + c] = 2.0f * x[i * C + c] + 1.0f;
}

// hs = C / NH: a size of its own; C = NH*hs splits q, k and v rows.
// CHECK-LABEL: nest @heads
// CHECK: param hs = ? (derived) = C / NH
// CHECK: condition C - NH*hs >= 0 (NH divides C)
// CHECK: array qkv : f32[?][NH][hs] pointer
// CHECK: read qkv[3*t][h][i]
// CHECK-NEXT: read qkv[3*t + 1][h][i]
// NUM: sizes.c:[[@LINE+3]]:3: note: 32 MACs, 64 FLOPs (f32: 64); 288 bytes compulsory
void heads(float *out, const float *qkv, int T, int C, int NH) {
  int hs = C / NH;
  for (int t = 0; t < T; t++)
    for (int h = 0; h < NH; h++) {
      const float *q = qkv + t * 3 * C + h * hs;
      const float *k = qkv + t * 3 * C + C + h * hs;
      float s = 0.0f;
      for (int i = 0; i < hs; i++)
        s += q[i] * k[i];
      out[t * NH + h] = s;
    }
}

// Fields of a struct are sizes, given by path or by field name.
// CHECK-LABEL: nest @fields
// CHECK: param p->dim = ? (field)
// NUM: sizes.c:[[@LINE+2]]:3: note: 0 MACs, 6 FLOPs (f32: 6)
void fields(float *x, const Config *p) {
  for (int i = 0; i < p->dim; i++)
    x[i] *= 2.0f;
}

// --param scale:N=5 sizes N in scale only; elsewhere N=7.
// NUM: sizes.c:[[@LINE+2]]:3: note: 0 MACs, 5 FLOPs (f32: 5)
void scale(float *x, int N) {
  for (int i = 0; i < N; i++)
    x[i] *= 2.0f;
}
// NUM: sizes.c:[[@LINE+2]]:3: note: 0 MACs, 7 FLOPs (f32: 7)
void shift(float *x, int N) {
  for (int i = 0; i < N; i++)
    x[i] += 2.0f;
}
