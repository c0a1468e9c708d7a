// Oracle driver for lazyalloc.c (scripts/nn-oracle.py runs it). The moments
// the kernel allocates are registered as they are made, so that the tracing
// sees the accesses to them: the first call allocates them, the second
// reuses them. The refused nests are not run.
static int Allocations = 0;
static void *tracedCalloc(size_t Count, size_t Size) {
  void *P = calloc(Count, Size);
  oracle_register(Allocations++ % 2 ? "v_memory" : "m_memory", P, Count, Size,
                  0);
  return P;
}
#define calloc tracedCalloc
#include "lazyalloc.c"
#undef calloc

int main() {
  const int N = 40;
  ORACLE_PARAM("num_parameters", N);
  oracle::Array<float> params("params_memory", N), grads("grads_memory", N);
  GPT2 model = {params, grads, nullptr, nullptr, N};
  ORACLE_CALL(gpt2_update(&model, 1e-3f, 0.9f, 0.999f, 1e-8f, 0.01f, 1));
  ORACLE_CALL(gpt2_update(&model, 1e-3f, 0.9f, 0.999f, 1e-8f, 0.01f, 2));
}
