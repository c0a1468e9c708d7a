//===- Footprint.cpp - Distinct elements an array nest touches ------------===//

#include "Footprint.h"
#include "ImageCount.h"
#include "roofline/IR/GuardLoop.h"
#include "roofline/Support/Debug.h"

#include <algorithm>
#include <cassert>
#include <functional>
#include <unordered_map>

#include "llvm/ADT/DenseMap.h"

using namespace roofline;
using namespace roofline::detail;

// --debug-only=roofline-footprint: per array, which method gave its
// footprint (docs/design.md, "Debug tracing").
#define DEBUG_TYPE "roofline-footprint"

namespace {

using UInt128 = unsigned __int128;

struct Use {
  size_t StmtIdx;
  const Access *A;
};

struct ArrayInfo {
  std::string Name;
  llvm::SmallVector<Use, 4> Uses;
  bool HasRead = false, HasWrite = false;
  /// The first statement touching the array reads it (reads precede writes
  /// within a statement).
  bool FirstReads = false;
  std::string NonAffine; ///< text of an access with a non-affine subscript
};

const Loop *loopOf(const Chain &C, const std::string &Name) {
  for (const Loop *L : C)
    if (L->IV == Name)
      return L;
  return nullptr;
}

/// A subscript as Coef*IV + Rest, Rest free of the chain's IVs: the
/// subscript's terms but L's (L is null when it uses no IV).
struct SubInfo {
  const Loop *L = nullptr;
  int64_t Coef = 0;
  const AffineExpr *E = nullptr;
};

std::optional<SubInfo> splitSubscript(const AffineExpr &E, const Chain &C) {
  SubInfo S;
  S.E = &E;
  for (const auto &[Name, K] : E.terms()) {
    const Loop *L = loopOf(C, Name);
    if (!L)
      continue;
    if (S.L)
      return std::nullopt; // two IVs in one subscript
    S.L = L;
    S.Coef = K;
  }
  return S;
}

/// evalAffine of the subscript's Rest.
std::optional<Int128> restValue(const SubInfo &S, const Env &Values) {
  Int128 V = S.E->constant();
  for (const auto &[Name, C] : S.E->terms()) {
    if (S.L && Name == S.L->IV)
      continue;
    auto It = Values.find(Name);
    if (It == Values.end())
      return std::nullopt;
    Int128 P;
    if (__builtin_mul_overflow(static_cast<Int128>(C), It->second, &P) ||
        __builtin_add_overflow(V, P, &V))
      return std::nullopt;
  }
  return V;
}

using LoopSet = llvm::SmallVector<const Loop *, 8>;

bool contains(const LoopSet &S, const Loop *L) {
  return std::find(S.begin(), S.end(), L) != S.end();
}

bool boundUsesChainIV(const Bound &B, const Chain &C) {
  for (const BoundTerm &T : B.Terms)
    for (const auto &[Name, K] : T.Expr.terms())
      if (loopOf(C, Name))
        return true;
  return false;
}

enum class RunCheck { Proved, Failed, Assumed };

/// Whether every loop of \p C outside \p Kept runs at least once whenever
/// it is reached: needed for the footprint to be the kept loops' domain.
RunCheck droppedLoopsRun(const Chain &C, const LoopSet &Kept,
                         ChainCounter &CC) {
  RunCheck R = RunCheck::Proved;
  for (size_t M = 0; M < C.size(); ++M) {
    if (contains(Kept, C[M]))
      continue;
    if (CC.hasUnknown(llvm::ArrayRef<const Loop *>(C).take_front(M + 1))) {
      // A guard loop (an affine `if` around part of a body, GuardLoop.h)
      // runs where its `if` holds, which is rarely everywhere: no formula
      // rests on that.
      if (isGuardLoop(*C[M]))
        return RunCheck::Failed;
      R = RunCheck::Assumed;
      continue;
    }
    // Depends on the prefix C[0..M] only.
    if (!CC.tripAtLeast(C, M, 1))
      return RunCheck::Failed;
  }
  return R;
}

/// Whether the IV of loop C[M] determines the IV of the enclosing loop D:
/// C[M].IV - D.IV stays within a range narrower than D's step, so distinct
/// values of D give disjoint ranges of C[M].IV.
bool determines(const Chain &C, size_t M, const Loop &D, ChainCounter &CC) {
  // Distinct values of D lie a step apart only on one lattice: a strided D
  // whose first value moves with an outer IV (j = i; j < i + 1; j += 3)
  // takes values 1 apart across entries, and disjointness fails.
  if ((D.Step > 1 || D.Step < -1) && boundUsesChainIV(D.First, C))
    return false;
  Chain Prefix(C.begin(), C.begin() + M + 1);
  AffineExpr Diff = AffineExpr::var(C[M]->IV);
  std::optional<AffineExpr> Up = Diff.sub(AffineExpr::var(D.IV));
  std::optional<AffineExpr> Down = AffineExpr::var(D.IV).sub(Diff);
  if (!Up || !Down)
    return false;
  std::optional<Rational> Lo = CC.lowerBound(Prefix, *Up);
  std::optional<Rational> NegHi = CC.lowerBound(Prefix, *Down);
  if (!Lo || !NegHi)
    return false;
  // Width = hi - lo = -(NegHi) - Lo < |Step|.
  std::optional<Rational> Width = NegHi->neg().sub(*Lo);
  int64_t Step = D.Step > 0 ? D.Step : -D.Step;
  return Width && *Width < Rational(Step);
}

const char *const AssumeRuns =
    "footprint formulas assume every loop that does not index an array "
    "runs at least once (where an 'if' narrowed a loop, that it holds on "
    "at least one iteration)";

//===----------------------------------------------------------------------===//
// Method 1: projection onto the indexing loops
//===----------------------------------------------------------------------===//

/// Returns false when not applicable; otherwise \p Fp is the footprint
/// (with V missing when it must be enumerated).
bool projection(const ArrayInfo &AI, const std::vector<StmtSite> &Stmts,
                ChainCounter &CC, Cnt &Fp, bool &Assumed) {
  const auto &T0 = AI.Uses.front().A->Subscripts;
  LoopSet Kept0;
  for (size_t U = 0; U < AI.Uses.size(); ++U) {
    const Use &Us = AI.Uses[U];
    if (Us.A != AI.Uses.front().A && Us.A->Subscripts != T0)
      return false;
    const Chain &C = Stmts[Us.StmtIdx].Loops;
    LoopSet K;
    for (const auto &Sub : Us.A->Subscripts) {
      std::optional<SubInfo> S = splitSubscript(*Sub, C);
      if (!S)
        return false;
      if (S->L && contains(K, S->L))
        return false;
      K.push_back(S->L);
    }
    if (U == 0)
      Kept0 = K;
    else if (K != Kept0)
      return false; // same names, different loops (siblings)
  }
  LoopSet Kept;
  for (const Loop *L : Kept0)
    if (L && !contains(Kept, L))
      Kept.push_back(L);
  const Chain &C0 = Stmts[AI.Uses.front().StmtIdx].Loops;
  // A kept loop's bounds may use a loop the subscripts do not: fine when
  // the kept IV determines that one (tiles: i in [ii, ii + 31], ii stepping
  // by 32), then the element still identifies the whole tuple. Add such
  // loops until the kept set is closed under bound references.
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (size_t M = 0; M < C0.size(); ++M) {
      const Loop *L = C0[M];
      if (!contains(Kept, L))
        continue;
      for (const Bound *B : {&L->First, &L->Last})
        for (const BoundTerm &T : B->Terms)
          for (const auto &[Name, K] : T.Expr.terms()) {
            const Loop *D = loopOf(C0, Name);
            if (!D || contains(Kept, D))
              continue;
            if (!determines(C0, M, *D, CC))
              return false; // the kept domain is not a projection
            Kept.push_back(D);
            Changed = true;
          }
    }
  }
  Chain KC;
  KC.reserve(Kept.size());
  for (const Loop *L : C0)
    if (contains(Kept, L))
      KC.push_back(L);

