// --nest=NAME[:LINE] narrows the report as it narrows --emit and --dump-ir:
// only the nests of the functions it names (a method also by its
// unqualified name), or the one nest at LINE; a selector that selects no
// nest is a warning. Before, the report ignored --nest and listed every
// nest of the file.

// RUN: roofline-lint --no-source --nest=scale %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ONE --implicit-check-not=remark: --implicit-check-not=note:

// RUN: roofline-lint --no-source --nest=scale:%(line+16) %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LINE --implicit-check-not=remark: --implicit-check-not=note:

// RUN: roofline-lint --no-source --nest=add --nest=missing %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MISS --implicit-check-not=remark: --implicit-check-not=note: --implicit-check-not=warning:
// MISS-DAG: roofline-lint: warning: --nest 'missing' selects no nest in the analyzed files

// JSON keeps the selected function's totals only.
// RUN: roofline-lint --format=json --quiet --nest=add %s | FileCheck %s --check-prefix=JSON
// JSON-NOT: "function": "scale"
// JSON: "function": "add"
// JSON-NOT: "function": "scale"

void scale(int N, float *x, const float *y, float a) {
  // ONE: [[@LINE+2]]:3: remark: scale:
  // LINE: [[@LINE+1]]:3: remark: scale:
  for (int i = 0; i < N; ++i)
    x[i] = a * y[i];
  // ONE: [[@LINE+1]]:3: remark: scale:
  for (int i = 0; i < N; ++i)
    x[i] += y[i] * y[i];
  // ONE: [[@LINE+1]]:3: note: loop nest not analyzed:
  for (int i = 0; i < N; ++i)
    x[(int)y[i]] = 0;
}

void add(int N, float *x, const float *y) {
  // MISS-DAG: [[@LINE+1]]:3: remark: add:
  for (int i = 0; i < N; ++i)
    x[i] += y[i];
}
