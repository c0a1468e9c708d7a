// The kernels model.c calls, defined in other files of the program
// (test/Program/cross-tu.test).
void matmul(float *out, const float *x, const float *w, int n, int d);
void gelu(float *out, const float *x, int n);
