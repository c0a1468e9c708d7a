//===- Polynomial.cpp - Multivariate polynomials with rational coefficients ===//
//
// Every operation visits terms in map order and combines coefficients in
// the same sequence a std::map<Monomial, Rational> implementation would, so
// results and overflow reports do not depend on the representation.
//
//===----------------------------------------------------------------------===//

#include "roofline/IR/Polynomial.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <new>
#include <vector>

using namespace roofline;

using Factor = Polynomial::Factor;
using MonoRef = llvm::ArrayRef<Factor>;
using MapView = std::map<Monomial, Rational>;

VarName roofline::internName(llvm::StringRef Name) {
  // A small per-thread cache in front of the shared table, whose lock and
  // hashing would otherwise cost more than most uses of a name.
  struct Slot {
    VarName Interned = nullptr;
  };
  static constexpr unsigned CacheSize = 64;
  thread_local Slot Cache[CacheSize];
  uint32_t H = 2166136261u; // FNV-1a
  for (char C : Name)
    H = (H ^ static_cast<unsigned char>(C)) * 16777619u;
  Slot &S = Cache[H % CacheSize];
  if (S.Interned && *S.Interned == Name)
    return S.Interned;

  struct Table {
    std::mutex Lock;
    llvm::StringMap<std::string *> Names;
  };
  // Leaked on purpose: interned names must outlive every polynomial.
  static Table *T = new Table;
  std::lock_guard<std::mutex> Guard(T->Lock);
  auto [It, New] = T->Names.try_emplace(Name, nullptr);
  if (New)
    It->second = new std::string(Name.str());
  S.Interned = It->second;
  return It->second;
}

//===----------------------------------------------------------------------===//
// Storage
//===----------------------------------------------------------------------===//

/// One allocation: this header, then CapTerms coefficients, CapTerms + 1
/// offsets into the factor array (term I's monomial is factors
/// [Begin[I], Begin[I + 1])), then the factors. Immutable once shared.
struct Polynomial::Rep {
  std::atomic<uint32_t> Refs;
  uint32_t NumTerms;
  uint32_t CapTerms;
  uint32_t NumFactors;
  std::atomic<const MapView *> View;
  uint32_t SizeClass; ///< BlockCache class, 0 when allocated directly
  uint32_t Pad;

  static constexpr size_t HeaderSize = 32;

  Rational *coefs() {
    return reinterpret_cast<Rational *>(reinterpret_cast<char *>(this) +
                                        HeaderSize);
  }
  uint32_t *begins() { return reinterpret_cast<uint32_t *>(coefs() + CapTerms); }
  Factor *factors() {
    uintptr_t P = reinterpret_cast<uintptr_t>(begins() + CapTerms + 1);
    return reinterpret_cast<Factor *>((P + 7) & ~static_cast<uintptr_t>(7));
  }
  MonoRef mono(size_t I) {
    const uint32_t *B = begins();
    return MonoRef(factors() + B[I], B[I + 1] - B[I]);
  }

  static Rep *allocate(size_t CapTerms, size_t CapFactors);
  static void destroy(Rep *R);
};

namespace {
/// Recently freed polynomial blocks of small sizes, per thread: most
/// polynomials live briefly and are small, and malloc/free would be a large
/// share of their cost. Blocks are plain operator-new memory, so one freed
/// on another thread than its allocation is fine.
struct BlockCache {
  static constexpr unsigned Granule = 64, Classes = 8, MaxPerClass = 64;
  struct Block {
    Block *Next;
  };
  Block *Head[Classes + 1] = {};
  unsigned Count[Classes + 1] = {};
  /// Set once the thread's cache is gone (a polynomial with static storage
  /// may still be freed after it at exit): then blocks bypass it.
  bool Dead = false;

  ~BlockCache() {
    Dead = true;
    for (unsigned C = 1; C <= Classes; ++C)
      while (Block *B = Head[C]) {
        Head[C] = B->Next;
        ::operator delete(B);
      }
  }
  static unsigned classOf(size_t Bytes) {
    unsigned C = static_cast<unsigned>((Bytes + Granule - 1) / Granule);
    return C <= Classes ? C : 0;
  }
  void *get(unsigned C, size_t Bytes) {
    if (C == 0)
      return ::operator new(Bytes);
    if (Dead)
      return ::operator new(C * Granule);
    if (Block *B = Head[C]) {
      Head[C] = B->Next;
      --Count[C];
      return B;
    }
    return ::operator new(C * Granule); // a full block: reusable later
  }
  void put(unsigned C, void *P) {
    if (C == 0 || Dead || Count[C] == MaxPerClass) {
      ::operator delete(P);
      return;
    }
    Block *B = static_cast<Block *>(P);
    B->Next = Head[C];
    Head[C] = B;
    ++Count[C];
  }
};
thread_local BlockCache Blocks;
} // namespace

