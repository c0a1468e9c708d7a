// Oracle driver for fixedfields.c (scripts/nn-oracle.py runs it): the first
// call allocates and points the activations, the second reuses them. The
// buffer the kernel allocates is registered as it is made, so that the
// tracing sees the accesses to it.
static void *tracedCalloc(size_t Count, size_t Size) {
  void *P = calloc(Count, Size);
  oracle_register("acts_memory", P, Count, Size, 0);
  return P;
}
#define calloc tracedCalloc
#include "fixedfields.c"
#undef calloc

int main() {
  const int B = 2, T = 3, V = 5;
  ORACLE_PARAM("B", B);
  ORACLE_PARAM("T", T);
  ORACLE_PARAM("V", V);
  Model model = {};
  ORACLE_CALL(model_forward(&model, B, T, V));
  ORACLE_CALL(model_forward(&model, B, T, V));
}
