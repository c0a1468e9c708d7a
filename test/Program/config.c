// Sizes from the program: a Config struct filled in main with literals is
// the pass's sizes, whichever way main fills it. The kernels are those of
// layers.c, so the pass is the one counted by hand there:
// L=2, B=1, T=4, C=8: 10,560 FLOPs, 9,728 bytes (matmul 4 runs, 8,192 FLOPs,
// 6,912 B; gelu 2 runs, 2,304 FLOPs, 2,048 B; residual 2 runs, 64 FLOPs,
// 768 B). The same numbers with every size given by --param (GIVEN) show
// the program's values are the ones used.
//
// RUN: roofline-lint --no-source --quiet --entry=forward %s -- -DFORM=1 | FileCheck %s --check-prefixes=PASS,ASSIGN
// RUN: roofline-lint --no-source --quiet --entry=forward %s -- -DFORM=2 | FileCheck %s --check-prefixes=PASS,DESIG
// RUN: roofline-lint --no-source --quiet --entry=forward %s -- -DFORM=3 | FileCheck %s --check-prefixes=PASS,POS
// RUN: roofline-lint --no-source --quiet --entry=forward %s -- -DFORM=4 | FileCheck %s --check-prefixes=PASS,ARROW
// main calling the entry: the same pass, one level down.
// RUN: roofline-lint --no-source --quiet --entry=main %s -- -DFORM=1 | FileCheck %s --check-prefix=MAIN
// RUN: roofline-lint --no-source --quiet --entry=forward --param n_layers=2 --param batch=1 --param seq=4 --param channels=8 %s -- -DFORM=5 | FileCheck %s --check-prefix=PASS
//
// What the scan refuses: a struct read from a file, a field given two
// values, a field whose address is taken. Nothing is guessed.
// RUN: roofline-lint --no-source --quiet --entry=forward %s -- -DFORM=6 | FileCheck %s --check-prefix=FREAD
// RUN: roofline-lint --no-source --quiet --entry=forward %s -- -DFORM=7 | FileCheck %s --check-prefix=TWICE
// RUN: roofline-lint --no-source --quiet --entry=forward %s -- -DFORM=8 | FileCheck %s --check-prefix=ADDR
// --param wins over the program's literal.
// RUN: roofline-lint --no-source --quiet --entry=forward --param n_layers=1 %s -- -DFORM=1 | FileCheck %s --check-prefix=OVER

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  int n_layers;
  int batch;
  int seq;
  int channels;
} Config;

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

void forward(const Config *cfg, float *acts, float *h, float *g, float *y,
             const float *params) {
  int L = cfg->n_layers;
  int BT = cfg->batch * cfg->seq;
  int C = cfg->channels;
  for (int l = 0; l < L; l++) {
    const float *w1 = params + l * 8 * C * C;
    block(acts + (l + 1) * BT * C, acts + l * BT * C, h, g, y, w1,
          w1 + 4 * C * C, w1 + 4 * C * C + 4 * C, BT, C);
  }
}

static float Acts[3 * 32], H[128], G[128], Y[32], Params[2 * 8 * 64 + 64];

int main(void) {
#if FORM == 1
  Config c;
  c.n_layers = 2;
  c.batch = 1;
  c.seq = 4;
  c.channels = 8;
  Config *p = &c;
#elif FORM == 2
  Config c = {.n_layers = 2, .batch = 1, .seq = 4, .channels = 8};
  Config *p = &c;
#elif FORM == 3
  Config c = {2, 1, 4, 8};
  Config *p = &c;
#elif FORM == 4
  Config *p = malloc(sizeof *p);
  p->n_layers = 2;
  p->batch = 1;
  p->seq = 4;
  p->channels = 8;
#elif FORM == 5
  Config *p = malloc(sizeof *p);
#elif FORM == 6
  Config c = {0};
  c.channels = 8;
  FILE *f = fopen("model.bin", "rb");
  fread(&c, sizeof c, 1, f);
  Config *p = &c;
#elif FORM == 7
  Config c = {2, 1, 4, 8};
  Config d = {2, 1, 4, 16};
  forward(&d, Acts, H, G, Y, Params);
  Config *p = &c;
#elif FORM == 8
  Config c = {2, 1, 4, 8};
  scanf("%d", &c.channels);
  Config *p = &c;
#endif
  forward(p, Acts, H, G, Y, Params);
  return 0;
}

// PASS: remark: pass 'forward' on rtx-a6000: time floor {{.*}}, 10.6 kFLOP, 9.73 kB, {{.*}} memory-bound (100% of the time in memory-bound nests) [roofline-program]
// ASSIGN: note: sizes from struct fields the file sets from literals: Config.batch=1 (line 89), Config.channels=8 (line 91), Config.n_layers=2 (line 88), Config.seq=4 (line 90)
// DESIG: note: sizes from struct fields the file sets from literals: Config.batch=1 (line 94), Config.channels=8 (line 94), Config.n_layers=2 (line 94), Config.seq=4 (line 94)
// POS: note: sizes from struct fields the file sets from literals: Config.batch=1 (line 97), Config.channels=8 (line 97), Config.n_layers=2 (line 97), Config.seq=4 (line 97)
// ARROW: note: sizes from struct fields the file sets from literals: Config.batch=1 (line 102), Config.channels=8 (line 104), Config.n_layers=2 (line 101), Config.seq=4 (line 103)
// PASS: share time runs FLOPs bytes FLOP/B verdict nest
// PASS-DAG: 4 8.19 k 6.91 kB {{.*}} memory-bound matmul ({{.*}}config.c:39) via forward > block > matmul
// PASS-DAG: 2 2.3 k 2 KiB {{.*}} memory-bound gelu ({{.*}}config.c:52) via forward > block > gelu
// PASS-DAG: 2 64 768 B {{.*}} memory-bound residual ({{.*}}config.c:59) via forward > block > residual
// PASS-NOT: left out

// MAIN: remark: pass 'main' on rtx-a6000: time floor {{.*}}, 10.6 kFLOP, 9.73 kB,
// MAIN: 4 8.19 k 6.91 kB {{.*}} matmul ({{.*}}config.c:39) via main > forward > block > matmul

// FREAD: remark: pass 'forward' on rtx-a6000: nothing counted, see 'left out' [roofline-program]
// FREAD: note: struct fields with no value from the file: Config.batch: its struct is passed to 'fread', which has no body here (line 111); Config.channels: {{.*}}; Config.n_layers: {{.*}}
// FREAD: left out (not in the totals):
// FREAD-NEXT: config.c:76: forward: the loop's condition 'l < L' has no value here

// TWICE: remark: pass 'forward' on rtx-a6000: nothing counted, see 'left out' [roofline-program]
// TWICE: note: struct fields with no value from the file: Config.channels: written with 8 and 16
// TWICE: left out (not in the totals):
// TWICE-NEXT: config.c:39: matmul via forward > block > matmul: no count: size 'C' has no value

// ADDR: note: struct fields with no value from the file: Config.channels: its address is taken (line 120)
// ADDR: left out (not in the totals):

// One layer: half of everything.
// OVER: remark: pass 'forward' on rtx-a6000: time floor {{.*}}, 5.28 kFLOP, 4.86 kB,
