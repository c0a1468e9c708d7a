// The instrumented brute-force oracle of test/NN (docs/testing-nn-corpus.md).
//
// A kernel file written in C (or C++) is compiled as C++ with this header
// included first and `float` replaced by `Counted`, a float that counts:
//   - every executed + - * / (and += -= *= /=) with a Counted operand: 1 FLOP;
//   - every comparison with a Counted operand: 1 FLOP;
//   - every call of a math function on a Counted or an integer argument:
//     1 FLOP (fmaf: 2);
//   - unary minus: nothing (a sign flip; the tool does not count it either).
// Arithmetic on literals alone stays native float/double (a C++ compiler
// folds it; so does the tool): `sqrtf(2.0f / M_PI)` and `3.0f * 0.044715f`
// cost nothing, `x * 3.0f * 0.044715f` costs two.
//
// Memory: the driver registers every array it passes to a kernel
// (oracle::Array, oracle::Vector, oracle_register); the translation unit is compiled with
// -fsanitize-coverage=trace-loads,trace-stores, so every load and store of
// the kernel, of float and int arrays alike, reaches the runtime
// (runtime.cpp), which keeps those inside a registered array. Each FLOP and
// each access is attributed to the source line of the kernel function the
// driver called (a frame-pointer walk: a helper called inside a nest counts
// at the line of its call); scripts/nn-oracle.py maps lines to loop nests.
#ifndef NN_ORACLE_H
#define NN_ORACLE_H

#include <assert.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <span>
#include <memory>
#include <type_traits>
#include <vector>

extern "C" {
/// Counts N FLOPs at the calling kernel line (while a call is recorded).
void oracle_flops(int N);
void oracle_register(const char *Name, const void *Begin, size_t Count,
                     size_t ElementBytes, size_t GuardBytes);
void oracle_unregister(const void *Begin);
void oracle_param(const char *Name, long Value);
void oracle_call_begin(const char *Function, const char *Case,
                       void *DriverFrame);
void oracle_call_end(void);
void oracle_enter(const char *Function);
void oracle_exit(void);
}

/// One execution of a function body, for scripts/program-oracle.py.
struct OracleScope {
  explicit OracleScope(const char *Function) { oracle_enter(Function); }
  ~OracleScope() { oracle_exit(); }
  OracleScope(const OracleScope &) = delete;
  OracleScope &operator=(const OracleScope &) = delete;
};

struct Counted {
  float V;
  Counted() = default;
  template <class T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>
  Counted(T X) : V(static_cast<float>(X)) {}
  // User-provided copies: a trivial copy may become a memcpy, which the
  // load/store tracing does not see.
  Counted(const Counted &O) : V(O.V) {}
  Counted &operator=(const Counted &O) {
    V = O.V;
    return *this;
  }
  // Casts to any arithmetic type ((int8_t) round(q), (size_t) x) are free;
  // bool is not: `if (x)`, `x ? a : b` and `!x` compare with zero, one FLOP
  // as `x != 0` (darknet's `error[i] = (t) ? -log(p) : 0`).
  template <class T, std::enable_if_t<std::is_arithmetic_v<T> &&
                                          !std::is_same_v<T, bool>,
                                      int> = 0>
  explicit operator T() const {
    return static_cast<T>(V);
  }
  explicit operator bool() const {
    oracle_flops(1);
    return V != 0;
  }

  Counted operator-() const { return Counted(-V); }
  Counted operator+() const { return *this; }
#define ORACLE_COMPOUND(OP)                                                    \
  Counted &operator OP##=(const Counted &O) {                                  \
    oracle_flops(1);                                                           \
    V OP## = O.V;                                                              \
    return *this;                                                              \
  }
  ORACLE_COMPOUND(+)
  ORACLE_COMPOUND(-)
  ORACLE_COMPOUND(*)
  ORACLE_COMPOUND(/)
#undef ORACLE_COMPOUND
};
static_assert(sizeof(Counted) == sizeof(float), "arrays keep their layout");

#define ORACLE_BINARY(OP)                                                      \
  inline Counted operator OP(const Counted &A, const Counted &B) {             \
    oracle_flops(1);                                                           \
    return Counted(A.V OP B.V);                                                \
  }
ORACLE_BINARY(+)
ORACLE_BINARY(-)
ORACLE_BINARY(*)
ORACLE_BINARY(/)
#undef ORACLE_BINARY
#define ORACLE_COMPARE(OP)                                                     \
  inline bool operator OP(const Counted &A, const Counted &B) {                \
    oracle_flops(1);                                                           \
    return A.V OP B.V;                                                         \
  }
