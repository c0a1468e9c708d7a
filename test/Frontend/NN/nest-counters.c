// Integer counters declared inside the nest (euske/nn1 rnn.c, genann): a
// flat weight index set in an outer loop's body (`int kx = 0;`, or an
// affine start such as `int k = i*M;`) and stepped in an inner loop. From
// its declaration the counter is its start plus the steps taken since
// (docs/user-guide.md, "Counters"): steps are ++, --, += or -= a constant
// or a size, unconditional, or under an `if` whose condition keeps its
// value while the counter lives (it uses only sizes and the variables of
// loops around the declaration: rnn.c's `if ((t+1) < T2)`), with every use
// inside that branch. Anything else is refused and the reason names the
// counter (never "gather": the counter is not loaded from memory).
// RUN: roofline-lint --dump-ir %s 2>&1 | FileCheck %s
// RUN: roofline-lint --no-source %s 2>&1 | FileCheck %s --check-prefix=WHY
// RUN: roofline-lint --verbosity=normal --no-source --param T=3 --param T2=2 --param N=4 --param M=5 %s 2>&1 | FileCheck %s --check-prefix=NUM
// WHY-NOT: gather

// rnn.c's RNNLayer_feedBack: kx from 0 in each t, stepped under a guard on
// t alone. Only t = 0 (t+1 < T2 = 2) runs the guarded loop: 4*5 MACs.
// CHECK-LABEL: nest @feedback
// CHECK: readwrite e[t][j]
// CHECK-NEXT: read w[i][j]
// CHECK: readwrite u[i][j]
// CHECK-NOT: intops
// NUM: nest-counters.c:[[@LINE+3]]:3: note: 40 MACs, 80 FLOPs (f32: 80)
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

// An affine start in the enclosing loop variables; `++k` and `w[k++]`.
// CHECK-LABEL: nest @row_start
// CHECK: read w[i][j]
// CHECK-NOT: intops
// NUM: nest-counters.c:[[@LINE+3]]:3: note: 60 MACs, 120 FLOPs (f32: 120)
void row_start(float *y, const float *w, const float *x, int T, int N,
               int M) {
  for (int t = 0; t < T; t++) {
    for (int i = 0; i < N; i++) {
      int k = i * M;
      for (int j = 0; j < M; j++) {
        y[t * N + i] += w[k] * x[t * M + j];
        ++k;
      }
    }
  }
}
// CHECK-LABEL: nest @every_other
// CHECK: write out[t][2*j + 1]
void every_other(float *out, int T, int M) {
  for (int t = 0; t < T; t++) {
    int k = t * 2 * M + 1;
    for (int j = 0; j < M; j++) {
      out[k] = 0.0f;
      k += 2;
    }
  }
}
// Two counters, each under its own guard on t (both of rnn.c's).
// CHECK-LABEL: nest @two_guards
// CHECK: read wx[i][j]
// CHECK: read wh[i][j]
void two_guards(float *e, const float *wx, const float *wh, int T, int T2,
                int N, int M) {
  for (int t = 0; t < T; t++) {
    int kx = 0, kh = 0;
    for (int i = 0; i < N; i++) {
      if ((t + 1) < T2)
        for (int j = 0; j < M; j++)
          e[t * M + j] += wx[kx++];
      if ((t + 1) < T)
        for (int j = 0; j < M; j++)
          e[t * M + j] += wh[kh++];
    }
  }
}

