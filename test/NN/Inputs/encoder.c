// The token and position embeddings: out[b,t,:] = wte[inp[b,t], :] +
// wpe[t, :]. The token row is chosen by a loaded index (a row gather), so
// these nests' bytes are a range, never counted as exact; adding the
// positions alone is a plain affine nest.
// Part of the test/NN corpus (see docs/testing-nn-corpus.md).

void encoder_forward(float *out, const int *inp, const float *wte,
                     const float *wpe, int B, int T, int C) {
  for (int b = 0; b < B; b++) {
    for (int t = 0; t < T; t++) {
      float *out_bt = out + b * T * C + t * C;
      int ix = inp[b * T + t];
      const float *wte_ix = wte + ix * C;
      const float *wpe_t = wpe + t * C;
      for (int i = 0; i < C; i++) {
        out_bt[i] = wte_ix[i] + wpe_t[i];
      }
    }
  }
}

void encoder_backward(float *dwte, float *dwpe, const float *dout,
                      const int *inp, int B, int T, int C) {
  for (int b = 0; b < B; b++) {
    for (int t = 0; t < T; t++) {
      const float *dout_bt = dout + b * T * C + t * C;
      int ix = inp[b * T + t];
      float *dwte_ix = dwte + ix * C;
      float *dwpe_t = dwpe + t * C;
      for (int i = 0; i < C; i++) {
        float d = dout_bt[i];
        dwte_ix[i] += d;
        dwpe_t[i] += d;
      }
    }
  }
}

void position_add(float *x, const float *wpe, int B, int T, int C) {
  for (int b = 0; b < B; b++) {
    for (int t = 0; t < T; t++) {
      float *x_bt = x + b * T * C + t * C;
      const float *wpe_t = wpe + t * C;
      for (int i = 0; i < C; i++) {
        x_bt[i] += wpe_t[i];
      }
    }
  }
}