Polynomial::Rep *Polynomial::Rep::allocate(size_t CapTerms,
                                           size_t CapFactors) {
  size_t Bytes = HeaderSize + CapTerms * sizeof(Rational) +
                 (CapTerms + 1) * sizeof(uint32_t) + 8 +
                 CapFactors * sizeof(Factor);
  unsigned Class = BlockCache::classOf(Bytes);
  void *Mem = Blocks.get(Class, Bytes);
  Rep *R = new (Mem) Rep;
  R->SizeClass = Class;
  R->Refs.store(1, std::memory_order_relaxed);
  R->NumTerms = 0;
  R->CapTerms = static_cast<uint32_t>(CapTerms);
  R->NumFactors = 0;
  R->View.store(nullptr, std::memory_order_relaxed);
  R->begins()[0] = 0;
  return R;
}

void Polynomial::Rep::destroy(Rep *R) {
  delete R->View.load(std::memory_order_acquire);
  unsigned Class = R->SizeClass;
  // Coefficients and factors are trivially destructible.
  R->~Rep();
  Blocks.put(Class, R);
}

static_assert(sizeof(Polynomial::Rep) <= Polynomial::Rep::HeaderSize,
              "header overlaps the coefficients");
static_assert(std::is_trivially_copyable<Rational>::value &&
                  std::is_trivially_destructible<Rational>::value,
              "coefficients are stored as raw memory");

void Polynomial::retain() const {
  R->Refs.fetch_add(1, std::memory_order_relaxed);
}

void Polynomial::release() {
  if (R->Refs.fetch_sub(1, std::memory_order_acq_rel) == 1)
    Rep::destroy(R);
  R = nullptr;
}

namespace roofline {
/// Builds a polynomial term by term, into one allocation sized up front.
struct PolyAccess {
  Polynomial::Rep *R;

  PolyAccess(size_t MaxTerms, size_t MaxFactors)
      : R(Polynomial::Rep::allocate(MaxTerms, MaxFactors)) {}
  PolyAccess(const PolyAccess &) = delete;
  ~PolyAccess() {
    if (R)
      Polynomial::Rep::destroy(R);
  }

  size_t size() const { return R->NumTerms; }
  MonoRef mono(size_t I) const { return R->mono(I); }
  const Rational &coef(size_t I) const { return R->coefs()[I]; }

  void endTerm(const Rational &C) {
    uint32_t I = R->NumTerms++;
    assert(I < R->CapTerms && "term capacity exceeded");
    new (&R->coefs()[I]) Rational(C);
    R->begins()[I + 1] = R->NumFactors;
  }
  void push(MonoRef M, const Rational &C) {
    Factor *F = R->factors() + R->NumFactors;
    std::copy(M.begin(), M.end(), F);
    R->NumFactors += static_cast<uint32_t>(M.size());
    endTerm(C);
  }
  /// M without its factor at index \p Skip.
  void pushWithout(MonoRef M, size_t Skip, const Rational &C) {
    Factor *F = R->factors() + R->NumFactors;
    for (size_t I = 0; I < M.size(); ++I)
      if (I != Skip)
        *F++ = M[I];
    R->NumFactors += static_cast<uint32_t>(M.size() - 1);
    endTerm(C);
  }
  /// The product monomial A * B (exponents of shared names add).
  void pushProduct(MonoRef A, MonoRef B, const Rational &C);

  Polynomial take() {
    Polynomial::Rep *Out = R;
    R = nullptr;
    if (Out->NumTerms == 0) {
      Polynomial::Rep::destroy(Out);
      return Polynomial();
    }
    return Polynomial(Out);
  }
  static Polynomial::Rep *rep(const Polynomial &P) { return P.R; }
};
} // namespace roofline

using Builder = PolyAccess;

namespace {

llvm::Error overflowError(const char *What) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "%s exceeds 128-bit range", What);
}

/// Name order of std::string (what std::map<std::string, ...> uses).
int cmpName(VarName A, VarName B) {
  if (A == B)
    return 0;
  return A->compare(*B) < 0 ? -1 : 1;
}

/// std::map<std::string, unsigned>'s operator<, as a three-way comparison:
/// lexicographic over (name, exponent) pairs, a prefix first.
int cmpMono(MonoRef A, MonoRef B) {
  size_t N = std::min(A.size(), B.size());
  for (size_t I = 0; I < N; ++I) {
    if (int C = cmpName(A[I].Name, B[I].Name))
      return C;
    if (A[I].Exp != B[I].Exp)
      return A[I].Exp < B[I].Exp ? -1 : 1;
  }
  if (A.size() == B.size())
    return 0;
  return A.size() < B.size() ? -1 : 1;
}

unsigned totalDegree(MonoRef M) {
  unsigned D = 0;
  for (const Factor &F : M)
    D += F.Exp;
  return D;
}

