// Rows of a table picked by an index loaded from memory (issue 18; a row
// gather, docs/design.md "Row gathers"): the access is recorded within its
// row, and the compulsory bytes are a range, from one row's elements
// (every pick the same row) to one row per pick (every pick a new row).
// FLOPs, loads and no-reuse bytes do not depend on the rows. The same
// nests, run and counted, are checked against the instrumented run in
// test/NN/encoder.test; the differential's form `rgather` draws them.
// RUN: roofline-lint --dump-ir %s -- 2>&1 | FileCheck %s --check-prefix=IR
// RUN: roofline-lint --verbosity=normal --no-source --param T=4 --param C=8 %s 2>&1 | FileCheck %s
// RUN: roofline-lint --format=json --param T=4 --param C=8 %s 2>/dev/null | FileCheck %s --check-prefix=JSON
// RUN: roofline-lint --model=cache --param T=4 --param C=8 %s 2>&1 | FileCheck %s --check-prefix=CACHE
// RUN: roofline-lint --verbosity=normal --no-source --param T=4 --param C=8 --param l.out_h=2 --param l.out_w=3 --param l.c=2 --param l.batch=1 --param N=10 %s 2>&1 | FileCheck %s --check-prefix=ELEM

// IR: nest @embed
// IR: read wte[i] in the row ix picks (row gather, one pick per iteration of t)
// 4 picks of a row of 8: wte 32..128 bytes, out 128, tok 16.
// CHECK: row-gathers.c:[[@LINE+6]]:3: note: 0 MACs, 0 FLOPs; 176 to 272 bytes compulsory, 272 bytes no-reuse
// CHECK: row-gathers.c:[[@LINE+5]]:3: note: as formulas: MACs = 0, FLOPs = 0, bytes compulsory = 4*C*T + 4*C + 4*T to 8*C*T + 4*T
// CHECK: row-gathers.c:[[@LINE+4]]:3: note: rows of 'wte' are picked by indices loaded from memory: the compulsory bytes are a range, from 176 (every pick the same row) to 272 (every pick a new row); the verdict takes the upper end
// CHECK: row-gathers.c:[[@LINE+3]]:3: note: what-if: none considered: 'wte(row ix)[i]' is in a row that 'ix' (loaded from memory) picks
// CACHE: row-gathers.c:[[@LINE+2]]:3: remark: embed: no verdict on rtx-a6000: cache model: the rows 'ix' picks are loaded from memory (a gather)
void embed(float *out, const int *tok, const float *wte, int T, int C) {
  for (int t = 0; t < T; ++t) {
    int ix = tok[t];
    for (int i = 0; i < C; ++i)
      out[t * C + i] = wte[ix * C + i];
  }
}

// The table's elements and the bytes both ways, and the intensity's range.
// JSON: "elements_read": 32,
// JSON-NEXT: "elements_read_min": 8,
// JSON-NEXT: "elements_written": 0,
// JSON-NEXT: "elements_written_min": 0,
// JSON-NEXT: "loads": 32,
// JSON-NEXT: "name": "wte",
// JSON: "compulsory": 272,
// JSON-NEXT: "compulsory_min": 176,
// JSON: "bytes_compulsory": "272",
// JSON-NEXT: "bytes_compulsory_min": "176",
// JSON: "bytes_compulsory": "8*C*T + 4*T",
// JSON-NEXT: "bytes_compulsory_min": "4*C*T + 4*C + 4*T",

// A declared table, its row the first subscript: 32 FLOPs, wte 32..128.
// CHECK: row-gathers.c:[[@LINE+2]]:3: note: 0 MACs, 32 FLOPs (f32: 32); 176 to 272 bytes compulsory, 272 bytes no-reuse
void embed_2d(float out[4][8], const int tok[4], const float wte[50][8]) {
  for (int t = 0; t < 4; ++t) {
    int ix = tok[t];
    for (int i = 0; i < 8; ++i)
      out[t][i] = 2.0f * wte[ix][i];
  }
}

