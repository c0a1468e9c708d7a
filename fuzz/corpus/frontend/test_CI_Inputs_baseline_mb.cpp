// A known memory-bound nest: in the baseline, accepted.
constexpr int N = 1 << 20;
float x[N], y[N];

void axpy(float a) {
  for (int i = 0; i < N; ++i)
    y[i] += a * x[i];
}
