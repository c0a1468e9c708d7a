// Window locals set again in their loop body (issue 18;
// LowerBodyAssignments.cpp, WindowLocals): Caffe's pooling computes the
// window's end from its start and then clamps the start, `hstart =
// max(hstart, 0);`. A loop bound reads such a local as it was set, with the
// values of that point; an index may not read it.
// RUN: roofline-lint --verbosity=normal --no-source --param N=10 --param K=3 --param S=2 --param P=1 --param O=5 %s -- -std=c++17 2>&1 | FileCheck %s
#include <algorithm>
using std::max;
using std::min;

// Windows [2o - 1, 2o + 2) clamped to [0, 10): 2, 3, 3, 3, 3 elements (14
// adds); in[0..9] and out[0..4].
// CHECK: window-locals.cpp:[[@LINE+2]]:3: note: 0 MACs, 14 FLOPs (f32: 14); 60 bytes compulsory
void caffe(float *out, const float *in, int N, int K, int S, int P, int O) {
  for (int o = 0; o < O; ++o) {
    int start = o * S - P;
    int end = min(start + K, N);
    start = max(start, 0);
    float s = 0.0f;
    for (int k = start; k < end; ++k)
      s += in[k];
    out[o] = s;
  }
}

// The end clamped again, min(min(...), N): the padded size (3 each) taken
// before; 14 adds and 5 divisions.
// CHECK: window-locals.cpp:[[@LINE+2]]:3: note: 0 MACs, 19 FLOPs (f32: 19); 60 bytes compulsory
void clamped_twice(float *out, const float *in, int N, int K, int S, int P, int O) {
  for (int o = 0; o < O; ++o) {
    int start = o * S - P;
    int end = min(start + K, N + P);
    int size = end - start;
    start = max(start, 0);
    end = min(end, N);
    float s = 0.0f;
    for (int k = start; k < end; ++k)
      s += in[k];
    out[o] = s / size;
  }
}

// A max of a min: refused.
// CHECK: window-locals.cpp:[[@LINE+2]]:3: note: loop nest not analyzed: loop bound 'end' takes the max of a min
void max_of_min(float *out, const float *in, int N, int K, int S, int P, int O) {
  for (int o = 0; o < O; ++o) {
    int start = max(o * S - P, 0);
    int end = min(o * S - P + K, N);
    end = max(end, start + 1);
    float s = 0.0f;
    for (int k = start; k < end; ++k)
      s += in[k];
    out[o] = s;
  }
}

// Read as an index after the clamp: refused with the reason.
// CHECK: window-locals.cpp:[[@LINE+2]]:3: note: loop nest not analyzed: access 'in[start]': 'start' holds 'max(start, 0)' (set again at line [[@LINE+4]]): only a loop bound may read it
void index_after(float *out, const float *in, int N, int S, int P, int O) {
  for (int o = 0; o < O; ++o) {
    int start = o * S - P;
    start = max(start, 0);
    out[o] = in[start];
  }
}