/// Print order: total degree descending, then graded-lexicographic with
/// variables in name order (the term with the higher exponent of the first
/// differing variable comes first): "M^2 + M*N + N^2 + M + N + 1".
bool printsBefore(MonoRef A, MonoRef B) {
  unsigned DA = totalDegree(A), DB = totalDegree(B);
  if (DA != DB)
    return DA > DB;
  size_t IA = 0, IB = 0;
  while (IA < A.size() || IB < B.size()) {
    // The smaller name is the variable compared next; absent means 0.
    int C = IA == A.size()   ? 1
            : IB == B.size() ? -1
                             : cmpName(A[IA].Name, B[IB].Name);
    if (C < 0)
      return true; // A has a positive exponent where B has 0
    if (C > 0)
      return false;
    if (A[IA].Exp != B[IB].Exp)
      return A[IA].Exp > B[IB].Exp;
    ++IA;
    ++IB;
  }
  return false;
}

void appendMonomial(std::string &S, MonoRef M) {
  for (size_t I = 0; I < M.size(); ++I) {
    if (I)
      S += '*';
    S += *M[I].Name;
    if (M[I].Exp > 1) {
      S += '^';
      S += std::to_string(M[I].Exp);
    }
  }
}

/// Stable sort of \p Order by \p Less on the indexed items; insertion sort
/// for the short lists polynomials usually are.
template <typename LessFn>
void stableSortIndices(llvm::SmallVectorImpl<unsigned> &Order, LessFn Less) {
  if (Order.size() > 24) {
    std::stable_sort(Order.begin(), Order.end(), Less);
    return;
  }
  for (size_t I = 1; I < Order.size(); ++I) {
    unsigned X = Order[I];
    size_t J = I;
    for (; J > 0 && Less(X, Order[J - 1]); --J)
      Order[J] = Order[J - 1];
    Order[J] = X;
  }
}

/// The terms of \p B (pairwise distinct monomials) in map order.
Polynomial sortedDistinct(Builder &B) {
  size_t N = B.size();
  bool Sorted = true;
  for (size_t I = 1; I < N && Sorted; ++I)
    Sorted = cmpMono(B.mono(I - 1), B.mono(I)) < 0;
  if (Sorted)
    return B.take();
  llvm::SmallVector<unsigned, 16> Order;
  for (unsigned I = 0; I < N; ++I)
    Order.push_back(I);
  stableSortIndices(Order, [&](unsigned X, unsigned Y) {
    return cmpMono(B.mono(X), B.mono(Y)) < 0;
  });
  Builder Out(N, B.R->NumFactors);
  for (unsigned I : Order)
    Out.push(B.mono(I), B.coef(I));
  return Out.take();
}

/// Lazily grown tables shared by every sumOver call.
struct FaulhaberTables {
  /// Bernoulli numbers B^+_j (B_1 = +1/2).
  std::vector<Rational> Bernoulli{Rational(1)};
  /// Coefficients of F_k(x) = sum_{v=1}^{x} v^k (F_0(x) = x), index = power.
  std::vector<std::vector<Rational>> F;

  static std::optional<Rational> binom(unsigned N, unsigned K) {
    Rational R(1);
    for (unsigned I = 1; I <= K; ++I) {
      auto Next = R.mul(Rational(static_cast<int64_t>(N - K + I)));
      if (!Next)
        return std::nullopt;
      Next = Next->div(Rational(static_cast<int64_t>(I)));
      if (!Next)
        return std::nullopt;
      R = *Next;
    }
    return R;
  }

  /// Extends Bernoulli to index M, using sum_{j=0}^{m} C(m+1, j) B^-_j = 0.
  bool growBernoulli(unsigned M) {
    while (Bernoulli.size() <= M) {
      unsigned N = static_cast<unsigned>(Bernoulli.size());
      Rational Sum(0);
      for (unsigned J = 0; J < N; ++J) {
        Rational BJ = J == 1 ? Bernoulli[1].neg() : Bernoulli[J]; // B^-
        auto C = binom(N + 1, J);
        if (!C)
          return false;
        auto T = C->mul(BJ);
        if (!T)
          return false;
        auto S = Sum.add(*T);
        if (!S)
          return false;
        Sum = *S;
      }
      auto BN = Sum.neg().div(Rational(static_cast<int64_t>(N + 1)));
      if (!BN)
        return false;
      Bernoulli.push_back(N == 1 ? BN->neg() : *BN); // store B^+
    }
    return true;
  }

