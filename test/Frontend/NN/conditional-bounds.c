// Conditional expressions `c ? a : b` in loop bounds, subscripts and pointer
// offsets (docs/user-guide.md, "Conditions"; genann.c's genann_train). A
// condition on loop variables splits the innermost loop it uses in two: its
// first or last value against the rest (`h == L - 1`, `h ? X : 0`), or the
// two sides of a comparison (`i < K`); each part is lowered with its
// operand, in the loop's order. A loop-invariant condition is a case of
// the nest; a data-dependent one is refused. Counts checked by the oracle
// in test/NN/condbounds.test.
// RUN: roofline-lint --dump-ir %s 2>&1 | FileCheck %s
// RUN: roofline-lint --verbosity=normal --no-source --param L=3 --param H=3 --param O=2 --param I=2 --param N=5 --param K=2 %s 2>&1 | FileCheck %s --check-prefix=NUM
// RUN: roofline-lint --verbosity=normal --no-source --param L=1 --param H=3 --param O=2 --param I=2 --param N=5 --param K=0 %s 2>&1 | FileCheck %s --check-prefix=ONE
// RUN: roofline-lint --format=json --param H=3 --param I=4 --param O=2 %s | FileCheck %s --check-prefix=JSON

// genann's hidden deltas: the last layer (the loop's first value) reads O
// deltas, the others H. L=3, H=3, O=2: 3*2 + 6*3 = 24 MACs.
// CHECK-LABEL: nest @deltas at
// CHECK:      for h = L - 1 to max(0, L - 1) step -1 @[[@LINE+8]]:3 {
// CHECK:          for k = 0 to O - 1 @
// CHECK:      for h = min(L - 1, L - 2) to 0 step -1 @[[@LINE+6]]:3 {
// CHECK:          for k = 0 to H - 1 @
// NUM: conditional-bounds.c:[[@LINE+4]]:3: note: 24 MACs, 48 FLOPs (f32: 48)
// At L=1 the second part is empty: 3*2 MACs.
// ONE: conditional-bounds.c:[[@LINE+2]]:3: note: 6 MACs, 12 FLOPs (f32: 12)
void deltas(float *d, const float *w, float *out, int L, int H, int O) {
  for (int h = L - 1; h >= 0; --h)
    for (int j = 0; j < H; ++j) {
      float s = 0;
      for (int k = 0; k < (h == L - 1 ? O : H); ++k)
        s += d[(h + 1) * H + k] * w[h * H * H + k * H + j];
      out[h * H + j] = s;
    }
}

// The loop's last value in a pointer offset and in a bound: `h ? X : 0`
// and `h == 0 ? I : H` are one split (h >= 1, then h = 0).
// CHECK-LABEL: nest @layers at
// CHECK:      for h = L - 1 to max(0, 1) step -1 @[[@LINE+8]]:3 {
// CHECK:          read x[h + 1][k]
// CHECK:      for h = min(L - 1, 0) to 0 step -1 @[[@LINE+6]]:3 {
// CHECK:          read x[0][k]
// I=2, L=3: 2*3*3 + 3*2 = 24 MACs. L=1: only h = 0, 6 MACs.
// NUM: conditional-bounds.c:[[@LINE+3]]:3: note: 24 MACs, 48 FLOPs (f32: 48)
// ONE: conditional-bounds.c:[[@LINE+2]]:3: note: 6 MACs, 12 FLOPs (f32: 12)
void layers(float *y, const float *x, const float *w, int L, int I, int H) {
  for (int h = L - 1; h >= 0; --h) {
    const float *in = x + (h ? H * (h + 1) : 0);
    for (int j = 0; j < H; ++j)
      for (int k = 0; k < (h == 0 ? I : H); ++k)
        y[h * H + j] += w[(h * H + j) * H + k] * in[k];
  }
}

// The first value of an upward loop in a subscript: 5 adds, 5 multiplies,
// x read once per element.
// CHECK-LABEL: nest @smooth at
// CHECK:      for i = 0 to min(N - 1, 0) @[[@LINE+4]]:3 {
// CHECK:      for i = max(0, 1) to N - 1 @[[@LINE+3]]:3 {
// NUM: conditional-bounds.c:[[@LINE+2]]:3: note: 0 MACs, 10 FLOPs (f32: 10); 40 bytes compulsory
void smooth(float *y, const float *x, int N) {
  for (int i = 0; i < N; ++i)
    y[i] = 0.5f * (x[i == 0 ? 0 : i - 1] + x[i]);
}

