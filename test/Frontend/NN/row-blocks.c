// Row blocks that start off a row boundary (genann.c, issue 18): a layer's
// rows of H+1 weights start at (I+1)*H, no multiple of H+1, so the index
// does not split into disjoint rows. With values for the strides it is
// one dimension, affine with integer coefficients, and the footprint is
// the exact union of the addresses at those sizes (a note says so);
// without them the nest is refused with the split's reason
// (docs/user-guide.md, "Pointers into arrays").
// RUN: roofline-lint --dump-ir --param H=3 --param I=4 --param L=3 %s 2>&1 | FileCheck %s
// RUN: roofline-lint --verbosity=normal --no-source --param H=3 --param I=4 --param L=3 --param layer=1 --param N=5 --param S=3 --param K=7 --param M=2 %s 2>&1 | FileCheck %s --check-prefix=NUM
// RUN: roofline-lint --verbosity=normal --no-source %s 2>&1 | FileCheck %s --check-prefix=WHY
// RUN: roofline-lint --format=json --no-source --param H=3 --param I=4 --param L=3 %s 2>&1 | FileCheck %s --check-prefix=JSON

// genann_run's hidden layers: one pointer walks every row of every layer.
// CHECK-LABEL: nest @layers
// CHECK: array weight : f64[?] pointer
// CHECK: read weight[(I+1)*H + 12*h + 4*j - 12]
// CHECK: read weight[(I+1)*H + 12*h + 4*j + k - 11]
// 2 layers of 3 rows of 4 weights from element 15: 24 weights, 3 inputs,
// 6 outputs.
// NUM: row-blocks.c:[[@LINE+7]]:3: note: 18 MACs, 42 FLOPs (f64: 42); 264 bytes compulsory
// NUM: row-blocks.c:[[@LINE+6]]:3: note: 'weight' is indexed as one dimension (rows of 'weight' overlap at these sizes: 'j + k + 1' leaves its row of H elements, so its elements are not distinct rows); its strides are counted at (H*H+H) = 12, (H+1) = 4: its counts hold for these values only
// The compulsory bytes hold at these sizes only: no formula.
// JSON: "function": "layers"
// JSON: "bytes_compulsory": null
void layers(double *out, const double *weight, const double *in, int I, int H, int L) {
  const double *w = weight + (I + 1) * H;
  for (int h = 1; h < L; ++h) {
    for (int j = 0; j < H; ++j) {
      double sum = *w++ * -1.0;
      for (int k = 0; k < H; ++k)
        sum += *w++ * in[k];
      out[h * H + j] = sum;
    }
  }
}

// genann_train's backward step: a block start (I+1)*H + (H+1)*H*layer and
// a column of the rows of H+1.
// CHECK-LABEL: nest @back
// CHECK: array weight : f64[?] pointer
// CHECK: read weight[(H+1)*H*layer + (I+1)*H + j + 4*k + 1]
// NUM: row-blocks.c:[[@LINE+4]]:3: note: 9 MACs, 18 FLOPs (f64: 18); 120 bytes compulsory
// NUM: row-blocks.c:[[@LINE+3]]:3: note: 'weight' is indexed as one dimension ({{.*}}); its strides are counted at (H+1) = 4: its counts hold for these values only
void back(double *dout, const double *weight, const double *dd, int I, int H, int layer) {
  const double *ww = weight + ((I + 1) * H) + ((H + 1) * H * layer);
  for (int j = 0; j < H; ++j) {
    double delta = 0;
    for (int k = 0; k < H; ++k)
      delta += dd[k] * ww[k * (H + 1) + (j + 1)];
    dout[j] = delta;
  }
}

// Windows wider than their stride (K > S) overlap: each element once.
// x: (N-1)*S + K = 12 + 7 = 19 distinct elements.
// NUM: row-blocks.c:[[@LINE+3]]:3: note: 0 MACs, 35 FLOPs (f64: 35); 192 bytes compulsory
// NUM: row-blocks.c:[[@LINE+2]]:3: note: 'x' is indexed as one dimension ({{.*}}'k' leaves its row of S elements{{.*}}); its strides are counted at S = 3: its counts hold for these values only
void windows(double *y, const double *x, int N, int S, int K) {
  for (int i = 0; i < N; ++i) {
    double s = 0;
    for (int k = 0; k < K; ++k)
      s += x[i * S + k];
    y[i] = s;
  }
}

// Strides that do not nest (N and M): one dimension at the sizes given,
// x[i*N + j*M] over 2 x 3 with N = 5, M = 2: {0,2,4,5,7,9}, 6 elements,
// and y's 2 read and written.
// NUM: row-blocks.c:[[@LINE+4]]:3: note: 0 MACs, 6 FLOPs (f64: 6); 80 bytes compulsory
// Without their values the nest is refused, and the reason says what to give.
// WHY: row-blocks.c:[[@LINE+2]]:3: note: loop nest not analyzed: the index of 'x' cannot be split into rows: its strides (M, N) are not multiples of one another (with a value for '{{[MN]}}' it is counted as one dimension: --param {{[MN]}}=N)
void two_strides(double *y, const double *x, int N, int M) {
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      y[i] += x[i * N + j * M];
}