  const std::vector<Rational> *faulhaber(unsigned K) {
    while (F.size() <= K) {
      unsigned P = static_cast<unsigned>(F.size());
      if (!growBernoulli(P))
        return nullptr;
      // F_p(x) = 1/(p+1) sum_{j=0}^{p} C(p+1, j) B^+_j x^{p+1-j}.
      std::vector<Rational> Coeffs(P + 2, Rational(0));
      for (unsigned J = 0; J <= P; ++J) {
        auto C = binom(P + 1, J);
        if (!C)
          return nullptr;
        auto T = C->mul(Bernoulli[J]);
        if (!T)
          return nullptr;
        T = T->div(Rational(static_cast<int64_t>(P + 1)));
        if (!T)
          return nullptr;
        Coeffs[P + 1 - J] = *T;
      }
      F.push_back(std::move(Coeffs));
    }
    return &F[K];
  }
};

/// F_k's coefficients. The shared tables grow under a lock so that analyses
/// may run on several threads; a row never changes once added, and its
/// buffer survives the outer vector's growth, so the view stays valid.
std::optional<llvm::ArrayRef<Rational>> faulhaberCoefficients(unsigned K) {
  static std::mutex Lock;
  static FaulhaberTables T;
  std::lock_guard<std::mutex> Guard(Lock);
  const std::vector<Rational> *F = T.faulhaber(K);
  if (!F)
    return std::nullopt;
  return llvm::ArrayRef<Rational>(*F);
}

/// Index of \p Name's factor in \p M, or -1.
int findFactor(MonoRef M, VarName Name) {
  for (size_t I = 0; I < M.size(); ++I)
    if (M[I].Name == Name)
      return static_cast<int>(I);
  return -1;
}

} // namespace

void PolyAccess::pushProduct(MonoRef A, MonoRef B, const Rational &C) {
  Factor *F = R->factors() + R->NumFactors, *Start = F;
  size_t I = 0, J = 0;
  while (I < A.size() && J < B.size()) {
    int Cmp = cmpName(A[I].Name, B[J].Name);
    if (Cmp < 0)
      *F++ = A[I++];
    else if (Cmp > 0)
      *F++ = B[J++];
    else {
      *F++ = {A[I].Name, A[I].Exp + B[J].Exp};
      ++I;
      ++J;
    }
  }
  F = std::copy(A.begin() + I, A.end(), F);
  F = std::copy(B.begin() + J, B.end(), F);
  R->NumFactors += static_cast<uint32_t>(F - Start);
  endTerm(C);
}

//===----------------------------------------------------------------------===//
// Construction and access
//===----------------------------------------------------------------------===//

Polynomial::Polynomial(Rational C) {
  if (C.isZero())
    return;
  Builder B(1, 0);
  B.push({}, C);
  *this = B.take();
}

Polynomial Polynomial::monomial(const Monomial &M, const Rational &C) {
  if (C.isZero())
    return Polynomial();
  llvm::SmallVector<Factor, 4> F;
  for (const auto &[Name, E] : M)
    F.push_back({internName(Name), E});
  Builder B(1, F.size());
  B.push(F, C);
  return B.take();
}

Polynomial Polynomial::var(VarName Name) {
  Builder B(1, 1);
  Factor F{Name, 1};
  B.push(MonoRef(F), Rational(1));
  return B.take();
}

Polynomial Polynomial::var(const std::string &Name) {
  return var(internName(Name));
}

llvm::Expected<Polynomial> Polynomial::fromAffine(const AffineExpr &E) {
  // The constant (empty monomial) sorts first, then the variables by name,
  // which is the order E keeps them in.
  Builder B(E.terms().size() + 1, E.terms().size());
  if (E.constant() != 0)
    B.push({}, Rational(E.constant()));
  for (const auto &[Name, C] : E.terms())
    if (C != 0) {
      Factor F{internName(Name), 1};
      B.push(MonoRef(F), Rational(C));
    }
  return B.take();
}

Polynomial
Polynomial::linear(const Rational &Constant,
                   llvm::ArrayRef<std::pair<VarName, Rational>> Terms) {
  Builder B(Terms.size() + 1, Terms.size());
  if (!Constant.isZero())
    B.push({}, Constant);
  for (size_t I = 0; I < Terms.size(); ++I) {
    const auto &[Name, C] = Terms[I];
    assert((I == 0 || cmpName(Terms[I - 1].first, Name) < 0) &&
           "linear terms must be in name order");
    if (C.isZero())
      continue;
    Factor F{Name, 1};
    B.push(MonoRef(F), C);
  }
  return B.take();
}

Polynomial Polynomial::fromTerms(
    llvm::ArrayRef<std::pair<llvm::ArrayRef<Factor>, Rational>> Terms) {
  size_t NumFactors = 0;
  for (const auto &[M, C] : Terms)
    NumFactors += M.size();
  Builder B(Terms.size(), NumFactors);
  for (const auto &[M, C] : Terms)
    if (!C.isZero())
      B.push(M, C);
  return sortedDistinct(B);
}

