// Calls the database cannot answer (test/Program/cross-tu.test): norm is
// defined in two files (norm1.c, norm2.c), missing in none, and scale only
// as a static function of other.c, which no other file can call.
#include "ops.h"

void norm(float *x, int n);
void missing(float *x, int n);
void scale(float *x, int n);

void forward2(float *x, float *g, int n) {
  norm(x, n);
  missing(x, n);
  scale(x, n);
  gelu(g, x, n);
}

// The same calls inside a nest, for --cross-tu (test/Program/cross-tu-nests.test).
void repeat_norm(float *x, int n, int times) {
  for (int t = 0; t < times; t++)
    norm(x, n);
}

void repeat_missing(float *x, int n, int times) {
  for (int t = 0; t < times; t++)
    missing(x, n);
}
