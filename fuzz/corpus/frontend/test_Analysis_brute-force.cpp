// Trip counts against a brute-force oracle: this file is also compiled and
// run with -DORACLE, where every statement counts its executions; the tool's
// exact counts must equal them for every nest, with N = 37.
// RUN: clang++-19 -std=c++17 -DORACLE %s -o %t.oracle
// RUN: %t.oracle > %t.expected
// RUN: roofline-lint --param N=37 --format=json %s -o %t.json
// RUN: %python %S/Inputs/compare-oracle.py %t.expected %t.json

#ifdef ORACLE
#include <cstdio>
long long Count;
#define S(X) (++Count, (X))
#else
#define S(X) (X)
#endif

// Every nest does one MAC per innermost execution, so MACs == executions.
void lower_triangle(float *A, const float *B, int N) {
  for (int i = 0; i < N; ++i)
    for (int j = 0; j <= i; ++j)
      S(A[i] += B[j] * B[i]);
}
void upper_triangle(float *A, const float *B, int N) {
  for (int i = 0; i < N; ++i)
    for (int j = i + 1; j < N; ++j)
      S(A[i] += B[j] * B[i]);
}
void tetrahedron(float *A, const float *B, int N) {
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < i; ++j)
      for (int k = j; k <= i; ++k)
        S(A[k] += B[j] * B[i]);
}
void strided_offset(float *A, const float *B, int N) {
  for (int i = 2; i < N; i += 3)
    for (int j = 1; j <= N; j += 4)
      S(A[i] += B[j] * B[i]);
}
void downward(float *A, const float *B, int N) {
  for (int i = N - 1; i >= 0; i -= 2)
    for (int j = N; j > i; --j)
      S(A[i] += B[j] * B[i]);
}
void tiled_min(float *A, const float *B, int N) {
  for (int ii = 0; ii < N; ii += 8)
    for (int i = ii; i < (ii + 8 < N ? ii + 8 : N); ++i)
      for (int j = 0; j < i - ii + 1; ++j)
        S(A[i] += B[j] * B[i]);
}
void max_lower(float *A, const float *B, int N) {
  for (int i = 0; i < N; ++i)
    for (int j = (i - 5 > 0 ? i - 5 : 0); j <= i; ++j)
      S(A[i] += B[j] * B[i]);
}
void halves(float *A, const float *B, int N) {
  for (int i = 0; i < N / 2; ++i)
    for (int j = i; j != N; ++j)
      S(A[i] += B[j] * B[i]);
}
void empty_inner(float *A, const float *B, int N) {
  // The inner loop is empty for i > N - 6: negative trip counts must count 0.
  for (int i = 0; i < N; ++i)
    for (int j = i + 5; j < N; ++j)
      S(A[i] += B[j] * B[i]);
}
void imperfect(float *A, const float *B, int N) {
  for (int i = 0; i < N; ++i) {
    S(A[i] = 0.5f * B[i] + A[i]);
    for (int j = 0; j < i; j += 2)
      S(A[i] += B[j] * B[i]);
    S(A[i] = A[i] * B[i] + 1.0f);
  }
}

#ifdef ORACLE
float A[128], B[128];
#define RUN(F)                                                                 \
  do {                                                                         \
    Count = 0;                                                                 \
    F(A, B, 37);                                                               \
    printf("%s %lld\n", #F, Count);                                            \
  } while (0)
int main() {
  RUN(lower_triangle);
  RUN(upper_triangle);
  RUN(tetrahedron);
  RUN(strided_offset);
  RUN(downward);
  RUN(tiled_min);
  RUN(max_lower);
  RUN(halves);
  RUN(empty_inner);
  RUN(imperfect);
}
#endif
