//===- Delinearize.cpp - Linear indices split into rows, provably --------===//

#include "roofline/IR/Delinearize.h"
#include "roofline/IR/AffineEval.h"

#include "llvm/ADT/StringRef.h"

#include <algorithm>
#include <numeric>
#include <set>

using namespace roofline;

std::optional<int64_t> roofline::sizeValue(const std::string &Name,
                                           const SizeValues &Values) {
  if (auto It = Values.find(Name); It != Values.end())
    return It->second;
  if (Name.find('*') == std::string::npos)
    return std::nullopt;
  // A product of sizes ("B*T"): the product of its factors' values.
  int64_t P = 1;
  llvm::SmallVector<llvm::StringRef, 4> Factors;
  llvm::StringRef(Name).split(Factors, '*');
  for (llvm::StringRef F : Factors) {
    auto It = Values.find(F.str());
    if (It == Values.end() || __builtin_mul_overflow(P, It->second, &P))
      return std::nullopt;
  }
  return P;
}

std::optional<__int128> roofline::evalSizes(const AffineExpr &E,
                                            const SizeValues &Values) {
  return evalAffine(E, [&](const std::string &Name) -> std::optional<__int128> {
    return sizeValue(Name, Values);
  });
}

/// The value a strided loop's variable ends at (or starts from, for the
/// far end of a downward loop), where its bounds are known numbers.
static std::optional<int64_t> latticeEnd(const LoopRange &L,
                                         const SizeValues &Values) {
  if (!L.First.isAffine() || !L.Last.isAffine())
    return std::nullopt;
  std::optional<__int128> F = evalSizes(L.First.affine(), Values);
  std::optional<__int128> La = evalSizes(L.Last.affine(), Values);
  if (!F || !La)
    return std::nullopt;
  __int128 S = L.Step, Span = *La - *F;
  if ((S > 0 && Span < 0) || (S < 0 && Span > 0))
    return std::nullopt; // never runs
  __int128 End = *F + S * (Span / S);
  if (End > INT64_MAX || End < INT64_MIN)
    return std::nullopt;
  return static_cast<int64_t>(End);
}

std::vector<AffineExpr> roofline::boundsOver(const AffineExpr &E,
                                             const LoopRange *Chain,
                                             bool Upper,
                                             const SizeValues *Values) {
  constexpr size_t MaxChoices = 16;
  std::vector<AffineExpr> Cur{E};
  for (const LoopRange *L = Chain; L; L = L->Outer) {
    std::vector<AffineExpr> Next;
    for (const AffineExpr &X : Cur) {
      int64_t C = X.coeff(L->IV);
      if (C == 0) {
        Next.push_back(X);
        continue;
      }
      // The loop variable's largest value bounds X from above where its
      // coefficient is positive, its smallest where it is negative.
      bool WantMax = (C > 0) == Upper;
      bool Up = L->Step > 0;
      // The far end of a strided loop is a lattice point at or before Last.
      if (WantMax == Up && (L->Step > 1 || L->Step < -1) && Values)
        if (std::optional<int64_t> End = latticeEnd(*L, *Values)) {
          if (std::optional<AffineExpr> S =
                  X.substitute(L->IV, AffineExpr(*End)))
            Next.push_back(*S);
          continue;
        }
      const Bound &B = WantMax == Up ? L->Last : L->First;
      // Every term of a min is an upper bound, every term of a max a lower
      // one; the other way round no single term is.
      if ((WantMax && B.Kind == Bound::Max) ||
          (!WantMax && B.Kind == Bound::Min))
        continue;
      for (const BoundTerm &T : B.Terms) {
        if (T.Divisor != 1)
          continue;
        if (std::optional<AffineExpr> S = X.substitute(L->IV, T.Expr))
          Next.push_back(*S);
      }
    }
    std::sort(Next.begin(), Next.end());
    Next.erase(std::unique(Next.begin(), Next.end()), Next.end());
    if (Next.size() > MaxChoices)
      Next.resize(MaxChoices);
    Cur = std::move(Next);
  }
  return Cur;
}

