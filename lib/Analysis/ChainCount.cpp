//===- ChainCount.cpp - Exact iteration counts of loop chains -------------===//

#include "ChainCount.h"

#include <algorithm>
#include <cassert>
#include <functional>
#include <numeric>

using namespace roofline;
using namespace roofline::detail;

const char *const detail::Over128Bits = "count exceeds 128-bit range";

static const char *const TooIrregular =
    "iteration space too irregular to count exactly";

//===----------------------------------------------------------------------===//
// Concrete arithmetic
//===----------------------------------------------------------------------===//

std::optional<Int128> detail::evalBound(const Bound &B, const Env &Values) {
  std::optional<Int128> R;
  for (const BoundTerm &T : B.Terms) {
    std::optional<Int128> V = evalAffine(T.Expr, Values);
    if (!V)
      return std::nullopt;
    Int128 Q = floorDiv(*V, T.Divisor);
    if (!R || (B.Kind == Bound::Min && Q < *R) ||
        (B.Kind == Bound::Max && Q > *R))
      R = Q;
  }
  return R;
}

std::optional<Int128> detail::tripOf(Int128 First, Int128 Last, int64_t Step) {
  Int128 D;
  if (Step > 0 ? __builtin_sub_overflow(Last, First, &D)
               : __builtin_sub_overflow(First, Last, &D))
    return std::nullopt;
  Int128 S = Step > 0 ? Step : -static_cast<Int128>(Step);
  return floorDiv(D, S) + 1;
}

bool detail::compileAffine(const AffineExpr &E,
                   const std::map<std::string, unsigned> &Slots,
                   const Env &Known, CAff &Out) {
  Out = CAff();
  Out.C = E.constant();
  for (const auto &[Name, C] : E.terms()) {
    auto S = Slots.find(Name);
    if (S != Slots.end()) {
      Out.T.push_back({S->second, C});
      continue;
    }
    auto K = Known.find(Name);
    if (K == Known.end())
      return false;
    Int128 P;
    if (__builtin_mul_overflow(static_cast<Int128>(C), K->second, &P) ||
        __builtin_add_overflow(Out.C, P, &Out.C))
      return false;
  }
  return true;
}

bool detail::compileBound(const Bound &B, const std::map<std::string, unsigned> &Slots,
                  const Env &Known, CBnd &Out) {
  Out = CBnd();
  Out.Kind = B.Kind;
  for (const BoundTerm &T : B.Terms) {
    CAff A;
    if (!compileAffine(T.Expr, Slots, Known, A))
      return false;
    Out.Terms.push_back({std::move(A), T.Divisor});
  }
  return !Out.Terms.empty();
}

bool CAff::eval(const Int128 *Vals, Int128 &Out) const {
  Int128 V = C;
  for (const auto &[Slot, K] : T) {
    Int128 P;
    if (__builtin_mul_overflow(K, Vals[Slot], &P) ||
        __builtin_add_overflow(V, P, &V))
      return false;
  }
  Out = V;
  return true;
}

bool CBnd::eval(const Int128 *Vals, Int128 &Out) const {
  for (size_t I = 0; I < Terms.size(); ++I) {
    Int128 V;
    if (!Terms[I].first.eval(Vals, V))
      return false;
    V = floorDiv(V, Terms[I].second);
    if (I == 0 || (Kind == Bound::Min && V < Out) ||
        (Kind == Bound::Max && V > Out))
      Out = V;
  }
  return true;
}

static std::optional<Polynomial> constPoly(Int128 V) {
  std::optional<Rational> R = Rational::make(V, 1);
  if (!R)
    return std::nullopt;
  return Polynomial(*R);
}

//===----------------------------------------------------------------------===//
// Cnt
//===----------------------------------------------------------------------===//

Cnt Cnt::exactly(Int128 K) {
  Cnt C;
  C.F = K == 0 ? Polynomial() : constPoly(K);
  C.V = K;
  return C;
}

void Cnt::addScaled(const Cnt &O, Int128 K) {
  if (K == 0)
    return;
  if (F) {
    if (!O.F) {
      F.reset();
      WhyF = O.WhyF;
    } else {
      std::optional<Rational> KR = Rational::make(K, 1);
      llvm::Error E = KR ? F->addScaledInPlace(*O.F, *KR)
                         : llvm::createStringError(
                               llvm::inconvertibleErrorCode(), "overflow");
      if (E) { // the reason is kept, as WhyF
        llvm::consumeError(std::move(E));
        F.reset();
        WhyF = "symbolic formula exceeds 128-bit range";
      }
    }
  }
  if (V) {
    Int128 P;
    if (!O.V) {
      V.reset();
      WhyV = O.WhyV;
    } else if (__builtin_mul_overflow(*O.V, K, &P) ||
               __builtin_add_overflow(*V, P, &P)) {
      V.reset();
      WhyV = Over128Bits;
    } else {
      V = P;
    }
  }
}

Cnt Cnt::product(const Cnt &A, const Cnt &B) {
  Cnt R;
  if (A.F && B.F) {
    if (llvm::Expected<Polynomial> P = A.F->mul(*B.F))
      R.F = std::move(*P);
    else {
      llvm::consumeError(P.takeError());
      R.WhyF = "symbolic formula exceeds 128-bit range";
    }
  } else {
    R.WhyF = A.F ? B.WhyF : A.WhyF;
  }
  Int128 V;
  if (A.V && B.V && !__builtin_mul_overflow(*A.V, *B.V, &V))
    R.V = V;
  else
    R.WhyV = !A.V ? A.WhyV : !B.V ? B.WhyV : Reason(Over128Bits);
  return R;
}

Count Cnt::toCount() const {
  Count C;
  C.Formula = F;
  C.Value = V;
  if (!V && !F && WhyF != WhyV && !WhyF.empty())
    C.WhyNot = WhyV.str() + "; no formula: " + WhyF.str();
  else if (!V)
    C.WhyNot = WhyV;
  else if (!F)
    C.WhyNot = WhyF;
  return C;
}

//===----------------------------------------------------------------------===//
// Lower bounds over a chain's domain
//===----------------------------------------------------------------------===//

