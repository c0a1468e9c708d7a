// Does not compile: roofline-lint must print clang's error and exit 2.
void broken(float *A, int N) {
  for (int i = 0; i < N; ++i)
  undeclared_thing(A[i]);
}
