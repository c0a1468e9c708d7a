// Pass what-ifs on buffers reached through a model struct (llm.c style):
// block(m) passes m->acts.h and m->params.w1 down; the walk names them in
// the entry's terms (model->acts.h), so the fusion what-if sees that the
// first gemv's output is square's input. model->acts.x is written by no
// nest but is the gemv's input (the batch transform gives it a copy per
// input): it is not a weight.
//
// By hand at dim=64, hid=256: gemv 32,768 FLOPs, 65,536 B of weights +
// 256 + 1,024 B; square 256 FLOPs, 2,048 B; pass 135,680 B.
// Batch 64: 2 x (65,536 + 64 x 1,280) + 64 x 2,048 = 425,984 B.
// int8 weights: 135,680 - 3 x 32,768 = 37,376 B; bf16: 70,144 B.
// Fusing square into the first gemv keeps model->acts.h (256 floats) on
// chip: 66,816 + 2,048 = 68,864 -> 66,816 B.
//
// RUN: roofline-lint --quiet --format=json --entry=forward --param dim=64 --param hid=256 %s -- | FileCheck %s
typedef struct { float *w1; float *w2; } Params;
typedef struct { float *x; float *h; float *g; float *y; } Acts;
typedef struct { Params params; Acts acts; int dim; int hid; } Model;

void matvec(float *out, const float *x, const float *w, int n, int d) {
  for (int i = 0; i < d; i++) {
    float v = 0.0f;
    for (int j = 0; j < n; j++)
      v += w[i * n + j] * x[j];
    out[i] = v;
  }
}

void square(float *out, const float *in, int n) {
  for (int i = 0; i < n; i++)
    out[i] = in[i] * in[i];
}

void block(Model *m, int dim, int hid) {
  matvec(m->acts.h, m->acts.x, m->params.w1, dim, hid);
  square(m->acts.g, m->acts.h, hid);
  matvec(m->acts.y, m->acts.g, m->params.w2, hid, dim);
}

void forward(Model *model, int dim, int hid) {
  block(model, dim, hid);
}

// CHECK: "what_if": {
// CHECK: "as_written": {
// CHECK-NEXT: "bound": "memory-bound",
// CHECK-NEXT: "bytes": 135680,
// CHECK: "batch": {
// CHECK-NEXT: "batched_nests": 2,
// CHECK-NEXT: "crossover_why_not":
// CHECK-NEXT: "inputs": 64,
// CHECK-NEXT: "once_per_input_nests": 1,
// CHECK-NEXT: "predicted": {
// CHECK-NEXT: "bound": "memory-bound",
// CHECK-NEXT: "bytes": 425984,
// CHECK: "fuse": {
// CHECK: "bytes_after": 66816,
// CHECK-NEXT: "bytes_before": 68864,
// CHECK: "on_chip": [
// CHECK-NEXT: "model->acts.h"
// CHECK-NEXT: ],
// CHECK: "quantize": [
// CHECK: "arrays": "weights",
// CHECK-NEXT: "bound": "memory-bound",
// CHECK-NEXT: "bytes": 70144,
// CHECK: "arrays": "weights",
// CHECK-NEXT: "bound": "memory-bound",
// CHECK-NEXT: "bytes": 37376,