namespace {

/// Sum of Rational * IV plus a constant; parameters are folded in. IVs are
/// keyed by their level in the chain (names are unique along a chain).
struct Lin {
  llvm::SmallVector<std::pair<unsigned, Rational>, 4> C;
  Rational K;

  /// Index of \p Level's entry in C, or -1.
  int find(unsigned Level) const {
    for (size_t I = 0; I < C.size(); ++I)
      if (C[I].first == Level)
        return static_cast<int>(I);
    return -1;
  }
};

bool linAddScaled(Lin &A, const Lin &B, const Rational &S) {
  for (const auto &[Level, V] : B.C) {
    auto P = V.mul(S);
    if (!P)
      return false;
    int Old = A.find(Level);
    if (Old < 0) {
      if (!P->isZero())
        A.C.push_back({Level, *P});
      continue;
    }
    auto Sum = A.C[Old].second.add(*P);
    if (!Sum)
      return false;
    if (Sum->isZero())
      A.C.erase(A.C.begin() + Old);
    else
      A.C[Old].second = *Sum;
  }
  auto P = B.K.mul(S);
  if (!P)
    return false;
  auto Sum = A.K.add(*P);
  if (!Sum)
    return false;
  A.K = *Sum;
  return true;
}

/// min/max tree whose leaves are Lin.
struct LTree {
  enum KindTy { Leaf, Min, Max } Kind = Leaf;
  Lin L;
  std::vector<LTree> Kids;
};

bool scaleTree(LTree &T, const Rational &S) {
  if (T.Kind == LTree::Leaf) {
    Lin R;
    if (!linAddScaled(R, T.L, S))
      return false;
    T.L = std::move(R);
    return true;
  }
  if (S.sign() < 0)
    T.Kind = T.Kind == LTree::Min ? LTree::Max : LTree::Min;
  for (LTree &K : T.Kids)
    if (!scaleTree(K, S))
      return false;
  return true;
}

bool addLinToTree(LTree &T, const Lin &L) {
  if (T.Kind == LTree::Leaf)
    return linAddScaled(T.L, L, Rational(1));
  for (LTree &K : T.Kids)
    if (!addLinToTree(K, L))
      return false;
  return true;
}

/// A + B, distributing so that leaves stay Lin:
/// min(a1, a2) + B = min(a1 + B, a2 + B).
std::optional<LTree> addTrees(const LTree &A, const LTree &B) {
  if (A.Kind == LTree::Leaf) {
    LTree R = B;
    if (!addLinToTree(R, A.L))
      return std::nullopt;
    return R;
  }
  LTree R;
  R.Kind = A.Kind;
  for (const LTree &K : A.Kids) {
    auto S = addTrees(K, B);
    if (!S)
      return std::nullopt;
    R.Kids.push_back(std::move(*S));
  }
  return R;
}

/// Level of \p Name in \p Ch (the last loop with that IV), or -1.
int levelIn(llvm::ArrayRef<const Loop *> Ch, const std::string &Name) {
  for (size_t I = Ch.size(); I-- > 0;)
    if (Ch[I]->IV == Name)
      return static_cast<int>(I);
  return -1;
}

/// Derives lower bounds of expressions over the domain of a chain by
/// eliminating its IVs innermost first: for c > 0, c*v >= c*lower(v), where
/// lower(v) is the loop's First (Last for a downward loop), itself a min/max
/// of floor terms relaxed to rational affine bounds. Sound for every point
/// the loops reach; possibly loose, never wrong.
class LowerBounder {
public:
  LowerBounder(llvm::ArrayRef<const Loop *> C, const Env &Known)
      : Ch(C), Known(Known) {}

  /// floor(E / D) relaxed: Lower gives (E - D + 1)/D <= floor, else E/D.
  std::optional<Lin> lin(const AffineExpr &E, int64_t D, bool Lower) const {
    Lin R;
    R.K = Rational(E.constant());
    for (const auto &[Name, C] : E.terms()) {
      int Level = levelIn(Ch, Name);
      if (Level >= 0) {
        R.C.push_back({static_cast<unsigned>(Level), Rational(C)});
        continue;
      }
      auto It = Known.find(Name);
      if (It == Known.end())
        return std::nullopt;
      auto V = Rational::make(It->second, 1);
      if (!V)
        return std::nullopt;
      auto P = V->mul(Rational(C));
      if (!P)
        return std::nullopt;
      auto S = R.K.add(*P);
      if (!S)
        return std::nullopt;
      R.K = *S;
    }
    if (D == 1)
      return R;
    if (Lower) {
      auto S = R.K.sub(Rational(D - 1));
      if (!S)
        return std::nullopt;
      R.K = *S;
    }
    auto Inv = Rational::make(1, D);
    Lin Scaled;
    if (!Inv || !linAddScaled(Scaled, R, *Inv))
      return std::nullopt;
    return Scaled;
  }

  std::optional<LTree> boundTree(const Bound &B, bool Lower) const {
    LTree T;
    if (B.Terms.size() == 1) {
      auto L = lin(B.Terms[0].Expr, B.Terms[0].Divisor, Lower);
      if (!L)
        return std::nullopt;
      T.L = std::move(*L);
      return T;
    }
    T.Kind = B.Kind == Bound::Min ? LTree::Min : LTree::Max;
    for (const BoundTerm &BT : B.Terms) {
      auto L = lin(BT.Expr, BT.Divisor, Lower);
      if (!L)
        return std::nullopt;
      LTree K;
      K.L = std::move(*L);
      T.Kids.push_back(std::move(K));
    }
    return T;
  }

  std::optional<Rational> lb(const LTree &T) {
    if (T.Kind == LTree::Leaf)
      return lbLin(T.L);
    std::optional<Rational> R;
    for (const LTree &K : T.Kids) {
      std::optional<Rational> V = lb(K);
      if (T.Kind == LTree::Min) {
        // min(x, y) >= min(lb x, lb y): every child needs a bound.
        if (!V)
          return std::nullopt;
        if (!R || *V < *R)
          R = V;
      } else if (V && (!R || *R < *V)) {
        // max(x, y) >= lb x: any child's bound will do.
        R = V;
      }
    }
    return R;
  }

