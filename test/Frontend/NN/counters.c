// An index kept in a counter the nest advances is the affine function of
// the loop variables it is: `int k = 0; for i { for j { w[k++] } }` reads
// w[i*M + j] (docs/user-guide.md, "Code as people write it"). Its steps are
// index arithmetic: they count nothing. Where the counter is not affine (a
// triangular nest, a step under a condition, anything but ++/--/+=/-= of a
// size), the nest is refused and the reason names the counter.
// RUN: roofline-lint --dump-ir %s 2>&1 | FileCheck %s
// RUN: roofline-lint --no-source %s 2>&1 | FileCheck %s --check-prefix=WHY
// RUN: roofline-lint --verbosity=normal --no-source --param N=3 --param M=4 %s 2>&1 | FileCheck %s --check-prefix=NUM

// CHECK-LABEL: nest @dense_running_index
// CHECK: array w : f32[?][M] pointer
// CHECK: read w[i][j]
// CHECK-NOT: intops
// NUM: counters.c:[[@LINE+3]]:3: note: 12 MACs, 24 FLOPs (f32: 24); 76 bytes compulsory
void dense_running_index(float *y, const float *x, const float *w, int N, int M) {
  int k = 0;
  for (int i = 0; i < N; i++) {
    float acc = 0;
    for (int j = 0; j < M; j++)
      acc += x[j] * w[k++];
    y[i] = acc;
  }
}

// A row offset advanced by a size at the end of the body; a step after the
// uses; ++k from -1; a start that is a size.
// CHECK-LABEL: nest @row_sums_advancing_offset
// CHECK: readwrite y[i]
// CHECK-NEXT: read w[i][j]
// CHECK-NOT: intops
// NUM: counters.c:[[@LINE+3]]:3: note: 0 MACs, 12 FLOPs (f32: 12); 72 bytes compulsory
void row_sums_advancing_offset(float *y, const float *w, int N, int M) {
  int r = 0;
  for (int i = 0; i < N; i++) {
    const float *row = w + r;
    for (int j = 0; j < M; j++)
      y[i] += row[j];
    r += M;
  }
}
// CHECK-LABEL: nest @step_after_uses
// CHECK: readwrite u[i][j]
// CHECK-NEXT: read w[i][j]
// CHECK-NOT: intops
void step_after_uses(float *u, const float *w, int N, int M) {
  int k = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++) {
      u[k] += w[k];
      k++;
    }
}
// CHECK-LABEL: nest @pre_increment
// CHECK: write out[i][j]
void pre_increment(float *out, const float *in, int N, int M) {
  int k = -1;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      out[++k] = in[j];
}
// Steps in two loop levels: the counter skips a row after each row.
// CHECK-LABEL: nest @every_other_row
// CHECK: write out[2*i][j]
// NUM: counters.c:[[@LINE+3]]:3: note: 0 MACs, 0 FLOPs; 48 bytes compulsory
void every_other_row(float *out, int N, int M) {
  int k = 0;
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < M; j++)
      out[k++] = 0.0f;
    k += M;
  }
}
// A counter across a nest whose inner loop does not advance it.
// CHECK-LABEL: nest @outer_counter
// CHECK: write y[i]
void outer_counter(float *y, const float *a, int N, int M) {
  int n = 0;
  for (int i = 0; i < N; i++) {
    float s = 0;
    for (int j = 0; j < M; j++)
      s += a[i * M + j];
    y[n] = s;
    n++;
  }
}

// Refused, with the reason.
// WHY: counters.c:[[@LINE+3]]:3: note: loop nest not analyzed: access 'w[k++]': the index 'k++' of 'w' depends on 'k', a counter the nest itself advances (not a load from memory) that is not affine in the loop variables: the trip count of the loop over 'j' depends on the iteration ('i' is set by the nest)
void triangular(float *y, const float *w, int N) {
  int k = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j <= i; j++)
      y[i] += w[k++];
}
// WHY: counters.c:[[@LINE+3]]:3: note: loop nest not analyzed: access 'w[k]': the index 'k' of 'w' depends on 'k', a counter the nest itself advances (not a load from memory) that is not affine in the loop variables: 'k++' is under a condition ('if')
void conditional_step(float *y, const float *w, const float *x, int N) {
  int k = 0;
  for (int i = 0; i < N; i++) {
    y[i] = w[k];
    if (x[i] > 0.0f)
      k++;
  }
}
// WHY: counters.c:[[@LINE+3]]:3: note: loop nest not analyzed: access 'w[k++]': the index 'k++' of 'w' depends on 'k', a counter the nest itself advances (not a load from memory) that is not affine in the loop variables: 'k' is written or aliased by 'k = 0'
void reset_inside(float *y, const float *w, int N, int M) {
  int k = 0;
  for (int i = 0; i < N; i++) {
    k = 0;
    for (int j = 0; j < M; j++)
      y[i] += w[k++];
  }
}
// WHY: counters.c:[[@LINE+3]]:3: note: loop nest not analyzed: access 'w[k + k++]': the index 'k + k++' of 'w' depends on 'k', a counter the nest itself advances (not a load from memory) that is not affine in the loop variables: 'y[i] = w[k + k++]' reads and advances 'k' in one statement
void read_and_step(float *y, const float *w, int N) {
  int k = 0;
  for (int i = 0; i < N; i++)
    y[i] = w[k + k++];
}
// A step by a loaded value makes the counter data: a gather.
// WHY: counters.c:[[@LINE+3]]:3: note: loop nest not analyzed: access 'w[k]': gather: the index 'k' of 'w' is loaded from memory
void data_step(float *y, const float *w, const int *s, int N) {
  int k = 0;
  for (int i = 0; i < N; i++) {
    y[i] = w[k];
    k += s[i];
  }
}

// WHY: counters.c:[[@LINE+3]]:3: note: loop nest not analyzed: access 'w[k + idx[i]]': gather: the index 'k + idx[i]' of 'w' is loaded from memory, so the elements it touches depend on the data
void counter_plus_loaded_index(float *y, const float *w, const int *idx, int N) {
  int k = 0;
  for (int i = 0; i < N; i++) {
    y[i] = w[k + idx[i]];
    k += 2;
  }
}

// A value assigned from memory inside the nest is data too, whatever its
// name: the gather reason stays.
// WHY: counters.c:[[@LINE+3]]:3: note: loop nest not analyzed: access 'v[ix]': gather: the index 'ix' of 'v' is loaded from memory
void loaded_into_outer_variable(float *y, const float *v, const int *tok, int N) {
  int ix;
  for (int i = 0; i < N; i++) {
    ix = tok[i];
    y[i] = v[ix];
  }
}

// A 'continue' matters only where its loop steps the counter: one in an
// inner loop that does not step it leaves the counter affine.
// CHECK-LABEL: nest @continue_elsewhere
// CHECK: write y[i]
void continue_elsewhere(float *y, const float *a, int N, int M) {
  int n = 0;
  for (int i = 0; i < N; i++) {
    float s = 0;
    for (int j = 0; j < M; j++) {
      if (j > i)
        continue;
      s += a[i * M + j];
    }
    y[n] = s;
    n++;
  }
}
// WHY: counters.c:[[@LINE+3]]:3: note: loop nest not analyzed: access 'y[k]': the index 'k' of 'y' depends on 'k', a counter the nest itself advances (not a load from memory) that is not affine in the loop variables: a 'continue' in the nest may skip a step of 'k'
void continue_skips_step(float *y, const float *a, int N) {
  int k = 0;
  for (int i = 0; i < N; i++) {
    if (i > 3)
      continue;
    y[k] = a[i];
    k++;
  }
}