// Refused, with the reason.
// WHY: nest-counters.c:[[@LINE+2]]:3: note: loop nest not analyzed: access 'w[k]': the index 'k' of 'w' depends on 'k', a counter the nest itself advances (not a load from memory) that is not affine in the loop variables: 'k++' is under a condition ('x[j] > 0.f') that depends on data
void data_guard(float *y, const float *w, const float *x, int T, int M) {
  for (int t = 0; t < T; t++) {
    int k = 0;
    for (int j = 0; j < M; j++) {
      y[t] += w[k];
      if (x[j] > 0.f)
        k++;
    }
  }
}
// WHY: nest-counters.c:[[@LINE+2]]:3: note: loop nest not analyzed: access 'w[k]': the index 'k' of 'w' depends on 'k', a counter the nest itself advances (not a load from memory) that is not affine in the loop variables: 'k++' is under a condition ('j < 3') that uses 'j', which changes within the counter's scope
void scope_variant_guard(float *y, const float *w, int T, int M) {
  for (int t = 0; t < T; t++) {
    int k = 0;
    for (int j = 0; j < M; j++) {
      y[t] += w[k];
      if (j < 3)
        k++;
    }
  }
}
// WHY: nest-counters.c:[[@LINE+2]]:3: note: loop nest not analyzed: access 'w[k]': the index 'k' of 'w' depends on 'k', a counter the nest itself advances (not a load from memory) that is not affine in the loop variables: this use of 'k' is outside the branch of 'if (t < T2)' that holds its step 'k++'
void use_outside_guard(float *y, const float *w, int T, int T2, int M) {
  for (int t = 0; t < T; t++) {
    int k = 0;
    for (int j = 0; j < M; j++) {
      y[t] += w[k];
      if (t < T2)
        k++;
    }
  }
}
// WHY: nest-counters.c:[[@LINE+2]]:3: note: loop nest not analyzed: access 'w[k]': the index 'k' of 'w' depends on 'k', a counter the nest itself advances (not a load from memory) that is not affine in the loop variables: 'k' is written or aliased by 'k = k * 2'
void written_otherwise(float *y, const float *w, int T, int M) {
  for (int t = 0; t < T; t++) {
    int k = 1;
    for (int j = 0; j < M; j++) {
      y[t] += w[k];
      k = k * 2;
    }
  }
}
void bump(int *p);
// WHY: nest-counters.c:[[@LINE+2]]:3: note: loop nest not analyzed: {{.*}}'k' is written or aliased by '&k'
void address_taken(float *y, const float *w, int T, int M) {
  for (int t = 0; t < T; t++) {
    int k = 0;
    for (int j = 0; j < M; j++) {
      y[t] += w[k];
      bump(&k);
    }
  }
}
// WHY: nest-counters.c:[[@LINE+2]]:3: note: loop nest not analyzed: access 'w[k]': the index 'k' of 'w' depends on 'k', a counter the nest itself advances (not a load from memory) that is not affine in the loop variables: a 'continue' in the nest may skip a step of 'k'
void continue_skips(float *y, const float *w, int T, int M) {
  for (int t = 0; t < T; t++) {
    int k = 0;
    for (int j = 0; j < M; j++) {
      if (j > t)
        continue;
      y[t] += w[k];
      k++;
    }
  }
}
// WHY: nest-counters.c:[[@LINE+2]]:3: note: loop nest not analyzed: loop increment 'j++, k++' also steps 'k': a counter stepped in a loop header is not counted
void step_in_header(float *y, const float *w, int T, int M) {
  for (int t = 0; t < T; t++) {
    int k = 0;
    for (int j = 0; j < M; j++, k++)
      y[t] += w[k];
  }
}
// WHY: nest-counters.c:[[@LINE+2]]:3: note: loop nest not analyzed: access 'w[k]': the index 'k' of 'w' depends on 'k', a counter the nest itself advances from a value loaded from memory, that is not affine in the loop variables: 'k' starts at 'idx[t]'
void loaded_start(float *y, const float *w, const int *idx, int T, int M) {
  for (int t = 0; t < T; t++) {
    int k = idx[t];
    for (int j = 0; j < M; j++) {
      y[t] += w[k];
      k++;
    }
  }
}
// WHY: nest-counters.c:[[@LINE+2]]:3: note: loop nest not analyzed: access 'w[k++]': the index 'k++' of 'w' depends on 'k', a counter the nest itself advances (not a load from memory) that is not affine in the loop variables: the trip count of the loop over 'j' depends on the iteration
void triangular(float *y, const float *w, int T, int N) {
  for (int t = 0; t < T; t++) {
    int k = 0;
    for (int i = 0; i < N; i++)
      for (int j = 0; j <= i; j++)
        y[t] += w[k++];
  }
}
