// A window clamped in int locals by conditionals or MIN/MAX macros, as C
// code writes it (issue 18; LowerIndex.cpp minMaxChoice): a local that
// bounds a loop and indexes nothing is that min or max bound there, so two
// of them no longer split the outer loop twice.
// RUN: roofline-lint --verbosity=normal --no-source --param N=10 --param K=2 %s 2>&1 | FileCheck %s
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))

// Windows of 3, 4, 5 x 6, 4, 3 elements: 44 adds; in and out read and
// written once (80 bytes), as std::max / std::min locals give.
// CHECK: conditional-windows.c:[[@LINE+2]]:3: note: 0 MACs, 44 FLOPs (f32: 44); 80 bytes compulsory
void macros(float *out, const float *in, int N, int K) {
  for (int x = 0; x < N; x++) {
    int start = MAX(0, x - K);
    int end = MIN(N, x + K + 1);
    float s = 0.0f;
    for (int k = start; k < end; k++)
      s += in[k];
    out[x] = s;
  }
}

// The other comparison, and the window's length used as a value (a
// division per element: 54 FLOPs).
// CHECK: conditional-windows.c:[[@LINE+2]]:3: note: 0 MACs, 54 FLOPs (f32: 54); 80 bytes compulsory
void ternaries(float *out, const float *in, int N, int K) {
  for (int x = 0; x < N; x++) {
    int lo = x - K < 0 ? 0 : x - K;
    int hi = N < x + K + 1 ? N : x + K + 1;
    float s = 0.0f;
    for (int k = lo; k < hi; k++)
      s += in[k];
    out[x] = s / (hi - lo);
  }
}

// Used as an index too: the conditional splits the loop over x as before
// (one such local), and two of them are refused.
// CHECK: conditional-windows.c:[[@LINE+2]]:3: note: 0 MACs, 20 FLOPs (f32: 20); 80 bytes compulsory
void indexed(float *out, const float *in, int N, int K) {
  for (int x = 0; x < N; x++) {
    int lo = x - K < 0 ? 0 : x - K;
    out[x] = in[lo] + in[x];
    out[x] = out[x] * 0.5f;
  }
}
// CHECK: conditional-windows.c:[[@LINE+2]]:3: note: loop nest not analyzed: a second condition splits the loop over 'x' into ranges
void two_indexed(float *out, const float *in, int N, int K) {
  for (int x = 0; x < N; x++) {
    int lo = x - K < 0 ? 0 : x - K;
    int hi = N - 1 < x + K ? N - 1 : x + K;
    out[x] = in[lo] + in[hi];
  }
}
