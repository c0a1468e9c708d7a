// Not self-contained: Elem and SIZE come from the file that includes it,
// so on its own it does not compile.
inline void kern_scale(Elem *x) {
  for (int i = 0; i < SIZE; ++i)
    x[i] *= 2;
}
