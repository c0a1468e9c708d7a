// A window clamped in locals by std::max / std::min (issue 18;
// LowerIndex.cpp minMaxLocalInit) is the min or max bound it holds where a
// loop uses it; a loop bound that multiplies a loop variable by a size is
// counted at the size's value, with a note, and refused without one.
// RUN: roofline-lint --verbosity=normal --no-source --param N=10 --param K=2 --param stride=2 %s -- -std=c++17 2>&1 | FileCheck %s
// RUN: roofline-lint --verbosity=normal --no-source --param N=10 --param K=2 %s -- -std=c++17 2>&1 | FileCheck %s --check-prefix=NOVALUE
#include <algorithm>

// Windows of 3, 4, 5 x 6, 4, 3 elements: 44 adds; in and out read and
// written once (80 bytes).
// CHECK: windows.cpp:[[@LINE+2]]:3: note: 0 MACs, 44 FLOPs (f32: 44); 80 bytes compulsory
void box(float *out, const float *in, int N, int K) {
  for (int x = 0; x < N; x++) {
    int start = std::max(0, x - K);
    int end = std::min(N, x + K + 1);
    float s = 0.0f;
    for (int k = start; k < end; k++)
      s += in[k];
    out[x] = s;
  }
}

// Strided windows of K + 1 from x*stride, clamped at N: at stride 2, x = 0
// .. 4 sum 3, 3, 3, 3, 2 elements (14 adds); out[0..4] and in[0..9].
// CHECK: windows.cpp:[[@LINE+5]]:3: note: 0 MACs, 14 FLOPs (f32: 14); 60 bytes compulsory
// CHECK: windows.cpp:[[@LINE+4]]:3: note: a loop bound 'x * stride' multiplies a loop variable by stride = 2: its counts hold for that value only
// CHECK: windows.cpp:[[@LINE+3]]:3: note: a loop bound 'x * stride + K + 1' multiplies a loop variable by stride = 2: its counts hold for that value only
// NOVALUE: windows.cpp:[[@LINE+2]]:3: note: loop nest not analyzed: loop bound 'x * stride' is not affine: it multiplies a loop variable by the size 'stride', which has no value (give it one, --param stride=N, to count the loop)
void strided(float *out, const float *in, int N, int K, int stride) {
  for (int x = 0; x < N / stride; x++) {
    const int hi = std::min(N, x * stride + K + 1);
    float s = 0.0f;
    for (int k = x * stride; k < hi; k++)
      s += in[k];
    out[x] = s;
  }
}