size_t Polynomial::numTerms() const { return R ? R->NumTerms : 0; }

llvm::ArrayRef<Factor> Polynomial::mono(size_t I) const { return R->mono(I); }

const Rational &Polynomial::coef(size_t I) const { return R->coefs()[I]; }

const MapView &Polynomial::terms() const {
  static const MapView Empty;
  if (!R)
    return Empty;
  if (const MapView *V = R->View.load(std::memory_order_acquire))
    return *V;
  auto *New = new MapView;
  for (size_t I = 0; I < R->NumTerms; ++I) {
    Monomial M;
    for (const Factor &F : R->mono(I))
      M.emplace_hint(M.end(), *F.Name, F.Exp);
    New->emplace_hint(New->end(), std::move(M), R->coefs()[I]);
  }
  const MapView *Old = nullptr;
  if (R->View.compare_exchange_strong(Old, New, std::memory_order_acq_rel,
                                      std::memory_order_acquire))
    return *New;
  delete New; // another thread published the same view first
  return *Old;
}

bool Polynomial::isConstant() const {
  return !R || (R->NumTerms == 1 && R->mono(0).empty());
}

Rational Polynomial::constant() const {
  // The empty monomial sorts first.
  return R && R->mono(0).empty() ? R->coefs()[0] : Rational(0);
}

bool Polynomial::uses(const std::string &Name) const {
  return degreeIn(Name) > 0;
}

unsigned Polynomial::degreeIn(const std::string &Name) const {
  // By text: interning a name only to query it would take the lock.
  unsigned D = 0;
  for (size_t I = 0, E = numTerms(); I < E; ++I)
    for (const Factor &F : R->mono(I))
      if (*F.Name == Name) {
        D = std::max(D, F.Exp);
        break;
      }
  return D;
}

unsigned Polynomial::degreeIn(VarName Name) const {
  unsigned D = 0;
  for (size_t I = 0, E = numTerms(); I < E; ++I)
    for (const Factor &F : R->mono(I))
      if (F.Name == Name) {
        D = std::max(D, F.Exp);
        break;
      }
  return D;
}

bool Polynomial::operator==(const Polynomial &O) const {
  if (R == O.R)
    return true;
  if (numTerms() != O.numTerms())
    return false;
  for (size_t I = 0, E = numTerms(); I < E; ++I)
    if (coef(I) != O.coef(I) || mono(I) != O.mono(I))
      return false;
  return true;
}

//===----------------------------------------------------------------------===//
// Arithmetic
//===----------------------------------------------------------------------===//

namespace {
/// this + Sign * O.scale(K) by merging; Neg negates O's coefficients
/// (exact), Scale multiplies them by K first as scale() would.
llvm::Expected<Polynomial> merge(const Polynomial &A, const Polynomial &O,
                                 const Rational *K, bool Neg) {
  size_t NA = A.numTerms(), NO = O.numTerms();
  Polynomial::Rep *RA = Builder::rep(A), *RO = Builder::rep(O);
  Builder B(NA + NO, (RA ? RA->NumFactors : 0) + (RO ? RO->NumFactors : 0));
  auto Other = [&](size_t J) -> std::optional<Rational> {
    const Rational &C = O.coef(J);
    if (K)
      return C.mul(*K);
    return Neg ? C.neg() : C;
  };
  size_t I = 0, J = 0;
  while (I < NA && J < NO) {
    int C = cmpMono(A.mono(I), O.mono(J));
    if (C < 0) {
      B.push(A.mono(I), A.coef(I));
      ++I;
      continue;
    }
    std::optional<Rational> OC = Other(J);
    if (!OC)
      return overflowError("polynomial coefficient");
    if (C > 0) {
      B.push(O.mono(J), *OC);
      ++J;
      continue;
    }
    auto Sum = A.coef(I).add(*OC);
    if (!Sum)
      return overflowError("polynomial coefficient");
    if (!Sum->isZero())
      B.push(A.mono(I), *Sum);
    ++I;
    ++J;
  }
  for (; I < NA; ++I)
    B.push(A.mono(I), A.coef(I));
  for (; J < NO; ++J) {
    std::optional<Rational> OC = Other(J);
    if (!OC)
      return overflowError("polynomial coefficient");
    B.push(O.mono(J), *OC);
  }
  return B.take();
}
} // namespace

llvm::Expected<Polynomial> Polynomial::add(const Polynomial &O) const {
  if (O.isZero())
    return *this;
  if (isZero())
    return O;
  return merge(*this, O, nullptr, false);
}

llvm::Expected<Polynomial> Polynomial::sub(const Polynomial &O) const {
  // this + O.scale(-1); negation is exact (no coefficient is INT128_MIN).
  if (O.isZero())
    return *this;
  return merge(*this, O, nullptr, true);
}

