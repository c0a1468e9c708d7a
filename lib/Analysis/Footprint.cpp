//===- Footprint.cpp - Distinct elements an array nest touches ------------===//

#include "Footprint.h"

#include <algorithm>
#include <cassert>
#include <functional>
#include <unordered_map>

using namespace roofline;
using namespace roofline::detail;

namespace {

using UInt128 = unsigned __int128;

struct Use {
  size_t StmtIdx;
  const Access *A;
};

struct ArrayInfo {
  std::string Name;
  std::vector<Use> Uses;
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

/// A subscript as Coef*IV + Rest, Rest free of the chain's IVs.
struct SubInfo {
  const Loop *L = nullptr;
  int64_t Coef = 0;
  AffineExpr Rest;
};

std::optional<SubInfo> splitSubscript(const AffineExpr &E, const Chain &C) {
  SubInfo S;
  S.Rest = E;
  for (const auto &[Name, K] : E.terms()) {
    const Loop *L = loopOf(C, Name);
    if (!L)
      continue;
    if (S.L)
      return std::nullopt; // two IVs in one subscript
    S.L = L;
    S.Coef = K;
  }
  if (S.L) {
    std::optional<AffineExpr> R =
        E.sub(AffineExpr::var(S.L->IV, S.Coef));
    if (!R)
      return std::nullopt;
    S.Rest = *R;
  }
  return S;
}

bool boundUsesChainIV(const Bound &B, const Chain &C,
                      const std::set<const Loop *> *Allowed) {
  for (const BoundTerm &T : B.Terms)
    for (const auto &[Name, K] : T.Expr.terms())
      if (const Loop *L = loopOf(C, Name))
        if (!Allowed || !Allowed->count(L))
          return true;
  return false;
}

enum class RunCheck { Proved, Failed, Assumed };

/// Whether every loop of \p C outside \p Kept runs at least once whenever
/// it is reached: needed for the footprint to be the kept loops' domain.
RunCheck droppedLoopsRun(const Chain &C, const std::set<const Loop *> &Kept,
                         ChainCounter &CC) {
  RunCheck R = RunCheck::Proved;
  for (size_t M = 0; M < C.size(); ++M) {
    if (Kept.count(C[M]))
      continue;
    Chain Prefix(C.begin(), C.begin() + M + 1);
    if (!CC.firstUnknown(CC.freeNames(Prefix)).empty()) {
      R = RunCheck::Assumed;
      continue;
    }
    if (!CC.tripAtLeast(Prefix, M, 1))
      return RunCheck::Failed;
  }
  return R;
}

/// Whether the IV of loop C[M] determines the IV of the enclosing loop D:
/// C[M].IV - D.IV stays within a range narrower than D's step, so distinct
/// values of D give disjoint ranges of C[M].IV.
bool determines(const Chain &C, size_t M, const Loop &D, ChainCounter &CC) {
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
    "runs at least once";

//===----------------------------------------------------------------------===//
// Method 1: projection onto the indexing loops
//===----------------------------------------------------------------------===//

/// Returns false when not applicable; otherwise \p Fp is the footprint
/// (with V missing when it must be enumerated).
bool projection(const ArrayInfo &AI, const std::vector<StmtSite> &Stmts,
                ChainCounter &CC, Cnt &Fp, bool &Assumed) {
  const auto &T0 = AI.Uses.front().A->Subscripts;
  std::vector<const Loop *> Kept0;
  for (size_t U = 0; U < AI.Uses.size(); ++U) {
    const Use &Us = AI.Uses[U];
    if (Us.A->Subscripts != T0)
      return false;
    const Chain &C = Stmts[Us.StmtIdx].Loops;
    std::vector<const Loop *> K;
    std::set<const Loop *> Seen;
    for (const auto &Sub : Us.A->Subscripts) {
      std::optional<SubInfo> S = splitSubscript(*Sub, C);
      if (!S)
        return false;
      K.push_back(S->L);
      if (S->L && !Seen.insert(S->L).second)
        return false;
    }
    if (U == 0)
      Kept0 = K;
    else if (K != Kept0)
      return false; // same names, different loops (siblings)
  }
  std::set<const Loop *> Kept;
  for (const Loop *L : Kept0)
    if (L)
      Kept.insert(L);
  const Chain &C0 = Stmts[AI.Uses.front().StmtIdx].Loops;
  // A kept loop's bounds may use a loop the subscripts do not: fine when
  // the kept IV determines that one (tiles: i in [ii, ii + 31], ii stepping
  // by 32), then the element still identifies the whole tuple. Add such
  // loops until the kept set is closed under bound references.
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (size_t M = 0; M < C0.size(); ++M) {
      const Loop *L = C0[M];
      if (!Kept.count(L))
        continue;
      for (const Bound *B : {&L->First, &L->Last})
        for (const BoundTerm &T : B->Terms)
          for (const auto &[Name, K] : T.Expr.terms()) {
            const Loop *D = loopOf(C0, Name);
            if (!D || Kept.count(D))
              continue;
            if (!determines(C0, M, *D, CC))
              return false; // the kept domain is not a projection
            Kept.insert(D);
            Changed = true;
          }
    }
  }
  Chain KC;
  for (const Loop *L : C0)
    if (Kept.count(L))
      KC.push_back(L);

  bool Failed = false;
  std::set<size_t> CheckedStmts;
  for (const Use &Us : AI.Uses) {
    if (!CheckedStmts.insert(Us.StmtIdx).second)
      continue;
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
  std::vector<Polynomial> LoP, HiP; ///< symbolic, inclusive
  std::vector<Int128> Lo, Hi;       ///< numeric, inclusive
};

/// Three-way comparison of breakpoints, or nullopt when the order depends
/// on sizes in a way we cannot decide.
std::optional<int> compareBreaks(const Polynomial &A, const Polynomial &B,
                                 const Env &Known) {
  llvm::Expected<Polynomial> D = B.sub(A);
  if (!D) {
    llvm::consumeError(D.takeError());
    return std::nullopt;
  }
  if (D->isConstant())
    return -D->constant().sign();
  std::map<std::string, Int128> Vals;
  bool AllKnown = true;
  for (const auto &[M, C] : D->terms())
    for (const auto &[Name, E] : M) {
      auto It = Known.find(Name);
      if (It == Known.end())
        AllKnown = false;
      else
        Vals[Name] = It->second;
    }
  if (AllKnown) {
    llvm::Expected<Rational> V = D->evaluate(Vals);
    if (!V) {
      llvm::consumeError(V.takeError());
      return std::nullopt;
    }
    return -V->sign();
  }
  // Unknown sizes: decided only when every size term pulls the same way,
  // i.e. for large enough sizes (the caller states the condition).
  int Sign = 0;
  for (const auto &[M, C] : D->terms()) {
    if (M.empty())
      continue;
    if (Sign != 0 && Sign != C.sign())
      return std::nullopt;
    Sign = C.sign();
  }
  return -Sign;
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
    for (const auto &[M, Coef] : P.terms()) {
      if (M.empty())
        continue;
      if (Var || M.size() != 1 || M.begin()->second != 1)
        Simple = false;
      else {
        Var = &M.begin()->first;
        C = Coef;
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

/// Orders \p Points (deduplicated); false when undecidable. Conditions the
/// order rests on (unknown sizes) are appended to \p Conds.
bool orderBreaks(std::vector<Polynomial> &Points, const Env &Known,
                 std::vector<Polynomial> &Conds, bool &ByValues) {
  std::vector<Polynomial> Unique;
  for (Polynomial &P : Points)
    if (std::find(Unique.begin(), Unique.end(), P) == Unique.end())
      Unique.push_back(std::move(P));
  std::vector<Polynomial> Sorted;
  for (Polynomial &P : Unique) {
    size_t Pos = Sorted.size();
    for (size_t I = 0; I < Sorted.size(); ++I) {
      std::optional<int> C = compareBreaks(P, Sorted[I], Known);
      if (!C)
        return false;
      if (*C < 0) {
        Pos = I;
        break;
      }
    }
    Sorted.insert(Sorted.begin() + Pos, std::move(P));
  }
  // The comparisons must agree with the order (no cycles).
  for (size_t I = 0; I < Sorted.size(); ++I)
    for (size_t J = I + 1; J < Sorted.size(); ++J) {
      std::optional<int> C = compareBreaks(Sorted[I], Sorted[J], Known);
      if (!C || *C > 0)
        return false;
    }
  for (size_t I = 0; I + 1 < Sorted.size(); ++I) {
    llvm::Expected<Polynomial> D = Sorted[I + 1].sub(Sorted[I]);
    if (!D) {
      llvm::consumeError(D.takeError());
      return false;
    }
    if (D->isConstant())
      continue;
    bool AllKnown = true;
    for (const auto &[M, C] : D->terms())
      for (const auto &[Name, E] : M)
        AllKnown &= Known.count(Name) != 0;
    if (AllKnown)
      ByValues = true;
    else if (std::find(Conds.begin(), Conds.end(), *D) == Conds.end())
      Conds.push_back(*D);
  }
  Points = std::move(Sorted);
  return true;
}

/// Calls \p F(cell index per dimension) for every cell of a grid.
void forEachCell(const std::vector<size_t> &Extents,
                 const std::function<void(const std::vector<size_t> &)> &F) {
  std::vector<size_t> I(Extents.size(), 0);
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
  std::vector<std::vector<Int128>> Breaks(Dims);
  std::vector<const Box *> Live;
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
  std::vector<size_t> Extents;
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
  Int128 Total = 0;
  bool Overflow = false;
  forEachCell(Extents, [&](const std::vector<size_t> &I) {
    bool Covered = false;
    for (const Box *B : Live) {
      bool In = true;
      for (size_t D = 0; D < Dims && In; ++D)
        In = Index(D, B->Lo[D]) <= I[D] && I[D] < Index(D, B->Hi[D] + 1);
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

std::optional<Polynomial> symbolicUnion(const std::string &Name,
                                        const std::vector<Box> &Boxes,
                                        size_t Dims, const Env &Known,
                                        std::vector<std::string> &Notes,
                                        std::string &Why) {
  std::vector<std::vector<Polynomial>> Breaks(Dims);
  std::vector<std::vector<std::pair<Polynomial, Polynomial>>> Ranges(Dims);
  std::vector<Polynomial> Conds;
  bool ByValues = false;
  for (const Box &B : Boxes)
    for (size_t D = 0; D < Dims; ++D) {
      llvm::Expected<Polynomial> End = B.HiP[D].add(Polynomial(Rational(1)));
      if (!End) {
        llvm::consumeError(End.takeError());
        Why = "symbolic formula exceeds 128-bit range";
        return std::nullopt;
      }
      Breaks[D].push_back(B.LoP[D]);
      Breaks[D].push_back(*End);
      Ranges[D].push_back({B.LoP[D], *End});
    }
  std::vector<size_t> Extents;
  size_t Cells = 1;
  for (size_t D = 0; D < Dims; ++D) {
    if (!orderBreaks(Breaks[D], Known, Conds, ByValues)) {
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
  auto Index = [&](size_t D, const Polynomial &P) {
    return static_cast<size_t>(
        std::find(Breaks[D].begin(), Breaks[D].end(), P) - Breaks[D].begin());
  };
  Polynomial Total;
  bool Overflow = false;
  forEachCell(Extents, [&](const std::vector<size_t> &I) {
    if (Overflow)
      return;
    bool Covered = false;
    for (size_t B = 0; B < Boxes.size() && !Covered; ++B) {
      bool In = true;
      for (size_t D = 0; D < Dims && In; ++D)
        In = Index(D, Ranges[D][B].first) <= I[D] &&
             I[D] < Index(D, Ranges[D][B].second);
      Covered = In;
    }
    if (!Covered)
      return;
    Polynomial V(Rational(1));
    for (size_t D = 0; D < Dims && !Overflow; ++D) {
      llvm::Expected<Polynomial> W = Breaks[D][I[D] + 1].sub(Breaks[D][I[D]]);
      llvm::Expected<Polynomial> P =
          W ? V.mul(*W) : llvm::Expected<Polynomial>(W.takeError());
      if (!P) {
        llvm::consumeError(P.takeError());
        Overflow = true;
        return;
      }
      V = std::move(*P);
    }
    llvm::Expected<Polynomial> S = Total.add(V);
    if (!S) {
      llvm::consumeError(S.takeError());
      Overflow = true;
      return;
    }
    Total = std::move(*S);
  });
  if (Overflow) {
    Why = "symbolic formula exceeds 128-bit range";
    return std::nullopt;
  }
  if (!Conds.empty()) {
    std::string Text;
    for (const std::string &C : simplifyConditions(Conds))
      Text += (Text.empty() ? "" : ", ") + C;
    Notes.push_back("the footprint formula of " + Name + " assumes " + Text);
  }
  if (ByValues)
    Notes.push_back("the footprint formula of " + Name +
                    " assumes its bounds keep the order they have at the "
                    "given sizes");
  return Total;
}

/// Returns false when not applicable (or when a dropped loop may not run:
/// then only enumeration is exact).
bool boxUnion(const ArrayInfo &AI, const std::vector<StmtSite> &Stmts,
              ChainCounter &CC, Cnt &Fp, bool &Assumed,
              std::vector<std::string> &Notes) {
  if (AI.HasRead && AI.HasWrite)
    return false;
  const Env &Known = CC.known();
  size_t Dims = AI.Uses.front().A->Subscripts.size();
  std::vector<Box> Boxes;
  bool SymOk = true, NumOk = true;
  std::set<std::pair<size_t, const Access *>> Done;
  for (const Use &Us : AI.Uses) {
    const Chain &C = Stmts[Us.StmtIdx].Loops;
    if (Us.A->Subscripts.size() != Dims)
      return false;
    Box B;
    std::set<const Loop *> Kept;
    for (const auto &Sub : Us.A->Subscripts) {
      std::optional<SubInfo> S = splitSubscript(*Sub, C);
      if (!S)
        return false;
      std::optional<Polynomial> RestP;
      if (llvm::Expected<Polynomial> P = Polynomial::fromAffine(S->Rest))
        RestP = std::move(*P);
      else
        llvm::consumeError(P.takeError());
      std::optional<Int128> RestV = evalAffine(S->Rest, Known);
      if (!S->L) {
        SymOk &= RestP.has_value();
        NumOk &= RestV.has_value();
        B.LoP.push_back(RestP.value_or(Polynomial()));
        B.HiP.push_back(RestP.value_or(Polynomial()));
        B.Lo.push_back(RestV.value_or(0));
        B.Hi.push_back(RestV.value_or(0));
        continue;
      }
      const Loop &L = *S->L;
      if ((S->Coef != 1 && S->Coef != -1) || (L.Step != 1 && L.Step != -1) ||
          !Kept.insert(&L).second || boundUsesChainIV(L.First, C, nullptr) ||
          boundUsesChainIV(L.Last, C, nullptr))
        return false;
      const Bound &A = L.Step > 0 ? L.First : L.Last; // smallest IV value
      const Bound &Z = L.Step > 0 ? L.Last : L.First; // largest
      // Symbolic.
      Polynomial LoP, HiP;
      bool ThisSym = A.isAffine() && Z.isAffine() && RestP;
      if (ThisSym) {
        llvm::Expected<Polynomial> AP = Polynomial::fromAffine(A.affine());
        llvm::Expected<Polynomial> ZP = Polynomial::fromAffine(Z.affine());
        if (!AP || !ZP) {
          llvm::consumeError(AP.takeError());
          llvm::consumeError(ZP.takeError());
          ThisSym = false;
        } else {
          llvm::Expected<Polynomial> Lo =
              S->Coef == 1 ? AP->add(*RestP) : RestP->sub(*ZP);
          llvm::Expected<Polynomial> Hi =
              S->Coef == 1 ? ZP->add(*RestP) : RestP->sub(*AP);
          if (!Lo || !Hi) {
            llvm::consumeError(Lo.takeError());
            llvm::consumeError(Hi.takeError());
            ThisSym = false;
          } else {
            LoP = std::move(*Lo);
            HiP = std::move(*Hi);
          }
        }
      }
      SymOk &= ThisSym;
      B.LoP.push_back(LoP);
      B.HiP.push_back(HiP);
      // Numeric.
      std::optional<Int128> AV = evalBound(A, Known), ZV = evalBound(Z, Known);
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
    if (Done.insert({Us.StmtIdx, nullptr}).second) {
      RunCheck R = droppedLoopsRun(C, Kept, CC);
      if (R == RunCheck::Failed)
        return false;
      Assumed |= R == RunCheck::Assumed;
    }
    Boxes.push_back(std::move(B));
  }
  Fp = Cnt();
  if (NumOk) {
    Fp.V = numericUnion(Boxes, Dims);
    if (!Fp.V)
      Fp.WhyV = "the footprint of " + AI.Name + " has too many pieces";
  } else {
    Fp.WhyV = "the footprint of " + AI.Name + " uses sizes without values";
  }
  if (SymOk)
    Fp.F = symbolicUnion(AI.Name, Boxes, Dims, Known, Notes, Fp.WhyF);
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

  Enumerator(const Loop &Root, const std::vector<std::string> &Names,
             const Env &Known)
      : Known(Known) {
    for (const std::string &N : Names) {
      Index[N] = Arrays.size();
      Arrays.push_back(ArrayState());
      Arrays.back().Name = N;
    }
    std::map<std::string, unsigned> Scope;
    Ok = compileLoop(Root, Scope);
  }

  /// False when a bound or subscript could not be compiled or evaluated.
  bool run() {
    if (!Ok)
      return false;
    Vals.assign(NumSlots, 0);
    Pass = 0;
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
    Vals.assign(NumSlots, 0);
    return visit(0);
  }

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
  };

  const Env &Known;
  std::map<std::string, size_t> Index;
  std::vector<ELoop> Loops;
  std::vector<EStmt> Stmts;
  std::vector<Int128> Vals, Key;
  unsigned NumSlots = 0;
  int Pass = 0;
  bool Ok = false;

  bool compileLoop(const Loop &L, std::map<std::string, unsigned> &Scope) {
    size_t Me = Loops.size();
    Loops.push_back(ELoop());
    ELoop E;
    E.Slot = NumSlots++;
    E.Step = L.Step;
    if (!compileBound(L.First, Scope, Known, E.F) ||
        !compileBound(L.Last, Scope, Known, E.L))
      return false;
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
          EA.Subs.push_back(std::move(C));
        }
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
    Int128 F, La;
    if (!L.F.eval(Vals.data(), F) || !L.L.eval(Vals.data(), La))
      return false;
    for (Int128 V = F; L.Step > 0 ? V <= La : V >= La; V += L.Step) {
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
    }
    return true;
  }
};

} // namespace

std::map<std::string, FootprintResult>
detail::computeFootprints(const std::vector<std::string> &Arrays,
                          const std::vector<StmtSite> &Stmts,
                          const Loop &Root, ChainCounter &CC,
                          const FootprintOptions &Opts,
                          std::vector<std::string> &Notes) {
  std::map<std::string, ArrayInfo> Infos;
  for (const std::string &N : Arrays)
    Infos[N].Name = N;
  for (size_t I = 0; I < Stmts.size(); ++I)
    for (const Access &A : Stmts[I].S->Accesses) {
      auto It = Infos.find(A.ArrayName);
      if (It == Infos.end())
        continue;
      ArrayInfo &AI = It->second;
      if (AI.Uses.empty() || AI.Uses.front().StmtIdx == I)
        AI.FirstReads |= A.IsRead;
      AI.Uses.push_back({I, &A});
      AI.HasRead |= A.IsRead;
      AI.HasWrite |= A.IsWrite;
      for (const auto &S : A.Subscripts)
        if (!S && AI.NonAffine.empty())
          AI.NonAffine = A.Text.empty() ? A.ArrayName + "[...]" : A.Text;
    }

  std::map<std::string, FootprintResult> Out;
  struct Pending {
    Cnt Fp;
    bool Structured = false; ///< projection or box union applied
  };
  std::map<std::string, Pending> Fps;
  std::vector<std::string> ToEnumerate;
  bool Assumed = false;
  for (auto &[Name, AI] : Infos) {
    FootprintResult &R = Out[Name];
    if (AI.Uses.empty()) {
      R.Read = R.Written = Cnt::exactly(0);
      continue;
    }
    if (!AI.NonAffine.empty()) {
      std::string Why = "the footprint of " + Name +
                        " is unknown: subscript '" + AI.NonAffine +
                        "' is not affine";
      R.Read.WhyF = R.Read.WhyV = R.Written.WhyF = R.Written.WhyV = Why;
      continue;
    }
    Pending P;
    bool ThisAssumed = false;
    P.Structured = projection(AI, Stmts, CC, P.Fp, ThisAssumed) ||
                   boxUnion(AI, Stmts, CC, P.Fp, ThisAssumed, Notes);
    if (!P.Structured) {
      P.Fp = Cnt();
      P.Fp.WhyF = "no closed form for the footprint of " + Name;
    }
    if (P.Fp.F && ThisAssumed)
      Assumed = true;
    if (!P.Fp.V)
      ToEnumerate.push_back(Name);
    Fps[Name] = std::move(P);
  }

  // Exact enumeration for the rest, when the nest is small enough.
  std::map<std::string, std::pair<Int128, Int128>> Enumerated;
  std::string EnumWhy;
  if (!ToEnumerate.empty()) {
    if (!Opts.LoopBodyExecutions)
      EnumWhy = "its sizes have no values";
    else if (*Opts.LoopBodyExecutions > Opts.EnumerationLimit)
      EnumWhy = "the nest has too many iterations to enumerate it";
    if (EnumWhy.empty()) {
      Enumerator E(Root, ToEnumerate, CC.known());
      if (!E.run())
        EnumWhy = "it cannot be enumerated";
      else
        for (const auto &A : E.Arrays) {
          if (A.Failed)
            continue;
          Enumerated[A.Name] = {A.Read, A.Written};
        }
    }
  }

  for (auto &[Name, P] : Fps) {
    const ArrayInfo &AI = Infos[Name];
    FootprintResult &R = Out[Name];
    auto E = Enumerated.find(Name);
    std::string WhyV = P.Fp.WhyV;
    if (!P.Fp.V && E == Enumerated.end() && WhyV.empty())
      WhyV = "the footprint of " + Name + " has no closed form and " +
             (EnumWhy.empty() ? "is too sparse to enumerate" : EnumWhy);
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
      if (E != Enumerated.end()) {
        R.Read.V = E->second.first;
        R.Written.V = E->second.second;
      } else {
        R.Read.V.reset();
        R.Written.V.reset();
        R.Read.WhyV = R.Written.WhyV = WhyV;
      }
    }
  }
  if (Assumed)
    Notes.push_back(AssumeRuns);
  return Out;
}
