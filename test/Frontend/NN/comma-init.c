// A comma in a loop header (mnist-neural-network-plain-c's softmax:
// `for (i = 1, max = activations[0]; i < length; i++)`): the part that sets
// the stepped variable starts the loop, the others run once before it. Was
// "unsupported loop initialization".
// RUN: roofline-lint --verbosity=normal --no-source --param n=10 %s | FileCheck %s

// max = a[0] reads a[0]; the loop reads a[1..n-1]: 10 elements, 9 compares.
// CHECK: comma-init.c:[[@LINE+5]]:3: remark: softmax:
// CHECK: note: 0 MACs, 9 FLOPs (f32: 9); 40 bytes compulsory
float softmax(float *a, int n) {
  int i;
  float sum, max;
  for (i = 1, max = a[0]; i < n; i++)
    if (a[i] > max)
      max = a[i];
// CHECK: comma-init.c:[[@LINE+1]]:3: remark: softmax:
  for (i = 0, sum = 0; i < n; i++) {
    a[i] = a[i] - max;
    sum += a[i];
  }
// CHECK: note: 0 MACs, 20 FLOPs (f32: 20); 80 bytes compulsory
  return sum;
}

// In an inner loop the other parts run at every entry: k = i * n is a
// counter the header sets, refused with the reason.
// CHECK: comma-init.c:[[@LINE+3]]:3: note: loop nest not analyzed: access 'y[k + j]'
void rows(float *y, const float *x, int m, int n) {
  int i, j, k;
  for (i = 0; i < m; i++)
    for (j = 0, k = i * n; j < n; j++)
      y[k + j] = 2.0f * x[k + j];
}
