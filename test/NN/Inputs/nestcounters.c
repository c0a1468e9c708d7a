// Flat weight indices kept in integer counters declared inside the nest,
// the way euske/nn1's rnn.c writes its backward step (issue 18): `int kx =
// 0, kh = 0;` in the loop over time steps, stepped in an inner loop under a
// guard on the time step alone; a row start `int k = i*M + 1;`; a stride-2
// walk. Part of the test/NN corpus (see docs/testing-nn-corpus.md).

// rnn.c's RNNLayer_feedBack: errors propagated to the previous layer and
// weight gradients, each weight matrix walked by its own counter.
void rnn_feedback(float *errp, float *err, float *uxw, float *uhw,
                  const float *xw, const float *hw, const float *outp,
                  const float *out, int T, int T2, int N, int M) {
  for (int t = 0; t < T; t++) {
    int kx = 0, kh = 0;
    int i1 = (t + 1) * N;
    int j0 = t * M;
    for (int i = 0; i < N; i++) {
      float d = err[t * N + i] * (1.0f - out[t * N + i] * out[t * N + i]);
      if ((t + 1) < T2) {
        for (int j = 0; j < M; j++) {
          errp[j0 + j] += xw[kx] * d;
          uxw[kx] += d * outp[j0 + j];
          kx++;
        }
      }
      if ((t + 1) < T) {
        for (int j = 0; j < N; j++) {
          err[i1 + j] += hw[kh] * d;
          uhw[kh] += d * out[i1 + j];
          kh++;
        }
      }
    }
  }
}

// A dense layer per time step whose row start is a counter one ahead.
void dense_steps(float *y, const float *w, const float *x, int T, int N,
                 int M) {
  for (int t = 0; t < T; t++) {
    for (int i = 0; i < N; i++) {
      int k = i * M + 1;
      float s = 0.0f;
      for (int j = 0; j < M; j++) {
        s += w[k - 1] * x[t * M + j];
        ++k;
      }
      y[t * N + i] = s;
    }
  }
}

// Every other element of a row: a step of 2 from an affine start.
void spread(float *out, const float *in, int T, int M) {
  for (int t = 0; t < T; t++) {
    int k = 2 * t * M;
    for (int j = 0; j < M; j++) {
      out[k] = in[t * M + j];
      k += 2;
    }
  }
}

// A row offset advanced by a size after each row, under a guard on the
// outer loop.
void guarded_rows(float *y, const float *w, int B, int H, int M) {
  for (int b = 0; b < B; b++) {
    int k = b * H * M;
    for (int h = 0; h < H; h++) {
      float s = 0.0f;
      if (2 * b < B) {
        for (int j = 0; j < M; j++)
          s += w[k + j];
        k += M;
      }
      y[b * H + h] = s;
    }
  }
}

// Refused: the guard changes while the counter lives.
void variant_guard(float *y, const float *w, int T, int M) {
  for (int t = 0; t < T; t++) {
    int k = 0;
    for (int j = 0; j < M; j++) {
      y[t] += w[k];
      if (j < t)
        k++;
    }
  }
}