// The last value, and a comparison: rows below K are O long, the others H.
// CHECK-LABEL: nest @ragged at
// CHECK:      for i = 0 to min(N - 1, K - 1) @[[@LINE+8]]:3 {
// CHECK-NEXT:   for j = 0 to O - 1 @
// CHECK:      for i = max(0, K) to N - 1 @[[@LINE+6]]:3 {
// CHECK-NEXT:   for j = 0 to H - 1 @
// N=5, K=2: 2*2 + 3*3 = 13 adds. K=0: the first part is empty, 15.
// NUM: conditional-bounds.c:[[@LINE+3]]:3: note: 0 MACs, 13 FLOPs (f32: 13)
// ONE: conditional-bounds.c:[[@LINE+2]]:3: note: 0 MACs, 15 FLOPs (f32: 15)
void ragged(float *y, const float *x, int N, int K, int O, int H) {
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < (i < K ? O : H); ++j)
      y[i] += x[i * H + j];
}
// CHECK-LABEL: nest @last at
// CHECK:      for i = 0 to min(N - 1, N - 2) @[[@LINE+3]]:3 {
// CHECK:      for i = max(0, N - 1) to N - 1 @[[@LINE+2]]:3 {
void last(float *y, const float *x, int N) {
  for (int i = 0; i < N; ++i)
    y[i] = x[i == N - 1 ? i : i + 1];
}

// Loop-invariant: one nest per case where the sizes do not decide it,
// labelled in the text and in JSON; --param L picks one.
// CHECK-LABEL: nest @outputs [L] at
// CHECK-NEXT: case L
// CHECK:      for k = 0 to H - 1 @
// CHECK-LABEL: nest @outputs [!(L)] at
// CHECK-NEXT: case !(L)
// CHECK:      for k = 0 to I - 1 @
// NUM-NOT: outputs [
// NUM: conditional-bounds.c:[[@LINE+6]]:3: note: 6 MACs, 12 FLOPs (f32: 12)
// ONE: conditional-bounds.c:[[@LINE+5]]:3: note: 6 MACs, 12 FLOPs (f32: 12)
// JSON: "case": "L",
// JSON: "case": "!(L)",
void outputs(float *w, const float *d, const float *x, int L, int I, int H, int O) {
  const float *in = x + (L ? I + H * (L - 1) : 0);
  for (int j = 0; j < O; ++j)
    for (int k = 0; k < (L ? H : I); ++k)
      w[j * 8 + k] += d[j] * in[k];
}

// A comparison with an outer variable splits the inner loop.
// CHECK-LABEL: nest @lower_part at
// CHECK:        for j = 0 to i - 1 @[[@LINE+6]]:5 {
// CHECK-NEXT:     stmt
// CHECK:            read x[j]
// CHECK:        for j = i to N - 1 @[[@LINE+3]]:5 {
void lower_part(float *y, const float *x, int N) {
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j)
      y[i * N + j] = x[j < i ? j : i];
}

// Refused: a condition on the data, in a bound and in an offset.
// CHECK: skipped @by_data at {{.*}}: data-dependent loop bound 'g[i]'
void by_data(float *y, const float *g, int N, int O, int H) {
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < (g[i] > 0.0f ? O : H); ++j)
      y[i * H + j] = 0.0f;
}
// CHECK: skipped @offset_data at {{.*}}: pointer 'row' = 'y + (g[i] > 0.0f ? H : 0)': gather: the offset '(g[i] > 0.0f ? H : 0)' into 'y' is loaded from memory
void offset_data(float *y, const float *g, int N, int H) {
  for (int i = 0; i < N; ++i) {
    float *row = y + (g[i] > 0.0f ? H : 0);
    row[i] = 1.0f;
  }
}

// Refused: a value in the middle of the range is three ranges; two
// different conditions split one loop.
// CHECK: skipped @middle at {{.*}}: condition 'i == 2' in the index 'i == 2 ? 0 : i' does not split the loop over 'i' in two ranges: choice on 'i == 2' is not the first or the last value of 'i' against the rest
void middle(float *y, const float *x, int N) {
  for (int i = 0; i < N; ++i)
    y[i] = x[i == 2 ? 0 : i];
}
// CHECK: skipped @two at {{.*}}: a second condition, 'i == 0', splits the loop over 'i' into ranges
void two(float *y, const float *x, int N, int K, int O, int H) {
  for (int i = 0; i < N; ++i) {
    for (int j = 0; j < (i < K ? O : H); ++j)
      y[i] += x[i * H + j];
    for (int j = 0; j < (i == 0 ? O : H); ++j)
      y[i] += x[i * H + j];
  }
}
