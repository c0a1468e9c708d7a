// Shared by the drivers of euske/nn1 (cnn, rnn, bnn; scripts/heldout-audit):
// the published files compute in double; the oracle counts float, so
// `double` is the counting float and every array is registered as NAME@8
// (8 bytes an element, as the tool counts them).
#include "shims.h"
#include <initializer_list>
#define double float
namespace heldout {
/// Registers a calloc'ed array of N counted elements (no guards).
inline void reg(const char *Name, const Counted *P, int N) {
  if (N > 0)
    oracle_register(Name, P, N, sizeof(Counted), 0);
}
/// One of a layer's arrays: its struct field, its elements and their count.
struct LayerArray {
  const char *Field;
  const Counted *P;
  int N;
};
/// Registers each of a layer's arrays as PREFIX.FIELD@8 (bnn, rnn). The
/// names are kept: the oracle holds on to them.
inline void regLayer(const char *Prefix,
                     std::initializer_list<LayerArray> Arrays) {
  static char Names[64][48];
  static int Next = 0;
  for (const LayerArray &A : Arrays) {
    snprintf(Names[Next], sizeof Names[Next], "%s.%s@8", Prefix, A.Field);
    reg(Names[Next++], A.P, A.N);
  }
}
} // namespace heldout
