// The classifier head: softmax over a vocabulary of V logits stored in rows
// padded to Vp, the cross-entropy loss (which picks each row's target
// probability: a gather, so it cannot be counted exactly), and the fused
// softmax + cross-entropy backward pass.
// Part of the test/NN corpus (see docs/testing-nn-corpus.md).
#include <math.h>

void softmax_forward(float *probs, const float *logits, int B, int T, int V,
                     int Vp) {
#pragma omp parallel for collapse(2)
  for (int b = 0; b < B; b++) {
    for (int t = 0; t < T; t++) {
      const float *logits_bt = logits + b * T * Vp + t * Vp;
      float *probs_bt = probs + b * T * Vp + t * Vp;

      float maxval = -10000.0f;
      for (int i = 0; i < V; i++) {
        if (logits_bt[i] > maxval) {
          maxval = logits_bt[i];
        }
      }
      float sum = 0.0f;
      for (int i = 0; i < V; i++) {
        probs_bt[i] = expf(logits_bt[i] - maxval);
        sum += probs_bt[i];
      }
      for (int i = 0; i < V; i++) {
        probs_bt[i] /= sum;
      }
      // the padding is zero, so it never takes part in a loss
      for (int i = V; i < Vp; i++) {
        probs_bt[i] = 0.0f;
      }
    }
  }
}

void crossentropy_forward(float *losses, const float *probs,
                          const int *targets, int B, int T, int Vp) {
  for (int b = 0; b < B; b++) {
    for (int t = 0; t < T; t++) {
      const float *probs_bt = probs + b * T * Vp + t * Vp;
      int ix = targets[b * T + t];
      losses[b * T + t] = -logf(probs_bt[ix]);
    }
  }
}

void crossentropy_softmax_backward(float *dlogits, const float *dlosses,
                                   const float *probs, const int *targets,
                                   int B, int T, int V, int Vp) {
  for (int b = 0; b < B; b++) {
    for (int t = 0; t < T; t++) {
      float *dlogits_bt = dlogits + b * T * Vp + t * Vp;
      const float *probs_bt = probs + b * T * Vp + t * Vp;
      float dloss = dlosses[b * T + t];
      int ix = targets[b * T + t];
      // only the first V entries: the padding keeps a zero gradient
      for (int i = 0; i < V; i++) {
        float p = probs_bt[i];
        float indicator = i == ix ? 1.0f : 0.0f;
        dlogits_bt[i] += (p - indicator) * dloss;
      }
    }
  }
}
