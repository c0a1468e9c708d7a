// Pointers the nest advances are counters too (docs/user-guide.md,
// "Counters"): a pointer bound to an array (plus an affine offset) and
// advanced only by unconditional steps (p++, ++p, p--, p += c, p -= c, c a
// constant or a size) points at base[offset + counter]. `*p++` touches the
// element at the old value, `*++p` at the new one, `p[i]` at counter + i.
// The steps are address arithmetic and count nothing. Where the pointer is
// not affine (a step under a condition or by a data value, the pointer
// passed to a call, its address taken, reassigned), the nest is refused and
// the reason names the pointer. genann.c is written this way.
// RUN: roofline-lint --dump-ir %s 2>&1 | FileCheck %s
// RUN: roofline-lint --no-source %s 2>&1 | FileCheck %s --check-prefix=WHY
// RUN: roofline-lint --verbosity=normal --no-source --param N=3 --param M=4 %s 2>&1 | FileCheck %s --check-prefix=NUM

void use(const float *p);

// CHECK-LABEL: nest @gemv_advancing
// CHECK: read b[j]
// CHECK: read W[j][k]
// CHECK-NEXT: read x[k]
// CHECK: write y[j]
// CHECK-NOT: intops
// NUM: pointer-steps.c:[[@LINE+5]]:3: note: 12 MACs, 24 FLOPs (f32: 24); 88 bytes compulsory
void gemv_advancing(float *y, const float *W, const float *b, const float *x,
                    int N, int M) {
  const float *w = W, *bias = b;
  float *o = y;
  for (int j = 0; j < N; ++j) {
    float sum = *bias++;
    for (int k = 0; k < M; ++k)
      sum += *w++ * x[k];
    *o++ = sum;
  }
}

// CHECK-LABEL: nest @delta
// CHECK: write d0[j]
// CHECK-NEXT: read t0[j]
// CHECK-NEXT: read o0[j]
// NUM: pointer-steps.c:[[@LINE+4]]:3: note: 0 MACs, 3 FLOPs (f32: 3); 36 bytes compulsory
void delta(float *d0, const float *t0, const float *o0, int N) {
  float *d = d0;
  const float *t = t0, *o = o0;
  for (int j = 0; j < N; ++j) {
    *d++ = *t++ - *o++;
  }
}

// A row pointer advanced by a size at the end of the body, from row 2.
// CHECK-LABEL: nest @row_walk
// CHECK: read A[i + 2][j]
// NUM: pointer-steps.c:[[@LINE+3]]:3: note: 0 MACs, 12 FLOPs (f32: 12); 60 bytes compulsory
void row_walk(float *y, const float *A, int N, int M) {
  const float *p = A + 2 * M;
  for (int i = 0; i < N; i++) {
    float s = 0;
    for (int j = 0; j < M; j++)
      s += p[j];
    y[i] = s;
    p += M;
  }
}

// `*++p` reads the element after the step; `p--` walks backwards.
// CHECK-LABEL: nest @pre_increment
// CHECK: read A[i + 1]
void pre_increment(float *y, const float *A, int N) {
  const float *p = A;
  for (int i = 0; i < N; i++)
    y[i] = *++p;
}
// CHECK-LABEL: nest @backwards
// CHECK: read A[N - i - 1]
void backwards(float *y, const float *A, int N) {
  const float *p = A + N - 1;
  for (int i = 0; i < N; i++) {
    y[i] = *p;
    p--;
  }
}

// Steps at two levels: a row written, a row skipped.
// CHECK-LABEL: nest @every_other_row
// CHECK: write out[2*i][j]
// NUM: pointer-steps.c:[[@LINE+3]]:3: note: 0 MACs, 0 FLOPs; 48 bytes compulsory
void every_other_row(float *out, int N, int M) {
  float *o = out;
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < M; j++)
      *o++ = 0.0f;
    o += M;
  }
}

