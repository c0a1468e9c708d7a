// Whole-pass what-ifs (docs/network-report.md, "What-ifs") on a decode-step
// MLP: per layer a gemv dim -> hid, an elementwise square, a gemv
// hid -> dim, a residual add into x. w1 and w2 are only read by the pass
// (weights); x, h, a, y are written by some nest (activations).
//
// By hand at L=2, dim=256, hid=1024, f32, on rtx-a6000 (38.7072 TFLOP/s,
// 768 GB/s):
//   matvec dim->hid: 2*256*1024 = 524,288 FLOPs; bytes 4*(262,144 weights +
//     256 + 1024) = 1,053,696; matvec hid->dim the same;
//   square: 1024 FLOPs, 8,192 B; accumulate: 256 FLOPs, 3,072 B (x read
//     and written, y read).
//   Pass: 2 x 2,118,656 = 4,237,312 B.
// Batch B: each gemv reads its weights once and B copies of the rest:
//   1,048,576 + 5,120 B bytes, 524,288 B FLOPs; square and accumulate B times.
//   At B = 64: 2 x (2 x 1,376,256 + 64 x 11,264) = 6,946,816 B.
//   A gemv turns compute-bound when 524,288 B / 38.7072e12 >
//   (1,048,576 + 5,120 B) / 768e9, i.e. B > 198.5; at B = 199 the gemvs
//   take 5.39 us and square + accumulate 2.92 us (35% memory-bound): the
//   pass is compute-bound from 199, at 198 all of it is memory-bound.
// int8 weights: 3 bytes less per weight element, 4 x 262,144 elements:
//   4,237,312 - 3,145,728 = 1,091,584 B; bf16: 4,237,312 - 2,097,152 =
//   2,140,160 B.
// Fusing square into the first gemv's epilogue keeps h (1024 floats) on
// chip: the gemv does not store it (4,096 B), square does not load it
// (4,096 B): 2 x (1,053,696 + 8,192) = 2,123,776 -> 2,107,392 B, and the
// pass 4,237,312 - 16,384 = 4,220,928 B. a is read by the second gemv: it
// stays in memory.
//
// RUN: roofline-lint --no-source --quiet --entry=forward --param L=2 --param dim=256 --param hid=1024 %s -- | FileCheck %s --check-prefix=TEXT
// RUN: roofline-lint --quiet --format=json --entry=forward --param L=2 --param dim=256 --param hid=1024 %s -- | FileCheck %s --check-prefix=JSON
// The crossover is where the verdict at that batch flips:
// RUN: roofline-lint --no-source --quiet --batch=198 --entry=forward --param L=2 --param dim=256 --param hid=1024 %s -- | FileCheck %s --check-prefix=B198
// RUN: roofline-lint --no-source --quiet --batch=199 --entry=forward --param L=2 --param dim=256 --param hid=1024 %s -- | FileCheck %s --check-prefix=B199
//
// layers.c (one layer: matmul + bias, gelu, matmul, residual at BT=4, C=8):
// fusing gelu into the first matmul keeps h (BT x 4C = 128 floats) on chip:
// per layer 512 B not stored, 512 B not loaded; matmul + gelu move
// 2 x (1,792 + 1,024) = 5,632 B, fused 3,584 B; the pass 9,728 -> 7,680 B.
// Its weights and biases are slices of params (only read): bf16 saves
// 2 x (256 + 32 + 256) x 2 B = 2,176 B: 7,552 B. Its gelu and residual,
// with nothing to share, stay memory-bound at any batch.
// RUN: roofline-lint --quiet --format=json --entry=forward --param L=2 --param B=1 --param T=4 --param C=8 %S/layers.c -- | FileCheck %s --check-prefix=LAYERS
// RUN: roofline-lint --no-source --quiet --entry=forward --param L=2 --param B=1 --param T=4 --param C=8 %S/layers.c -- | FileCheck %s --check-prefix=LAYERS-TEXT
//
// The llama-style step of Inputs/transformer.c at L=2, dim=8, hid=24,
// pos=3 (its counts checked by oracle.test: 10,392 B): the weights are
// wq, wk, wv, wo (4 x 64), w1, w3 (2 x 192), w2 (192) and the two rmsnorm
// scales (2 x 8) per layer: 2 x 848 = 1,696 elements, 6,784 B. The KV cache
// is written by the pass (k, v rows): not weights. bf16 weights:
// 10,392 - 2 x 1,696 = 7,000 B; int8: 10,392 - 3 x 1,696 = 5,304 B; batch 64:
// 6,784 + 64 x (10,392 - 6,784) = 237,696 B. Its matmuls into hb and hb2 are
// one nest at one size: no buffer of the SwiGLU chain is reached exactly,
// and nothing is fused.
// RUN: roofline-lint --quiet --format=json --entry=forward --param L=2 --param dim=8 --param hid=24 --param seq=6 --param pos=3 %S/Inputs/transformer.c -- | FileCheck %s --check-prefix=LLAMA
// RUN: roofline-lint --no-source --quiet --entry=unplaced --param dim=64 --param hid=256 %s -- | FileCheck %s --check-prefix=UNPLACED

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

