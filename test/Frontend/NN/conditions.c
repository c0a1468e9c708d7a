// Conditions, by what they depend on (docs/design.md, "Conditions").
// RUN: roofline-lint --dump-ir %s | FileCheck %s
// RUN: roofline-lint --verbosity=normal --no-source --param T=6 --param N=10 %s | FileCheck %s --check-prefix=NUM
#include <stddef.h>

// Affine: a causal mask as the whole body narrows the loop exactly.
// CHECK-LABEL: nest @causal
// CHECK: for t2 = 0 to t @
// NUM: conditions.c:[[@LINE+2]]:3: note: 0 MACs, 21 FLOPs (f32: 21); 168 bytes compulsory
void causal(float *att, int T) {
  for (int t = 0; t < T; t++)
    for (int t2 = 0; t2 < T; t2++)
      if (t2 <= t)
        att[t * T + t2] *= 0.5f;
}
// CHECK-LABEL: nest @skip
// CHECK: for t2 = 0 to t @
// NUM: conditions.c:[[@LINE+2]]:3: note: 0 MACs, 21 FLOPs (f32: 21); 168 bytes compulsory
void skip(float *att, int T) {
  for (int t = 0; t < T; t++)
    for (int t2 = 0; t2 < T; t2++) {
      if (t2 > t)
        continue;
      att[t * T + t2] *= 0.5f;
    }
}

// An if/else that is the whole body runs as two loops, in order: 21
// elements scaled (read and written), 15 zeroed (written).
// CHECK-LABEL: nest @mask
// CHECK: for t2 = 0 to t @
// CHECK: readwrite att[t][t2]
// CHECK: for t2 = t + 1 to T - 1 @
// CHECK: write att[t][t2]
// NUM: conditions.c:[[@LINE+2]]:3: note: 0 MACs, 21 FLOPs (f32: 21); 228 bytes compulsory
void mask(float *att, int T) {
  for (int t = 0; t < T; t++)
    for (int t2 = 0; t2 < T; t2++) {
      if (t2 <= t)
        att[t * T + t2] *= 0.5f;
      else
        att[t * T + t2] = 0.0f;
    }
}

// A condition on only part of a body guards a loop of at most one
// iteration (partial-guards.c): 10 + 3 stores.
// CHECK-LABEL: nest @part
// CHECK: for __if1 = 0 to min(0, -i + 2) @
// NUM: conditions.c:[[@LINE+2]]:3: note: 0 MACs, 0 FLOPs; 52 bytes compulsory
void part(float *a, float *b, int N) {
  for (int i = 0; i < N; i++) {
    b[i] = 1.0f;
    if (i < 3)
      a[i] = 2.0f;
  }
}

// Loop-invariant: one nest per case when no value is known.
// CHECK-LABEL: nest @bias_add [bias != NULL]
// CHECK-NEXT: case bias != NULL
// CHECK: read bias[o]
// CHECK-LABEL: nest @bias_add [bias == NULL]
// CHECK-NEXT: case bias == NULL
// CHECK-NOT: bias[
// NUM: conditions.c:[[@LINE+5]]:3: remark: bias_add [bias != NULL]:
// NUM: conditions.c:[[@LINE+4]]:3: note: 0 MACs, 0 FLOPs; 80 bytes compulsory
// NUM: conditions.c:[[@LINE+3]]:3: remark: bias_add [bias == NULL]:
// NUM: conditions.c:[[@LINE+2]]:3: note: 0 MACs, 0 FLOPs; 40 bytes compulsory
void bias_add(float *out, const float *bias, int N) {
  for (int o = 0; o < N; o++)
    out[o] = (bias != NULL) ? bias[o] : 0.0f;
}

// Every call passes an array: only that case.
// CHECK-LABEL: nest @scaled
// CHECK-NOT: {{^}}case
// CHECK: read s[i]
static void scaled(float *x, const float *s, int N) {
  for (int i = 0; i < N; i++)
    if (s)
      x[i] *= s[i];
}
void use_scaled(float *x) {
  static float s[64];
  scaled(x, s, 64);
}

// Data-dependent: the compare is counted; the branches may only update
// scalars or write the same elements; their work is a range.
// CHECK-LABEL: nest @running_max
// CHECK: read x[i]
// CHECK-NEXT: ops f32: cmp=1
// NUM: conditions.c:[[@LINE+3]]:3: note: 0 MACs, 10 FLOPs (f32: 10); 40 bytes compulsory
void running_max(const float *x, float *out, int N) {
  float m = -1e30f;
  for (int i = 0; i < N; i++)
    if (x[i] > m)
      m = x[i];
  out[0] = m;
}
// CHECK-LABEL: nest @leaky
// CHECK: ops f32: cmp=1
// CHECK-NEXT: maybe f32: mul=1
// NUM: conditions.c:[[@LINE+4]]:3: note: 0 MACs, 10 to 20 FLOPs (f32: 20); 80 bytes compulsory
// NUM: conditions.c:[[@LINE+3]]:3: note: as formulas: MACs = 0, FLOPs = N to 2*N, bytes compulsory = 8*N
// NUM: conditions.c:[[@LINE+2]]:3: note: data-dependent branches: the work is a range, from 10 to 20 FLOPs; the verdict takes the upper end
void leaky(float *y, const float *x, int N) {
  for (int i = 0; i < N; i++)
    y[i] = x[i] > 0.0f ? x[i] : 0.01f * x[i];
}
// NUM: conditions.c:[[@LINE+2]]:3: note: loop nest not analyzed: data-dependent branch writes 'y' elements only on some of its paths: the bytes depend on the data
void one_sided(float *y, const float *x, int N) {
  for (int i = 0; i < N; i++)
    if (x[i] > 0.0f)
      y[i] = x[i];
}