// A pointer declared in the nest and advanced there counts from its
// declaration.
// CHECK-LABEL: nest @row_sums_in_nest
// CHECK: read A[i][j]
// NUM: pointer-steps.c:[[@LINE+2]]:3: note: 0 MACs, 12 FLOPs (f32: 12); 60 bytes compulsory
void row_sums_in_nest(float *y, const float *A, int N, int M) {
  for (int i = 0; i < N; i++) {
    const float *row = A + i * M;
    float s = 0;
    for (int j = 0; j < M; j++)
      s += *row++;
    y[i] = s;
  }
}

// Earlier nests advance the pointer: the second nest starts where the
// first one left it (N*M elements on: W is split into blocks of N rows).
// CHECK-LABEL: nest @two_layers
// CHECK: read W[i][j]
// CHECK-LABEL: nest @two_layers
// CHECK: read W[1][i][j]
// NUM: pointer-steps.c:[[@LINE+4]]:3: note: 12 MACs, 24 FLOPs (f32: 24); 88 bytes compulsory
void two_layers(float *h, float *o, const float *W, const float *x, int N,
                int M) {
  const float *w = W;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      h[i] += *w++ * x[j];
  // NUM: pointer-steps.c:[[@LINE+1]]:3: note: 12 MACs, 24 FLOPs (f32: 24); 88 bytes compulsory
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      o[i] += *w++ * x[j];
}

// A branch that returns before the nest does not advance the pointer on
// the way to it.
// CHECK-LABEL: nest @early_return
// CHECK: read W[i]
// CHECK-LABEL: nest @early_return
// CHECK: read W[i]
void early_return(float *y, const float *W, int N, int flag) {
  const float *w = W;
  if (flag) {
    for (int i = 0; i < N; i++)
      y[i] = 2.0f * *w++;
    return;
  }
  for (int i = 0; i < N; i++)
    y[i] = *w++;
}

// The pointer read as the argument of an inlined call (genann_train's
// output deltas), stepped after it, or stepped in the argument itself.
static float deriv(float y) { return y * (1.0f - y); }
// CHECK-LABEL: nest @argument_then_step
// CHECK: read t0[j]
// CHECK-NEXT: read o0[j]
// NUM: pointer-steps.c:[[@LINE+4]]:3: note: 0 MACs, 12 FLOPs (f32: 12); 36 bytes compulsory
void argument_then_step(float *d0, const float *t0, const float *o0, int N) {
  float *d = d0;
  const float *t = t0, *o = o0;
  for (int j = 0; j < N; ++j) {
    *d++ = (*t - *o) * deriv(*o);
    ++o;
    ++t;
  }
}
// CHECK-LABEL: nest @step_in_argument
// CHECK: read o0[j]
// NUM: pointer-steps.c:[[@LINE+4]]:3: note: 0 MACs, 6 FLOPs (f32: 6); 24 bytes compulsory
void step_in_argument(float *d0, const float *o0, int N) {
  float *d = d0;
  const float *o = o0;
  for (int j = 0; j < N; ++j)
    *d++ = deriv(*o++);
}