  bool Failed = false;
  llvm::SmallVector<size_t, 8> CheckedStmts;
  for (const Use &Us : AI.Uses) {
    if (std::find(CheckedStmts.begin(), CheckedStmts.end(), Us.StmtIdx) !=
        CheckedStmts.end())
      continue;
    CheckedStmts.push_back(Us.StmtIdx);
    RunCheck R = droppedLoopsRun(Stmts[Us.StmtIdx].Loops, Kept, CC);
    Failed |= R == RunCheck::Failed;
    Assumed |= R == RunCheck::Assumed;
  }
  Fp = CC.count(KC);
  if (Failed) {
    Fp.F.reset();
    Fp.WhyF = "the footprint of " + AI.Name +
              " has no closed form at the given sizes (a loop that does "
              "not index it may not run)";
    Fp.V.reset();
    Fp.WhyV.clear();
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Method 2: union of boxes
//===----------------------------------------------------------------------===//

struct Box {
  llvm::SmallVector<Polynomial, 4> LoP, EndP; ///< symbolic, [Lo, End)
  llvm::SmallVector<Int128, 4> Lo, Hi;        ///< numeric, inclusive
};

/// SX * X + SY * (Y without the term of \p Skip) + Extra, as a polynomial.
/// The inputs are int64, so each coefficient is exact in 128 bits: what
/// Polynomial arithmetic on the same operands computes, without the steps.
Polynomial linearCombo(const AffineExpr *X, int SX, const AffineExpr &Y,
                       int SY, const std::string *Skip, Int128 Extra) {
  llvm::SmallVector<std::pair<VarName, Rational>, 4> Vars;
  static const AffineTerms None;
  const AffineTerms &XT = X ? X->terms() : None;
  auto XI = XT.begin(), XE = XT.end();
  auto YI = Y.terms().begin(), YE = Y.terms().end();
  while (XI != XE || YI != YE) {
    if (YI != YE && Skip && YI->first == *Skip) {
      ++YI;
      continue;
    }
    const std::string *Name;
    Int128 C = 0;
    if (YI == YE || (XI != XE && XI->first < YI->first)) {
      Name = &XI->first;
      C = static_cast<Int128>(SX) * XI->second;
      ++XI;
    } else if (XI == XE || YI->first < XI->first) {
      Name = &YI->first;
      C = static_cast<Int128>(SY) * YI->second;
      ++YI;
    } else {
      Name = &XI->first;
      C = static_cast<Int128>(SX) * XI->second +
          static_cast<Int128>(SY) * YI->second;
      ++XI;
      ++YI;
    }
    if (C != 0)
      Vars.push_back({internName(*Name), *Rational::make(C, 1)});
  }
  Int128 K = (X ? static_cast<Int128>(SX) * X->constant() : 0) +
             static_cast<Int128>(SY) * Y.constant() + Extra;
  return Polynomial::linear(*Rational::make(K, 1), Vars);
}

/// What orderBreaks needs of a difference of breakpoints besides its sign.
struct DiffInfo {
  bool Constant = false, AllKnown = true;
};

/// Three-way comparison of breakpoints A and B from D = B - A (\p Cmp:
/// -sign of D when constant, else of D at the known sizes when they are
/// all known, else of its size terms when they agree; nullopt when
/// undecidable), without building D: each coefficient is formed as sub()
/// forms it and D is evaluated as evaluate() would. False when sub() would
/// fail.
bool compareBreaks(const Polynomial &A, const Polynomial &B, const Env &Known,
                   std::optional<int> &Cmp, DiffInfo &Info) {
  using MonoRef = llvm::ArrayRef<Polynomial::Factor>;
  llvm::SmallVector<std::pair<MonoRef, Rational>, 8> D;
  size_t I = 0, J = 0, NB = B.numTerms(), NA = A.numTerms();
  auto Less = [](MonoRef X, MonoRef Y) {
    // std::map<std::string, unsigned> order, as Polynomial keeps terms.
    for (size_t K = 0; K < X.size() && K < Y.size(); ++K) {
      if (X[K].Name != Y[K].Name)
        return *X[K].Name < *Y[K].Name;
      if (X[K].Exp != Y[K].Exp)
        return X[K].Exp < Y[K].Exp;
    }
    return X.size() < Y.size();
  };
  while (I < NB || J < NA) {
    if (J == NA || (I < NB && Less(B.mono(I), A.mono(J)))) {
      D.push_back({B.mono(I), B.coef(I)});
      ++I;
    } else if (I == NB || Less(A.mono(J), B.mono(I))) {
      D.push_back({A.mono(J), A.coef(J).neg()});
      ++J;
    } else {
      std::optional<Rational> C = B.coef(I).add(A.coef(J).neg());
      if (!C)
        return false;
      if (!C->isZero())
        D.push_back({B.mono(I), *C});
      ++I;
      ++J;
    }
  }
  Info.Constant = D.empty() || (D.size() == 1 && D.front().first.empty());
  for (const auto &[M, C] : D)
    for (const Polynomial::Factor &F : M)
      Info.AllKnown &= Known.count(*F.Name) != 0;
  if (Info.Constant) {
    Cmp = D.empty() ? 0 : -D.front().second.sign();
    return true;
  }
  if (Info.AllKnown) {
    Rational Sum(0);
    for (const auto &[M, C] : D) {
      std::optional<Rational> T = C;
      for (const Polynomial::Factor &F : M) {
        std::optional<Rational> V = Rational::make(Known.find(*F.Name)->second, 1);
        if (!V)
          return true; // evaluate() fails: undecided
        for (unsigned K = 0; K < F.Exp && T; ++K)
          T = T->mul(*V);
        if (!T)
          return true;
      }
      std::optional<Rational> S = Sum.add(*T);
      if (!S)
        return true;
      Sum = *S;
    }
    Cmp = -Sum.sign();
    return true;
  }
  // Unknown sizes: decided only when every size term pulls the same way,
  // i.e. for large enough sizes (the caller states the condition).
  int Sign = 0;
  for (const auto &[M, C] : D) {
    if (M.empty())
      continue;
    if (Sign != 0 && Sign != C.sign())
      return true;
    Sign = C.sign();
  }
  Cmp = -Sign;
  return true;
}

/// "N - 4 >= 0" and "N - 3 >= 0" -> "N >= 4": one bound per size for
/// conditions c*X + k >= 0; other conditions are kept as they are.
std::vector<std::string>
simplifyConditions(const std::vector<Polynomial> &Conds) {
  std::map<std::string, Int128> Lower, Upper;
  std::vector<std::string> Out;
  for (const Polynomial &P : Conds) {
    const std::string *Var = nullptr;
    Rational C, K = P.constant();
    bool Simple = true;
    for (size_t I = 0, E = P.numTerms(); I < E; ++I) {
      llvm::ArrayRef<Polynomial::Factor> M = P.mono(I);
      if (M.empty())
        continue;
      if (Var || M.size() != 1 || M.front().Exp != 1)
        Simple = false;
      else {
        Var = M.front().Name;
        C = P.coef(I);
      }
    }
    if (!Simple || !Var || !C.isInteger() || !K.isInteger()) {
      Out.push_back(P.str() + " >= 0");
      continue;
    }
    // c*X + k >= 0: X >= ceil(-k/c) for c > 0, X <= floor(k/-c) for c < 0.
    Int128 CV = C.num(), KV = K.num();
    if (CV > 0) {
      Int128 B = -floorDiv(KV, CV); // ceil(-k/c)
      auto [It, New] = Lower.emplace(*Var, B);
      if (!New)
        It->second = std::max(It->second, B);
    } else {
      Int128 B = floorDiv(KV, -CV);
      auto [It, New] = Upper.emplace(*Var, B);
      if (!New)
        It->second = std::min(It->second, B);
    }
  }
  for (const auto &[V, B] : Lower)
    Out.push_back(V + " >= " + int128ToString(B));
  for (const auto &[V, B] : Upper)
    Out.push_back(V + " <= " + int128ToString(B));
  return Out;
}

/// Whether \p A and \p B have the same terms but for their constants.
bool sameNonConstantTerms(const Polynomial &A, const Polynomial &B) {
  // The constant term sorts first; the rest must match one for one.
  size_t I = !A.isZero() && A.mono(0).empty();
  size_t J = !B.isZero() && B.mono(0).empty();
  if (A.numTerms() - I != B.numTerms() - J)
    return false;
  for (; I < A.numTerms(); ++I, ++J)
    if (A.coef(I) != B.coef(J) || A.mono(I) != B.mono(J))
      return false;
  return true;
}

/// The value of \p P at the known sizes when P has integer coefficients,
/// only known names, and sum_terms |c| * prod max(1, |v|)^e < 2^100: then
/// for two such points B - A and every partial result of evaluating it stay
/// below 2^101 in magnitude, so compareBreaks' exact arithmetic cannot
/// overflow and its answer is the sign of the values' difference.
std::optional<Int128> safeValue(const Polynomial &P, const Env &Known) {
  double Mag = 0;
  Int128 Sum = 0;
  for (size_t I = 0, E = P.numTerms(); I < E; ++I) {
    const Rational &C = P.coef(I);
    if (!C.isInteger())
      return std::nullopt;
    double M = static_cast<double>(C.num() < 0 ? -C.num() : C.num());
    Int128 T = C.num();
    for (const Polynomial::Factor &F : P.mono(I)) {
      auto It = Known.find(*F.Name);
      if (It == Known.end())
        return std::nullopt;
      Int128 V = It->second;
      double A = static_cast<double>(V < 0 ? -V : V);
      if (A >= 0x1p100)
        return std::nullopt;
      for (unsigned K = 0; K < F.Exp; ++K) {
        M *= A < 1 ? 1 : A;
        if (M >= 0x1p100 || __builtin_mul_overflow(T, V, &T))
          return std::nullopt;
      }
    }
    Mag += M;
    if (Mag >= 0x1p100 || __builtin_add_overflow(Sum, T, &Sum))
      return std::nullopt;
  }
  return Sum;
}

/// Orders \p Points (deduplicated); false when undecidable. Conditions the
/// order rests on (unknown sizes) are appended to \p Conds. \p Points are
/// boxes' [Lo, End) pairs, Points[2b] and Points[2b + 1]: End - Lo is the
/// trip count of the box's loop (1 for a subscript without an IV), so
/// Lo <= End wherever every trip count is >= 0, the precondition of every
/// formula. That fact decides a box's own pair when the sizes leave it
/// open, instead of the sign of its size terms: "for large M" would put
/// 3 - M before -3 in [-3, 3 - M), an empty box, and the formula would hold
/// only where that loop does not run (was: the footprint of A[i - 1] for
/// i in [-2, 3 - M] counted as 0). \p UsedTrips is set when the order
/// rests on it.
bool orderBreaks(std::vector<Polynomial> &Points, const Env &Known,
                 std::vector<Polynomial> &Conds, bool &ByValues,
                 bool &UsedTrips, llvm::SmallVectorImpl<size_t> &Where) {
  llvm::SmallVector<Polynomial, 8> Unique;
  llvm::SmallVector<std::optional<Int128>, 8> Values;
  llvm::SmallVector<size_t, 16> UniqueOf; ///< per point
  for (Polynomial &P : Points) {
    std::optional<Int128> V = safeValue(P, Known);
    size_t Seen = Unique.size();
    for (size_t I = 0; I < Unique.size() && Seen == Unique.size(); ++I)
      // Different values prove different polynomials.
      if (!(V && Values[I] && *V != *Values[I]) && Unique[I] == P)
        Seen = I;
    UniqueOf.push_back(Seen);
    if (Seen == Unique.size()) {
      Unique.push_back(std::move(P));
      Values.push_back(V);
    }
  }
  // Differences Unique[B] - Unique[A] and the comparisons they decide,
  // each computed once (the sort and its check ask for pairs again).
  size_t N = Unique.size();
  struct Pair {
    bool Done = false;
    bool SubOk = false; ///< Unique[B].sub(Unique[A]) succeeds
    std::optional<int> Cmp;
    bool HasInfo = false;
    DiffInfo Info;
    bool ByTrips = false; ///< Cmp is a box's Lo <= End
  };
  llvm::SmallVector<Pair, 64> Pairs(N * N);
  // LoLeEnd[A * N + B]: some box has Lo Unique[A] and End Unique[B].
  llvm::SmallVector<char, 64> LoLeEnd(N * N, 0);
  for (size_t P = 0; P + 1 < UniqueOf.size(); P += 2)
    LoLeEnd[UniqueOf[P] * N + UniqueOf[P + 1]] = 1;
  auto pair = [&](size_t A, size_t B, bool NeedInfo = false) -> Pair & {
    Pair &P = Pairs[A * N + B];
    if (!P.Done && Values[A] && Values[B]) {
      // No step of B - A or of its evaluation can overflow (safeValue), so
      // the difference's sign is that of the values' difference, and its
      // terms vanish exactly where A's and B's coefficients agree.
      P.Done = true;
      P.SubOk = true;
      P.Cmp = *Values[A] < *Values[B] ? -1 : *Values[A] > *Values[B] ? 1 : 0;
    }
    if (NeedInfo && !P.HasInfo && Values[A] && Values[B]) {
      P.HasInfo = true;
      P.Info.AllKnown = true;
      P.Info.Constant = sameNonConstantTerms(Unique[A], Unique[B]);
    }
    if (!P.Done || (NeedInfo && !P.HasInfo)) {
      P.Done = P.HasInfo = true;
      P.SubOk = compareBreaks(Unique[A], Unique[B], Known, P.Cmp, P.Info);
      // Left to the sizes' signs (or open): a box's own pair is ordered.
      bool AB = LoLeEnd[A * N + B], BA = LoLeEnd[B * N + A];
      if (P.SubOk && !P.Info.Constant && !P.Info.AllKnown && AB != BA) {
        P.Cmp = AB ? -1 : 1;
        P.ByTrips = true;
      }
    }
    return P;
  };
  llvm::SmallVector<size_t, 8> Sorted;
  for (size_t P = 0; P < N; ++P) {
    size_t Pos = Sorted.size();
    for (size_t I = 0; I < Sorted.size(); ++I) {
      std::optional<int> C = pair(P, Sorted[I]).Cmp;
      if (!C)
        return false;
      if (*C < 0) {
        Pos = I;
        break;
      }
    }
    Sorted.insert(Sorted.begin() + Pos, P);
  }
  // The comparisons must agree with the order (no cycles).
  for (size_t I = 0; I < Sorted.size(); ++I)
    for (size_t J = I + 1; J < Sorted.size(); ++J) {
      std::optional<int> C = pair(Sorted[I], Sorted[J]).Cmp;
      if (!C || *C > 0)
        return false;
    }
  for (size_t I = 0; I + 1 < Sorted.size(); ++I) {
    const Pair &P = pair(Sorted[I], Sorted[I + 1], /*NeedInfo=*/true);
    if (!P.SubOk)
      return false;
    if (P.Info.Constant)
      continue;
    if (P.ByTrips) {
      UsedTrips = true;
      continue;
    }
    if (P.Info.AllKnown) {
      ByValues = true;
      continue;
    }
    llvm::Expected<Polynomial> D = Unique[Sorted[I + 1]].sub(Unique[Sorted[I]]);
    if (!D) { // cannot happen: the same subtraction succeeded above
      llvm::consumeError(D.takeError());
      return false;
    }
    if (std::find(Conds.begin(), Conds.end(), *D) == Conds.end())
      Conds.push_back(*D);
  }
  Points.clear();
  llvm::SmallVector<size_t, 8> PosOf(N);
  for (size_t I = 0; I < Sorted.size(); ++I) {
    PosOf[Sorted[I]] = I;
    Points.push_back(std::move(Unique[Sorted[I]]));
  }
  Where.clear();
  for (size_t U : UniqueOf)
    Where.push_back(PosOf[U]);
  return true;
}

using CellIndex = llvm::SmallVector<size_t, 4>;

/// Calls \p F(cell index per dimension) for every cell of a grid, the
/// first dimension fastest.
template <typename Fn>
void forEachCell(llvm::ArrayRef<size_t> Extents, Fn F) {
  CellIndex I(Extents.size(), 0);
  for (size_t E : Extents)
    if (E == 0)
      return;
  while (true) {
    F(I);
    size_t D = 0;
    for (; D < I.size(); ++D) {
      if (++I[D] < Extents[D])
        break;
      I[D] = 0;
    }
    if (D == I.size())
      return;
  }
}

std::optional<Int128> numericUnion(const std::vector<Box> &Boxes,
                                   size_t Dims) {
  llvm::SmallVector<llvm::SmallVector<Int128, 8>, 4> Breaks(Dims);
  llvm::SmallVector<const Box *, 8> Live;
  for (const Box &B : Boxes) {
    bool Empty = false;
    for (size_t D = 0; D < Dims; ++D)
      Empty |= B.Lo[D] > B.Hi[D];
    if (Empty)
      continue;
    Live.push_back(&B);
    for (size_t D = 0; D < Dims; ++D) {
      Breaks[D].push_back(B.Lo[D]);
      Breaks[D].push_back(B.Hi[D] + 1);
    }
  }
  if (Live.empty())
    return 0;
  llvm::SmallVector<size_t, 4> Extents;
  Int128 Cells = 1;
  for (auto &Bs : Breaks) {
    std::sort(Bs.begin(), Bs.end());
    Bs.erase(std::unique(Bs.begin(), Bs.end()), Bs.end());
    Extents.push_back(Bs.size() - 1);
    Cells *= Bs.size() - 1;
    if (Cells > 1000000)
      return std::nullopt;
  }
  auto Index = [&](size_t D, Int128 V) {
    return static_cast<size_t>(
        std::lower_bound(Breaks[D].begin(), Breaks[D].end(), V) -
        Breaks[D].begin());
  };
  // Each box's cell range per dimension, [first, end).
  llvm::SmallVector<std::pair<size_t, size_t>, 16> Ranges;
  for (const Box *B : Live)
    for (size_t D = 0; D < Dims; ++D)
      Ranges.push_back({Index(D, B->Lo[D]), Index(D, B->Hi[D] + 1)});
  Int128 Total = 0;
  bool Overflow = false;
  forEachCell(Extents, [&](const CellIndex &I) {
    bool Covered = false;
    for (size_t B = 0; B < Live.size(); ++B) {
      bool In = true;
      for (size_t D = 0; D < Dims && In; ++D)
        In = Ranges[B * Dims + D].first <= I[D] &&
             I[D] < Ranges[B * Dims + D].second;
      if (In) {
        Covered = true;
        break;
      }
    }
    if (!Covered)
      return;
    Int128 V = 1;
    for (size_t D = 0; D < Dims; ++D)
      Overflow |= __builtin_mul_overflow(
          V, Breaks[D][I[D] + 1] - Breaks[D][I[D]], &V);
    Overflow |= __builtin_add_overflow(Total, V, &Total);
  });
  if (Overflow)
    return std::nullopt;
  return Total;
}

using WidthTable =
    llvm::SmallVector<llvm::SmallVector<std::optional<Polynomial>, 8>, 4>;

/// A linear form in a few variables: constant, then one coefficient each.
using Lin = llvm::SmallVector<Int128, 5>;
using Vec = llvm::SmallVector<Int128, 32>; ///< dense polynomial coefficients

/// sum over covered cells of prod_D W_D, with the first dimension
/// innermost: Out = sum_c W_Lv[c] * (the sum over the dimensions below).
template <typename CoveredFn> struct DenseCellSum {
  llvm::ArrayRef<size_t> Extents;
  const llvm::SmallVector<llvm::SmallVector<Lin, 8>, 4> &W;
  llvm::ArrayRef<size_t> Stride; ///< per variable, in the dense index
  size_t Size;
  CoveredFn &Covered;
  CellIndex I;
  bool Ok = true;

  /// Out += L * In (In = nullptr: the constant 1).
  void addScaled(Vec &Out, const Lin &L, const Vec *In) {
    for (size_t E = 0; E < (In ? Size : 1) && Ok; ++E) {
      Int128 X = In ? (*In)[E] : 1;
      if (X == 0)
        continue;
      for (size_t S = 0; S < L.size() && Ok; ++S) {
        if (L[S] == 0)
          continue;
        Int128 P;
        size_t At = E + (S ? Stride[S - 1] : 0);
        Ok = !__builtin_mul_overflow(L[S], X, &P) &&
             !__builtin_add_overflow(Out[At], P, &Out[At]);
      }
    }
  }

  /// False when no covered cell lies below.
  bool sum(size_t Lv, Vec &Out) {
    Out.assign(Size, 0);
    bool Any = false;
    Vec Inner;
    for (size_t C = 0; C < Extents[Lv] && Ok; ++C) {
      I[Lv] = C;
      if (Lv == 0) {
        if (!Covered(I))
          continue;
        addScaled(Out, W[0][C], nullptr);
      } else {
        if (!sum(Lv - 1, Inner))
          continue;
        addScaled(Out, W[Lv][C], &Inner);
      }
      Any = true;
    }
    return Any;
  }
};

/// The sum over covered cells of the product of their widths (consecutive
/// breakpoint differences), computed densely when every breakpoint is
/// linear with integer coefficients in at most 4 variables and
/// sum_cells prod_D (|B_D[c]|_1 + |B_D[c+1]|_1) < 2^100: that bounds every
/// coefficient of every width, partial product and partial sum (|PQ|_1 <=
/// |P|_1 |Q|_1), so none of the exact operations of the cell-by-cell sum
/// overflows and its polynomial is this one. nullopt when not applicable.
template <typename CoveredFn>
std::optional<Polynomial>
denseCellSum(const std::vector<std::vector<Polynomial>> &Breaks,
             llvm::ArrayRef<size_t> Extents, CoveredFn Covered) {
  size_t Dims = Extents.size();
  if (Dims == 0 || Dims > 4)
    return std::nullopt;
  llvm::SmallVector<VarName, 4> Vars;
  for (const auto &Row : Breaks)
    for (const Polynomial &B : Row)
      for (size_t T = 0, E = B.numTerms(); T < E; ++T) {
        llvm::ArrayRef<Polynomial::Factor> M = B.mono(T);
        if (!B.coef(T).isInteger() || M.size() > 1 ||
            (M.size() == 1 && M[0].Exp != 1))
          return std::nullopt;
        if (M.size() == 1 &&
            std::find(Vars.begin(), Vars.end(), M[0].Name) == Vars.end())
          Vars.push_back(M[0].Name);
      }
  if (Vars.size() > 4)
    return std::nullopt;
  std::sort(Vars.begin(), Vars.end(),
            [](VarName A, VarName B) { return *A < *B; });
  size_t K = Vars.size(), Radix = Dims + 1, Size = 1;
  llvm::SmallVector<size_t, 4> Stride;
  for (size_t V = 0; V < K; ++V) {
    Stride.push_back(Size);
    Size *= Radix;
  }
  // Breakpoints as linear forms and their norms, then the widths.
  llvm::SmallVector<llvm::SmallVector<Lin, 8>, 4> LB(Dims), LW(Dims);
  llvm::SmallVector<llvm::SmallVector<double, 8>, 4> Norm(Dims);
  for (size_t D = 0; D < Dims; ++D)
    for (const Polynomial &B : Breaks[D]) {
      Lin L(K + 1, 0);
      double N = 0;
      for (size_t T = 0, E = B.numTerms(); T < E; ++T) {
        llvm::ArrayRef<Polynomial::Factor> M = B.mono(T);
        size_t Slot =
            M.empty() ? 0
                      : 1 + (std::find(Vars.begin(), Vars.end(), M[0].Name) -
                             Vars.begin());
        L[Slot] = B.coef(T).num();
        N += static_cast<double>(L[Slot] < 0 ? -L[Slot] : L[Slot]);
      }
      LB[D].push_back(std::move(L));
      Norm[D].push_back(N);
    }
  double Bound = 0;
  forEachCell(Extents, [&](const CellIndex &I) {
    if (!Covered(I))
      return;
    double P = 1;
    for (size_t D = 0; D < Dims; ++D)
      P *= Norm[D][I[D]] + Norm[D][I[D] + 1];
    Bound += P;
  });
  if (!(Bound < 0x1p100))
    return std::nullopt;
  for (size_t D = 0; D < Dims; ++D)
    for (size_t C = 0; C < Extents[D]; ++C) {
      Lin L(K + 1, 0);
      for (size_t S = 0; S <= K; ++S)
        L[S] = LB[D][C + 1][S] - LB[D][C][S]; // below 2^101: exact
      LW[D].push_back(std::move(L));
    }

  DenseCellSum<CoveredFn> Sum{Extents, LW, Stride, Size, Covered,
                              CellIndex(Dims, 0)};
  Vec Total;
  bool Any = Sum.sum(Dims - 1, Total);
  if (!Sum.Ok)
    return std::nullopt; // cannot happen under the bound; stay exact anyway
  if (!Any)
    return Polynomial();
  llvm::SmallVector<llvm::SmallVector<Polynomial::Factor, 4>, 16> Monos;
  llvm::SmallVector<std::pair<llvm::ArrayRef<Polynomial::Factor>, Rational>,
                    16>
      Terms;
  for (size_t E = 0; E < Size; ++E) {
    if (Total[E] == 0)
      continue;
    llvm::SmallVector<Polynomial::Factor, 4> M;
    for (size_t V = 0; V < K; ++V)
      if (unsigned Exp = static_cast<unsigned>((E / Stride[V]) % Radix))
        M.push_back({Vars[V], Exp});
    Monos.push_back(std::move(M));
  }
  size_t Next = 0;
  for (size_t E = 0; E < Size; ++E)
    if (Total[E] != 0)
      Terms.push_back({Monos[Next++], *Rational::make(Total[E], 1)});
  return Polynomial::fromTerms(Terms);
}

/// The sum over covered cells of the product of their widths, cell by
/// cell; false on overflow. The widths a covered cell uses are the ones
/// computed (a failing one is an overflow whichever cell meets it first).
template <typename CoveredFn>
bool cellByCell(const std::vector<std::vector<Polynomial>> &Breaks,
                llvm::ArrayRef<size_t> Extents, CoveredFn Covered,
                Polynomial &Total) {
  size_t Dims = Extents.size();
  WidthTable Widths(Dims);
  for (size_t D = 0; D < Dims; ++D)
    Widths[D].resize(Extents[D]);
  bool Overflow = false;
  forEachCell(Extents, [&](const CellIndex &I) {
    if (Overflow || !Covered(I))
      return;
    for (size_t D = 0; D < Dims && !Overflow; ++D) {
      std::optional<Polynomial> &W = Widths[D][I[D]];
      if (W)
        continue;
      llvm::Expected<Polynomial> Wd = Breaks[D][I[D] + 1].sub(Breaks[D][I[D]]);
      if (!Wd) { // past 128 bits: Overflow refuses the union
        llvm::consumeError(Wd.takeError());
        Overflow = true;
        return;
      }
      W = std::move(*Wd);
    }
  });
  if (!Overflow)
    forEachCell(Extents, [&](const CellIndex &I) {
      if (Overflow || !Covered(I))
        return;
      // The product of the widths, then the running sum, in cell order.
      Polynomial V = *Widths[0][I[0]]; // 1 * W is W exactly
      for (size_t D = 1; D < Dims; ++D) {
        llvm::Expected<Polynomial> P = V.mul(*Widths[D][I[D]]);
        if (!P) { // past 128 bits: Overflow refuses the union
          llvm::consumeError(P.takeError());
          Overflow = true;
          return;
        }
        V = std::move(*P);
      }
      if (llvm::Error E = Total.addScaledInPlace(V, Rational(1))) {
        llvm::consumeError(std::move(E)); // as above: Overflow refuses
        Overflow = true;
      }
    });
  return !Overflow;
}

std::optional<Polynomial> symbolicUnion(const std::string &Name,
                                        const std::vector<Box> &Boxes,
                                        size_t Dims, const Env &Known,
                                        std::vector<std::string> &Notes,
                                        std::vector<Polynomial> &Conditions,
                                        std::string &Why) {
  std::vector<std::vector<Polynomial>> Breaks(Dims);
  std::vector<Polynomial> Conds;
  bool ByValues = false, UsedTrips = false;
  for (size_t D = 0; D < Dims; ++D)
    Breaks[D].reserve(2 * Boxes.size());
  for (const Box &B : Boxes)
    for (size_t D = 0; D < Dims; ++D) {
      // End = Hi + 1, formed with the box (it cannot fail).
      Breaks[D].push_back(B.LoP[D]);
      Breaks[D].push_back(B.EndP[D]);
    }
  std::vector<size_t> Extents;
  size_t Cells = 1;
  // Where each box's Lo and End landed among the ordered breaks: its cell
  // range per dimension, [first, end).
  llvm::SmallVector<llvm::SmallVector<size_t, 16>, 4> Where(Dims);
  for (size_t D = 0; D < Dims; ++D) {
    if (!orderBreaks(Breaks[D], Known, Conds, ByValues, UsedTrips,
                     Where[D])) {
      Why = "the footprint of " + Name +
            " has no single closed form (the order of its bounds depends "
            "on the sizes)";
      return std::nullopt;
    }
    Extents.push_back(Breaks[D].size() - 1);
    Cells *= Breaks[D].size() - 1;
    if (Cells > 4096) {
      Why = "the footprint of " + Name + " has too many pieces for a formula";
      return std::nullopt;
    }
  }
  // Which cells some box covers, decided once per cell.
  std::vector<char> CoveredCell(Cells, 0);
  llvm::SmallVector<size_t, 4> CellStride;
  for (size_t D = 0, S = 1; D < Dims; S *= Extents[D++])
    CellStride.push_back(S);
  auto CellOf = [&](const CellIndex &I) {
    size_t C = 0;
    for (size_t D = 0; D < Dims; ++D)
      C += I[D] * CellStride[D];
    return C;
  };
  forEachCell(Extents, [&](const CellIndex &I) {
    for (size_t B = 0; B < Boxes.size(); ++B) {
      bool In = true;
      for (size_t D = 0; D < Dims && In; ++D)
        In = Where[D][2 * B] <= I[D] && I[D] < Where[D][2 * B + 1];
      if (In) {
        CoveredCell[CellOf(I)] = 1;
        return;
      }
    }
  });
  auto Covered = [&](const CellIndex &I) {
    return CoveredCell[CellOf(I)] != 0;
  };
  // The total is the sum over covered cells of the product of their
  // widths.
  Polynomial Total;
  bool Overflow = false;
  if (std::optional<Polynomial> Dense =
          denseCellSum(Breaks, Extents, Covered))
    Total = std::move(*Dense);
  else
    Overflow = !cellByCell(Breaks, Extents, Covered, Total);
  if (Overflow) {
    Why = "symbolic formula exceeds 128-bit range";
    return std::nullopt;
  }
  if (!Conds.empty()) {
    std::string Text;
    for (const std::string &C : simplifyConditions(Conds))
      Text += (Text.empty() ? "" : ", ") + C;
    Notes.push_back("the footprint formula of " + Name + " assumes " + Text);
    // The same conditions as values, for callers that check the formula
    // where it is claimed to hold (fuzz/FuzzCounts.cpp).
    for (Polynomial &C : Conds)
      if (std::find(Conditions.begin(), Conditions.end(), C) ==
          Conditions.end())
        Conditions.push_back(std::move(C));
  }
  if (ByValues)
    Notes.push_back("the footprint formula of " + Name +
                    " assumes its bounds keep the order they have at the "
                    "given sizes");
  if (UsedTrips)
    Notes.push_back("the footprint formula of " + Name +
                    " assumes every loop runs at least once");
  return Total;
}


/// Whether every element an array's uses touch is first touched by its
/// first use, a plain write (C[i][j] = 0 before C[i][j] += ... in a later
/// statement), given that the other boxes lie within the first's. Then no
/// element is read before it is written. Sufficient: each later use is in a
/// later statement, and every loop it shares with the first use that the
/// first use indexes by is indexed the same way (same subscript, same
/// dimension), so both touch an element in the same iteration of the
/// shared loops, where the first statement runs first; shared loops the
/// first use does not index run it over its whole box each time.
bool firstWriteDominates(const ArrayInfo &AI,
                         const std::vector<StmtSite> &Stmts) {
  const Use &First = AI.Uses.front();
  if (First.A->IsRead || !First.A->IsWrite)
    return false;
  const Chain &FC = Stmts[First.StmtIdx].Loops;
  const auto &FS = First.A->Subscripts;
  for (size_t U = 1; U < AI.Uses.size(); ++U) {
    const Use &Us = AI.Uses[U];
    if (Us.StmtIdx <= First.StmtIdx)
      return false;
    const Chain &C = Stmts[Us.StmtIdx].Loops;
    for (size_t M = 0; M < FC.size() && M < C.size() && FC[M] == C[M]; ++M)
      for (size_t D = 0; D < FS.size(); ++D)
        if (FS[D]->terms().count(FC[M]->IV) &&
            !(*FS[D] == *Us.A->Subscripts[D]))
          return false;
  }
  return true;
}

/// Whether the numeric box \p In lies within \p Out.
bool numericWithin(const Box &In, const Box &Out) {
  for (size_t D = 0; D < In.Lo.size(); ++D)
    if (In.Lo[D] < Out.Lo[D] || In.Hi[D] > Out.Hi[D])
      return false;
  return true;
}

/// Returns false when not applicable (or when a dropped loop may not run:
/// then only enumeration is exact).
bool boxUnion(const ArrayInfo &AI, const std::vector<StmtSite> &Stmts,
              ChainCounter &CC, Cnt &Fp, bool &Assumed,
              std::vector<std::string> &Notes,
              std::vector<Polynomial> &Conditions) {
  // Read and written: only when the first use writes all of it first.
  bool Mixed = AI.HasRead && AI.HasWrite;
  if (Mixed && !firstWriteDominates(AI, Stmts))
    return false;
  const Env &Known = CC.known();
  size_t Dims = AI.Uses.front().A->Subscripts.size();
  std::vector<Box> Boxes;
  Boxes.reserve(AI.Uses.size());
  bool SymOk = true, NumOk = true;
  // Loop bounds at the known sizes, evaluated once per loop.
  struct LoopValues {
    const Loop *L;
    std::optional<Int128> A, Z;
  };
  llvm::SmallVector<LoopValues, 4> Values;
  for (const Use &Us : AI.Uses) {
    const Chain &C = Stmts[Us.StmtIdx].Loops;
    if (Us.A->Subscripts.size() != Dims)
      return false;
    Box B;
    LoopSet Kept;
    for (const auto &Sub : Us.A->Subscripts) {
      std::optional<SubInfo> S = splitSubscript(*Sub, C);
      if (!S)
        return false;
      // Rest = the subscript without its IV term. Its polynomial, and the
      // sums and differences below, have int64 operands: they never fail.
      std::optional<Int128> RestV = restValue(*S, Known);
      if (!S->L) {
        NumOk &= RestV.has_value();
        B.LoP.push_back(linearCombo(nullptr, 0, *S->E, 1, nullptr, 0));
        B.EndP.push_back(linearCombo(nullptr, 0, *S->E, 1, nullptr, 1));
        B.Lo.push_back(RestV.value_or(0));
        B.Hi.push_back(RestV.value_or(0));
        continue;
      }
      const Loop &L = *S->L;
      if ((S->Coef != 1 && S->Coef != -1) || (L.Step != 1 && L.Step != -1) ||
          contains(Kept, &L))
        return false;
      Kept.push_back(&L);
      if (boundUsesChainIV(L.First, C) || boundUsesChainIV(L.Last, C))
        return false;
      const Bound &A = L.Step > 0 ? L.First : L.Last; // smallest IV value
      const Bound &Z = L.Step > 0 ? L.Last : L.First; // largest
      // Symbolic: [Lo, End) = [A + Rest, Z + Rest + 1) for +iv, [Rest - Z,
      // Rest - A + 1) for -iv.
      bool ThisSym = A.isAffine() && Z.isAffine();
      SymOk &= ThisSym;
      const std::string *IV = &L.IV;
      if (!ThisSym) {
        B.LoP.emplace_back();
        B.EndP.emplace_back();
      } else if (S->Coef == 1) {
        B.LoP.push_back(linearCombo(&A.affine(), 1, *S->E, 1, IV, 0));
        B.EndP.push_back(linearCombo(&Z.affine(), 1, *S->E, 1, IV, 1));
      } else {
        B.LoP.push_back(linearCombo(&Z.affine(), -1, *S->E, 1, IV, 0));
        B.EndP.push_back(linearCombo(&A.affine(), -1, *S->E, 1, IV, 1));
      }
      // Numeric.
      auto LV = std::find_if(Values.begin(), Values.end(),
                             [&](const LoopValues &V) { return V.L == &L; });
      if (LV == Values.end()) {
        Values.push_back({&L, evalBound(A, Known), evalBound(Z, Known)});
        LV = Values.end() - 1;
      }
      const std::optional<Int128> &AV = LV->A, &ZV = LV->Z;
      Int128 Lo = 0, Hi = 0;
      bool ThisNum = AV && ZV && RestV;
      if (ThisNum)
        ThisNum = S->Coef == 1
                      ? !__builtin_add_overflow(*AV, *RestV, &Lo) &&
                            !__builtin_add_overflow(*ZV, *RestV, &Hi)
                      : !__builtin_sub_overflow(*RestV, *ZV, &Lo) &&
                            !__builtin_sub_overflow(*RestV, *AV, &Hi);
      NumOk &= ThisNum;
      B.Lo.push_back(Lo);
      B.Hi.push_back(Hi);
    }
    // Per use, not per statement: two uses in one statement keep different
    // loops (C[i + 2] and C[1]), and a loop the first keeps may still not
    // run for the second (was: C[1] counted in a nest that never runs).
    RunCheck R = droppedLoopsRun(C, Kept, CC);
    if (R == RunCheck::Failed)
      return false;
    Assumed |= R == RunCheck::Assumed;
    Boxes.push_back(std::move(B));
  }
  bool BoundsAffine = SymOk;
  if (Mixed) {
    // The first (written) box must hold the others, at these sizes for the
    // number and for all sizes (the same bounds) for the formula.
    for (const Box &B : llvm::ArrayRef<Box>(Boxes).drop_front()) {
      if (NumOk && !numericWithin(B, Boxes.front()))
        return false;
      SymOk &= B.LoP == Boxes.front().LoP && B.EndP == Boxes.front().EndP;
    }
    if (!NumOk && !SymOk)
      return false;
  }
  Fp = Cnt();
  if (NumOk) {
    Fp.V = numericUnion(Boxes, Dims);
    if (!Fp.V)
      Fp.WhyV = "the footprint of " + AI.Name + " has too many pieces";
  } else {
    Fp.WhyV = "the footprint of " + AI.Name + " uses sizes without values";
  }
  if (SymOk) {
    std::string Why;
    Fp.F = symbolicUnion(AI.Name, Boxes, Dims, Known, Notes, Conditions, Why);
    Fp.WhyF = std::move(Why);
  }
  else if (BoundsAffine)
    Fp.WhyF = "the footprint of " + AI.Name +
              " has no closed form: the box first written may not hold "
              "every later use at all sizes";
  else
    Fp.WhyF = "the footprint of " + AI.Name +
              " has no closed form (a non-affine loop bound)";
  return true;
}

//===----------------------------------------------------------------------===//
// Method 3: enumeration
//===----------------------------------------------------------------------===//

struct U128Hash {
  size_t operator()(UInt128 V) const {
    uint64_t Lo = static_cast<uint64_t>(V), Hi = static_cast<uint64_t>(V >> 64);
    return std::hash<uint64_t>()(Lo ^ (Hi * 0x9E3779B97F4A7C15ull));
  }
};

class Enumerator {
public:
  struct ArrayState {
    std::string Name;
    size_t Dims = 0;
    std::vector<Int128> Lo, Hi, Stride;
    bool Any = false, Dense = false, Failed = false;
    std::vector<uint64_t> SeenBits, WrittenBits;
    std::unordered_map<UInt128, uint8_t, U128Hash> Map;
    Int128 Read = 0, Written = 0;
  };

  /// \p Budget: loop iterations each pass may visit.
  Enumerator(const Loop &Root, const std::vector<std::string> &Names,
             const Env &Known, Int128 Budget)
      : Known(Known), Budget(Budget) {
    for (const std::string &N : Names) {
      Index[N] = Arrays.size();
      Arrays.push_back(ArrayState());
      Arrays.back().Name = N;
    }
    std::map<std::string, unsigned> Scope;
    Ok = compileLoop(Root, Scope);
  }

  /// False when a bound or subscript could not be compiled or evaluated,
  /// or a pass needs more than the budget (then overBudget()).
  bool run() {
    if (!Ok)
      return false;
    Vals.assign(NumSlots, 0);
    Pass = 0;
    Visits = 0;
    if (!visit(0))
      return false;
    for (ArrayState &A : Arrays) {
      if (!A.Any)
        continue;
      Int128 Size = 1;
      A.Stride.assign(A.Dims, 0);
      for (size_t D = A.Dims; D-- > 0;) {
        A.Stride[D] = Size;
        if (__builtin_mul_overflow(Size, A.Hi[D] - A.Lo[D] + 1, &Size) ||
            Size > (static_cast<Int128>(1) << 100)) {
          A.Failed = true;
          break;
        }
      }
      if (A.Failed)
        continue;
      // Dense bitmaps up to 2^27 elements (16 MiB each), else hashing.
      A.Dense = Size <= (static_cast<Int128>(1) << 27);
      if (A.Dense) {
        size_t Words = static_cast<size_t>((Size + 63) / 64);
        A.SeenBits.assign(Words, 0);
        A.WrittenBits.assign(Words, 0);
      }
    }
    Pass = 1;
    Visits = 0;
    Vals.assign(NumSlots, 0);
    return visit(0);
  }

  bool overBudget() const { return Visits > Budget; }

  std::vector<ArrayState> Arrays;

private:
  struct EAccess {
    size_t Arr;
    std::vector<CAff> Subs;
  };
  struct EStmt {
    std::vector<EAccess> Reads, Writes;
  };
  struct ENode {
    bool IsLoop;
    size_t Idx;
  };
  struct ELoop {
    unsigned Slot;
    CBnd F, L;
    int64_t Step;
    std::vector<ENode> Body;
    /// Nothing inside uses the IV (no subscript of the arrays counted, no
    /// bound): every iteration repeats the first one's accesses, in the
    /// same order, so only the first can touch an element first.
    bool Once = false;
    /// No access of the arrays counted inside: nothing to visit.
    bool Empty = false;
  };

  const Env &Known;
  std::map<std::string, size_t> Index;
  std::vector<ELoop> Loops;
  std::vector<EStmt> Stmts;
  std::vector<Int128> Vals, Key;
  unsigned NumSlots = 0;
  int Pass = 0;
  bool Ok = false;
  Int128 Budget, Visits = 0;
  std::vector<char> SlotUsed; ///< by a subscript or bound compiled so far
  size_t NumAccesses = 0;

  void markUsed(const CAff &A) {
    for (const auto &[Slot, K] : A.T)
      if (K != 0)
        SlotUsed[Slot] = 1;
  }
  void markUsed(const CBnd &B) {
    for (const auto &T : B.Terms)
      markUsed(T.first);
  }

  bool compileLoop(const Loop &L, std::map<std::string, unsigned> &Scope) {
    size_t Me = Loops.size();
    Loops.push_back(ELoop());
    ELoop E;
    E.Slot = NumSlots++;
    SlotUsed.push_back(0);
    size_t AccessesBefore = NumAccesses;
    E.Step = L.Step;
    if (!compileBound(L.First, Scope, Known, E.F) ||
        !compileBound(L.Last, Scope, Known, E.L))
      return false;
    markUsed(E.F);
    markUsed(E.L);
    auto Saved = Scope.find(L.IV) == Scope.end()
                     ? std::optional<unsigned>()
                     : std::optional<unsigned>(Scope[L.IV]);
    Scope[L.IV] = E.Slot;
    for (const Node &N : L.Body) {
      if (N.isLoop()) {
        E.Body.push_back({true, Loops.size()});
        if (!compileLoop(N.loop(), Scope))
          return false;
        continue;
      }
      EStmt S;
      for (const Access &A : N.S.Accesses) {
        auto It = Index.find(A.ArrayName);
        if (It == Index.end())
          continue;
        EAccess EA{It->second, {}};
        for (const auto &Sub : A.Subscripts) {
          CAff C;
          if (!Sub || !compileAffine(*Sub, Scope, Known, C))
            return false;
          markUsed(C);
          EA.Subs.push_back(std::move(C));
        }
        ++NumAccesses;
        if (A.IsRead)
          S.Reads.push_back(EA);
        if (A.IsWrite)
          S.Writes.push_back(EA);
      }
      E.Body.push_back({false, Stmts.size()});
      Stmts.push_back(std::move(S));
    }
    if (Saved)
      Scope[L.IV] = *Saved;
    else
      Scope.erase(L.IV);
    E.Once = !SlotUsed[E.Slot];
    E.Empty = NumAccesses == AccessesBefore;
    Loops[Me] = std::move(E);
    return true;
  }

  bool touch(const EAccess &A, bool Write) {
    ArrayState &S = Arrays[A.Arr];
    Key.resize(A.Subs.size());
    for (size_t D = 0; D < A.Subs.size(); ++D)
      if (!A.Subs[D].eval(Vals.data(), Key[D]))
        return false;
    if (S.Any && Key.size() != S.Dims) {
      S.Failed = true; // accesses disagree on the number of subscripts
      return true;
    }
    if (Pass == 0) {
      if (!S.Any) {
        S.Any = true;
        S.Dims = Key.size();
        S.Lo = Key;
        S.Hi = Key;
      }
      for (size_t D = 0; D < Key.size(); ++D) {
        S.Lo[D] = std::min(S.Lo[D], Key[D]);
        S.Hi[D] = std::max(S.Hi[D], Key[D]);
      }
      return true;
    }
    if (S.Failed)
      return true;
    UInt128 I = 0;
    for (size_t D = 0; D < Key.size(); ++D)
      I += static_cast<UInt128>(Key[D] - S.Lo[D]) *
           static_cast<UInt128>(S.Stride[D]);
    bool Seen, WasWritten;
    if (S.Dense) {
      size_t W = static_cast<size_t>(I / 64);
      uint64_t Bit = 1ull << static_cast<unsigned>(I % 64);
      Seen = S.SeenBits[W] & Bit;
      WasWritten = S.WrittenBits[W] & Bit;
      S.SeenBits[W] |= Bit;
      if (Write)
        S.WrittenBits[W] |= Bit;
    } else {
      auto [It, New] = S.Map.emplace(I, 0);
      Seen = !New;
      WasWritten = It->second;
      if (Write)
        It->second = 1;
    }
    if (!Seen && !Write)
      ++S.Read;
    if (Write && !WasWritten)
      ++S.Written;
    return true;
  }

  bool visit(size_t LoopIdx) {
    const ELoop &L = Loops[LoopIdx];
    if (L.Empty)
      return true;
    Int128 F, La;
    if (!L.F.eval(Vals.data(), F) || !L.L.eval(Vals.data(), La))
      return false;
    for (Int128 V = F; L.Step > 0 ? V <= La : V >= La; V += L.Step) {
      if (++Visits > Budget)
        return false;
      Vals[L.Slot] = V;
      for (const ENode &N : L.Body) {
        if (N.IsLoop) {
          if (!visit(N.Idx))
            return false;
          continue;
        }
        const EStmt &S = Stmts[N.Idx];
        for (const EAccess &A : S.Reads)
          if (!touch(A, false))
            return false;
        for (const EAccess &A : S.Writes)
          if (!touch(A, true))
            return false;
      }
      if (L.Once)
        break;
    }
    return true;
  }
};

/// The accesses of each array of \p Arrays among \p Stmts.
std::vector<ArrayInfo> arrayInfos(const std::vector<std::string> &Arrays,
                                  const std::vector<StmtSite> &Stmts) {
  std::vector<ArrayInfo> Infos(Arrays.size());
  llvm::SmallDenseMap<VarName, unsigned, 16> Index;
  for (unsigned I = 0; I < Arrays.size(); ++I) {
    Infos[I].Name = Arrays[I];
    Index.try_emplace(internName(Arrays[I]), I);
  }
  for (size_t I = 0; I < Stmts.size(); ++I)
    for (const Access &A : Stmts[I].S->Accesses) {
      auto It = Index.find(internName(A.ArrayName));
      if (It == Index.end())
        continue;
      ArrayInfo &AI = Infos[It->second];
      if (AI.Uses.empty() || AI.Uses.front().StmtIdx == I)
        AI.FirstReads |= A.IsRead;
      AI.Uses.push_back({I, &A});
      AI.HasRead |= A.IsRead;
      AI.HasWrite |= A.IsWrite;
      for (const auto &S : A.Subscripts)
        if (!S && AI.NonAffine.empty())
          AI.NonAffine = A.Text.empty() ? A.ArrayName + "[...]" : A.Text;
    }
  return Infos;
}

/// The footprints of a nest's arrays: closed forms first, then exact counts
/// at these sizes for the arrays that have no value yet.
class NestFootprints {
public:
  NestFootprints(const std::vector<std::string> &Arrays,
                 const std::vector<StmtSite> &Stmts, ChainCounter &CC,
                 const FootprintOptions &Opts)
      : Arrays(Arrays), Stmts(Stmts), CC(CC), Opts(Opts),
        Infos(arrayInfos(Arrays, Stmts)), ByName(Arrays.size()),
        Out(Arrays.size()), Fps(Arrays.size()), Enumerated(Arrays.size()),
        ImageWhy(Arrays.size()), EnumWhy(Arrays.size()) {
    // Arrays are handled in name order, which the notes follow.
    for (unsigned I = 0; I < Arrays.size(); ++I)
      ByName[I] = I;
    std::sort(ByName.begin(), ByName.end(),
              [&](unsigned A, unsigned B) { return Arrays[A] < Arrays[B]; });
  }

  /// Closed forms by projection or box union; true where one of them rests
  /// on loops running (the AssumeRuns note).
  bool closedForms(std::vector<std::string> &Notes,
                   std::vector<Polynomial> &Conditions) {
    bool Assumed = false;
    for (unsigned Idx : ByName) {
      ArrayInfo &AI = Infos[Idx];
      const std::string &Name = AI.Name;
      FootprintResult &R = Out[Idx];
      if (AI.Uses.empty()) {
        R.Read = R.Written = Cnt::exactly(0);
        continue;
      }
      if (!AI.NonAffine.empty()) {
        Reason Why = "the footprint of " + Name + " is unknown: subscript '" +
                     AI.NonAffine + "' is not affine";
        R.Read.WhyF = R.Read.WhyV = R.Written.WhyF = R.Written.WhyV = Why;
        continue;
      }
      Pending P;
      bool ThisAssumed = false;
      bool Projected = projection(AI, Stmts, CC, P.Fp, ThisAssumed);
      P.Structured = Projected || boxUnion(AI, Stmts, CC, P.Fp, ThisAssumed,
                                           Notes, Conditions);
      ROOFLINE_DEBUG(llvm::dbgs()
                     << "footprint: " << Name << ": "
                     << (Projected      ? "projection"
                         : P.Structured ? "union of boxes"
                                        : "no closed form")
                     << (P.Fp.F ? ", formula" : ", no formula")
                     << (P.Fp.V ? ", value" : ", no value")
                     << (ThisAssumed ? ", assumes loops run" : "") << "\n");
      if (!P.Structured) {
        P.Fp = Cnt();
        P.Fp.WhyF = "no closed form for the footprint of " + Name;
      }
      if (P.Fp.F && ThisAssumed)
        Assumed = true;
      if (!P.Fp.V)
        ToEnumerate.push_back(Idx);
      Fps[Idx] = std::move(P);
    }
    return Assumed;
  }

  /// Exact counts for the rest at these sizes: the union of the references'
  /// images (ImageCount.h), else enumeration when the nest is small enough.
  void exactCounts(const Loop &Root) {
    if (!ToEnumerate.empty() && Opts.LoopBodyExecutions) {
      std::vector<unsigned> Rest;
      for (unsigned Idx : ToEnumerate) {
        bool OverBudget = false;
        std::optional<ImageCountResult> C =
            countArrayImages(Arrays[Idx], Stmts, CC.known(), Opts.Images,
                             ImageWhy[Idx], OverBudget);
        ROOFLINE_DEBUG(llvm::dbgs()
                       << "footprint: " << Arrays[Idx] << ": image count "
                       << (C ? "read " + int128ToString(C->Read) +
                                   ", written " + int128ToString(C->Written)
                             : "failed: " + ImageWhy[Idx])
                       << "\n");
        if (C)
          Enumerated[Idx] = std::make_pair(C->Read, C->Written);
        else if (OverBudget) // enumeration visits at least as much
          EnumWhy[Idx] = "the nest has too many iterations to enumerate it";
        else
          Rest.push_back(Idx);
      }
      ToEnumerate = std::move(Rest);
    }
    // One array at a time: the loops it does not depend on are visited once.
    for (unsigned Idx : ToEnumerate) {
      if (!Opts.LoopBodyExecutions) {
        EnumWhy[Idx] = "its sizes have no values";
        continue;
      }
      Enumerator E(Root, {Arrays[Idx]}, CC.known(), Opts.EnumerationLimit);
      if (!E.run()) {
        EnumWhy[Idx] = E.overBudget()
                           ? "the nest has too many iterations to enumerate it"
                           : "it cannot be enumerated";
        ROOFLINE_DEBUG(llvm::dbgs() << "footprint: " << Arrays[Idx]
                                    << ": not enumerated: " << EnumWhy[Idx]
                                    << "\n");
        continue;
      }
      const auto &A = E.Arrays.front();
      ROOFLINE_DEBUG(llvm::dbgs()
                     << "footprint: " << Arrays[Idx] << ": enumeration "
                     << (A.Failed ? std::string("failed")
                                  : "read " + int128ToString(A.Read) +
                                        ", written " +
                                        int128ToString(A.Written))
                     << "\n");
      if (!A.Failed)
        Enumerated[Idx] = std::make_pair(A.Read, A.Written);
    }
  }

  /// The results: closed forms with the exact counts as their values.
  std::vector<FootprintResult> finish() {
    for (unsigned Idx : ByName)
      if (Fps[Idx])
        finishArray(Idx);
    return std::move(Out);
  }

private:
  struct Pending {
    Cnt Fp;
    bool Structured = false; ///< projection or box union applied
  };

  const std::vector<std::string> &Arrays;
  const std::vector<StmtSite> &Stmts;
  ChainCounter &CC;
  const FootprintOptions &Opts;
  std::vector<ArrayInfo> Infos;
  std::vector<unsigned> ByName;
  std::vector<FootprintResult> Out;
  std::vector<std::optional<Pending>> Fps;
  std::vector<unsigned> ToEnumerate;
  std::vector<std::optional<std::pair<Int128, Int128>>> Enumerated;
  std::vector<std::string> ImageWhy, EnumWhy;

  void finishArray(unsigned Idx) {
    Pending &P = *Fps[Idx];
    const ArrayInfo &AI = Infos[Idx];
    const std::string &Name = AI.Name;
    FootprintResult &R = Out[Idx];
    const auto &E = Enumerated[Idx];
    Reason WhyV = P.Fp.WhyV;
    if (!P.Fp.V && !E && WhyV.empty())
      WhyV = "the footprint of " + Name + " has no closed form" +
             (ImageWhy[Idx].empty() ? "" : ", " + ImageWhy[Idx] + ",") +
             " and " +
             (EnumWhy[Idx].empty() ? "is too sparse to enumerate"
                                   : EnumWhy[Idx]);
    if (P.Structured) {
      // The first statement touching the array decides read-first for
      // every element (projection); box unions are read- or write-only.
      Cnt Zero = Cnt::exactly(0);
      // An exact 0 rests on the structure holding at these sizes.
      if (!P.Fp.F && !P.Fp.V) {
        Zero.F.reset();
        Zero.WhyF = P.Fp.WhyF;
      }
      R.Read = AI.FirstReads ? P.Fp : Zero;
      R.Written = AI.HasWrite ? P.Fp : Zero;
    } else {
      R.Read = R.Written = P.Fp;
    }
    if (!P.Fp.V) {
      if (E) {
        R.Read.V = E->first;
        R.Written.V = E->second;
      } else {
        R.Read.V.reset();
        R.Written.V.reset();
        R.Read.WhyV = R.Written.WhyV = WhyV;
      }
    }
  }
};

} // namespace

std::vector<FootprintResult>
detail::computeFootprints(const std::vector<std::string> &Arrays,
                          const std::vector<StmtSite> &Stmts,
                          const Loop &Root, ChainCounter &CC,
                          const FootprintOptions &Opts,
                          std::vector<std::string> &Notes,
                          std::vector<Polynomial> &Conditions) {
  NestFootprints F(Arrays, Stmts, CC, Opts);
  bool Assumed = F.closedForms(Notes, Conditions);
  F.exactCounts(Root);
  std::vector<FootprintResult> Out = F.finish();
  if (Assumed)
    Notes.push_back(AssumeRuns);
  return Out;
}