namespace {

llvm::Error failure(const std::string &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg);
}

/// The monomials of the accesses, sorted, when each divides the next (the
/// strides nest); nullopt otherwise.
std::optional<std::vector<SizeMonomial>>
strideChain(const std::vector<IndexPoly> &Idx) {
  std::vector<SizeMonomial> Keys{{}};
  for (const IndexPoly &P : Idx)
    for (const auto &[M, E] : P.parts())
      if (std::find(Keys.begin(), Keys.end(), M) == Keys.end())
        Keys.push_back(M);
  std::sort(Keys.begin(), Keys.end(),
            [](const SizeMonomial &A, const SizeMonomial &B) {
              return A.size() != B.size() ? A.size() < B.size() : A < B;
            });
  for (size_t I = 1; I < Keys.size(); ++I)
    if (Keys[I].size() == Keys[I - 1].size() ||
        !monomialDivides(Keys[I - 1], Keys[I]))
      return std::nullopt;
  return Keys;
}

/// The stride chain of \p Idx without the monomials that have a constant
/// coefficient in every access (symbolic offsets), which are taken out of
/// \p Idx into \p Offsets; nullopt (and nothing changed) when the rest does
/// not nest either.
std::optional<std::vector<SizeMonomial>> splitSymbolicOffsets(
    std::vector<IndexPoly> &Idx,
    std::vector<std::vector<std::pair<SizeMonomial, int64_t>>> &Offsets) {
  std::set<SizeMonomial> Strides;
  for (const IndexPoly &P : Idx)
    for (const auto &[M, E] : P.parts())
      if (!E.isConstant())
        Strides.insert(M);
  std::vector<IndexPoly> Core;
  std::vector<std::vector<std::pair<SizeMonomial, int64_t>>> Off(Idx.size());
  for (size_t J = 0; J < Idx.size(); ++J) {
    IndexPoly Rest = Idx[J];
    for (const auto &[M, E] : Idx[J].parts()) {
      if (M.empty() || Strides.count(M))
        continue;
      IndexPoly Term = IndexPoly::constant(E.constant());
      for (const std::string &F : M) {
        bool LoopVarProduct = false;
        std::optional<IndexPoly> T = Term.mul(IndexPoly::size(F),
                                              LoopVarProduct);
        if (!T)
          return std::nullopt;
        Term = *T;
      }
      std::optional<IndexPoly> Next = Rest.sub(Term);
      if (!Next)
        return std::nullopt;
      Rest = *Next;
      Off[J].push_back({M, E.constant()});
    }
    Core.push_back(std::move(Rest));
  }
  std::optional<std::vector<SizeMonomial>> Keys = strideChain(Core);
  if (!Keys)
    return std::nullopt;
  Idx = std::move(Core);
  Offsets = std::move(Off);
  return Keys;
}

std::string keysText(const std::vector<IndexPoly> &Idx) {
  std::vector<std::string> Names;
  for (const IndexPoly &P : Idx)
    for (const auto &[M, E] : P.parts())
      if (!M.empty())
        Names.push_back(monomialName(M));
  std::sort(Names.begin(), Names.end());
  Names.erase(std::unique(Names.begin(), Names.end()), Names.end());
  std::string S;
  for (const std::string &N : Names)
    S += (S.empty() ? "" : ", ") + N;
  return S;
}

/// How one dimension's subscripts compare with its extent.
struct DimCheck {
  bool Violated = false;
  std::string Why;                       ///< when violated
  std::vector<SizeCondition> Conditions; ///< unproved, sizes unknown
};

/// Whether some bound in \p Cands shows Cand >= 0 (Lower) or
/// Extent - 1 - Cand >= 0; records a condition or a violation otherwise.
using SumForms = std::vector<std::pair<std::string, AffineExpr>>;