llvm::Expected<Polynomial> Polynomial::addScaled(const Polynomial &O,
                                                 const Rational &K) const {
  if (K.isZero() || O.isZero())
    return *this;
  if (K == Rational(1))
    return add(O); // C * 1 == C, exactly
  return merge(*this, O, &K, false);
}

llvm::Error Polynomial::addScaledInPlace(const Polynomial &O,
                                         const Rational &K) {
  if (K.isZero() || O.isZero())
    return llvm::Error::success();
  bool One = K == Rational(1);
  size_t N = numTerms(), NO = O.numTerms();
  if (R && NO <= N && R->Refs.load(std::memory_order_relaxed) == 1) {
    // The same coefficient operations merge() performs, staged so that a
    // failure leaves *this as it was.
    llvm::SmallVector<std::pair<unsigned, Rational>, 8> Updates;
    bool InPlace = true;
    size_t I = 0;
    for (size_t J = 0; J < NO && InPlace; ++J) {
      while (I < N && cmpMono(mono(I), O.mono(J)) < 0)
        ++I;
      if (I == N || cmpMono(mono(I), O.mono(J)) != 0) {
        InPlace = false; // a new monomial: merge
        break;
      }
      std::optional<Rational> OC = One ? O.coef(J) : O.coef(J).mul(K);
      if (!OC)
        return overflowError("polynomial coefficient");
      std::optional<Rational> Sum = coef(I).add(*OC);
      if (!Sum)
        return overflowError("polynomial coefficient");
      if (Sum->isZero())
        InPlace = false; // a term vanishes: merge
      else
        Updates.push_back({static_cast<unsigned>(I), *Sum});
      ++I;
    }
    if (InPlace) {
      for (const auto &[Idx, C] : Updates)
        R->coefs()[Idx] = C;
      delete R->View.exchange(nullptr); // no other owner can be reading it
      return llvm::Error::success();
    }
  }
  llvm::Expected<Polynomial> Sum = One ? add(O) : merge(*this, O, &K, false);
  if (!Sum)
    return Sum.takeError();
  *this = std::move(*Sum);
  return llvm::Error::success();
}

llvm::Expected<Polynomial> Polynomial::mul(const Polynomial &O) const {
  if (isZero() || O.isZero())
    return Polynomial();
  // 1 * c == c exactly (the gcds are 1), so the product shares the other.
  const Rational One(1);
  if (isConstant() && coef(0) == One)
    return O;
  if (O.isConstant() && O.coef(0) == One)
    return *this;
  size_t NA = numTerms(), NO = O.numTerms();
  // By a constant: the monomials and their order stay.
  if (O.isConstant() || isConstant()) {
    bool ByO = O.isConstant();
    const Polynomial &P = ByO ? *this : O;
    Builder B(P.numTerms(), P.R->NumFactors);
    for (size_t I = 0, E = P.numTerms(); I < E; ++I) {
      auto C = ByO ? coef(I).mul(O.coef(0)) : coef(0).mul(O.coef(I));
      if (!C)
        return overflowError("polynomial coefficient");
      B.push(P.mono(I), *C);
    }
    return B.take();
  }
  // Products in (this, O) order; equal monomials then combine in that
  // order, as accumulating into a map would.
  Builder Prods(NA * NO, NA * O.R->NumFactors + NO * R->NumFactors);
  for (size_t I = 0; I < NA; ++I)
    for (size_t J = 0; J < NO; ++J) {
      auto C = coef(I).mul(O.coef(J));
      if (!C)
        return overflowError("polynomial coefficient");
      Prods.pushProduct(mono(I), O.mono(J), *C);
    }
  // A monomial times distinct monomials gives distinct monomials.
  if (NA == 1 || NO == 1)
    return sortedDistinct(Prods);
  llvm::SmallVector<unsigned, 16> Order;
  for (unsigned I = 0; I < Prods.size(); ++I)
    Order.push_back(I);
  stableSortIndices(Order, [&](unsigned X, unsigned Y) {
    return cmpMono(Prods.mono(X), Prods.mono(Y)) < 0;
  });
  Builder B(Prods.size(), Prods.R->NumFactors);
  for (size_t I = 0; I < Order.size();) {
    MonoRef M = Prods.mono(Order[I]);
    std::optional<Rational> Acc = Prods.coef(Order[I]);
    size_t J = I + 1;
    for (; J < Order.size() && cmpMono(Prods.mono(Order[J]), M) == 0; ++J) {
      const Rational &C = Prods.coef(Order[J]);
      if (!Acc) {
        Acc = C; // the map erased a zero sum; this re-inserts
        continue;
      }
      auto Sum = Acc->add(C);
      if (!Sum)
        return overflowError("polynomial coefficient");
      Acc = Sum->isZero() ? std::nullopt : Sum;
    }
    if (Acc)
      B.push(M, *Acc);
    I = J;
  }
  return B.take();
}

