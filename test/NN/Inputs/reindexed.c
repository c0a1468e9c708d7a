// Integer index locals set again in the loop body that declares them, as
// darknet's region and YOLO layers write them: `int index = entry_index(l,
// b, n*l.w*l.h, 0); ...; index = entry_index(l, b, n*l.w*l.h, 4);`. Each
// use sees the value of the last assignment before it in the body
// (LowerBodyAssignments.cpp, "Index locals set again").
#include <math.h>

typedef struct {
  int batch, n, w, h, classes, outputs;
  float *output;
  float *delta;
} layer;

static float logistic_activate(float x) { return 1.f / (1.f + expf(-x)); }

static void activate_array(float *x, const int n) {
  for (int i = 0; i < n; ++i)
    x[i] = logistic_activate(x[i]);
}

static int entry_index(layer l, int batch, int location, int entry) {
  int n = location / (l.w * l.h);
  int loc = location % (l.w * l.h);
  return batch * l.outputs + n * l.w * l.h * (4 + l.classes + 1) +
         entry * l.w * l.h + loc;
}

// YOLO's forward: the box centres (2 planes) and the objectness and class
// planes (1 + classes) of each anchor go through the logistic; the box sizes
// (planes 2 and 3) are left as they are.
void forward_yolo(layer l) {
  for (int b = 0; b < l.batch; ++b) {
    for (int n = 0; n < l.n; ++n) {
      int index = entry_index(l, b, n * l.w * l.h, 0);
      activate_array(l.output + index, 2 * l.w * l.h);
      index = entry_index(l, b, n * l.w * l.h, 4);
      activate_array(l.output + index, (1 + l.classes) * l.w * l.h);
    }
  }
}

// The same index stepped and read back: `i += 2` after a use, and a row
// offset recomputed from itself.
void scale_planes(float *out, const float *in, int P, int S) {
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

// Refused: the index is set again under a branch (its value at the use
// below depends on which way the branch went).
void branchy(float *out, const float *in, int N, int flag) {
  for (int i = 0; i < N; ++i) {
    int at = i;
    if (flag)
      at = N - 1 - i;
    out[i] = in[at];
  }
}

// Refused: set again inside an inner loop (a counter the nest advances).
void inner_set(float *out, const float *in, int N, int M) {
  for (int i = 0; i < N; ++i) {
    int at = i * M;
    for (int j = 0; j < M; ++j) {
      out[at] = in[at];
      at = at + 1;
    }
  }
}

// Refused: set again from the data.
void data_set(float *out, const float *in, const int *idx, int N) {
  for (int i = 0; i < N; ++i) {
    int at = i;
    out[at] = 1.f;
    at = idx[i];
    out[at] = 2.f;
  }
}