void checkSide(const std::vector<AffineExpr> &Cands, const AffineExpr &Extent,
               bool Upper, const SizeValues &Values, const std::string &What,
               const std::string &SubText, const SumForms &Sums,
               DimCheck &Out) {
  std::vector<AffineExpr> Slack;
  for (const AffineExpr &C : Cands) {
    std::optional<AffineExpr> S = C;
    if (Upper) {
      std::optional<AffineExpr> Diff = Extent.sub(C);
      S = Diff ? Diff->addConstant(-1) : std::nullopt;
    }
    // (inputs+1) - 1 - inputs is 0: a sum size compares by its parts.
    for (const auto &[Name, Form] : Sums)
      if (S)
        S = S->substitute(Name, Form);
    if (!S)
      continue;
    if (S->isConstant() && S->constant() >= 0)
      return; // proved
    Slack.push_back(*S);
  }
  bool AllKnown = !Slack.empty();
  for (const AffineExpr &S : Slack) {
    std::optional<__int128> V = evalSizes(S, Values);
    if (V && *V >= 0)
      return; // holds at these sizes
    AllKnown &= V.has_value();
  }
  if (Slack.empty()) {
    Out.Violated = true;
    Out.Why = "cannot bound the subscript '" + SubText + "' of " + What;
    return;
  }
  if (AllKnown) {
    Out.Violated = true;
    Out.Why = What + " overlap at these sizes: '" + SubText + "' leaves " +
              (Upper ? "its row of " + Extent.str() + " elements"
                     : "its row (it can be negative)") +
              ", so its elements are not distinct rows";
    return;
  }
  Out.Conditions.push_back({Slack.front(), What + " do not overlap"});
}

/// Adds \p C unless a condition that implies it is there; replaces one it
/// implies (N - 7 >= 0 implies N - 4 >= 0).
void addCondition(std::vector<SizeCondition> &Cs, SizeCondition C) {
  AffineExpr Shape = *C.Expr.addConstant(-C.Expr.constant());
  for (SizeCondition &O : Cs) {
    if (*O.Expr.addConstant(-O.Expr.constant()) != Shape)
      continue;
    if (C.Expr.constant() < O.Expr.constant())
      O = std::move(C);
    return;
  }
  Cs.push_back(std::move(C));
}

/// \p P with every size of \p Sums replaced by its parts; nullopt where
/// nothing was replaced or the arithmetic overflows.
std::optional<IndexPoly> expandSums(const IndexPoly &P,
                                    const std::vector<SizeSum> &Sums) {
  IndexPoly Out;
  bool Any = false;
  for (const auto &[M, E] : P.parts()) {
    std::vector<std::string> IVs;
    for (const auto &[Name, C] : E.terms())
      IVs.push_back(Name);
    IndexPoly Term = IndexPoly::fromAffine(E, IVs);
    for (const std::string &F : M) {
      auto S = std::find_if(Sums.begin(), Sums.end(),
                            [&](const SizeSum &X) { return X.Name == F; });
      Any |= S != Sums.end();
      bool LoopVarProduct = false;
      std::optional<IndexPoly> Next = Term.mul(
          S != Sums.end() ? S->Value : IndexPoly::size(F), LoopVarProduct);
      if (!Next)
        return std::nullopt;
      Term = *Next;
    }
    std::optional<IndexPoly> Sum = Out.add(Term);
    if (!Sum)
      return std::nullopt;
    Out = *Sum;
  }
  if (!Any)
    return std::nullopt;
  return Out;
}

int64_t gcdOfCoefficients(const AffineExpr &E, int64_t G) {
  G = std::gcd(G, E.constant());
  for (const auto &[Name, C] : E.terms())
    G = std::gcd(G, C);
  return G;
}