llvm::Expected<Polynomial> Polynomial::scale(const Rational &K) const {
  if (K.isZero() || isZero())
    return Polynomial();
  Builder B(numTerms(), R->NumFactors);
  for (size_t I = 0, E = numTerms(); I < E; ++I) {
    auto V = coef(I).mul(K);
    if (!V)
      return overflowError("polynomial coefficient");
    B.push(mono(I), *V);
  }
  return B.take();
}

llvm::Expected<Polynomial> Polynomial::pow(unsigned E) const {
  Polynomial R(Rational(1)), Base = *this;
  // Square-and-multiply; E is small in practice (loop depth).
  while (E) {
    if (E & 1) {
      auto N = R.mul(Base);
      if (!N)
        return N.takeError();
      R = std::move(*N);
    }
    E >>= 1;
    if (E) {
      auto N = Base.mul(Base);
      if (!N)
        return N.takeError();
      Base = std::move(*N);
    }
  }
  return R;
}

llvm::Expected<Polynomial>
Polynomial::substitute(const std::string &Name, const Polynomial &By) const {
  return substitute(internName(Name), By);
}

llvm::Expected<Polynomial> Polynomial::substitute(VarName Name,
                                                  const Polynomial &By) const {
  if (!uses(Name))
    return *this;
  llvm::SmallVector<Polynomial, 4> Powers{Polynomial(Rational(1))};
  Polynomial Res;
  for (size_t I = 0, N = numTerms(); I < N; ++I) {
    MonoRef M = mono(I);
    int F = findFactor(M, Name);
    Builder T(1, M.size());
    if (F < 0) {
      T.push(M, coef(I));
      auto Sum = Res.add(T.take());
      if (!Sum)
        return Sum.takeError();
      Res = std::move(*Sum);
      continue;
    }
    unsigned E = M[F].Exp;
    while (Powers.size() <= E) {
      auto P = Powers.back().mul(By);
      if (!P)
        return P.takeError();
      Powers.push_back(std::move(*P));
    }
    T.pushWithout(M, F, coef(I));
    auto Prod = T.take().mul(Powers[E]);
    if (!Prod)
      return Prod.takeError();
    auto Sum = Res.add(*Prod);
    if (!Sum)
      return Sum.takeError();
    Res = std::move(*Sum);
  }
  return Res;
}

llvm::Expected<Rational>
Polynomial::evaluate(const std::map<std::string, Int128> &Values) const {
  Rational Sum(0);
  for (size_t I = 0, N = numTerms(); I < N; ++I) {
    std::optional<Rational> T = coef(I);
    for (const Factor &F : mono(I)) {
      auto It = Values.find(*F.Name);
      if (It == Values.end())
        return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                       "'%s' has no value", F.Name->c_str());
      auto V = Rational::make(It->second, 1);
      if (!V)
        return overflowError("value");
      for (unsigned K = 0; K < F.Exp && T; ++K)
        T = T->mul(*V);
      if (!T)
        return overflowError("value");
    }
    auto S = Sum.add(*T);
    if (!S)
      return overflowError("value");
    Sum = *S;
  }
  return Sum;
}

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

std::string Polynomial::str() const {
  if (isZero())
    return "0";
  size_t N = numTerms();
  llvm::SmallVector<unsigned, 16> Order;
  for (unsigned I = 0; I < N; ++I)
    Order.push_back(I);
  stableSortIndices(Order, [&](unsigned A, unsigned B) {
    return printsBefore(mono(A), mono(B));
  });

  // Common denominator L = lcm of the coefficient denominators.
  std::optional<Int128> L = 1;
  for (unsigned Idx : Order) {
    const Rational &C = coef(Idx);
    if (C.den() == 1)
      continue; // lcm(L, 1) = L
    Int128 A = *L, B = C.den();
    while (B != 0) {
      Int128 T = A % B;
      A = B;
      B = T;
    }
    Int128 Lcm;
    if (__builtin_mul_overflow(*L / A, C.den(), &Lcm)) {
      L = std::nullopt;
      break;
    }
    L = Lcm;
  }
  // Numerators over L; when L or a numerator overflows, print each term as
  // its own fraction rather than wrong text.
  llvm::SmallVector<Rational, 8> Numerators;
  if (L && *L != 1) {
    Rational LR = *Rational::make(*L, 1);
    for (unsigned Idx : Order) {
      std::optional<Rational> Num = coef(Idx).mul(LR);
      if (!Num) {
        L = std::nullopt;
        break;
      }
      Numerators.push_back(*Num);
    }
  }
  if (!L || *L == 1) {
    Numerators.clear();
    for (unsigned Idx : Order)
      Numerators.push_back(coef(Idx));
  }

  std::string S;
  for (size_t I = 0; I < N; ++I) {
    const Rational &C = Numerators[I];
    Rational Mag = C.sign() < 0 ? C.neg() : C;
    if (I == 0)
      S += C.sign() < 0 ? "-" : "";
    else
      S += C.sign() < 0 ? " - " : " + ";
    MonoRef M = mono(Order[I]);
    // "c*mono" for an integer magnitude c >= 1.
    bool One = Mag.num() == 1;
    if (M.empty() || !One)
      S += int128ToString(Mag.num());
    if (!M.empty()) {
      if (!One)
        S += '*';
      appendMonomial(S, M);
    }
    if (!Mag.isInteger()) {
      S += '/';
      S += int128ToString(Mag.den());
    }
  }
  if (!L || *L == 1)
    return S;
  if (N > 1)
    S = "(" + S + ")";
  return S + "/" + int128ToString(*L);
}