// The stride first, through a row pointer: out read and written (256).
// CHECK: row-gathers.c:[[@LINE+2]]:3: note: 0 MACs, 32 FLOPs (f32: 32); 304 to 400 bytes compulsory, 400 bytes no-reuse
void embed_add(float *out, const int *tok, const float *wte, int T, int C) {
  for (int t = 0; t < T; ++t) {
    const int ix = tok[t];
    const float *w = wte + C * ix;
    for (int i = 0; i < C; ++i)
      out[t * C + i] += w[i];
  }
}

// The backward: the picked rows are read and written (llm.c's
// encoder_backward), 32..128 bytes each way.
// CHECK: row-gathers.c:[[@LINE+2]]:3: note: 0 MACs, 32 FLOPs (f32: 32); 208 to 400 bytes compulsory, 400 bytes no-reuse
void embed_backward(float *dwte, const float *dout, const int *tok, int T, int C) {
  for (int t = 0; t < T; ++t) {
    int ix = tok[t];
    float *dw = &dwte[ix * C];
    for (int i = 0; i < C; ++i)
      dw[i] += dout[t * C + i];
  }
}

// The row read twice: still one row's elements at least.
// CHECK: row-gathers.c:[[@LINE+2]]:3: note: 32 MACs, 64 FLOPs (f32: 64); 64 to 160 bytes compulsory, 288 bytes no-reuse
void row_norms(float *out, const int *tok, const float *wte, int T, int C) {
  for (int t = 0; t < T; ++t) {
    int ix = tok[t];
    const float *w = wte + ix * C;
    float s = 0.0f;
    for (int i = 0; i < C; ++i)
      s += w[i] * w[i];
    out[t] = s;
  }
}

// Refused, with the reason: the part within the row moves with the pick
// loop, so picks do not touch the same pattern.
// CHECK: row-gathers.c:[[@LINE+2]]:3: note: loop nest not analyzed: gather: 'wte(row ix)[i + t]' moves with the loop over 't' (where 'ix' is loaded) or one around it, besides the row 'ix' picks: the picks do not touch alike
void moving(float *out, const int *tok, const float *wte, int T, int C) {
  for (int t = 0; t < T; ++t) {
    int ix = tok[t];
    const float *w = wte + ix * C;
    for (int i = 0; i < C; ++i)
      out[t * C + i] = w[i + t];
  }
}

// A stride that is no size.
// CHECK: row-gathers.c:[[@LINE+2]]:3: note: loop nest not analyzed: access 'wte[ix * i]': gather: the row 'ix * i' is picked by 'ix' (loaded from memory) with a stride 'i' that is no size of the nest
void stride_loop(float *out, const int *tok, const float *wte, int T, int C) {
  for (int t = 0; t < T; ++t) {
    int ix = tok[t];
    for (int i = 0; i < C; ++i)
      out[t * C + i] = wte[ix * i];
  }
}

// The row read on some paths only.
// CHECK: row-gathers.c:[[@LINE+2]]:3: note: loop nest not analyzed: gather: 'w[i]' is in the row 'ix' picks, under a data-dependent branch
void under_branch(float *out, const int *tok, const float *wte, const float *g, int T, int C) {
  for (int t = 0; t < T; ++t) {
    int ix = tok[t];
    const float *w = wte + ix * C;
    for (int i = 0; i < C; ++i)
      if (g[i] > 0.0f)
        out[t * C + i] = w[i];
  }
}

// Two indices into one table: the rows may coincide.
// CHECK: row-gathers.c:[[@LINE+2]]:3: note: loop nest not analyzed: gather: the rows of 'wte' that 'ix' picks may be touched by another access too
void two_picks(float *out, const int *tok, const float *wte, int T, int C) {
  for (int t = 0; t < T; ++t) {
    int ix = tok[t];
    int jx = tok[t + T];
    for (int i = 0; i < C; ++i)
      out[t * C + i] = wte[ix * C + i] - wte[jx * C + i];
  }
}

// The table read at a fixed row too.
// CHECK: row-gathers.c:[[@LINE+2]]:3: note: loop nest not analyzed: gather: the rows of 'wte' that 'ix' picks may be touched by another access too
void mixed(float *out, const int *tok, const float *wte, int T, int C) {
  for (int t = 0; t < T; ++t) {
    int ix = tok[t];
    for (int i = 0; i < C; ++i)
      out[t * C + i] = wte[ix * C + i] - wte[i];
  }
}