// Refusals, each with its reason.
// WHY: pointer-steps.c:[[@LINE+3]]:3: note: loop nest not analyzed: access '*p': pointer 'p', which the nest advances, is not affine in the loop variables: 'p++' is under a condition ('if')
void step_under_if(float *y, const float *A, int N) {
  const float *p = A;
  for (int i = 0; i < N; i++) {
    y[i] = *p;
    if (y[i] > 0)
      p++;
  }
}
// WHY: pointer-steps.c:[[@LINE+3]]:3: note: loop nest not analyzed: access '*p': pointer 'p', which the nest advances, is not affine in the loop variables: 'p += s[i]': 's[i]' uses 'i', which the nest sets
void step_by_data(float *y, const float *A, const int *s, int N) {
  const float *p = A;
  for (int i = 0; i < N; i++) {
    y[i] = *p;
    p += s[i];
  }
}
// WHY: pointer-steps.c:[[@LINE+3]]:3: note: loop nest not analyzed: access '*p++': pointer 'p', which the nest advances, is not affine in the loop variables: 'p' is passed to a call ('use(p)')
void passed_to_call(float *y, const float *A, int N) {
  const float *p = A;
  for (int i = 0; i < N; i++) {
    y[i] = *p++;
    use(p);
  }
}
// WHY: pointer-steps.c:[[@LINE+4]]:3: note: loop nest not analyzed: access '*p++': pointer 'p', which the nest advances, is not affine in the loop variables: 'p' is written or aliased by '&p'
void address_taken(float *y, const float *A, int N) {
  const float *p = A;
  const float **pp = &p;
  for (int i = 0; i < N; i++)
    y[i] = *p++;
  (void)pp;
}
// WHY: pointer-steps.c:[[@LINE+3]]:3: note: loop nest not analyzed: access '*p++': pointer 'p', which the nest advances, is not affine in the loop variables: 'p' is written or aliased by 'p = A'
void reassigned(float *y, const float *A, int N) {
  const float *p = A;
  for (int i = 0; i < N; i++)
    y[i] = *p++;
  p = A;
  use(p);
}
// WHY: pointer-steps.c:[[@LINE+3]]:3: note: loop nest not analyzed: access '*p++': pointer 'p', which the nest advances, is not affine in the loop variables: 'y[i] = *p++ + *p++' reads and advances 'p' in one statement
void two_steps_one_statement(float *y, const float *A, int N) {
  const float *p = A;
  for (int i = 0; i < N; i++)
    y[i] = *p++ + *p++;
}
// WHY: pointer-steps.c:[[@LINE+3]]:3: note: loop nest not analyzed: {{.*}}a 'continue' in the nest may skip a step of 'p'
void continue_skips(float *y, const float *A, int N) {
  const float *p = A;
  for (int i = 0; i < N; i++) {
    if (i < 2)
      continue;
    y[i] = *p++;
  }
}
// A step in the loop header is no step of the loop's body.
// WHY: pointer-steps.c:[[@LINE+3]]:3: note: loop nest not analyzed: loop increment 'i++, p++' also steps 'p': a counter stepped in a loop header is not counted
void step_in_header(float *y, const float *A, int N) {
  const float *p = A;
  for (int i = 0; i < N; i++, p++)
    y[i] = *p;
}
// WHY: pointer-steps.c:[[@LINE+5]]:3: note: loop nest not analyzed: {{.*}}'p++', before the nest, is under a condition ('if')
void conditional_before(float *y, const float *A, int N) {
  const float *p = A;
  if (N > 4)
    p++;
  for (int i = 0; i < N; i++)
    y[i] = *p++;
}
// WHY: pointer-steps.c:[[@LINE+2]]:3: note: loop nest not analyzed: pointer 'row', which the nest advances: 'row++' is under a condition ('j > 1') that uses 'j', which changes within the counter's scope
void in_nest_conditional(float *y, const float *A, int N, int M) {
  for (int i = 0; i < N; i++) {
    const float *row = A + i * M;
    for (int j = 0; j < M; j++) {
      y[i] += *row;
      if (j > 1)
        row++;
    }
  }
}
// Which case ran before the nest is not the order of the text.
// WHY: pointer-steps.c:[[@LINE+8]]:5: note: loop nest not analyzed: {{.*}}a 'switch' or label around the nest holds steps of 'p'
void step_in_other_case(float *y, const float *A, int N, int c) {
  const float *p = A;
  switch (c) {
  case 0:
    p += 4;
    break;
  case 1:
    for (int i = 0; i < N; i++)
      y[i] = *p++;
  }
}
// WHY: pointer-steps.c:[[@LINE+3]]:3: note: loop nest not analyzed: {{.*}}pointer 'o', which the nest advances, is not affine in the loop variables: '++o' is under a condition ('if')
void argument_step_under_if(float *y, const float *o0, int N) {
  const float *o = o0;
  for (int i = 0; i < N; i++) {
    y[i] = deriv(*o);
    if (y[i] > 0)
      ++o;
  }
}
