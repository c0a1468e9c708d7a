// Every form the Frontend cannot count exactly gives a note at the loop,
// appears under "skipped" in JSON, and produces no numbers.
// RUN: roofline-lint --no-source %s | FileCheck %s --implicit-check-not=remark:
// RUN: roofline-lint --format=json %s | FileCheck %s --check-prefix=JSON

float foo(float);
int next(int);

void forms(float *A, const int *idx, const int *len, int N, int n1, int n2) {
  // CHECK: unanalyzable.cpp:[[@LINE+1]]:3: note: loop nest not analyzed: while loop: trip count is not statically known [roofline-unanalyzable]
  while (n1 > 0)
    A[--n1] = 0;

  // CHECK: unanalyzable.cpp:[[@LINE+1]]:3: note: loop nest not analyzed: while loop: trip count is not statically known [roofline-unanalyzable]
  do {
    A[n2] = 1;
  } while (n2-- > 0);

  // CHECK: unanalyzable.cpp:[[@LINE+1]]:3: note: loop nest not analyzed: data-dependent loop bound 'len[0]' [roofline-unanalyzable]
  for (int i = 0; i < len[0]; ++i)
    A[i] = 0;

  // CHECK: unanalyzable.cpp:[[@LINE+1]]:3: note: loop nest not analyzed: loop bound depends on a function call 'next(N)' [roofline-unanalyzable]
  for (int i = 0; i < next(N); ++i)
    A[i] = 0;

  // CHECK: unanalyzable.cpp:[[@LINE+1]]:3: note: loop nest not analyzed: early exit ('break') out of the loop [roofline-unanalyzable]
  for (int i = 0; i < N; ++i) {
    if (A[i] < 0)
      break;
    A[i] = 1;
  }

  // CHECK: unanalyzable.cpp:[[@LINE+1]]:3: note: loop nest not analyzed: early return under a data-dependent condition 'A[i * N + j] == 0': the iterations that run depend on the data [roofline-unanalyzable]
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j)
      if (A[i * N + j] == 0)
        return;

  // CHECK: unanalyzable.cpp:[[@LINE+1]]:3: note: loop nest not analyzed: early exit ('goto') out of the loop [roofline-unanalyzable]
  for (int i = 0; i < N; ++i) {
    A[i] = 2;
    if (A[i] > 1)
      goto done;
  }
done:

  // CHECK: unanalyzable.cpp:[[@LINE+1]]:3: note: loop nest not analyzed: condition 'i % 2' on loop variables is not affine [roofline-unanalyzable]
  for (int i = 0; i < N; ++i) {
    if (i % 2)
      continue;
    A[i] = 3;
  }

  // CHECK: unanalyzable.cpp:[[@LINE+1]]:3: note: loop nest not analyzed: access 'A[idx[i]]': gather: the index 'idx[i]' of 'A' is loaded from memory, so the elements it touches depend on the data [roofline-unanalyzable]
  for (int i = 0; i < N; ++i)
    A[idx[i]] += 1.0f;

  // CHECK: unanalyzable.cpp:[[@LINE+1]]:3: note: loop nest not analyzed: call to 'foo' with unknown side effects [roofline-unanalyzable]
  for (int i = 0; i < N; ++i)
    A[i] = foo(A[i]);

  // CHECK: unanalyzable.cpp:[[@LINE+1]]:3: note: loop nest not analyzed: access 'A[i * i]': non-affine index expression 'i * i' [roofline-unanalyzable]
  for (int i = 0; i < N; ++i)
    A[i * i] = 0;

  // CHECK: unanalyzable.cpp:[[@LINE+1]]:3: note: loop nest not analyzed: induction variable 'i' is modified in the loop body [roofline-unanalyzable]
  for (int i = 0; i < N; ++i)
    A[i++] = 0;

  // CHECK: unanalyzable.cpp:[[@LINE+1]]:3: note: loop nest not analyzed: '!=' condition with step 2 may skip the bound and never terminate [roofline-unanalyzable]
  for (int i = 0; i != N; i += 2)
    A[i] = 0;

  // CHECK: unanalyzable.cpp:[[@LINE+1]]:3: note: loop nest not analyzed: data-dependent branch writes 'A' elements only on some of its paths: the bytes depend on the data [roofline-unanalyzable]
  for (int i = 0; i < N; ++i)
    if (A[i] > 0)
      A[i] = 0;

  // CHECK: unanalyzable.cpp:[[@LINE+1]]:3: note: loop nest not analyzed: loop condition and step direction disagree (the loop runs zero times or never terminates) [roofline-unanalyzable]
  for (int i = 0; i < N; --i)
    A[i] = 0;
}

// JSON:      "nests": [],
// JSON-NEXT: "skipped": [
// JSON:        "function": "forms",
// JSON-NEXT:   "line": 11,
// JSON-NEXT:   "reason": "while loop: trip count is not statically known"
