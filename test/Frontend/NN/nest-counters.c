// Integer counters declared inside the nest (euske/nn1 rnn.c, genann): a
// flat weight index set in an outer loop's body and stepped in an inner
// loop. A counter whose index is refused is named in the reason; it is not
// a load from memory (it was once called a gather).
// RUN: roofline-lint --no-source %s 2>&1 | FileCheck %s --check-prefix=WHY
// WHY-NOT: gather

// WHY: nest-counters.c:[[@LINE+3]]:3: note: loop nest not analyzed: access 'w[kx]': the index 'kx' of 'w' depends on 'kx', a counter the nest itself advances (not a load from memory)
void feedback(float *e, float *u, const float *w, const float *o,
              const float *dd, int T, int T2, int N, int M) {
  for (int t = 0; t < T; t++) {
    int kx = 0;
    for (int i = 0; i < N; i++) {
      float d = dd[t * N + i];
      if ((t + 1) < T2) {
        for (int j = 0; j < M; j++) {
          e[t * M + j] += w[kx] * d;
          u[kx] += d * o[t * M + j];
          kx++;
        }
      }
    }
  }
}

// WHY: nest-counters.c:[[@LINE+3]]:3: note: loop nest not analyzed: access 'w[k]': the index 'k' of 'w' depends on 'k', a counter the nest itself advances (not a load from memory)
void row_start(float *y, const float *w, const float *x, int T, int N,
               int M) {
  for (int t = 0; t < T; t++) {
    for (int i = 0; i < N; i++) {
      int k = i * M;
      for (int j = 0; j < M; j++) {
        y[t * N + i] += w[k] * x[t * M + j];
        k++;
      }
    }
  }
}