/// The strides of the rows of \p Idx, innermost first, or nullopt when they
/// do not nest. On the way, sizes of \p Relations may be rewritten into
/// their parts (with their notes and conditions in \p R), symbolic constant
/// offsets moved to \p Offsets, and sums of \p Sums expanded in \p Idx.
std::optional<std::vector<SizeMonomial>>
rowStrides(std::vector<IndexPoly> &Idx,
           std::vector<std::vector<std::pair<SizeMonomial, int64_t>>> &Offsets,
           const std::vector<DelinearizeAccess> &Accesses,
           const std::vector<SizeRelation> &Relations,
           const std::vector<SizeSum> &Sums, Delinearized &R) {
  auto FindKeys = [&]() -> std::optional<std::vector<SizeMonomial>> {
    std::optional<std::vector<SizeMonomial>> Keys = strideChain(Idx);
    if (!Keys) {
      // A quotient size (hs = C / NH) can make the strides nest: C*T and hs
      // do not, NH*T*hs and hs do.
      for (const SizeRelation &Rel : Relations) {
        bool Used = false;
        for (IndexPoly &P : Idx) {
          IndexPoly Q = P.rewrite(Rel.Whole, Rel.Parts);
          Used |= Q != P;
          P = std::move(Q);
        }
        if (!Used)
          continue;
        R.Notes.push_back(Rel.Note);
        R.Conditions.insert(R.Conditions.end(), Rel.Conditions.begin(),
                            Rel.Conditions.end());
      }
      Keys = strideChain(Idx);
    }
    // A symbolic constant offset (the -padding*W and -padding of
    // `(y - padding)*W + x - padding`) is no stride: it belongs to the
    // subscript of the row it is a multiple of.
    if (!Keys)
      Keys = splitSymbolicOffsets(Idx, Offsets);
    return Keys;
  };
  size_t NotesBefore = R.Notes.size(), ConditionsBefore = R.Conditions.size();
  std::optional<std::vector<SizeMonomial>> Keys = FindKeys();
  if (!Keys && !Sums.empty()) {
    // a[i*(N+1)] beside a[i*N + j]: the rows of N+1 do not nest with those
    // of N, so both are taken in N.
    std::vector<IndexPoly> Expanded;
    for (const DelinearizeAccess &A : Accesses) {
      std::optional<IndexPoly> E = expandSums(A.Index, Sums);
      Expanded.push_back(E ? *E : A.Index);
    }
    if (Expanded != Idx) {
      Idx = std::move(Expanded);
      R.Notes.resize(NotesBefore);
      R.Conditions.resize(ConditionsBefore);
      Keys = FindKeys();
    }
  }
  return Keys;
}

} // namespace