  std::optional<Rational> lbLin(const Lin &F) {
    if (++Work > 20000)
      return std::nullopt;
    size_t InnerIdx = 0;
    bool Any = false;
    for (size_t I = 0; I < F.C.size(); ++I)
      if (!Any || F.C[I].first > F.C[InnerIdx].first) {
        InnerIdx = I;
        Any = true;
      }
    if (!Any)
      return F.K;
    const Loop &L = *Ch[F.C[InnerIdx].first];
    Rational C = F.C[InnerIdx].second;
    bool Pos = C.sign() > 0;
    // c > 0 needs a lower bound of v, c < 0 an upper one.
    const Bound &B = Pos == (L.Step > 0) ? L.First : L.Last;
    std::optional<LTree> T = boundTree(B, /*Lower=*/Pos);
    if (!T || !scaleTree(*T, C))
      return std::nullopt;
    Lin Rest = F;
    Rest.C.erase(Rest.C.begin() + InnerIdx);
    if (!addLinToTree(*T, Rest))
      return std::nullopt;
    return lb(*T);
  }

private:
  llvm::ArrayRef<const Loop *> Ch;
  const Env &Known;
  unsigned Work = 0;
};

//===----------------------------------------------------------------------===//
// Closed forms
//===----------------------------------------------------------------------===//

/// For Polynomial operations, whose only failure is overflow.
#define POLY_TRY(Var, Expr)                                                    \
  auto Var##OrErr = (Expr);                                                    \
  if (!Var##OrErr) {                                                           \
    Overflow = true;                                                           \
    return Var##OrErr.takeError();                                             \
  }                                                                            \
  Polynomial Var = std::move(*Var##OrErr);

/// For the builder's own steps, which set Overflow themselves.
#define STEP_TRY(Var, Expr)                                                    \
  auto Var##OrErr = (Expr);                                                    \
  if (!Var##OrErr)                                                             \
    return Var##OrErr.takeError();                                             \
  Polynomial Var = std::move(*Var##OrErr);

/// Sums 1 over the loops at levels >= Begin of a chain, innermost first,
/// leaving a polynomial in the IVs of levels < Begin ("enumerated": the
/// numeric engine binds them) and parameters.
///  - Symbolic mode (Fold == nullptr): parameters stay variables; floor
///    bounds of parameters become atoms named by their text.
///  - Numeric mode: parameters are folded to their values; a non-affine
///    bound or strided span that only uses enumerated IVs becomes an atom
///    "$a<N>" evaluated per enumerated point.
class ClosedFormBuilder {
public:
  struct AtomDef {
    enum KindTy { FirstValue, LastValue, Span } Kind;
    const Loop *L;
  };

  ClosedFormBuilder(llvm::ArrayRef<const Loop *> C, size_t Begin,
                    const Env *Fold, std::map<std::string, BoundTerm> *SymAtoms,
                    ChainCounter &CC)
      : Ch(C), Begin(Begin), Fold(Fold), SymAtoms(SymAtoms), CC(CC) {}

  bool Overflow = false;
  std::vector<AtomDef> NumAtoms;

  llvm::Expected<Polynomial> build() {
    return build(Ch.size(), Polynomial(Rational(1)));
  }

  /// Sums levels [Begin, From) of the chain over \p P, the sum of the
  /// levels from From on.
  llvm::Expected<Polynomial> build(size_t From, Polynomial P) {
    for (size_t M = From; M-- > Begin;) {
      const Loop &L = *Ch[M];
      STEP_TRY(FirstP, boundPoly(L, /*IsFirst=*/true));
      STEP_TRY(LastP, boundPoly(L, /*IsFirst=*/false));
      if (L.Step == 1) {
        POLY_TRY(S, sumOver(P, CC.ivName(&L), FirstP, LastP));
        P = std::move(S);
      } else if (L.Step == -1) {
        POLY_TRY(S, sumOver(P, CC.ivName(&L), LastP, FirstP));
        P = std::move(S);
      } else {
        // iv = First + Step*t, t = 0 .. floor((Last - First)/Step).
        STEP_TRY(SpanP, spanPoly(L));
        std::string T = "$t" + std::to_string(M);
        POLY_TRY(Stepped, Polynomial::var(T).scale(Rational(L.Step)));
        POLY_TRY(Sub, FirstP.add(Stepped));
        POLY_TRY(Substituted, P.substitute(CC.ivName(&L), Sub));
        POLY_TRY(S, sumOver(Substituted, T, Polynomial(), SpanP));
        P = std::move(S);
      }
    }
    return P;
  }

private:
  llvm::ArrayRef<const Loop *> Ch;
  size_t Begin;
  const Env *Fold;
  std::map<std::string, BoundTerm> *SymAtoms;
  ChainCounter &CC;

  /// Level of \p Name in the chain, or -1 when it is not one of its IVs.
  int level(const std::string &Name) const { return levelIn(Ch, Name); }

  static llvm::Error fail(const std::string &Msg) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg);
  }
  llvm::Error overflow() {
    Overflow = true;
    return fail(Over128Bits);
  }

  /// First summed IV \p B uses, or "".
  std::string summedUse(const Bound &B) const {
    for (const BoundTerm &T : B.Terms)
      for (const auto &[Name, C] : T.Expr.terms()) {
        int Lv = level(Name);
        if (Lv >= 0 && static_cast<size_t>(Lv) >= Begin)
          return Name;
      }
    return "";
  }
  bool usesEnumerated(const Bound &B) const {
    for (const BoundTerm &T : B.Terms)
      for (const auto &[Name, C] : T.Expr.terms()) {
        int Lv = level(Name);
        if (Lv >= 0 && static_cast<size_t>(Lv) < Begin)
          return true;
      }
    return false;
  }

  llvm::Expected<Polynomial> affinePoly(const AffineExpr &E) {
    // The terms' names are distinct, so summing them term by term needs no
    // coefficient arithmetic: the polynomial is built at once.
    llvm::SmallVector<std::pair<VarName, Rational>, 4> Vars;
    Int128 K = E.constant();
    for (const auto &[Name, C] : E.terms()) {
      int Lv = level(Name);
      if (Fold && Lv < 0) {
        auto It = Fold->find(Name);
        if (It == Fold->end())
          return fail("size '" + Name + "' has no value");
        Int128 T;
        if (__builtin_mul_overflow(static_cast<Int128>(C), It->second, &T) ||
            __builtin_add_overflow(K, T, &K))
          return overflow();
        continue;
      }
      Vars.push_back({Lv >= 0 ? CC.ivName(Ch[Lv]) : CC.name(Name),
                      Rational(C)});
    }
    std::optional<Rational> KR = Rational::make(K, 1);
    if (!KR)
      return overflow();
    return Polynomial::linear(*KR, Vars);
  }

  llvm::Expected<Polynomial> atom(const Loop &L, AtomDef::KindTy Kind) {
    std::string Name = "$a" + std::to_string(NumAtoms.size());
    NumAtoms.push_back({Kind, &L});
    return Polynomial::var(Name);
  }

  llvm::Expected<Polynomial> boundPoly(const Loop &L, bool IsFirst) {
    const Bound &B = IsFirst ? L.First : L.Last;
    if (B.isAffine())
      return affinePoly(B.affine());
    std::string S = summedUse(B);
    if (!S.empty())
      return fail("bound '" + B.str() + "' of loop " + L.IV +
                  " is not polynomial in loop variable " + S);
    if (Fold) {
      if (usesEnumerated(B))
        return atom(L, IsFirst ? AtomDef::FirstValue : AtomDef::LastValue);
      std::optional<Int128> V = evalBound(B, *Fold);
      std::optional<Polynomial> P = V ? constPoly(*V) : std::nullopt;
      if (!P)
        return overflow();
      return *P;
    }
    if (B.Kind != Bound::Single || B.Terms.size() != 1)
      return fail("loop " + L.IV + " has the bound '" + B.str() +
                  "', and min/max bounds have no polynomial closed form");
    const BoundTerm &T = B.Terms.front();
    if (T.Expr.isConstant()) {
      std::optional<Polynomial> P =
          constPoly(floorDiv(T.Expr.constant(), T.Divisor));
      if (!P)
        return overflow();
      return *P;
    }
    std::string Name = T.str();
    (*SymAtoms)[Name] = T;
    return Polynomial::var(Name);
  }

  /// floor((Last - First)/Step) (trip count - 1) of a strided loop.
  llvm::Expected<Polynomial> spanPoly(const Loop &L) {
    int64_t S = L.Step > 0 ? L.Step : -L.Step;
    const Bound &Hi = L.Step > 0 ? L.Last : L.First;
    const Bound &Lo = L.Step > 0 ? L.First : L.Last;
    if (Hi.isAffine() && Lo.isAffine()) {
      std::optional<AffineExpr> D = Hi.affine().sub(Lo.affine());
      if (!D)
        return overflow();
      for (const auto &[Name, C] : D->terms()) {
        int Lv = level(Name);
        if (Lv >= 0 && static_cast<size_t>(Lv) >= Begin)
          return fail("the trip count of strided loop " + L.IV +
                      " depends on loop variable " + Name);
      }
      if (Fold) {
        bool Enumerated = false;
        for (const auto &[Name, C] : D->terms())
          Enumerated |= level(Name) >= 0;
        if (Enumerated)
          return atom(L, AtomDef::Span);
        std::optional<Int128> V = evalAffine(*D, *Fold);
        std::optional<Polynomial> P =
            V ? constPoly(floorDiv(*V, S)) : std::nullopt;
        if (!P)
          return overflow();
        return *P;
      }
      if (D->isConstant()) {
        std::optional<Polynomial> P = constPoly(floorDiv(D->constant(), S));
        if (!P)
          return overflow();
        return *P;
      }
      BoundTerm T{*D, S};
      std::string Name = T.str();
      (*SymAtoms)[Name] = T;
      return Polynomial::var(Name);
    }
    // Non-affine bounds. boundPoly vets only a non-affine bound; the other,
    // affine one may still use a summed IV (j = i + 1 .. floor(M/2) step 2):
    // then the span depends on it and this level has no closed form (was:
    // evaluated without i's value and reported as a 128-bit overflow).
    for (const Bound *B : {&L.First, &L.Last}) {
      std::string S = summedUse(*B);
      if (!S.empty())
        return fail("the trip count of strided loop " + L.IV +
                    " depends on loop variable " + S);
    }
    if (!Fold)
      return fail("strided loop " + L.IV + " has a non-affine bound");
    if (usesEnumerated(L.First) || usesEnumerated(L.Last))
      return atom(L, AtomDef::Span);
    std::optional<Int128> F = evalBound(L.First, *Fold),
                          La = evalBound(L.Last, *Fold);
    std::optional<Int128> T = F && La ? tripOf(*F, *La, L.Step) : std::nullopt;
    std::optional<Polynomial> P = T ? constPoly(*T - 1) : std::nullopt;
    if (!P)
      return overflow();
    return *P;
  }
};

#undef POLY_TRY
#undef STEP_TRY

//===----------------------------------------------------------------------===//
// Compiled forms for fast enumeration
//===----------------------------------------------------------------------===//

/// Polynomial with integer coefficients over slots, divided by Den.
struct CPoly {
  struct Term {
    Int128 Coef;
    std::vector<std::pair<unsigned, unsigned>> Pows;
  };
  Int128 Den = 1;
  std::vector<Term> Terms;

  bool eval(const Int128 *Vals, Int128 &Out) const {
    Int128 Sum = 0;
    for (const Term &T : Terms) {
      Int128 V = T.Coef;
      for (const auto &[Slot, E] : T.Pows)
        for (unsigned I = 0; I < E; ++I)
          if (__builtin_mul_overflow(V, Vals[Slot], &V))
            return false;
      if (__builtin_add_overflow(Sum, V, &Sum))
        return false;
    }
    assert(Sum % Den == 0 && "a count polynomial took a fractional value");
    if (Sum % Den != 0)
      return false;
    Out = Sum / Den;
    return true;
  }
};

bool compilePoly(const Polynomial &P,
                 const std::map<std::string, unsigned> &Slots, CPoly &Out) {
  Out = CPoly();
  for (size_t I = 0, E = P.numTerms(); I < E; ++I) {
    const Rational &C = P.coef(I);
    Int128 G = Out.Den, B = C.den();
    while (B != 0) {
      Int128 T = G % B;
      G = B;
      B = T;
    }
    if (__builtin_mul_overflow(Out.Den / G, C.den(), &Out.Den))
      return false;
  }
  auto DenR = Rational::make(Out.Den, 1);
  if (!DenR)
    return false;
  for (size_t I = 0, E = P.numTerms(); I < E; ++I) {
    auto Scaled = P.coef(I).mul(*DenR);
    if (!Scaled || !Scaled->isInteger())
      return false;
    CPoly::Term T{Scaled->num(), {}};
    for (const Polynomial::Factor &F : P.mono(I)) {
      auto S = Slots.find(*F.Name);
      if (S == Slots.end())
        return false;
      T.Pows.push_back({S->second, F.Exp});
    }
    Out.Terms.push_back(std::move(T));
  }
  return true;
}

} // namespace

//===----------------------------------------------------------------------===//
// ChainCounter
//===----------------------------------------------------------------------===//

ChainCounter::ChainCounter(Env Known, int64_t Budget)
    : Known(std::move(Known)), Budget(Budget) {}

ChainCounter::ChainEntry &
ChainCounter::entry(llvm::ArrayRef<const Loop *> C) {
  auto It = Entries.find(C);
  if (It != Entries.end())
    return *It->second;
  ChainEntry *E = NumInline < InlineEntries
                      ? &Inline[NumInline++]
                      : &EntryStore.emplace_back();
  E->Loops.assign(C.begin(), C.end());
  Entries.try_emplace(llvm::ArrayRef<const Loop *>(E->Loops), E);
  return *E;
}

std::set<std::string> ChainCounter::freeNames(const Chain &C) const {
  std::set<std::string> IVs, Free;
  for (const Loop *L : C)
    IVs.insert(L->IV);
  for (const Loop *L : C)
    for (const Bound *B : {&L->First, &L->Last})
      for (const BoundTerm &T : B->Terms)
        for (const auto &[Name, K] : T.Expr.terms())
          if (!IVs.count(Name))
            Free.insert(Name);
  return Free;
}

std::string
ChainCounter::firstUnknown(const std::set<std::string> &Names) const {
  for (const std::string &N : Names)
    if (!Known.count(N))
      return N;
  return "";
}

std::string
ChainCounter::firstUnknownOf(llvm::ArrayRef<const Loop *> C) const {
  const std::string *Best = nullptr;
  for (const Loop *L : C)
    for (const Bound *B : {&L->First, &L->Last})
      for (const BoundTerm &T : B->Terms)
        for (const auto &[Name, K] : T.Expr.terms())
          if ((!Best || Name < *Best) && !Known.count(Name) &&
              levelIn(C, Name) < 0)
            Best = &Name;
  return Best ? *Best : std::string();
}

/// A loop whose sum depends on nothing outside it: unit step, affine
/// bounds (symbolic mode keeps every name of those as a variable).
static bool isPlainLoop(const Loop &L) {
  return (L.Step == 1 || L.Step == -1) && L.First.isAffine() &&
         L.Last.isAffine();
}

/// ClosedFormBuilder's symbolic polynomial of an affine bound: the bound as
/// it is (its names are distinct: no coefficient arithmetic).
static Polynomial boundPolynomial(const AffineExpr &E) {
  llvm::SmallVector<std::pair<VarName, Rational>, 4> Vars;
  for (const auto &[Name, C] : E.terms())
    Vars.push_back({internName(Name), Rational(C)});
  return Polynomial::linear(Rational(E.constant()), Vars);
}

ChainCounter::PlainLoop &ChainCounter::plainLoop(const Loop *L) {
  for (auto &[Key, Cached] : PlainLoops)
    if (Key == L)
      return Cached;
  PlainLoops.emplace_back(L, PlainLoop());
  PlainLoop &PL = PlainLoops.back().second; // filled before any other call
  const AffineExpr &Lo = (L->Step > 0 ? L->First : L->Last).affine();
  const AffineExpr &Hi = (L->Step > 0 ? L->Last : L->First).affine();
  if (Lo.uses(L->IV) || Hi.uses(L->IV))
    return PL; // sumOver reports it
  // sumOver's steps for a summand free of the IV, Hi - (Lo - 1), on the
  // int64 terms of the bounds: no step can come near 128 bits, so the
  // exact coefficients (zeros dropped) are what those steps produce.
  llvm::SmallVector<std::pair<VarName, Rational>, 4> Vars;
  auto HI = Hi.terms().begin(), HE = Hi.terms().end();
  auto LI = Lo.terms().begin(), LE = Lo.terms().end();
  while (HI != HE || LI != LE) {
    Int128 C;
    const std::string *Name;
    if (LI == LE || (HI != HE && HI->first < LI->first)) {
      Name = &HI->first;
      C = HI->second;
      ++HI;
    } else if (HI == HE || LI->first < HI->first) {
      Name = &LI->first;
      C = -static_cast<Int128>(LI->second);
      ++LI;
    } else {
      Name = &HI->first;
      C = static_cast<Int128>(HI->second) - LI->second;
      ++HI;
      ++LI;
    }
    if (C != 0)
      Vars.push_back({internName(*Name), *Rational::make(C, 1)});
  }
  Int128 K = static_cast<Int128>(Hi.constant()) - (Lo.constant() - Int128(1));
  PL.Span = Polynomial::linear(*Rational::make(K, 1), Vars);
  return PL;
}

const ChainCounter::SymResult &
ChainCounter::suffixSum(llvm::ArrayRef<const Loop *> S) {
  ChainEntry &E = entry(S);
  if (E.Suffix)
    return *E.Suffix;
  SymResult R;
  if (S.empty()) {
    R.P = Polynomial(Rational(1));
  } else {
    const SymResult &Inner = suffixSum(S.drop_front());
    if (!Inner.P) {
      R = Inner;
    } else {
      // The outermost loop of the suffix, summed as ClosedFormBuilder
      // would (its bounds cannot fail; any failure of the sum counts as
      // overflow there).
      const Loop *L = S.front();
      const PlainLoop &PL = plainLoop(L);
      VarName IV = ivName(L);
      llvm::Expected<Polynomial> P =
          PL.Span && !Inner.P->uses(IV)
              ? Inner.P->mul(*PL.Span)
              : sumOver(*Inner.P, IV,
                        boundPolynomial((L->Step > 0 ? L->First : L->Last).affine()),
                        boundPolynomial((L->Step > 0 ? L->Last : L->First).affine()));
      if (P) {
        R.P = std::move(*P);
      } else {
        R.Overflow = true;
        R.Why = llvm::toString(P.takeError());
      }
    }
  }
  E.Suffix = std::move(R);
  return *E.Suffix;
}

const ChainCounter::SymCount &ChainCounter::symbolicOf(ChainEntry &E) {
  if (E.Sym)
    return *E.Sym;
  llvm::ArrayRef<const Loop *> C = E.Loops;
  size_t First = C.size();
  while (First > 0 && isPlainLoop(*C[First - 1]))
    --First;
  SymCount R;
  const SymResult &Suffix = suffixSum(C.slice(First));
  if (!Suffix.P) {
    R.second = Suffix.Overflow ? "symbolic formula exceeds 128-bit range"
                               : Suffix.Why;
  } else if (First == 0) {
    R.first = Suffix.P; // nothing left to sum
  } else {
    std::map<std::string, BoundTerm> NewAtoms;
    ClosedFormBuilder B(C, 0, nullptr, &NewAtoms, *this);
    llvm::Expected<Polynomial> P = B.build(First, *Suffix.P);
    if (P) {
      R.first = std::move(*P);
      Atoms.insert(NewAtoms.begin(), NewAtoms.end());
    } else {
      std::string Why = llvm::toString(P.takeError());
      R.second = B.Overflow ? "symbolic formula exceeds 128-bit range" : Why;
    }
  }
  E.Sym = std::move(R);
  return *E.Sym;
}

std::optional<Polynomial> ChainCounter::symbolic(const Chain &C,
                                                 std::string &Why) {
  const SymCount &S = symbolicOf(entry(C));
  Why = S.second;
  return S.first;
}

const std::string &ChainCounter::missingOf(ChainEntry &E) {
  if (!E.Missing)
    E.Missing = firstUnknownOf(E.Loops);
  return *E.Missing;
}

Reason ChainCounter::noValue(const std::string &Name) {
  for (const auto &[N, R] : NoValue)
    if (N == Name)
      return R;
  NoValue.push_back({Name, "size '" + Name + "' has no value"});
  return NoValue.back().second;
}

Cnt ChainCounter::count(const Chain &C) {
  ChainEntry &E = entry(C); // stable: entries are never moved
  if (E.Count)
    return *E.Count;
  Cnt R;
  const SymCount &Sym = symbolicOf(E);
  const std::string &Missing = missingOf(E);
  if (!Missing.empty()) {
    R.WhyV = noValue(Missing);
    R.F = Sym.first;
    R.WhyF = Sym.second;
  } else {
    NumResult N = numeric(C);
    if (N.Kind == NumResult::Ok)
      R.V = N.Value;
    else
      R.WhyV = N.Why;
    if (!Sym.first)
      R.WhyF = Sym.second;
    else if (tripsAtLeast(C, 0, 0))
      R.F = Sym.first;
    else
      R.WhyF = "the closed form does not hold at the given sizes (a loop "
               "may run a negative number of times)";
  }
  E.Count = R;
  return R;
}

std::optional<Rational> ChainCounter::lowerBound(const Chain &C,
                                                 const AffineExpr &E) {
  LowerBounder LB(C, Known);
  std::optional<Lin> L = LB.lin(E, 1, true);
  if (!L)
    return std::nullopt;
  return LB.lbLin(*L);
}

std::optional<bool> ChainCounter::knownTripAtLeast(const Bound &Hi,
                                                   const Bound &Lo,
                                                   int64_t Step,
                                                   int MinTrip) const {
  // With affine bounds of known sizes only, the lower bound below is the
  // exact value Hi - Lo + Extra, formed by the same Rational operations
  // (on integers: checked 128-bit arithmetic that refuses INT128_MIN).
  if (!Hi.isAffine() || !Lo.isAffine())
    return std::nullopt;
  constexpr Int128 Min = static_cast<Int128>(static_cast<unsigned __int128>(1)
                                             << 127);
  auto Add = [&](Int128 &A, Int128 B) {
    return !__builtin_add_overflow(A, B, &A) && A != Min;
  };
  bool Fits = true;
  auto Value = [&](const AffineExpr &E, Int128 &K) {
    K = E.constant();
    for (const auto &[Name, C] : E.terms()) {
      auto It = Known.find(Name);
      if (It == Known.end())
        return false; // an IV, or no value: the general path decides
      Int128 P;
      if (It->second == Min || __builtin_mul_overflow(It->second, C, &P) ||
          P == Min || !Add(K, P))
        Fits = false;
    }
    return true;
  };
  Int128 HiK, LoK;
  if (!Value(Hi.affine(), HiK) || !Value(Lo.affine(), LoK))
    return std::nullopt;
  Int128 D = -LoK; // LoK != INT128_MIN
  if (!Fits || !Add(D, HiK) ||
      !Add(D, MinTrip == 0 ? (Step > 0 ? Step : -static_cast<Int128>(Step))
                           : 0))
    return false;
  return D > -1;
}

bool ChainCounter::tripsAtLeast(const Chain &C, size_t From, int MinTrip) {
  for (size_t M = From; M < C.size(); ++M)
    if (!tripAtLeast(C, M, MinTrip))
      return false;
  return true;
}

bool ChainCounter::tripAtLeast(const Chain &C, size_t M, int MinTrip) {
  assert((MinTrip == 0 || MinTrip == 1) && "only T >= 0 and T >= 1");
  // Depends on C[0..M] only.
  llvm::ArrayRef<const Loop *> Key =
      llvm::ArrayRef<const Loop *>(C).take_front(M + 1);
  signed char &Memo = entry(Key).Trip[MinTrip]; // entries never move
  if (Memo >= 0)
    return Memo;
  const Loop &L = *C[M];
  LowerBounder LB(Key.take_front(M), Known);
  // T >= 0 <=> Hi - Lo + |Step| >= 0; T >= 1 <=> Hi - Lo >= 0, where Hi/Lo
  // are Last/First (swapped for downward loops).
  const Bound &Hi = L.Step > 0 ? L.Last : L.First;
  const Bound &Lo = L.Step > 0 ? L.First : L.Last;
  if (std::optional<bool> R = knownTripAtLeast(Hi, Lo, L.Step, MinTrip)) {
    Memo = *R;
    return *R;
  }
  bool Result = false;
  std::optional<LTree> HiT = LB.boundTree(Hi, /*Lower=*/true);
  std::optional<LTree> LoT = LB.boundTree(Lo, /*Lower=*/false);
  if (HiT && LoT && scaleTree(*LoT, Rational(-1))) {
    std::optional<LTree> D = addTrees(*HiT, *LoT);
    Lin Extra;
    Extra.K =
        MinTrip == 0 ? Rational(L.Step > 0 ? L.Step : -L.Step) : Rational(0);
    if (D && addLinToTree(*D, Extra)) {
      // The quantity is an integer, so a lower bound above -1 proves >= 0.
      std::optional<Rational> V = LB.lb(*D);
      Result = V && Rational(-1) < *V;
    }
  }
  Memo = Result;
  return Result;
}

ChainCounter::NumResult ChainCounter::numeric(const Chain &C) {
  ChainEntry &E = entry(C);
  if (E.Num)
    return *E.Num;
  NumResult R;
  if (C.empty()) {
    R.Value = 1;
    return R;
  }
  const std::string &Missing = missingOf(E);
  if (!Missing.empty()) {
    R.Kind = NumResult::Fail;
    R.Why = noValue(Missing);
    return R;
  }

  // Independent groups of loops (no bound of one uses an IV of another,
  // e.g. the ii/i, jj/j pairs of a tiled nest) form a Cartesian product.
  size_t N = C.size();
  llvm::SmallVector<size_t, 8> Parent(N);
  std::iota(Parent.begin(), Parent.end(), 0);
  auto Find = [&](size_t X) {
    while (Parent[X] != X)
      X = Parent[X] = Parent[Parent[X]];
    return X;
  };
  for (size_t I = 0; I < N; ++I)
    for (const Bound *B : {&C[I]->First, &C[I]->Last})
      for (const BoundTerm &T : B->Terms)
        for (const auto &[Name, K] : T.Expr.terms()) {
          int Lv = levelIn(C, Name);
          if (Lv >= 0)
            Parent[Find(I)] = Find(static_cast<size_t>(Lv));
        }
  // Groups in the order of their first level, each in level order.
  llvm::SmallVector<size_t, 8> Roots;
  llvm::SmallVector<Chain, 4> Groups;
  for (size_t I = 0; I < N; ++I) {
    size_t G = Find(I);
    size_t Idx = std::find(Roots.begin(), Roots.end(), G) - Roots.begin();
    if (Idx == Roots.size()) {
      Roots.push_back(G);
      Groups.emplace_back();
    }
    Groups[Idx].push_back(C[I]);
  }

  if (Groups.size() == 1) {
    R = numericGroup(C);
  } else {
    Int128 Product = 1;
    bool Zero = false;
    std::optional<NumResult> Failed;
    for (const Chain &G : Groups) {
      NumResult Sub = numeric(G);
      if (Sub.Kind != NumResult::Ok) {
        if (!Failed)
          Failed = Sub;
        continue;
      }
      if (Sub.Value == 0)
        Zero = true;
      else if (!Failed &&
               __builtin_mul_overflow(Product, Sub.Value, &Product))
        Failed = NumResult{NumResult::Fail, 0, Over128Bits};
    }
    // One empty factor makes the product exactly zero.
    if (Zero)
      R.Value = 0;
    else if (Failed)
      R = *Failed;
    else
      R.Value = Product;
  }
  E.Num = R;
  return R;
}

ChainCounter::NumResult ChainCounter::numericGroup(const Chain &C) {
  for (size_t Begin = 0; Begin < C.size(); ++Begin) {
    NumResult R = numericAt(C, Begin);
    if (R.Kind != NumResult::NotClosed)
      return R;
  }
  // Summing only the innermost loop always has a closed form.
  assert(false && "no level with a closed form");
  return NumResult{NumResult::Fail, 0, TooIrregular};
}

/// numericAt(C, 0) for one unit-step loop with affine bounds free of its
/// IV: the builder folds each bound to its value and sums 1 over them,
/// Hi - (Lo - 1); the same checked steps on integers. nullopt when this
/// shortcut does not apply.
static std::optional<std::pair<bool, Int128>>
plainTrip(const Loop &L, const Env &Known) {
  if (!isPlainLoop(L) || L.First.uses(L.IV) || L.Last.uses(L.IV))
    return std::nullopt;
  constexpr Int128 Min = static_cast<Int128>(static_cast<unsigned __int128>(1)
                                             << 127);
  bool Fits = true;
  auto Fold = [&](const AffineExpr &E) -> std::optional<Int128> {
    Int128 K = E.constant();
    for (const auto &[Name, C] : E.terms()) {
      auto It = Known.find(Name);
      if (It == Known.end())
        return std::nullopt;
      Int128 T;
      if (__builtin_mul_overflow(static_cast<Int128>(C), It->second, &T) ||
          __builtin_add_overflow(K, T, &K))
        Fits = false;
    }
    if (K == Min)
      Fits = false; // Rational::make refuses it
    return K;
  };
  std::optional<Int128> First = Fold(L.First.affine());
  std::optional<Int128> Last = Fold(L.Last.affine());
  if (!First || !Last)
    return std::nullopt;
  if (!Fits)
    return std::make_pair(false, Int128(0));
  Int128 Lo = L.Step > 0 ? *First : *Last, Hi = L.Step > 0 ? *Last : *First;
  Int128 LoM1, Diff;
  if (__builtin_sub_overflow(Lo, 1, &LoM1) || LoM1 == Min ||
      __builtin_sub_overflow(Hi, LoM1, &Diff) || Diff == Min)
    return std::make_pair(false, Int128(0));
  return std::make_pair(true, Diff);
}

ChainCounter::NumResult ChainCounter::numericAt(const Chain &C, size_t Begin) {
  NumResult R;
  if (Begin == 0 && C.size() == 1)
    if (std::optional<std::pair<bool, Int128>> P = plainTrip(*C[0], Known)) {
      if (!P->first)
        return NumResult{NumResult::Fail, 0, Over128Bits};
      std::optional<Int128> F = evalBound(C[0]->First, Known),
                            L = evalBound(C[0]->Last, Known);
      std::optional<Int128> T =
          F && L ? tripOf(*F, *L, C[0]->Step) : std::nullopt;
      if (!T)
        return NumResult{NumResult::Fail, 0, Over128Bits};
      if (*T > 0)
        R.Value = P->second;
      return R;
    }
  ClosedFormBuilder B(C, Begin, &Known, nullptr, *this);
  llvm::Expected<Polynomial> P = B.build();
  if (!P) {
    // Either reason is a result, not an error: the caller refuses the
    // count (overflow) or counts the chain another way (not closed).
    llvm::consumeError(P.takeError());
    if (B.Overflow)
      return NumResult{NumResult::Fail, 0, Over128Bits};
    return NumResult{NumResult::NotClosed, 0, ""};
  }
  // The sums below Begin hold only where every trip count is >= 0; the
  // trip of level Begin itself is checked per point (negative: 0 times).
  if (!tripsAtLeast(C, Begin + 1, 0))
    return NumResult{NumResult::NotClosed, 0, ""};

  if (Begin == 0) {
    std::optional<Int128> F = evalBound(C[0]->First, Known),
                          L = evalBound(C[0]->Last, Known);
    std::optional<Int128> T = F && L ? tripOf(*F, *L, C[0]->Step)
                                     : std::nullopt;
    if (!T)
      return NumResult{NumResult::Fail, 0, Over128Bits};
    if (*T <= 0)
      return R; // the outermost loop runs 0 times
    Rational K = P->constant();
    if (!P->isConstant() || !K.isInteger() || K.sign() < 0) {
      assert(false && "closed count is not a non-negative integer");
      return NumResult{NumResult::Fail, 0, TooIrregular};
    }
    R.Value = K.num();
    return R;
  }

  Chain Prefix(C.begin(), C.begin() + Begin);
  NumResult Points = numeric(Prefix);
  if (Points.Kind != NumResult::Ok)
    return NumResult{NumResult::Fail, 0, Points.Why};
  if (Points.Value > Budget)
    return NumResult{NumResult::Fail, 0, TooIrregular};

  // Slots: IVs by level, then the atoms.
  std::map<std::string, unsigned> Slots;
  for (size_t I = 0; I < C.size(); ++I)
    Slots[C[I]->IV] = static_cast<unsigned>(I);
  std::vector<CBnd> First(Begin + 1), Last(Begin + 1);
  for (size_t I = 0; I <= Begin; ++I)
    if (!compileBound(C[I]->First, Slots, Known, First[I]) ||
        !compileBound(C[I]->Last, Slots, Known, Last[I]))
      return NumResult{NumResult::Fail, 0, Over128Bits};
  struct CAtom {
    ClosedFormBuilder::AtomDef::KindTy Kind;
    CBnd F, L;
    int64_t Step;
  };
  std::vector<CAtom> Atoms;
  for (size_t I = 0; I < B.NumAtoms.size(); ++I) {
    const auto &D = B.NumAtoms[I];
    CAtom A{D.Kind, {}, {}, D.L->Step};
    if (!compileBound(D.L->First, Slots, Known, A.F) ||
        !compileBound(D.L->Last, Slots, Known, A.L))
      return NumResult{NumResult::Fail, 0, Over128Bits};
    Slots["$a" + std::to_string(I)] = static_cast<unsigned>(C.size() + I);
    Atoms.push_back(std::move(A));
  }
  CPoly Q;
  if (!compilePoly(*P, Slots, Q))
    return NumResult{NumResult::Fail, 0, Over128Bits};

  std::vector<Int128> Vals(C.size() + Atoms.size(), 0);
  Int128 Sum = 0;
  const char *Error = nullptr;
  std::function<void(size_t)> Visit = [&](size_t Lv) {
    Int128 F, L;
    if (!First[Lv].eval(Vals.data(), F) || !Last[Lv].eval(Vals.data(), L)) {
      Error = Over128Bits;
      return;
    }
    int64_t Step = C[Lv]->Step;
    if (Lv == Begin) {
      std::optional<Int128> T = tripOf(F, L, Step);
      if (!T) {
        Error = Over128Bits;
        return;
      }
      if (*T <= 0)
        return;
      for (size_t I = 0; I < Atoms.size(); ++I) {
        const CAtom &A = Atoms[I];
        Int128 AF = 0, AL = 0, V = 0;
        bool Ok = true;
        if (A.Kind != ClosedFormBuilder::AtomDef::LastValue)
          Ok &= A.F.eval(Vals.data(), AF);
        if (A.Kind != ClosedFormBuilder::AtomDef::FirstValue)
          Ok &= A.L.eval(Vals.data(), AL);
        if (Ok && A.Kind == ClosedFormBuilder::AtomDef::Span) {
          std::optional<Int128> AT = tripOf(AF, AL, A.Step);
          Ok = AT.has_value();
          V = Ok ? *AT - 1 : 0;
        } else {
          V = A.Kind == ClosedFormBuilder::AtomDef::FirstValue ? AF : AL;
        }
        if (!Ok) {
          Error = Over128Bits;
          return;
        }
        Vals[C.size() + I] = V;
      }
      Int128 V;
      if (!Q.eval(Vals.data(), V) || __builtin_add_overflow(Sum, V, &Sum))
        Error = Over128Bits;
      return;
    }
    for (Int128 V = F; Step > 0 ? V <= L : V >= L; V += Step) {
      if (--Budget < 0) {
        Error = TooIrregular;
        return;
      }
      Vals[Lv] = V;
      Visit(Lv + 1);
      if (Error)
        return;
      if (Step > 0 ? V > L - Step : V < L - Step)
        break; // the next value would pass Last (and might overflow)
    }
  };
  Visit(0);
  if (Error)
    return NumResult{NumResult::Fail, 0, Error};
  R.Value = Sum;
  return R;
}
