// The whole-network report with a token embedding (a row gather, issue 18):
// its bytes are the upper end of a range (every token a new row), summed
// as such and labelled in its row and in JSON (bytes_is_range).
// RUN: roofline-lint --entry=forward %s 2>&1 | FileCheck %s
// RUN: roofline-lint --entry=forward --format=json %s 2>/dev/null | FileCheck %s --check-prefix=JSON

// B*T*C = 196,608 FLOPs each; the embedding's bytes: out and the picked
// rows 786,432 each, inp 1,024, wpe 196,608 (1.688 MiB).
// CHECK: row-gather.c:[[@LINE+23]]:1: remark: pass 'forward' on rtx-a6000: time floor 5.38 us, 393 kFLOP, 3.938 MiB
// CHECK: 2.25 MiB   0.0833  memory-bound  residual ({{.*}}row-gather.c:[[@LINE+7]]) via forward > residual{{$}}
// CHECK: 1.688 MiB    0.111  memory-bound  encoder_forward ({{.*}}row-gather.c:[[@LINE+11]]) via forward > encoder_forward (bytes: the upper end, rows picked by loaded indices)
// JSON: "function": "residual",
// JSON: "bytes_is_range": false,
// JSON: "function": "encoder_forward",
// JSON: "bytes_is_range": true,
void residual(float *out, const float *a, const float *b, int N) {
  for (int i = 0; i < N; i++) out[i] = a[i] + b[i];
}

void encoder_forward(float *out, const int *inp, const float *wte,
                     const float *wpe, int B, int T, int C) {
  for (int b = 0; b < B; b++)
    for (int t = 0; t < T; t++) {
      float *out_bt = out + b * T * C + t * C;
      int ix = inp[b * T + t];
      const float *wte_ix = wte + ix * C;
      const float *wpe_t = wpe + t * C;
      for (int i = 0; i < C; i++)
        out_bt[i] = wte_ix[i] + wpe_t[i];
    }
}
void forward(float *acts, float *x2, float *x3, const int *inp,
             const float *wte, const float *wpe) {
  encoder_forward(acts, inp, wte, wpe, 4, 64, 768);
  residual(x2, acts, x3, 4 * 64 * 768);
}