// A prefix of the row as long as t: picks differ in what they touch.
// CHECK: row-gathers.c:[[@LINE+2]]:3: note: loop nest not analyzed: gather: the rows of 'wte' that 'ix' picks are not read alike: the loop over 'i' inside it runs differently from pick to pick
void prefix(float *out, const int *tok, const float *wte, int T, int C) {
  for (int t = 0; t < T; ++t) {
    int ix = tok[t];
    for (int i = 0; i <= t; ++i)
      out[t * C + i] = wte[ix * C + i];
  }
}

// The index changed after its load: no gather local, refused.
// CHECK: row-gathers.c:[[@LINE+2]]:3: note: loop nest not analyzed: access 'wte[ix * C + i]': the index 'ix * C + i' of 'wte' depends on 'ix'
void changed(float *out, const int *tok, const float *wte, int T, int C) {
  for (int t = 0; t < T; ++t) {
    int ix = tok[t];
    ix = ix + 1;
    for (int i = 0; i < C; ++i)
      out[t * C + i] = wte[ix * C + i];
  }
}

// The index read straight from memory in the subscript: one load per
// element, not per row; refused.
// CHECK: row-gathers.c:[[@LINE+2]]:3: note: loop nest not analyzed: access 'table[tok[n] * C + i]': gather: the index 'tok[n] * C + i' of 'table' is loaded from memory
void inline_load(float *out, const int *tok, const float *table, int N, int C) {
  for (int n = 0; n < N; n++)
    for (int i = 0; i < C; i++)
      out[n * C + i] = table[tok[n] * C + i];
}

// One element picked in the body that loads the index (darknet's maxpool
// backward): a row of one element, which moves every iteration, so its
// loads and stores are counted every time (no-reuse 192 bytes), and the
// elements range from 1 to 12 (104 to 192 bytes).
typedef struct { int *indexes; float *delta; int out_h, out_w, c, batch; } maxpool_layer;
typedef struct { float *delta; } network;
// ELEM: row-gathers.c:[[@LINE+7]]:5: note: 0 MACs, 12 FLOPs (f32: 12); 104 to 192 bytes compulsory, 192 bytes no-reuse
void backward_maxpool_layer(const maxpool_layer l, network net)
{
    int i;
    int h = l.out_h;
    int w = l.out_w;
    int c = l.c;
    for(i = 0; i < h*w*c*l.batch; ++i){
        int index = l.indexes[i];
        net.delta[index] += l.delta[i];
    }
}

// A table lookup: 1 to N elements of the table.
// ELEM: row-gathers.c:[[@LINE+2]]:3: note: 0 MACs, 0 FLOPs; 84 to 120 bytes compulsory, 120 bytes no-reuse
void lookup(float *out, const float *table, const int *idx, int N) {
  for (int i = 0; i < N; ++i) {
    int j = idx[i];
    out[i] = table[j];
  }
}

// A picked row passed to a helper: the helper's accesses through it are in
// the row (4 picks of 8: wte 32..128 bytes).
// CHECK: row-gathers.c:[[@LINE+7]]:3: note: 0 MACs, 32 FLOPs (f32: 32); 304 to 400 bytes compulsory, 400 bytes no-reuse
static void add_row(float *out, const float *w, int C) {
  for (int i = 0; i < C; ++i)
    out[i] += w[i];
}
void embed_helper(float *out, const int *tok, const float *wte, int T,
                  int C) {
  for (int t = 0; t < T; ++t) {
    int ix = tok[t];
    add_row(out + t * C, wte + ix * C, C);
  }
}

// A dot product with the picked row (a helper whose loop makes a value):
// 32 MACs; out 16, tok 16, x 32 bytes, wte 32..128.
// CHECK: row-gathers.c:[[@LINE+9]]:3: note: 32 MACs, 64 FLOPs (f32: 64); 96 to 192 bytes compulsory, 288 bytes no-reuse
static float dot(const float *a, const float *b, int n) {
  float s = 0.0f;
  for (int i = 0; i < n; ++i)
    s += a[i] * b[i];
  return s;
}
void logits_of_tokens(float *out, const int *tok, const float *wte,
                      const float *x, int T, int C) {
  for (int t = 0; t < T; ++t) {
    int ix = tok[t];
    out[t] = dot(wte + ix * C, x, C);
  }
}
