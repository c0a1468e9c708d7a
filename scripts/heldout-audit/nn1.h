// Shared by the drivers of euske/nn1 (cnn, rnn, bnn; scripts/heldout-audit):
// the published files compute in double; the oracle counts float, so
// `double` is the counting float and every array is registered as NAME@8
// (8 bytes an element, as the tool counts them).
#include "shims.h"
#define double float
namespace heldout {
/// Registers a calloc'ed array of N counted elements (no guards).
inline void reg(const char *Name, const Counted *P, int N) {
  if (N > 0)
    oracle_register(Name, P, N, sizeof(Counted), 0);
}
} // namespace heldout