void accumulate(float *x, const float *y, int n) {
  for (int i = 0; i < n; i++)
    x[i] += y[i];
}

// A write through a pointer the walk cannot follow (an element of an array
// of pointers) could be into any buffer: nothing is taken as weights, and
// the gemv is batched as B copies of everything.
void unplaced(float *const *outs, const float *x, const float *w, int dim,
              int hid) {
  matvec(outs[0], x, w, dim, hid);
}

void forward(float *x, float *h, float *a, float *y, const float *w1,
             const float *w2, int L, int dim, int hid) {
  for (int l = 0; l < L; l++) {
    matvec(h, x, w1 + l * hid * dim, dim, hid);
    square(a, h, hid);
    matvec(y, a, w2 + l * dim * hid, hid, dim);
    accumulate(x, y, dim);
  }
}

// TEXT: remark: pass 'forward' on rtx-a6000: {{.*}} 4.041 MiB
// TEXT: what-ifs for the pass
// TEXT-NEXT: batch 64 inputs: {{.*}}, 6.625 MiB, memory-bound; weights read once by 2 nests, 2 run once per input
// TEXT-NEXT: compute-bound from batch: 199
// TEXT-NEXT: bf16 weights: {{.*}}, 2.041 MiB, 2 nests change
// TEXT-NEXT: int8 weights: {{.*}} (3.88x), 1.041 MiB, 2 nests change
// TEXT-NEXT: bf16 everything: {{.*}} (2x)
// TEXT-NEXT: int8 everything: {{.*}} (4x)
// TEXT-NEXT: fuse square into matvec's epilogue (lines 58, 67, 58), keep h on chip: 2.025 MiB -> 2.01 MiB, {{.*}} over 2 runs
// TEXT-NEXT: pass with the chains fused: {{.*}}, 4.025 MiB

// JSON: "what_if": {
// JSON: "as_written": {
// JSON-NEXT: "bound": "memory-bound",
// JSON-NEXT: "bytes": 4237312,
// JSON: "batch": {
// JSON-NEXT: "batched_nests": 2,
// JSON-NEXT: "crossover_batch": 199,
// JSON-NEXT: "inputs": 64,
// JSON-NEXT: "once_per_input_nests": 2,
// JSON-NEXT: "predicted": {
// JSON-NEXT: "bound": "memory-bound",
// JSON-NEXT: "bytes": 6946816,
// JSON: "fuse": {
// JSON: "bytes_after": 2107392,
// JSON-NEXT: "bytes_before": 2123776,
// JSON: "on_chip": [
// JSON-NEXT: "h"
// JSON-NEXT: ],
// JSON: "predicted": {
// JSON-NEXT: "bound": "memory-bound",
// JSON-NEXT: "bytes": 4220928,
// JSON: "quantize": [
// JSON: "arrays": "weights",
// JSON-NEXT: "bound": "memory-bound",
// JSON-NEXT: "bytes": 2140160,
// JSON: "precision": "bf16",
// JSON: "arrays": "weights",
// JSON-NEXT: "bound": "memory-bound",
// JSON-NEXT: "bytes": 1091584,
// JSON: "precision": "i8",

// B198: batch 198 inputs: {{.*}}, memory-bound;
// B199: batch 199 inputs: {{.*}}, compute-bound;

// LAYERS: "what_if": {
// LAYERS: "crossover_why_not": "still memory-bound at 1073741824 inputs
// LAYERS: "bytes_after": 3584,
// LAYERS-NEXT: "bytes_before": 5632,
// LAYERS: "on_chip": [
// LAYERS-NEXT: "h"
// LAYERS-NEXT: ],
// LAYERS: "predicted": {
// LAYERS-NEXT: "bound": "memory-bound",
// LAYERS-NEXT: "bytes": 7680,
// LAYERS: "arrays": "weights",
// LAYERS-NEXT: "bound": "memory-bound",
// LAYERS-NEXT: "bytes": 7552,

// LAYERS-TEXT: fuse gelu into matmul's epilogue (lines 31, 44, 31), keep h on chip: 5.63 kB -> 3.58 kB

// LLAMA: "what_if": {
// LLAMA: "as_written": {
// LLAMA-NEXT: "bound": "memory-bound",
// LLAMA-NEXT: "bytes": 10392,
// LLAMA: "batch": {
// LLAMA-NEXT: "batched_nests": 4,
// LLAMA: "predicted": {
// LLAMA-NEXT: "bound": "memory-bound",
// LLAMA-NEXT: "bytes": 237696,
// LLAMA: "fuse": {
// LLAMA-NEXT: "chains": [],
// LLAMA: "arrays": "weights",
// LLAMA-NEXT: "bound": "memory-bound",
// LLAMA-NEXT: "bytes": 7000,
// LLAMA: "arrays": "weights",
// LLAMA-NEXT: "bound": "memory-bound",
// LLAMA-NEXT: "bytes": 5304,

// UNPLACED: note: no array is taken as weights: the walk does not know which buffer 'out' of 'matvec' (line 58) writes into
// UNPLACED-NEXT: batch 64 inputs: {{.*}}; weights read once by 0 nests, 1 run once per input
// UNPLACED: int8 weights: {{.*}}, 0 nests change
