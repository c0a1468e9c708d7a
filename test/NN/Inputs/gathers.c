// Rows and elements picked by indices loaded from memory (row gathers,
// docs/design.md "Row gathers"): which ones depends on the data, so the
// compulsory bytes are a range, from every pick the same to every pick a
// new one; the FLOPs stay exact.
// Part of the test/NN corpus (see docs/testing-nn-corpus.md).

typedef struct {
  int *indexes;
  float *delta;
  int n;
} pool_layer;

// darknet's maxpool backward: one element of the input's gradient per
// output, the one the forward pass's argmax picked.
void pool_backward(pool_layer l, float *delta_in) {
  for (int i = 0; i < l.n; ++i) {
    int index = l.indexes[i];
    delta_in[index] += l.delta[i];
  }
}

// A lookup table: y[i] = 2 table[q[i]].
void lookup(float *y, const float *table, const int *q, int N) {
  for (int i = 0; i < N; i++) {
    int j = q[i];
    y[i] = 2.0f * table[j];
  }
}

// Token embeddings from a declared table, the row its first subscript,
// each element squared.
#define NTOK 8
#define VOCAB 6
#define EMB 4
void embed_table(float out[NTOK][EMB], const int tok[NTOK],
                 const float wte[VOCAB][EMB]) {
  for (int t = 0; t < NTOK; t++) {
    int ix = tok[t];
    for (int i = 0; i < EMB; i++)
      out[t][i] = wte[ix][i] * wte[ix][i];
  }
}

// An embedding's gradient (llm.c's encoder_backward), the row as &dwte[ix*C].
void embed_backward(float *dwte, const float *dout, const int *inp, int B,
                    int T, int C) {
  for (int b = 0; b < B; b++)
    for (int t = 0; t < T; t++) {
      int ix = inp[b * T + t];
      float *dw = &dwte[ix * C];
      const float *d = dout + (b * T + t) * C;
      for (int i = 0; i < C; i++)
        dw[i] += d[i];
    }
}

// A picked row passed to a helper: tied embeddings' logits, one dot
// product of the token's row with x per position.
static float dot_row(const float *a, const float *b, int n) {
  float s = 0.0f;
  for (int i = 0; i < n; i++)
    s += a[i] * b[i];
  return s;
}
void token_logits(float *out, const int *tok, const float *wte,
                  const float *x, int T, int C) {
  for (int t = 0; t < T; t++) {
    int ix = tok[t];
    out[t] = dot_row(wte + ix * C, x + t * C, C);
  }
}
