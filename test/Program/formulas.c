// The pass's totals as polynomials in its sizes (docs/network-report.md,
// "Symbolic totals"): each entry below is one case, counted by hand.
// scale(x, n) is n FLOPs and 8n compulsory bytes (n reads, n writes).
//
// RUN: roofline-lint --no-source --quiet --entry=steps --param T=5 %s -- | FileCheck %s --check-prefix=STEPS
// RUN: roofline-lint --no-source --quiet --entry=steps %s -- | FileCheck %s --check-prefix=NOSIZE
// RUN: roofline-lint --no-source --quiet --entry=heads --param dim=10 --param n_heads=3 --param n_layers=2 %s -- | FileCheck %s --check-prefix=HEADS
// RUN: roofline-lint --no-source --quiet --entry=first --param L=3 --param n=4 %s -- | FileCheck %s --check-prefix=FIRST
// RUN: roofline-lint --no-source --quiet --entry=carried --param L=3 --param n=4 %s -- | FileCheck %s --check-prefix=CARRIED
// RUN: roofline-lint --no-source --quiet --entry=guarded --param n=8 %s -- | FileCheck %s --check-prefix=GUARDED
// RUN: roofline-lint --no-source --quiet --entry=minmax --param n=8 --param m=6 %s -- | FileCheck %s --check-prefix=MINMAX
// RUN: roofline-lint --no-source --quiet --entry=nested --param L=2 --param H=3 --param n=4 %s -- | FileCheck %s --check-prefix=NESTED
// RUN: roofline-lint --quiet --format=json --entry=heads --param dim=10 --param n_heads=3 --param n_layers=2 %s -- | FileCheck %s --check-prefix=JSON

void scale(float *x, int n) {
  for (int i = 0; i < n; i++)
    x[i] = 2.0f * x[i];
}

// A loop over positions passing t + 1: sum_{t=0}^{T-1} (t + 1) = (T^2 + T)/2.
void steps(float *x, int T) {
  for (int t = 0; t < T; t++)
    scale(x, t + 1);
}

// Sizes from a struct through a pointer, named by field; a quotient that
// need not divide stays a size of its own.
typedef struct {
  int dim, n_heads, n_layers;
} Config;

void heads(float *x, Config *p) {
  int hs = p->dim / p->n_heads;
  for (int l = 0; l < p->n_layers; l++)
    for (int h = 0; h < p->n_heads; h++)
      scale(x + h * hs, hs);
}

// A branch on the loop's variable: the first iteration does not stand for
// the others, so the loop has no formula.
void first(float *x, int L, int n) {
  for (int l = 0; l < L; l++) {
    if (l == 0)
      scale(x, n);
    else
      scale(x, 2 * n);
  }
}

// A size the loop updates.
void carried(float *x, int L, int n) {
  int m = n;
  for (int l = 0; l < L; l++) {
    scale(x, m);
    m += n;
  }
}

// A branch on a size: an assumption of the formulas.
void guarded(float *x, int n) {
  if (n > 4)
    scale(x, n);
}

// A min of two sizes has no polynomial.
void minmax(float *x, int n, int m) { scale(x, n < m ? n : m); }

// Loops in loops, and a callee's size bound to a product of the caller's.
void twice(float *x, int k) {
  scale(x, k);
  scale(x, 2 * k);
}

void nested(float *x, int L, int H, int n) {
  for (int l = 0; l < L; l++)
    for (int h = 0; h < H; h++)
      twice(x, n * h);
}

// STEPS: pass totals (symbolic, in the sizes T):
// STEPS-NEXT: FLOPs: (T^2 + T)/2 = 15 at the sizes above
// STEPS-NEXT: MACs: 0
// STEPS-NEXT: compulsory bytes: 4*T^2 + 4*T = 120 at the sizes above
// STEPS-NEXT: assumes: T >= 0 (the loop at line 22 runs)

// With no sizes the numbers stop at the loop; the formulas do not.
// NOSIZE: remark: pass 'steps' on {{.*}}: nothing counted, see 'left out'
// NOSIZE: pass totals (symbolic, in the sizes T):
// NOSIZE-NEXT: FLOPs: (T^2 + T)/2{{$}}
// NOSIZE-NEXT: MACs: 0
// NOSIZE-NEXT: compulsory bytes: 4*T^2 + 4*T{{$}}
// NOSIZE-NOT: not in the formulas
// NOSIZE: left out (not in the totals):
// NOSIZE-NEXT: formulas.c:22: steps: the loop's condition 't < T' has no value here

// HEADS: pass totals (symbolic, in the sizes dim, n_heads, n_layers):
// HEADS-NEXT: FLOPs: floor(dim/n_heads)*n_heads*n_layers = 18 at the sizes above
// HEADS-NEXT: MACs: 0
// HEADS-NEXT: compulsory bytes: 8*floor(dim/n_heads)*n_heads*n_layers = 144 at the sizes above
// HEADS-NEXT: floor(dim/n_heads): dim/n_heads rounded down
// HEADS-NEXT: assumes: n_heads >= 0 (the loop at line 35 runs)
// HEADS-NEXT: assumes: n_layers >= 0 (the loop at line 34 runs)

// FIRST: pass totals (symbolic; incomplete, see below):
// FIRST-NEXT: FLOPs: no closed form: scale ({{.*}}formulas.c:16) via first > scale: the branch on 'l == 0' (line 43) depends on the loop's variable
// FIRST: not in the formulas: the branch on 'l == 0' (line 43) depends on the loop's variable

// CARRIED: FLOPs: no closed form: scale ({{.*}}formulas.c:16) via carried > scale: the nest's size 'n': 'm' changes from one iteration of the loop at line 53 to the next

// GUARDED: FLOPs: n = 8 at the sizes above
// GUARDED: assumes: 'n > 4' (line 61) is true, as at the given sizes

// MINMAX: FLOPs: no closed form: scale ({{.*}}formulas.c:16) via minmax > scale: the nest's size 'n': 'n < m ? n : m' (a choice on the sizes, a min or max) has no closed form

// sum_l sum_h 3 n h = 3 n L H (H - 1) / 2 = 72 at L=2, H=3, n=4.
// NESTED: FLOPs: (3*H^2*L*n - 3*H*L*n)/2 = 72 at the sizes above
// NESTED: compulsory bytes: 12*H^2*L*n - 12*H*L*n = 576 at the sizes above

// JSON: "bytes": 144,
// JSON-NEXT: "bytes_formula": "8*floor(dim/n_heads)*n_heads*n_layers",
// JSON: "flops": 18,
// JSON-NEXT: "flops_formula": "floor(dim/n_heads)*n_heads*n_layers",
// JSON: "symbolic": {
// JSON: "atoms": {
// JSON-NEXT: "floor(dim/n_heads)": {
// JSON-NEXT: "denominator": "n_heads",
// JSON-NEXT: "numerator": "dim"
// JSON: "sizes": {
// JSON-NEXT: "dim": 10,
// JSON-NEXT: "n_heads": 3,
// JSON-NEXT: "n_layers": 2
