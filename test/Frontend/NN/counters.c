// An index kept in a counter that the nest itself advances (`w[k++]`, or a
// row offset `r += M`) is refused, and the reason names the counter: it is
// not a load from memory, so calling it a gather would mislead. An index
// that also reads memory stays a gather.
// RUN: roofline-lint --no-source %s 2>&1 | FileCheck %s

// CHECK: counters.c:[[@LINE+3]]:3: note: loop nest not analyzed: access 'w[k++]': the index 'k++' of 'w' depends on 'k', a counter the nest itself advances (not a load from memory): only indices affine in the loop variables are counted [roofline-unanalyzable]
void dense_running_index(float *y, const float *x, const float *w, int N, int M) {
  int k = 0;
  for (int i = 0; i < N; i++) {
    float acc = 0;
    for (int j = 0; j < M; j++)
      acc += x[j] * w[k++];
    y[i] = acc;
  }
}

// CHECK: counters.c:[[@LINE+3]]:3: note: loop nest not analyzed: pointer 'row' = 'w + r': the offset 'r' into 'w' depends on 'r', a counter the nest itself advances
void row_sums_advancing_offset(float *y, const float *w, int N, int M) {
  int r = 0;
  for (int i = 0; i < N; i++) {
    const float *row = w + r;
    for (int j = 0; j < M; j++)
      y[i] += row[j];
    r += M;
  }
}

// CHECK: counters.c:[[@LINE+3]]:3: note: loop nest not analyzed: access 'w[k + idx[i]]': gather: the index 'k + idx[i]' of 'w' is loaded from memory, so the elements it touches depend on the data
void counter_plus_loaded_index(float *y, const float *w, const int *idx, int N) {
  int k = 0;
  for (int i = 0; i < N; i++) {
    y[i] = w[k + idx[i]];
    k += 2;
  }
}

// A value assigned from memory inside the nest is data too, whatever its
// name: the gather reason stays.
// CHECK: counters.c:[[@LINE+3]]:3: note: loop nest not analyzed: access 'v[ix]': gather: the index 'ix' of 'v' is loaded from memory
void loaded_into_outer_variable(float *y, const float *v, const int *tok, int N) {
  int ix;
  for (int i = 0; i < N; i++) {
    ix = tok[i];
    y[i] = v[ix];
  }
}
