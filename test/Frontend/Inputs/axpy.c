#define N 100
/* y = a*x + y in C99: restrict says x and y do not alias. */
void axpy(float a, const float *restrict x, float *restrict y) {
  for (int i = 0; i < N; i++)
    y[i] = a * x[i] + y[i];
}
