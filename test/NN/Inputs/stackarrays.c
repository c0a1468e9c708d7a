// Arrays on a kernel's own stack, for the oracle's --stack-arrays
// (test/NN/oracle-stack-arrays.test): counts derived by hand there.
typedef struct {
  float b[4];
  float w[4][3];
  int n;
} grads_t;

typedef struct {
  int idx[6]; // 24 bytes, trivially copyable: passed in memory by value
} shape_t;

// Called outside any nest: its nest writes the caller's `act`.
static void fill(float *a, const float *x, int n) {
  for (int i = 0; i < n; i++)
    a[i] = x[i] * 2.0f;
}

// Called inside a nest: its `t` lives and dies in one iteration.
static float product(const float *x, int i) {
  float t[2];
  t[0] = x[i];
  t[1] = x[i] + 1.0f;
  return t[0] * t[1];
}

void local_outside(float *y, const float *x) {
  float act[4];
  fill(act, x, 4);
  for (int i = 0; i < 4; i++)
    y[i] = act[i] + 1.0f;
}

void struct_local(float *w, const float *x) {
  grads_t g;
  g.n = 4;
  for (int i = 0; i < 4; i++) {
    g.b[i] = x[i];
    for (int j = 0; j < 3; j++)
      g.w[i][j] = x[i] * x[j];
  }
  for (int i = 0; i < 4; i++) {
    w[i] = g.b[i];
    for (int j = 0; j < 3; j++)
      w[4 + i * 3 + j] = g.w[i][j] * 0.5f;
  }
}

void scratch_inside(float *y, const float *x) {
  for (int i = 0; i < 4; i++) {
    float acc[2];
    acc[0] = x[i];
    acc[1] = acc[0] * 3.0f;
    y[i] = acc[1] + product(x, i);
  }
}

void by_value(shape_t s, float *y, const float *x) {
  for (int i = 0; i < 6; i++)
    y[i] = x[i] * s.idx[i];
}
