// memset, memcpy, memmove and std::fill / fill_n / copy / copy_n inside a
// nest are the loops they stand for: one write per element (a copy reads the
// source element first), no FLOPs. The count is the size argument divided by
// the element size, exactly; anything else is refused with the reason.
// RUN: roofline-lint --dump-ir %s -- -std=c++17 | FileCheck %s
// RUN: roofline-lint --verbosity=normal --no-source --param C=8 --param T=3 --param n=6 --param N=5 %s -- -std=c++17 | FileCheck %s --check-prefix=NUM
#include <algorithm>
#include <cstring>

// CHECK-LABEL: nest @attend
// CHECK:      for i_set = 0 to C - 1 @[[@LINE+9]]:5 {
// CHECK-NEXT:   stmt @[[@LINE+8]]:5 {
// CHECK-NEXT:     write xb[i_set]
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-NEXT: for t = 0 to T - 1
// NUM: mem-calls.cpp:[[@LINE+2]]:3: note: 24 MACs, 48 FLOPs (f32: 48); 140 bytes compulsory
void attend(float *xb, const float *att, const float *v, int T, int C) {
  for (int t0 = 0; t0 < 1; t0++) {
    memset(xb, 0, C * sizeof(float));
    for (int t = 0; t < T; t++)
      for (int i = 0; i < C; i++)
        xb[i] += att[t] * v[t * C + i];
  }
}

// CHECK-LABEL: nest @copy_rows
// CHECK:      for i_copy = 0 to C - 1
// CHECK-NEXT:   stmt
// CHECK-NEXT:     read inp[t][i_copy]
// CHECK-NEXT:     write out[t][i_copy]
// NUM: mem-calls.cpp:[[@LINE+2]]:3: note: 0 MACs, 0 FLOPs; 192 bytes compulsory
void copy_rows(float *out, const float *inp, int T, int C) {
  for (int t = 0; t < T; t++)
    memcpy(out + t * C, inp + t * C, C * sizeof(*out));
}

// NUM: mem-calls.cpp:[[@LINE+2]]:3: note: 0 MACs, 0 FLOPs; 192 bytes compulsory
void clear(double *acc, int T, int C) {
  for (int t = 0; t < T; t++)
    std::memset(&acc[t * C], 0, sizeof(double) * C);
}

// NUM: mem-calls.cpp:[[@LINE+2]]:3: note: 0 MACs, 0 FLOPs; 32 bytes compulsory
void shift(float *buf, int N) {
  for (int r = 0; r < 1; r++)
    memmove(buf, buf + 1, (N - 1) * sizeof(float));
}

// CHECK-LABEL: nest @std_forms
// CHECK:      read inp[t][i_copy]
// CHECK-NEXT: write out[t][i_copy]
// CHECK:      for i_set = 0 to C - 1
// CHECK-NEXT:   stmt
// CHECK-NEXT:     write g[t][i_set]
// NUM: mem-calls.cpp:[[@LINE+2]]:3: note: 0 MACs, 24 FLOPs (f32: 24); 288 bytes compulsory
void std_forms(float *out, const float *inp, float *g, int T, int C) {
  for (int t = 0; t < T; t++) {
    std::copy(inp + t * C, inp + t * C + C, out + t * C);
    std::fill(g + t * C, g + (t + 1) * C, 0.0f);
    for (int i = 0; i < C; i++)
      g[t * C + i] += out[t * C + i];
  }
}

// NUM: mem-calls.cpp:[[@LINE+2]]:3: note: 0 MACs, 0 FLOPs; 128 bytes compulsory
void std_n(float *dst, const float *src, int T, int C) {
  for (int t = 0; t < T; t++) {
    std::fill_n(dst + t * C, C, 1.0f);
    std::copy_n(src, C, dst + t * C);
  }
}

// --- Refused ---

// NUM: mem-calls.cpp:[[@LINE+2]]:3: note: loop nest not analyzed: call to 'memset': its element count: the size 'C * 2 + 1' is not a multiple of the element size (4 bytes)
void odd(float *x, int T, int C) {
  for (int t = 0; t < T; t++)
    memset(x + t * C, 0, C * 2 + 1);
}

// NUM: mem-calls.cpp:[[@LINE+2]]:3: note: loop nest not analyzed: call to 'memcpy': its element count: {{.*}}len[t]{{.*}}
void data_size(float *dst, const float *src, const int *len, int T) {
  for (int t = 0; t < T; t++)
    memcpy(dst, src, len[t] * sizeof(float));
}

// NUM: mem-calls.cpp:[[@LINE+2]]:3: note: loop nest not analyzed: call to 'memcpy': it copies between different element types
void mixed(float *dst, const int *src, int T) {
  for (int t = 0; t < T; t++)
    memcpy(dst, src, 4 * sizeof(float));
}

// NUM: mem-calls.cpp:[[@LINE+2]]:3: note: loop nest not analyzed: call to '{{(std::)?}}fill': the value 'src[t]' is computed from data: only a constant or a scalar variable is counted
void fill_data(float *dst, const float *src, int T, int C) {
  for (int t = 0; t < T; t++)
    std::fill(dst, dst + C, src[t]);
}

// NUM: mem-calls.cpp:[[@LINE+3]]:3: note: loop nest not analyzed: call to 'memset': element type 'float[8]' of 'G' is not supported
void whole_2d(int T) {
  float G[4][8];
  for (int t = 0; t < T; t++)
    memset(G, 0, sizeof(G));
}