//===----------------------------------------------------------------------===//
// Sums
//===----------------------------------------------------------------------===//

llvm::Expected<Polynomial> roofline::sumOver(const Polynomial &P,
                                             const std::string &V,
                                             const Polynomial &Lo,
                                             const Polynomial &Hi) {
  return sumOver(P, internName(V), Lo, Hi);
}

llvm::Expected<Polynomial> roofline::sumOver(const Polynomial &P, VarName V,
                                             const Polynomial &Lo,
                                             const Polynomial &Hi) {
  if (Lo.uses(V) || Hi.uses(V))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "summation bound uses the summed "
                                   "variable '%s'",
                                   V->c_str());
  // P = sum_k C_k * V^k with C_k free of V. Distinct terms stay distinct
  // without V, so the groups need no coefficient arithmetic, only sorting.
  size_t N = P.numTerms();
  llvm::SmallVector<std::pair<unsigned, Polynomial>, 4> ByPower;
  llvm::SmallVector<int, 16> Pos(N);
  bool UsesV = false;
  for (size_t I = 0; I < N; ++I) {
    Pos[I] = findFactor(P.mono(I), V);
    UsesV |= Pos[I] >= 0;
  }
  if (!UsesV) {
    if (N)
      ByPower.push_back({0, P});
  } else {
    llvm::SmallVector<unsigned, 4> Ks;
    for (size_t I = 0; I < N; ++I) {
      unsigned K = Pos[I] < 0 ? 0 : P.mono(I)[Pos[I]].Exp;
      if (std::find(Ks.begin(), Ks.end(), K) == Ks.end())
        Ks.push_back(K);
    }
    std::sort(Ks.begin(), Ks.end());
    for (unsigned K : Ks) {
      Builder G(N, Builder::rep(P)->NumFactors);
      for (size_t I = 0; I < N; ++I) {
        unsigned KI = Pos[I] < 0 ? 0 : P.mono(I)[Pos[I]].Exp;
        if (KI != K)
          continue;
        if (Pos[I] < 0)
          G.push(P.mono(I), P.coef(I));
        else
          G.pushWithout(P.mono(I), Pos[I], P.coef(I));
      }
      ByPower.push_back({K, sortedDistinct(G)});
    }
  }

  auto LoM1 = Lo.sub(Polynomial(Rational(1)));
  if (!LoM1)
    return LoM1.takeError();

  // F_k evaluated at a polynomial argument, by Horner's rule.
  auto EvalF = [](llvm::ArrayRef<Rational> Coeffs,
                  const Polynomial &X) -> llvm::Expected<Polynomial> {
    Polynomial R;
    for (size_t I = Coeffs.size(); I-- > 0;) {
      auto M = R.mul(X);
      if (!M)
        return M.takeError();
      auto A = M->add(Polynomial(Coeffs[I]));
      if (!A)
        return A.takeError();
      R = std::move(*A);
    }
    return R;
  };

  Polynomial Result;
  for (const auto &[K, C] : ByPower) {
    llvm::Expected<Polynomial> Diff = Polynomial();
    if (K == 0) {
      // F_0(x) = x: Horner's rule would return Hi and Lo - 1 unchanged.
      Diff = Hi.sub(*LoM1);
    } else {
      std::optional<llvm::ArrayRef<Rational>> F = faulhaberCoefficients(K);
      if (!F)
        return overflowError("Faulhaber coefficient");
      auto AtHi = EvalF(*F, Hi);
      if (!AtHi)
        return AtHi.takeError();
      auto AtLo = EvalF(*F, *LoM1);
      if (!AtLo)
        return AtLo.takeError();
      Diff = AtHi->sub(*AtLo);
    }
    if (!Diff)
      return Diff.takeError();
    auto Term = C.mul(*Diff);
    if (!Term)
      return Term.takeError();
    auto Sum = Result.add(*Term);
    if (!Sum)
      return Sum.takeError();
    Result = std::move(*Sum);
  }
  return Result;
}