llvm::Expected<Delinearized>
roofline::delinearize(const std::string &Array,
                      const std::vector<DelinearizeAccess> &Accesses,
                      const std::vector<SizeRelation> &Relations,
                      const SizeValues &Values,
                      const std::vector<SizeSum> &Sums) {
  Delinearized R;
  std::vector<IndexPoly> Idx;
  for (const DelinearizeAccess &A : Accesses)
    Idx.push_back(A.Index);
  SumForms SumAffine;
  for (const SizeSum &S : Sums)
    if (std::optional<AffineExpr> F = S.Value.toAffine(&R.Products))
      SumAffine.push_back({S.Name, *F});

  if (std::all_of(Idx.begin(), Idx.end(),
                  [](const IndexPoly &P) { return P.isFlat(); })) {
    R.Extents.push_back(std::nullopt);
    for (const IndexPoly &P : Idx) {
      std::optional<AffineExpr> E = P.toAffine(&R.Products);
      if (!E)
        return failure("index arithmetic of '" + Array + "' overflows");
      R.Subscripts.push_back({*E});
    }
    return R;
  }

  std::vector<std::vector<std::pair<SizeMonomial, int64_t>>> Offsets(
      Idx.size());
  std::optional<std::vector<SizeMonomial>> Keys =
      rowStrides(Idx, Offsets, Accesses, Relations, Sums, R);
  if (!Keys)
    return failure("the index of '" + Array +
                   "' cannot be split into rows: its strides (" +
                   keysText(Idx) + ") are not multiples of one another");

  size_t Dims = Keys->size();
  // Coef[j][d]: access j's subscript in dimension d, innermost first.
  std::vector<std::vector<AffineExpr>> Coef(Idx.size());
  for (size_t J = 0; J < Idx.size(); ++J)
    for (const SizeMonomial &K : *Keys)
      Coef[J].push_back(Idx[J].part(K));
  for (size_t J = 0; J < Idx.size(); ++J)
    for (const auto &[M, C] : Offsets[J]) {
      size_t D = Dims;
      while (D-- > 0 && !monomialDivides((*Keys)[D], M))
        ;
      SizeMonomial Q = monomialQuotient(M, (*Keys)[D]);
      if (Q.size() > 1)
        R.Products.push_back(Q);
      std::optional<AffineExpr> Sum =
          Coef[J][D].add(AffineExpr::var(monomialName(Q), C));
      if (!Sum)
        return failure("index arithmetic of '" + Array + "' overflows");
      Coef[J][D] = *Sum;
    }
  std::vector<AffineExpr> Extent(Dims);
  std::string What = "rows of '" + Array + "'";
  for (size_t D = 0; D + 1 < Dims; ++D) {
    SizeMonomial Q = monomialQuotient((*Keys)[D + 1], (*Keys)[D]);
    if (Q.size() > 1)
      R.Products.push_back(Q);
    int64_t G = 1;
    DimCheck Check;
    for (int Attempt = 0; Attempt < 2; ++Attempt) {
      Extent[D] = AffineExpr::var(monomialName(Q), G);
      Check = DimCheck();
      for (size_t J = 0; J < Idx.size() && !Check.Violated; ++J) {
        const AffineExpr &S = Coef[J][D];
        std::string Text = S.str();
        checkSide(boundsOver(S, Accesses[J].Loops, false, &Values),
                  Extent[D], false, Values, What, Text, SumAffine, Check);
        if (!Check.Violated)
          checkSide(boundsOver(S, Accesses[J].Loops, true, &Values),
                    Extent[D], true, Values, What, Text, SumAffine, Check);
      }
      if (!Check.Violated && Check.Conditions.empty())
        break;
      // The outer strides may share a constant factor (a row of 3*C holds
      // q, k and v): it belongs to this dimension's extent.
      int64_t Common = 0;
      for (size_t J = 0; J < Idx.size(); ++J)
        for (size_t E = D + 1; E < Dims; ++E)
          Common = gcdOfCoefficients(Coef[J][E], Common);
      if (Attempt == 1 || Common <= 1)
        break;
      for (size_t J = 0; J < Idx.size(); ++J)
        for (size_t E = D + 1; E < Dims; ++E) {
          AffineExpr Scaled(Coef[J][E].constant() / Common);
          for (const auto &[Name, C] : Coef[J][E].terms())
            Scaled = *Scaled.add(AffineExpr::var(Name, C / Common));
          Coef[J][E] = Scaled;
        }
      G *= Common;
    }
    if (Check.Violated)
      return failure(Check.Why);
    for (SizeCondition &C : Check.Conditions)
      addCondition(R.Conditions, std::move(C));
  }

  R.Extents.push_back(std::nullopt);
  for (size_t D = Dims - 1; D-- > 0;)
    R.Extents.push_back(Extent[D]);
  for (size_t J = 0; J < Idx.size(); ++J) {
    std::vector<AffineExpr> Subs;
    for (size_t D = Dims; D-- > 0;)
      Subs.push_back(Coef[J][D]);
    R.Subscripts.push_back(std::move(Subs));
  }
  return R;
}
