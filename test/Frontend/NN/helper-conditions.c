// A loop-invariant condition inside a helper is the caller's condition on
// the values it passes: `add(a, b, n); add(c, b, m);` with the helper's
// `if (n % 4 != 0)` is two conditions, `n % 4` and `m % 4`, four cases. Each
// was keyed by the helper's text, so both calls shared one case `n % 4` and
// its counts took the naive path of both calls whatever m was. A helper's
// variables are now spelled as the caller's values; where one has no value
// to spell (a helper's local), the condition is one per call.
// RUN: roofline-lint --format=json %s | FileCheck %s

struct cfg { int n, flags; };

static void add(float *y, const float *x, int n) {
  if (n % 4 != 0) {
    for (int i = 0; i < n; i++)
      y[i] += x[i];
    return;
  }
  for (int i = 0; i < n; i += 4)
    y[i] += x[i];
}

// CHECK:      "case": "n % 4 && m % 4",
// CHECK:      "function": "two",
// CHECK:      "flops": "L*m + L*n",
// CHECK:      "case": "n % 4 && !(m % 4)",
// CHECK:      "flops": "L*floor((m - 1)/4) + L*n + L",
// CHECK:      "case": "!(n % 4) && m % 4",
// CHECK:      "flops": "L*floor((n - 1)/4) + L*m + L",
// CHECK:      "case": "!(n % 4) && !(m % 4)",
// CHECK:      "flops": "L*floor((m - 1)/4) + L*floor((n - 1)/4) + 2*L",
void two(float *a, const float *b, float *c, int L, int n, int m) {
  for (int l = 0; l < L; l++) {
    add(a, b, n);
    add(c, b, m);
  }
}

// An argument that is an expression: its value, in parentheses.
// CHECK:      "case": "(B*T) % 4",
// CHECK:      "function": "prod",
// CHECK:      "flops": "2*B*T",
// CHECK:      "case": "!((B*T) % 4)",
// CHECK:      "flops": "2*floor((B*T - 1)/4) + 2",
void prod(float *a, const float *b, int B, int T) {
  for (int l = 0; l < 2; l++)
    add(a, b, B * T);
}

// A struct passed by address: its fields in the caller's spelling.
static void scaled(float *y, const struct cfg *c) {
  for (int i = 0; i < c->n; i++)
    if (c->flags & 1)
      y[i] *= 2.0f;
}
// CHECK:      "case": "cfg.flags & 1",
// CHECK:      "function": "viacfg",
// CHECK:      "case": "!(cfg.flags & 1)",
void viacfg(float *y, struct cfg cfg, int L) {
  for (int l = 0; l < L; l++)
    scaled(y, &cfg);
}

// A helper's local: no caller's spelling, so one condition per call.
static void local(float *y, int n) {
  int odd = n & 1;
  for (int i = 0; i < n; i++)
    if (odd)
      y[i] *= 2.0f;
}
// CHECK:      "case": "odd [in local called at line [[@LINE+6]]] && odd [in local called at line [[@LINE+7]]]",
// CHECK:      "flops": "L*m + L*n",
// CHECK:      "case": "odd [in local called at line [[@LINE+4]]] && !(odd [in local called at line [[@LINE+5]]])",
// CHECK:      "flops": "L*n",
void vialocal(float *y, int L, int n, int m) {
  for (int l = 0; l < L; l++) {
    local(y, n);
    local(y, m);
  }
}
