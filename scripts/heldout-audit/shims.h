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
/// floor() of a counted float where C converts the result to int
/// (darknet's `int n = floor(x)`, which C++ refuses: the counting type
/// converts to int explicitly only). One FLOP, as oracle.h's floor; the
/// result converts to the counting type or to int, and arithmetic and
/// comparisons on it are the counting type's (counted), never int's.
struct Rounded {
  Counted V;
  operator Counted() const { return V; }
  operator int() const { return static_cast<int>(V); }
};
inline Rounded floorShim(Counted X) { return Rounded{::floorf(X)}; }
template <class T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>
auto floorShim(T X) {
  return std::floor(X);
}
#define HELDOUT_ROUNDED_OP(OP)                                                 \
  template <class T> auto operator OP(const Rounded &A, const T &B) {          \
    return A.V OP B;                                                           \
  }                                                                            \
  template <class T, std::enable_if_t<!std::is_same_v<T, Rounded>, int> = 0>   \
  auto operator OP(const T &A, const Rounded &B) {                             \
    return A OP B.V;                                                           \
  }
HELDOUT_ROUNDED_OP(+)
HELDOUT_ROUNDED_OP(-)
HELDOUT_ROUNDED_OP(*)
HELDOUT_ROUNDED_OP(/)
HELDOUT_ROUNDED_OP(<)
HELDOUT_ROUNDED_OP(>)
HELDOUT_ROUNDED_OP(<=)
HELDOUT_ROUNDED_OP(>=)
HELDOUT_ROUNDED_OP(==)
HELDOUT_ROUNDED_OP(!=)
#undef HELDOUT_ROUNDED_OP
} // namespace heldout

// darknet's `layer l = {0};` (every make_*_layer): C zero-initializes the
// struct, whose first member is an enum, which C++ does not initialize from
// 0. `state_save_layer` is declared by darknet.h's struct layer alone (no
// file of the corpus uses it): its declaration gives the struct a
// constructor from that 0 (all members zero, as C) and keeps its default one.
#define state_save_layer                                                       \
  state_save_layer;                                                            \
  layer() = default;                                                           \
  layer(int Zero) {                                                            \
    if (Zero)                                                                  \
      abort();                                                                 \
    __builtin_memset(static_cast<void *>(this), 0, sizeof(*this));             \
  }

// Function-like macros: the declarations in the headers above are already
// seen, and `::malloc` inside the expansion is not expanded again.
#define malloc(N) (heldout::AnyPointer{::malloc(N)})
#define calloc(N, S) (heldout::AnyPointer{::calloc(N, S)})
#define realloc(P, N) (heldout::AnyPointer{::realloc(P, N)})
#define printf(...) heldout::printfShim(__VA_ARGS__)
#define fprintf(...) heldout::fprintfShim(__VA_ARGS__)
#define mmap(...) (heldout::AnyPointer{::mmap(__VA_ARGS__)})
#define floor(X) heldout::floorShim(X)
#define bsearch(...) (heldout::AnyPointer{const_cast<void *>(::bsearch(__VA_ARGS__))})

#endif
