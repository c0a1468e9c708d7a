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
