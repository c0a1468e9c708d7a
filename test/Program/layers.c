// A transformer-style MLP, hand-written: helpers over float *, sizes passed
// as int arguments (4 * C, B * T), a NULL bias on one call, a loop over the
// layers that only sets up row pointers and calls. --entry=forward counts
// every nest at the sizes of its call, times the layers.
//
// At L=2, B=1, T=4, C=8 (BT = 4), per layer, by hand:
//   matmul BT x C -> 4C with bias:  2*4*32*8 = 2048 FLOPs,
//     (4*8 + 32*8 + 32 + 4*32) * 4 = 1792 bytes;
//   gelu on BT*4C = 128 elements:   9 FLOPs each (tanhf as 1) = 1152,
//     8 bytes each = 1024 bytes;
//   matmul BT x 4C -> C, no bias:   2*4*8*32 = 2048 FLOPs,
//     (4*32 + 8*32 + 4*8) * 4 = 1664 bytes;
//   residual on BT*C = 32:          32 FLOPs, 384 bytes.
// Two layers: 10,560 FLOPs, 9,728 bytes.
//
// RUN: roofline-lint --no-source --quiet --entry=forward --param L=2 --param B=1 --param T=4 --param C=8 %s -- | FileCheck %s --check-prefix=TEXT
// RUN: roofline-lint --quiet --format=json --entry=forward --param L=2 --param B=1 --param T=4 --param C=8 %s -- | FileCheck %s --check-prefix=JSON
//
// A layer count from the command line only: the walk goes no further than
// the loop whose bound it cannot know, and says so.
// RUN: roofline-lint --no-source --quiet --entry=forward --param B=1 --param T=4 --param C=8 %s -- | FileCheck %s --check-prefix=NOL
//
// An entry that is not there is an error, not an empty report.
// RUN: %expect-exit 2 roofline-lint --no-source --quiet --entry=backward %s -- 2>&1 | FileCheck %s --check-prefix=MISSING

#include <math.h>
#include <stddef.h>

void matmul(float *out, const float *inp, const float *w, const float *bias,
            int BT, int C, int OC) {
  for (int bt = 0; bt < BT; bt++) {
    const float *x = inp + bt * C;
    for (int o = 0; o < OC; o++) {
      float val = (bias != NULL) ? bias[o] : 0.0f;
      const float *wrow = w + o * C;
      for (int i = 0; i < C; i++)
        val += x[i] * wrow[i];
      out[bt * OC + o] = val;
    }
  }
}

void gelu(float *out, const float *inp, int N) {
  for (int i = 0; i < N; i++) {
    float x = inp[i];
    out[i] = 0.5f * x * (1.0f + tanhf(0.7978845608f * (x + 0.044715f * x * x * x)));
  }
}

void residual(float *out, const float *a, const float *b, int N) {
  for (int i = 0; i < N; i++)
    out[i] = a[i] + b[i];
}

void block(float *out, const float *x, float *h, float *g, float *y,
           const float *w1, const float *b1, const float *w2, int BT, int C) {
  matmul(h, x, w1, b1, BT, C, 4 * C);
  gelu(g, h, BT * 4 * C);
  matmul(y, g, w2, NULL, BT, 4 * C, C);
  residual(out, x, y, BT * C);
}

void forward(float *acts, float *h, float *g, float *y, const float *params,
             int L, int B, int T, int C) {
  for (int l = 0; l < L; l++) {
    const float *w1 = params + l * 8 * C * C;
    block(acts + (l + 1) * B * T * C, acts + l * B * T * C, h, g, y, w1,
          w1 + 4 * C * C, w1 + 4 * C * C + 4 * C, B * T, C);
  }
}

// TEXT: layers.c:[[#@LINE-9]]:1: remark: pass 'forward' on rtx-a6000: time floor {{.*}}, 10.6 kFLOP, {{.*}} memory-bound (100% of the time in memory-bound nests) [roofline-program]
// TEXT-NEXT: sizes: B=1 C=8 L=2 T=4
// TEXT-NEXT: note: the entry's pointer parameters are taken as not null (acts, h, g, y, params); --param forward:NAME=0 says one is
// TEXT: share time runs FLOPs bytes FLOP/B verdict nest
// Both matmul calls know their bias (one NULL, one a row of params), so
// neither is a case of its own: four runs, 2 x (2048 + 2048) FLOPs and
// 2 x (1792 + 1664) bytes.
// TEXT-DAG: 4 8.19 k 6.91 kB {{.*}} memory-bound matmul ({{.*}}layers.c:31) via forward > block > matmul
// TEXT-DAG: 2 2.3 k 2 KiB {{.*}} memory-bound gelu ({{.*}}layers.c:44) via forward > block > gelu
// TEXT-DAG: 2 64 768 B {{.*}} memory-bound residual ({{.*}}layers.c:51) via forward > block > residual
// TEXT: per function:
// The same totals as polynomials in the sizes (docs/network-report.md,
// "Symbolic totals"), each term by hand from the counts above: matmul
// 2*BT*C*4C twice, gelu 9*4*BT*C, residual BT*C FLOPs per layer.
// TEXT: pass totals (symbolic, in the sizes B, C, L, T):
// TEXT-NEXT: FLOPs: 16*B*C^2*L*T + 37*B*C*L*T = 10560 at the sizes above
// TEXT-NEXT: MACs: 8*B*C^2*L*T + 4*B*C*L*T = 4352 at the sizes above
// TEXT-NEXT: compulsory bytes: 84*B*C*L*T + 32*C^2*L + 16*C*L = 9728 at the sizes above
// TEXT-NEXT: per function FLOPs:
// TEXT-NEXT: gelu: 36*B*C*L*T
// TEXT-NEXT: matmul: 16*B*C^2*L*T
// TEXT-NEXT: residual: B*C*L*T
// TEXT-NOT: left out

// JSON: "programs": [
// JSON: "bound": "memory-bound",
// JSON-NEXT: "bytes": 9728,
// JSON-NEXT: "bytes_formula": "84*B*C*L*T + 32*C^2*L + 16*C*L",
// JSON-NEXT: "complete": true,
// JSON-NEXT: "flops": 10560,
// JSON-NEXT: "flops_formula": "16*B*C^2*L*T + 37*B*C*L*T",

// NOL: remark: pass 'forward' on rtx-a6000: nothing counted, see 'left out' [roofline-program]
// The formulas need no layer count: the loop's body is walked once for them.
// NOL: FLOPs: 16*B*C^2*L*T + 37*B*C*L*T{{$}}
// NOL: left out (not in the totals):
// NOL-NEXT: layers.c:65: forward: the loop's condition 'l < L' has no value here (give its sizes with --param): the calls in it are not counted (calls to block)

// MISSING: error: --entry=backward: no function of that name with a body in the input file