ORACLE_COMPARE(<)
ORACLE_COMPARE(>)
ORACLE_COMPARE(<=)
ORACLE_COMPARE(>=)
ORACLE_COMPARE(==)
ORACLE_COMPARE(!=)
#undef ORACLE_COMPARE

// Math functions: a Counted argument or an integer variable (`sqrtf(hs)`
// converts an int at run time) counts; floating arguments are literal
// expressions here (every float variable is Counted: `sqrtf(2.0f / M_PI)`)
// and stay native, uncounted.
#define ORACLE_MATH1(NAME)                                                     \
  inline Counted NAME##f(Counted X) {                                          \
    oracle_flops(1);                                                           \
    return Counted(std::NAME(X.V));                                            \
  }                                                                            \
  inline Counted NAME(Counted X) { return NAME##f(X); }                        \
  inline Counted NAME##f(int X) {                                              \
    oracle_flops(1);                                                           \
    return Counted(std::NAME(static_cast<float>(X)));                          \
  }                                                                            \
  inline Counted NAME(int X) { return NAME##f(X); }                            \
  inline float NAME##f(double X) { return std::NAME(static_cast<float>(X)); }  \
  namespace std {                                                              \
  inline Counted NAME(Counted X) { return ::NAME##f(X); }                      \
  }
ORACLE_MATH1(exp)
ORACLE_MATH1(exp2)
ORACLE_MATH1(expm1)
ORACLE_MATH1(log)
ORACLE_MATH1(log2)
ORACLE_MATH1(log1p)
ORACLE_MATH1(sqrt)
ORACLE_MATH1(cbrt)
ORACLE_MATH1(sin)
ORACLE_MATH1(cos)
ORACLE_MATH1(tan)
ORACLE_MATH1(sinh)
ORACLE_MATH1(cosh)
ORACLE_MATH1(tanh)
ORACLE_MATH1(erf)
ORACLE_MATH1(fabs)
ORACLE_MATH1(floor)
ORACLE_MATH1(ceil)
ORACLE_MATH1(round)
#undef ORACLE_MATH1
#define ORACLE_MATH2(NAME)                                                     \
  inline Counted NAME##f(Counted X, Counted Y) {                               \
    oracle_flops(1);                                                           \
    return Counted(std::NAME(X.V, Y.V));                                       \
  }                                                                            \
  inline Counted NAME(Counted X, Counted Y) { return NAME##f(X, Y); }          \
  namespace std {                                                              \
  inline Counted NAME(Counted X, Counted Y) { return ::NAME##f(X, Y); }        \
  }
ORACLE_MATH2(pow)
ORACLE_MATH2(fmax)
ORACLE_MATH2(fmin)
ORACLE_MATH2(fmod)
ORACLE_MATH2(hypot)
#undef ORACLE_MATH2
inline Counted fmaf(Counted X, Counted Y, Counted Z) {
  oracle_flops(2);
  return Counted(std::fma(X.V, Y.V, Z.V));
}
inline Counted fma(Counted X, Counted Y, Counted Z) { return fmaf(X, Y, Z); }
namespace std {
inline Counted fma(Counted X, Counted Y, Counted Z) { return ::fmaf(X, Y, Z); }
} // namespace std

// isnan / isinf / isfinite / isnormal: one compare each (x != x), as the tool
// counts them; `using std::isnan` of <math.h> has no overload for Counted.
#define ORACLE_CLASSIFY(NAME)                                                  \
  inline bool NAME(Counted X) {                                                \
    oracle_flops(1);                                                           \
    return std::NAME(X.V);                                                     \
  }                                                                            \
  namespace std {                                                              \
  inline bool NAME(Counted X) { return ::NAME(X); }                            \
  }
ORACLE_CLASSIFY(isnan)
ORACLE_CLASSIFY(isinf)
ORACLE_CLASSIFY(isfinite)
ORACLE_CLASSIFY(isnormal)
#undef ORACLE_CLASSIFY

// std::max / std::min / std::abs: one FLOP each, as the tool counts them;
// non-templates, so `std::max(x[i], 0.0f)` converts the literal.
namespace std {
inline Counted max(const Counted &A, const Counted &B) {
  oracle_flops(1);
  return A.V < B.V ? Counted(B.V) : Counted(A.V);
}
inline Counted min(const Counted &A, const Counted &B) {
  oracle_flops(1);
  return B.V < A.V ? Counted(B.V) : Counted(A.V);
}
inline Counted abs(Counted X) { return ::fabsf(X); }
} // namespace std

// memset / memcpy / memmove on a typed array: element by element, so that
// the load/store tracing sees each element (the C library's are not
// instrumented); the tool counts them so (docs/user-guide.md, "memset and
// memcpy"). A byte count that is not a whole number of elements stops the
// run. Templates: a typed pointer matches better than the library's void *.
namespace oracle {
[[noreturn]] inline void partialElements(const char *Function) {
  fprintf(stderr, "nn-oracle: %s of a partial element\n", Function);
  abort();
}
} // namespace oracle
template <class T, std::enable_if_t<!std::is_void_v<T>, int> = 0>
inline T *memset(T *D, int C, size_t N) {
  if (N % sizeof(T))
    oracle::partialElements("memset");
  unsigned char Bytes[sizeof(T)];
  for (unsigned char &B : Bytes)
    B = static_cast<unsigned char>(C);
  T Pattern;
  __builtin_memcpy(static_cast<void *>(&Pattern), Bytes, sizeof(T));
  for (size_t I = 0; I < N / sizeof(T); ++I)
    D[I] = Pattern;
  return D;
}
template <class T, std::enable_if_t<!std::is_void_v<T>, int> = 0>
inline T *memmove(T *D, const T *S, size_t N) {
  if (N % sizeof(T))
    oracle::partialElements("memcpy");
  size_t Count = N / sizeof(T);
  if (D < S)
    for (size_t I = 0; I < Count; ++I)
      D[I] = S[I];
  else
    for (size_t I = Count; I-- > 0;)
      D[I] = S[I];
  return D;
}
template <class T, std::enable_if_t<!std::is_void_v<T>, int> = 0>
inline T *memcpy(T *D, const T *S, size_t N) {
  return memmove(D, S, N);
}
namespace std {
using ::memcpy; // std::memcpy(d, s, n) of a typed array: the same
using ::memmove;
using ::memset;
} // namespace std

namespace oracle {
/// Deterministic values in [Lo, Hi) (integers: [Lo, Hi - 1]).
template <class T> void fill(T *Data, size_t Count, double Lo, double Hi) {
  static unsigned long long Seed = 0x9e3779b97f4a7c15ULL;
  for (size_t I = 0; I < Count; ++I) {
    Seed = Seed * 6364136223846793005ULL + 1442695040888963407ULL;
    double U = double(Seed >> 11) / double(1ULL << 53);
    if constexpr (std::is_integral_v<T>)
      Data[I] = static_cast<T>(Lo + (long long)(U * (Hi - Lo)));
    else
      Data[I] = T(Lo + U * (Hi - Lo));
  }
}

/// An array the kernel reads or writes, registered by name (use the
/// kernel's parameter name: the report lists the tool's arrays beside the
/// oracle's). Guard elements on both sides: an access to them is a driver
/// bug (an array too small for the sizes) and stops the run.
template <class T> class Array {
public:
  static constexpr size_t Guard = 16;
  Array(const char *Name, size_t Count, double Lo = -1.0, double Hi = 1.0)
      : Storage(Count + 2 * Guard) {
    fill(data(), Count, Lo, Hi);
    oracle_register(Name, data(), Count, sizeof(T), Guard * sizeof(T));
  }
  ~Array() { oracle_unregister(data()); }
  Array(const Array &) = delete;
  Array &operator=(const Array &) = delete;
  operator T *() { return data(); }
  T *data() { return Storage.data() + Guard; }

private:
  std::vector<T> Storage;
};

/// A registered std::vector of exactly Count elements, for kernels that
/// take one (no guards: its size is part of what the kernel sees).
template <class T> class Vector {
public:
  Vector(const char *Name, size_t Count, double Lo = -1.0, double Hi = 1.0)
      : Storage(Count) {
    fill(Storage.data(), Count, Lo, Hi);
    oracle_register(Name, Storage.data(), Count, sizeof(T), 0);
  }
  ~Vector() { oracle_unregister(Storage.data()); }
  Vector(const Vector &) = delete;
  Vector &operator=(const Vector &) = delete;
  operator std::vector<T> &() { return Storage; }
  std::vector<T> &vector() { return Storage; }
  T *data() { return Storage.data(); }

private:
  std::vector<T> Storage;
};
} // namespace oracle

/// ORACLE_CALL(fn(args...)): run one kernel call and record it.
/// ORACLE_CASE("bias == NULL", fn(args...)): the same, for the nests the
/// tool reports per case of a loop-invariant condition.
#define ORACLE_CASE(CASE, CALL)                                                \
  do {                                                                         \
    oracle_call_begin(#CALL, CASE, __builtin_frame_address(0));                \
    CALL;                                                                      \
    oracle_call_end();                                                         \
  } while (0)
#define ORACLE_CALL(CALL) ORACLE_CASE(nullptr, CALL)
/// ORACLE_PARAM("B", 2): a size the tool is given with --param.
#define ORACLE_PARAM(NAME, VALUE) oracle_param(NAME, VALUE)

#define float Counted

#endif
