// Where sizes come from: literals, constexpr/const, macros, template
// arguments (one nest per instantiation), constant call-site arguments, and
// --param, which overrides them all. Unknown sizes stay symbolic.
// RUN: roofline-lint --dump-ir %s | FileCheck %s
// RUN: roofline-lint --dump-ir --param N=4096 --param rows=7 %s | FileCheck %s --check-prefix=OVERRIDE
// RUN: roofline-lint --dump-ir --param nosuch=1 %s 2>&1 >/dev/null | FileCheck %s --check-prefix=UNUSED

#define WIDTH 128
constexpr int N = 64;
const int H = 32;
float A[N][N];

// CHECK-LABEL: nest @named
// CHECK-NEXT: param H = 32 (const)
// CHECK-NEXT: param N = 64 (constexpr)
// CHECK-NEXT: param WIDTH = 128 (macro)
// CHECK: for i = 0 to H - 1
// CHECK: for j = 0 to WIDTH - 1
// CHECK: for k = 0 to N - 1
// CHECK: for l = 0 to 9
// OVERRIDE-LABEL: nest @named
// OVERRIDE: param N = 4096 (--param)
void named(float *x) {
  for (int i = 0; i < H; ++i)
    for (int j = 0; j < WIDTH; ++j)
      for (int k = 0; k < N; ++k)
        for (int l = 0; l < 10; ++l)
          x[j] += A[i][k];
}

template <int Size> void scale(float *v) {
  for (int i = 0; i < Size; ++i)
    v[i] *= 2.0f;
}

// CHECK-LABEL: nest @scale<8>
// CHECK-NEXT: param Size = 8 (template)
// CHECK-LABEL: nest @scale<16>
// CHECK-NEXT: param Size = 16 (template)
void instantiate(float *v) {
  scale<8>(v);
  scale<16>(v);
}

// CHECK-LABEL: nest @by_argument
// CHECK-NEXT: param cols = ? (argument)
// CHECK-NEXT: param rows = 100 (call-site)
// OVERRIDE-LABEL: nest @by_argument
// OVERRIDE: param rows = 7 (--param)
void by_argument(float *m, int rows, int cols) {
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      m[r * cols + c] = 0;
}

void callers(float *m, int unknown) {
  by_argument(m, 100, unknown);
  by_argument(m, 100, 3);
}

// UNUSED: warning: --param 'nosuch' names no size in the analyzed loops
