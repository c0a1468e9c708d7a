// Compile-time shims for the held-out audit's drivers (scripts/heldout-audit,
// README.md): published C compiled as C++ by scripts/nn-oracle.py. Included
// by a driver after oracle.h (which nn-oracle.py includes first) and before
// the fetched file, which is never edited.
#ifndef HELDOUT_SHIMS_H
#define HELDOUT_SHIMS_H

#include <ctype.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

namespace heldout {
/// C converts void * to any object pointer implicitly, C++ does not: the
/// allocators return this instead.
struct AnyPointer {
  void *P;
  template <class T> operator T *() const { return static_cast<T *>(P); }
};
/// printf and fprintf of a counted float: C passes a float to a variadic
/// function as a double; the counting type is converted so (no FLOP).
template <class T> auto printArgument(T X) {
  if constexpr (std::is_same_v<T, Counted>)
    return static_cast<double>(X);
  else
    return X;
}
template <class... A> int printfShim(const char *Format, A... Args) {
  return ::printf(Format, printArgument(Args)...);
}
template <class... A>
int fprintfShim(FILE *Stream, const char *Format, A... Args) {
  return ::fprintf(Stream, Format, printArgument(Args)...);
}
} // namespace heldout

// Function-like macros: the declarations in the headers above are already
// seen, and `::malloc` inside the expansion is not expanded again.
#define malloc(N) (heldout::AnyPointer{::malloc(N)})
#define calloc(N, S) (heldout::AnyPointer{::calloc(N, S)})
#define realloc(P, N) (heldout::AnyPointer{::realloc(P, N)})
#define printf(...) heldout::printfShim(__VA_ARGS__)
#define fprintf(...) heldout::fprintfShim(__VA_ARGS__)
#define mmap(...) (heldout::AnyPointer{::mmap(__VA_ARGS__)})
#define bsearch(...) (heldout::AnyPointer{const_cast<void *>(::bsearch(__VA_ARGS__))})

#endif
