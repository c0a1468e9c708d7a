// Point gathers: one element of each row, picked by an index loaded from
// memory (a label, a target token, an argmax kept earlier). The elements
// touched are as many as the rows, whatever the indices are, when each
// execution reads its own row; the forms below check that, and those where
// it does not hold (the index read in a loop inside its body, rows that
// repeat, a second access of the array, a gathered row) stay refused.
// Part of the test/NN corpus (see docs/testing-nn-corpus.md).
#include <math.h>

// The negative log-likelihood of each position's label, rows of V.
void nll_loss(float *loss, const float *logp, const int *labels, int N,
              int V) {
  for (int n = 0; n < N; n++) {
    const float *row = logp + n * V;
    int y = labels[n];
    loss[n] = -row[y];
  }
}

// The same through a declared array: rows of its extent, 10 classes.
void nll_fixed(float *loss, const float logp[][10], const int *labels, int N) {
  for (int n = 0; n < N; n++) {
    int y = labels[n];
    loss[n] = -logp[n][y];
  }
}

// The one-hot part of a softmax backward: each row's label entry moves,
// read and written (dlogits[b][t][ix] -= 1).
void onehot_sub(float *dlogits, const int *targets, int B, int T, int Vp) {
  for (int b = 0; b < B; b++) {
    for (int t = 0; t < T; t++) {
      float *d_bt = dlogits + b * T * Vp + t * Vp;
      int ix = targets[b * T + t];
      d_bt[ix] -= 1.0f;
    }
  }
}

// A scatter of one value a row: the class score written for the label.
void mark_label(float *scores, const int *labels, int N, int C) {
  for (int n = 0; n < N; n++) {
    int c = labels[n];
    scores[n * C + c] = 1.0f;
  }
}

// Accuracy: the label's probability compared against a threshold, with
// arithmetic on it (the count of FLOPs does not depend on the index).
void label_margin(float *margin, const float *probs, const int *labels, int N,
                  int C) {
  for (int n = 0; n < N; n++) {
    int y = labels[n];
    float p = probs[n * C + y];
    margin[n] = p * 2.0f - 1.0f;
  }
}

// Refused: the index is loaded once per row, but the element is read in a
// loop inside the row's body (one element each iteration, the same one:
// the tool asks for the index in the body that reads it).
void repeat_read(float *out, const float *probs, const int *labels, int N,
                 int C, int K) {
  for (int n = 0; n < N; n++) {
    int y = labels[n];
    for (int k = 0; k < K; k++)
      out[n * K + k] = probs[n * C + y];
  }
}

// Refused: the rows repeat (t does not move the row), so the indices of
// one row may pick several elements of it, or one.
void shared_row(float *out, const float *table, const int *idx, int B, int T,
                int C) {
  for (int b = 0; b < B; b++) {
    for (int t = 0; t < T; t++) {
      int ix = idx[b * T + t];
      out[b * T + t] = table[b * C + ix];
    }
  }
}

// Refused: a second access of the array may touch the gathered element.
void with_first(float *out, const float *probs, const int *labels, int N,
                int C) {
  for (int n = 0; n < N; n++) {
    int y = labels[n];
    out[n] = probs[n * C + y] - probs[n * C];
  }
}

// Refused: the rows overlap (a unit stride), so a row's element may be the
// next row's.
void sliding(float *out, const float *x, const int *off, int N) {
  for (int n = 0; n < N; n++) {
    int o = off[n];
    out[n] = x[n + o];
  }
}

// Refused: a gathered row (an embedding lookup), not one element of it.
void embed(float *out, const float *wte, const int *tok, int N, int C) {
  for (int n = 0; n < N; n++) {
    const float *w = wte + tok[n] * C;
    for (int i = 0; i < C; i++)
      out[n * C + i] = w[i];
  }
}
