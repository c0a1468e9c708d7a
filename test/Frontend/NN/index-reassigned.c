// Integer index locals set again in the loop body that declares them
// (issue 18; LowerBodyAssignments.cpp, isSequentialIndex): each use sees the
// last assignment before it. Set under a branch, in an inner loop, through
// its address or from the data: a counter, or refused with the reason.
// RUN: roofline-lint --verbosity=normal --no-source --param P=2 --param S=5 --param N=6 %s 2>&1 | FileCheck %s

// Three planes of S per p, the offset stepped two ways: 30 FLOPs, out and
// in 30 elements each (240 bytes).
// CHECK: index-reassigned.c:[[@LINE+2]]:3: note: 0 MACs, 30 FLOPs (f32: 30); 240 bytes compulsory, 280 bytes no-reuse
void planes(float *out, const float *in, int P, int S) {
  for (int p = 0; p < P; ++p) {
    int off = p * 3 * S;
    for (int s = 0; s < S; ++s)
      out[off + s] = 2.f * in[off + s];
    off += S;
    for (int s = 0; s < S; ++s)
      out[off + s] = in[off + s] + 1.f;
    off = off + S;
    for (int s = 0; s < S; ++s)
      out[off + s] = in[off + s] * in[off + s];
  }
}

// Set back to a fresh value, and -=: out[i] and in[i] read back at i.
// CHECK: index-reassigned.c:[[@LINE+2]]:3: note: 0 MACs, 6 FLOPs (f32: 6); 48 bytes compulsory, 120 bytes no-reuse
void back_and_forth(float *out, const float *in, int N) {
  for (int i = 0; i < N; ++i) {
    int at = i + 2;
    at -= 2;
    out[at] = in[at];
    at = N - 1;
    at = i;
    out[at] += in[at];
  }
}

// CHECK: index-reassigned.c:[[@LINE+2]]:3: note: loop nest not analyzed: access 'in[at]': the index 'at' of 'in' depends on 'at', a counter the nest itself advances (not a load from memory) that is not affine in the loop variables: 'at' is written or aliased by 'at = N - 1 - i'
void under_branch(float *out, const float *in, int N, int flag) {
  for (int i = 0; i < N; ++i) {
    int at = i;
    if (flag > 1)
      at = N - 1 - i;
    out[i] = in[at];
  }
}

void take(int *p);
// CHECK: index-reassigned.c:[[@LINE+2]]:3: note: loop nest not analyzed: {{.*}}'at'
void address_taken(float *out, int N) {
  for (int i = 0; i < N; ++i) {
    int at = i;
    out[at] = 1.f;
    at = 0;
    take(&at);
  }
}

// CHECK: index-reassigned.c:[[@LINE+2]]:3: note: loop nest not analyzed: index 'at' is set again to 'idx[i]', which is not an index: indirect (data-dependent) index 'idx[i]'
void from_data(float *out, const int *idx, int N) {
  for (int i = 0; i < N; ++i) {
    int at = i;
    out[at] = 1.f;
    at = idx[i];
    out[at] = 2.f;
  }
}

// A window bound computed from the index before it is set again reads the
// index as it was there (windows [x, min(x + 3, N)): 15 adds); a guard
// local is read where it is tested, so setting the index again after it
// refuses the nest.
// CHECK: index-reassigned.c:[[@LINE+2]]:3: note: 0 MACs, 15 FLOPs (f32: 15); 48 bytes compulsory
void window_before(float *out, const float *in, int N) {
  for (int x = 0; x < N; x++) {
    int k = x;
    int hi = k + 3 < N ? k + 3 : N;
    k = k + 1;
    float s = 0.0f;
    for (int j = x; j < hi; j++)
      s += in[j];
    out[x] = s;
  }
}
// CHECK: index-reassigned.c:[[@LINE+2]]:3: note: loop nest not analyzed: index 'k' is set again after 'ok' = 'k >= 1', which is read where it is used
void guard_before(float *out, const float *in, int N) {
  for (int x = 0; x < N; x++) {
    int k = x;
    int ok = k >= 1;
    k = x - 1;
    if (ok)
      out[x] = in[k];
  }
}
