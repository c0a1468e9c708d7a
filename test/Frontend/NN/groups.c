// Grouped loops as quantized and grouped-query code writes them: a loop
// variable divided by a size, a step that is a size, and a bound or a
// pointer chosen per iteration by a condition on the loop variable.
// RUN: roofline-lint --dump-ir %s | FileCheck %s
// RUN: roofline-lint --verbosity=normal --no-source --param G=4 --param n=16 --param d=3 --param H=6 --param KV=2 --param K=6 --param N=10 --param hs=5 %s 2>&1 | FileCheck %s --check-prefix=NUM
// RUN: roofline-lint --verbosity=normal --no-source --param G=4 --param n=18 --param N=10 --param K=6 %s 2>&1 | FileCheck %s --check-prefix=BAD

int G; // group size, set by a loader

// i / G: the loop runs as n/G groups of G, G dividing n stated.
// CHECK-LABEL: nest @scale
// CHECK: param n/G = ? (derived) = n / G
// CHECK: condition -G*n/G + n >= 0 (G divides n)
// CHECK: for i_g = 0 to n/G - 1
// CHECK-NEXT: for i_r = 0 to G - 1
// CHECK: write x[i_g][i_r]
// CHECK: read s[i_g]
// NUM: groups.c:[[@LINE+3]]:3: note: 0 MACs, 16 FLOPs (f32: 16); 96 bytes compulsory
// BAD: groups.c:[[@LINE+2]]:3: note: loop nest not analyzed: the sizes break an assumption the counts need: G divides n
void scale(float *x, const signed char *q, const float *s, int n) {
  for (int i = 0; i < n; i++)
    x[i] = q[i] * s[i / G];
}

// j += G up to j <= n - G: n/G groups, j = G*j_g; (i*n + j) / G and j / G
// are exact quotients.
// CHECK-LABEL: nest @dot
// CHECK: condition G - 1 >= 0 (G > 0 (the size of a group))
// CHECK: for j_g = 0 to n/G - 1
// CHECK: read w[i][j_g][k]
// CHECK: read ws[i][j_g]
// CHECK: read xs[j_g]
// BAD: groups.c:[[@LINE+3]]:3: note: loop nest not analyzed: the sizes break an assumption the counts need: G divides n
// NUM: groups.c:[[@LINE+2]]:3: note: 60 MACs, 132 FLOPs (f32: 132); 332 bytes compulsory
void dot(float *y, const float *x, const float *w, const float *xs, const float *ws, int n, int d) {
  for (int i = 0; i < d; i++) {
    float acc = 0.0f;
    for (int j = 0; j <= n - G; j += G) {
      float part = 0.0f;
      for (int k = 0; k < G; k++)
        part += x[j + k] * w[i * n + j + k];
      acc += part * ws[(i * n + j) / G] * xs[j / G];
    }
    y[i] = acc;
  }
}

// Grouped-query heads: kv_mul = H / KV query heads share a key head.
// CHECK-LABEL: nest @gqa
// CHECK: for h_g = 0 to KV - 1
// CHECK-NEXT: for h_r = 0 to kv_mul - 1
// CHECK: read k[h_g][i]
// NUM: groups.c:[[@LINE+3]]:3: note: 30 MACs, 60 FLOPs (f32: 60); 184 bytes compulsory
void gqa(float *out, const float *q, const float *k, int H, int KV, int hs) {
  int kv_mul = H / KV;
  for (int h = 0; h < H; h++) {
    float s = 0.0f;
    for (int i = 0; i < hs; i++)
      s += q[h * hs + i] * k[(h / kv_mul) * hs + i];
    out[h] = s;
  }
}

// A bound chosen per iteration: the loop splits at K; below it the inner
// loop runs twice, over a and then b (v == 0 picks a). At N=10, K=6 (by
// hand): 6*2 + 4 = 16 multiplies; a's 10 elements and b's 6 read and written.
// CHECK-LABEL: nest @rotate
// CHECK: for i_parts = 0 to 0
// CHECK: for v = 0 to 0
// NUM: groups.c:[[@LINE+3]]:3: note: 0 MACs, 16 FLOPs (f32: 16); 128 bytes compulsory
// BAD: groups.c:[[@LINE+2]]:3: note: 0 MACs, 16 FLOPs (f32: 16); 128 bytes compulsory
void rotate(float *a, float *b, int N, int K) {
  for (int i = 0; i < N; i++) {
    int n = i < K ? 2 : 1;
    for (int v = 0; v < n; v++) {
      float *p = v == 0 ? a : b;
      p[i] = p[i] * 2.0f;
    }
  }
}

// The same with a stride: i = 2*i_s, its start raised to ceil(K/2). At
// N=10, K=6: i = 0, 2, 4 rotate both (12), i = 6, 8 only a (4).
// NUM: groups.c:[[@LINE+3]]:3: note: 0 MACs, 16 FLOPs (f32: 16); 128 bytes compulsory
// BAD: groups.c:[[@LINE+2]]:3: note: 0 MACs, 16 FLOPs (f32: 16); 128 bytes compulsory
void pairs(float *a, float *b, int N, int K) {
  for (int i = 0; i < N; i += 2) {
    int n = i < K ? 2 : 1;
    for (int v = 0; v < n; v++) {
      float *p = v == 0 ? a : b;
      p[i] = p[i] * 2.0f;
      p[i + 1] = p[i + 1] * 2.0f;
    }
  }
}

// Refused, with the reason: two choices would split one loop twice.
// NUM: groups.c:[[@LINE+2]]:3: note: loop nest not analyzed: a second condition splits the loop over 'i' into ranges
void twice(float *a, int N, int K) {
  for (int i = 0; i < N; i++) {
    int n = i < K ? 2 : 1;
    int m = i < 3 ? 1 : 0;
    for (int v = 0; v < n + m; v++)
      a[i] += 1.0f;
  }
}

// Refused: a step that is a size, from 1.
// NUM: groups.c:[[@LINE+2]]:3: note: loop nest not analyzed: loop over 'j' with the step 'j += G' does not start at 0
void offset(float *a, int n) {
  for (int j = 1; j < n; j += G)
    a[j] = 0.0f;
}
