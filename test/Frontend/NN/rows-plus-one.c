// Rows of length M+1 (a bias, then M weights: genann.c): a sum of sizes a
// loop variable multiplies is a row length of its own, "(I+1)", and rows
// that overflow it are no rows: one dimension at the sizes given
// (lib/Frontend/NestBuilder.cpp, flatAtSizes).
// RUN: roofline-lint --dump-ir %s | FileCheck %s
// RUN: roofline-lint --verbosity=normal --no-source --param H=5 --param I=7 --param L=2 %s 2>&1 | FileCheck %s --check-prefix=NUM

// CHECK-LABEL: nest @bias_rows
// CHECK: param (I+1) = ? (derived) = 1 + I
// CHECK: array w : f32[?][(I+1)] pointer
// CHECK: read w[j][0]
// CHECK: read w[j][k + 1]
// NUM: rows-plus-one.c:[[@LINE+2]]:3: note: 35 MACs, 75 FLOPs (f32: 75); 208 bytes compulsory
void bias_rows(float *out, const float *w, const float *in, int H, int I) {
  for (int j = 0; j < H; ++j) {
    float sum = w[j * (I + 1)] * -1.0f;
    for (int k = 0; k < I; ++k)
      sum += w[j * (I + 1) + k + 1] * in[k];
    out[j] = sum;
  }
}

// Walked by *w++: the pointer advances I+1 per row.
// CHECK-LABEL: nest @bias_rows_ptr
// CHECK: array weight : f32[?][(I+1)] pointer
// NUM: rows-plus-one.c:[[@LINE+3]]:3: note: 35 MACs, 75 FLOPs (f32: 75); 208 bytes compulsory
void bias_rows_ptr(float *out, const float *weight, const float *in, int H, int I) {
  const float *w = weight;
  for (int j = 0; j < H; ++j) {
    float sum = *w++ * -1.0f;
    for (int k = 0; k < I; ++k)
      sum += *w++ * in[k];
    out[j] = sum;
  }
}

// Layers of H rows of H+1: weight[h][j][k + 1].
// CHECK-LABEL: nest @stack
// CHECK: array weight : f32[?][H][(H+1)] pointer
// CHECK: read weight[h][j][k + 1]
// NUM: rows-plus-one.c:[[@LINE+2]]:3: note: 50 MACs, 100 FLOPs (f32: 100); 300 bytes compulsory
void stack(float *out, const float *weight, const float *in, int L, int H) {
  for (int h = 0; h < L; ++h)
    for (int j = 0; j < H; ++j)
      for (int k = 0; k < H; ++k)
        out[h * H + j] += weight[h * H * (H + 1) + j * (H + 1) + k + 1] * in[k];
}

// Rows of I+1 read I+2 wide overlap: no rows, one dimension at these sizes,
// w[8*j + k + 1] for j < 5, k < 8: 40 elements, and out's 5 read and written.
// NUM: rows-plus-one.c:[[@LINE+3]]:3: note: 0 MACs, 40 FLOPs (f32: 40); 200 bytes compulsory
// NUM: rows-plus-one.c:[[@LINE+2]]:3: note: 'w' is indexed as one dimension (rows of 'w' overlap at these sizes: 'k + 1' leaves its row of (I+1) elements
void too_wide(float *out, const float *w, int H, int I) {
  for (int j = 0; j < H; ++j)
    for (int k = 0; k < I + 1; ++k)
      out[j] += w[j * (I + 1) + k + 1];
}

// Rows of I-1 read I wide overlap too: w[6*j + k], 31 elements.
// NUM: rows-plus-one.c:[[@LINE+3]]:3: note: 0 MACs, 35 FLOPs (f32: 35); 164 bytes compulsory
// NUM: rows-plus-one.c:[[@LINE+2]]:3: note: 'w' is indexed as one dimension (rows of 'w' overlap at these sizes: 'k' leaves its row of (I-1) elements
void short_rows(float *out, const float *w, int H, int I) {
  for (int j = 0; j < H; ++j)
    for (int k = 0; k < I; ++k)
      out[j] += w[j * (I - 1) + k];
}
