// Backpropagation through time of a small Elman RNN (tanh units), written
// for this test: the gradient of the recurrent weights takes the next
// step's state, so it runs only where there is a next step -- an affine
// `if` around part of the loop body (docs/user-guide.md, "Conditions").
void rnn_backward(float *delta, float *dwh, const float *h, const float *dy,
                  int T, int H) {
  for (int t = 0; t < T; t++) {
    for (int i = 0; i < H; i++) {
      float d = dy[t * H + i] * (1.0f - h[t * H + i] * h[t * H + i]);
      if (t + 1 < T) {
        for (int j = 0; j < H; j++)
          dwh[i * H + j] += d * h[(t + 1) * H + j];
      }
      delta[t * H + i] = d;
    }
  }
}

// The diagonal and the strict upper part of a per-step score matrix, in one
// pass: an `if`/`else` beside other work, and an `==` guard.
void score_parts(float *s, float *diag, float *upper, int T) {
  for (int t = 0; t < T; t++)
    for (int u = 0; u < T; u++) {
      s[t * T + u] *= 0.5f;
      if (u == t)
        diag[t] += s[t * T + u];
      if (u > t)
        upper[t * T + u] = s[t * T + u];
      else
        upper[t * T + u] = 0.0f;
    }
}
