//===- LowerRegroup.cpp - Loops over groups, choices per iteration --------===//
//
// Grouped code (quantization groups, grouped-query attention) walks a range
// a group at a time or divides its loop variable by a group size, and picks
// a bound or a pointer per iteration with `?:`. None of that is affine as
// written; each becomes so once the loop runs over other variables
// (docs/design.md, "Grouped loops"):
//
//   for (j = 0; j <= n - GS; j += GS)   loop j_g over n/GS groups, j = GS*j_g
//   for (i = 0; i < n; i++) .. i / GS   loops i_g < n/GS, i_r < GS,
//                                       i = GS*i_g + i_r, so i / GS = i_g
//   for (i = 0; i < d; i += 2)          loop i_s, i = 2*i_s, where a
//                                       condition must raise its start
//   int r = i < K ? 2 : 1;              the loop split at K, r per part
//   float *p = v == 0 ? a : b;          the loop split after its first value
//
// A group count that is not a product of the sizes already is a quotient
// size (n/GS) whose divisibility is stated as a condition, like hs = C / NH.
//
//===----------------------------------------------------------------------===//

#include "NestBuilder.h"

#include "llvm/ADT/STLExtras.h"

using namespace clang;
using namespace roofline;
using namespace roofline::frontend;
using IRStmt = roofline::Stmt;

namespace {

/// \p E / \p K when \p K divides every coefficient and the constant.
std::optional<AffineExpr> divideExactly(const AffineExpr &E, int64_t K) {
  if (E.constant() % K != 0)
    return std::nullopt;
  AffineExpr R(E.constant() / K);
  for (const auto &[Name, C] : E.terms()) {
    if (C % K != 0)
      return std::nullopt;
    std::optional<AffineExpr> Sum = R.add(AffineExpr::var(Name, C / K));
    if (!Sum)
      return std::nullopt;
    R = *Sum;
  }
  return R;
}

/// The index M * E: a monomial of sizes times an affine coefficient in loop
/// variables.
std::optional<IndexPoly> termOf(const SizeMonomial &M, const AffineExpr &E) {
  std::vector<std::string> Vars;
  for (const auto &[Name, C] : E.terms())
    Vars.push_back(Name);
  IndexPoly P = IndexPoly::fromAffine(E, Vars);
  for (const std::string &F : M) {
    bool LoopVarProduct = false;
    std::optional<IndexPoly> Q = P.mul(IndexPoly::size(F), LoopVarProduct);
    if (!Q)
      return std::nullopt;
    P = *Q;
  }
  return P;
}

/// Whether \p IV is an addend of the sum \p E (`o*n + i`, not `i*n + j`).
bool isAddend(const Expr *E, const VarDecl *IV) {
  E = strip(E);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return DRE->getDecl() == IV;
  const auto *BO = dyn_cast<BinaryOperator>(E);
  return BO && (BO->getOpcode() == BO_Add || BO->getOpcode() == BO_Sub) &&
         (isAddend(BO->getLHS(), IV) || isAddend(BO->getRHS(), IV));
}

/// The divisors of every `E / D` in \p S where \p IV is an addend of E
/// (a multiple of it, `i*n`, divides exactly once n is a multiple of D).
void quotientsOf(const clang::Stmt *S, const VarDecl *IV,
                 std::vector<const Expr *> &Out) {
  if (!S)
    return;
  if (const auto *BO = dyn_cast<BinaryOperator>(S))
    if (BO->getOpcode() == BO_Div && isAddend(BO->getLHS(), IV))
      Out.push_back(BO->getRHS());
  for (const clang::Stmt *C : S->children())
    quotientsOf(C, IV, Out);
}

/// How many divisions \p E makes of \p IV in a chain: 0 for an expression
/// that has IV as an addend, 1 for `c / K` and `c % K`, 2 for `c / K / K`
/// and `(c / K) % K`; -1 for anything else.
int divisionDepth(const Expr *E, const VarDecl *IV) {
  E = strip(E);
  if (isAddend(E, IV))
    return 0;
  const auto *BO = dyn_cast<BinaryOperator>(E);
  if (!BO || (BO->getOpcode() != BO_Div && BO->getOpcode() != BO_Rem))
    return -1;
  int D = divisionDepth(BO->getLHS(), IV);
  return D < 0 ? -1 : D + 1;
}

/// The divisors of every `/` and `%` chain on \p IV in \p S (quotientsOf,
/// with remainders) in \p Chain, the deepest chain in \p Depth, and
/// quotientsOf's divisors in \p Quotients: one walk over the body for both.
void divisionChains(const clang::Stmt *S, const VarDecl *IV,
                    std::vector<const Expr *> &Quotients,
                    std::vector<const Expr *> &Chain, int &Depth) {
  if (!S)
    return;
  if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    if (BO->getOpcode() == BO_Div && isAddend(BO->getLHS(), IV))
      Quotients.push_back(BO->getRHS());
    if (BO->getOpcode() == BO_Div || BO->getOpcode() == BO_Rem)
      if (int D = divisionDepth(BO, IV); D > 0) {
        Chain.push_back(BO->getRHS());
        Depth = std::max(Depth, D);
      }
  }
  for (const clang::Stmt *C : S->children())
    divisionChains(C, IV, Quotients, Chain, Depth);
}

bool declares(const clang::Stmt *S, const VarDecl *VD) {
  const auto *DS = dyn_cast_or_null<DeclStmt>(S);
  return DS && llvm::is_contained(DS->decls(), VD);
}

} // namespace

std::optional<NestBuilder::Divisor>
NestBuilder::divisorOf(const IndexPoly &D, std::string &Why) {
  if (D.usesLoopVars() || D.parts().size() != 1 || !D.isFlat()) {
    Why = "the divisor '" + D.str() + "' is not one product of sizes";
    return std::nullopt;
  }
  const auto &[M, E] = *D.parts().begin();
  if (E.constant() <= 0) {
    Why = "the divisor '" + D.str() + "' is not positive";
    return std::nullopt;
  }
  Divisor R;
  R.M = M;
  R.K = E.constant();
  std::vector<SizeMonomial> Products;
  std::optional<AffineExpr> A = D.toAffine(&Products);
  if (!A)
    return std::nullopt;
  registerProducts(Products);
  R.Affine = *A;
  return R;
}

std::optional<IndexPoly> NestBuilder::exactQuotient(const IndexPoly &P,
                                                    const IndexPoly &D,
                                                    std::string &Why) {
  std::optional<Divisor> Dv = divisorOf(D, Why);
  if (!Dv)
    return std::nullopt;
  IndexPoly Q, Rem;
  for (const auto &[Mono, E] : P.parts()) {
    SizeMonomial M = Mono;
    // n = GS*(n/GS): a size known to be a multiple of the divisor.
    if (!monomialDivides(Dv->M, M))
      for (const SizeRelation &Rel : Relations) {
        if (!monomialDivides(Rel.Whole, M))
          continue;
        SizeMonomial Split =
            monomialProduct(monomialQuotient(M, Rel.Whole), Rel.Parts);
        if (monomialDivides(Dv->M, Split)) {
          M = Split;
          Conditions.insert(Conditions.end(), Rel.Conditions.begin(),
                            Rel.Conditions.end());
          break;
        }
      }
    std::optional<AffineExpr> Part =
        monomialDivides(Dv->M, M) ? divideExactly(E, Dv->K) : std::nullopt;
    std::optional<IndexPoly> T =
        Part ? termOf(monomialQuotient(M, Dv->M), *Part) : termOf(Mono, E);
    std::optional<IndexPoly> Sum =
        T ? (Part ? Q.add(*T) : Rem.add(*T)) : std::nullopt;
    if (!Sum) {
      Why = "index arithmetic overflows";
      return std::nullopt;
    }
    (Part ? Q : Rem) = *Sum;
  }
  // P = D*Q + Rem with 0 <= Rem <= D - 1 and Q >= 0: C's quotient is Q.
  auto Proves = [&](const AffineExpr &E, bool Upper) {
    for (const AffineExpr &B : boundsOver(E, Innermost, Upper))
      if (B.isConstant() && (Upper ? B.constant() <= 0 : B.constant() >= 0))
        return true;
    return false;
  };
  auto QuotientNonNegative = [&]() {
    for (const auto &[M, E] : Q.parts())
      if (!(E.isConstant() && E.constant() >= 0) && !Proves(E, false)) {
        Why = "the quotient '" + Q.str() + "' can be negative";
        return false;
      }
    return true;
  };
  if (Rem.isZero())
    return QuotientNonNegative() ? std::optional<IndexPoly>(Q) : std::nullopt;
  std::vector<SizeMonomial> Products;
  std::optional<AffineExpr> R = Rem.toAffine(&Products);
  std::optional<AffineExpr> Over = R ? R->sub(Dv->Affine) : std::nullopt;
  if (Over)
    Over = Over->addConstant(1);
  if (!R || !Over || !Proves(*R, false) || !Proves(*Over, true)) {
    Why = "'" + Rem.str() + "' left over is not provably within [0, " +
          D.str() + " - 1]";
    return std::nullopt;
  }
  registerProducts(Products);
  if (!QuotientNonNegative())
    return std::nullopt;
  return Q;
}

std::optional<IndexPoly>
NestBuilder::remainderIndex(const BinaryOperator *BO, std::string &Why) {
  Expr::EvalResult Folded;
  if (BO->isValueDependent() || BO->EvaluateAsInt(Folded, Ctx))
    return std::nullopt; // a constant: indexOf folds it
  std::string Inner;
  std::optional<IndexPoly> L = indexOf(BO->getLHS(), Inner);
  // Only the variable of a loop run in groups (planStripMine) has a
  // remainder to take; anything else goes on as before, its divisor not
  // looked at (naming it would name other sizes after it).
  auto Grouped = [&](const LoopFrame &F) {
    if (!F.L || !F.L->GroupInner)
      return false;
    for (const auto &[M, Coef] : L->parts())
      if (Coef.uses(F.L->IV))
        return true;
    return false;
  };
  if (!L)
    return std::nullopt;
  if (llvm::none_of(LoopStack, Grouped)) {
    // A multiple of the divisor plus what provably stays below it
    // (darknet's entry_index: `location % (l.w*l.h)` of `n*l.w*l.h`). Only
    // in an index helper, which is refused otherwise: elsewhere naming the
    // divisor's sizes would rename the sizes of nests counted before.
    if (!HelperIndexDepth)
      return std::nullopt;
    std::optional<IndexPoly> D = indexOf(BO->getRHS(), Inner);
    std::optional<IndexPoly> Q =
        D && !D->usesLoopVars() ? exactQuotient(*L, *D, Inner) : std::nullopt;
    bool LoopVarProduct = false;
    std::optional<IndexPoly> Times =
        Q ? Q->mul(strideSize(*D), LoopVarProduct) : std::nullopt;
    if (!Times || LoopVarProduct)
      return std::nullopt;
    return L->sub(*Times);
  }
  std::optional<IndexPoly> D = indexOf(BO->getRHS(), Inner);
  std::string Plain = "non-affine " +
                      std::string(InBound ? "loop bound" : "index") +
                      " expression '" + text(BO) + "'";
  if (!D || D->usesLoopVars()) {
    Why = Plain;
    return std::nullopt;
  }
  // C's % is the remainder of its '/', the exact quotient here (the
  // dividend is not negative, nor the remainder out of [0, K - 1]).
  std::optional<IndexPoly> Q = exactQuotient(*L, *D, Inner);
  bool LoopVarProduct = false;
  std::optional<IndexPoly> Times =
      Q ? Q->mul(strideSize(*D), LoopVarProduct) : std::nullopt;
  std::optional<IndexPoly> R =
      Times && !LoopVarProduct ? L->sub(*Times) : std::nullopt;
  if (!R) {
    Why = Plain + " (a loop variable's remainder" +
          (Inner.empty() ? "" : ": " + Inner) + ")";
    return std::nullopt;
  }
  return R;
}

std::optional<IndexPoly> NestBuilder::groupCount(const IndexPoly &U,
                                                 const IndexPoly &S,
                                                 std::string &Why) {
  // Groups of a positive size: formulas in U/S hold only then.
  std::optional<Divisor> Dv = divisorOf(S, Why);
  std::optional<AffineExpr> Pos = Dv ? Dv->Affine.addConstant(-1) : std::nullopt;
  if (!Pos)
    return std::nullopt;
  Conditions.push_back({*Pos, S.str() + " > 0 (the size of a group)"});
  std::string Inner;
  if (std::optional<IndexPoly> Q = exactQuotient(U, S, Inner))
    return Q;
  // A count of its own, named as written: n/GS, GS dividing n.
  bool Plain = U.parts().size() == 1 && U.isFlat() && !U.usesLoopVars() &&
               U.parts().begin()->second == AffineExpr(1) &&
               !U.parts().begin()->first.empty();
  if (!Plain) {
    Why = "'" + U.str() + "' is not a multiple of '" + S.str() +
          "' the analysis can name";
    return std::nullopt;
  }
  std::string Name = monomialName(U.parts().begin()->first) + "/" +
                     monomialName(S.parts().begin()->first);
  std::optional<IndexPoly> Q = quotientSize(Name, U, S, Why);
  // The loop runs as whole groups only where S divides U: always assumed
  // here, not only where a split uses the relation.
  if (Q && Q->parts().size() == 1)
    for (const SizeRelation &Rel : Relations)
      if (monomialDivides(Q->parts().begin()->first, Rel.Parts))
        Conditions.insert(Conditions.end(), Rel.Conditions.begin(),
                          Rel.Conditions.end());
  return Q;
}

std::string NestBuilder::freshIV(const std::string &Base) {
  std::string Name = Base;
  for (unsigned K = 2;
       ParamSet.count(Name) ||
       llvm::any_of(IVs, [&](const auto &P) { return P.second == Name; });
       ++K)
    Name = Base + "." + std::to_string(K);
  return Name;
}

std::optional<IndexPoly> NestBuilder::symbolicStep(const ForStmt *FS,
                                                   const VarDecl *IVDecl) {
  const auto *BO = dyn_cast<BinaryOperator>(strip(FS->getInc()));
  if (!BO || BO->getOpcode() != BO_AddAssign)
    return std::nullopt;
  const auto *DRE = dyn_cast<DeclRefExpr>(strip(BO->getLHS()));
  if (!DRE || DRE->getDecl() != IVDecl || BO->getRHS()->isValueDependent())
    return std::nullopt;
  std::string Why;
  std::optional<IndexPoly> S = indexOf(BO->getRHS(), Why);
  if (!S || S->usesLoopVars() || S->isConstant())
    return std::nullopt;
  // A named step with a value (constexpr GS, a macro) is a plain strided
  // loop, unless the body divides by it: then it runs over groups too.
  Expr::EvalResult R;
  if (BO->getRHS()->EvaluateAsInt(R, Ctx)) {
    std::vector<const Expr *> Divs;
    quotientsOf(FS->getBody(), IVDecl, Divs);
    if (llvm::none_of(Divs, [&](const Expr *D) {
          std::string W;
          std::optional<IndexPoly> P = indexOf(D, W);
          return P && *P == *S;
        }))
      return std::nullopt;
  }
  return S;
}

bool NestBuilder::planStepGroups(const ForStmt *FS, const VarDecl *IVDecl,
                                 const IndexPoly &S, const Loop &Plain,
                                 Regroup &Out) {
  SourceLocation At = FS->getInc()->getBeginLoc();
  std::string IV = declName(IVDecl), Step = text(FS->getInc());
  if (!Plain.First.isAffine() || Plain.First.affine() != AffineExpr(0))
    return fail(At, RejectKind::Regroup,
                "loop over '" + IV + "' with the step '" + Step +
                    "' does not start at 0");
  const auto *Cmp = dyn_cast<BinaryOperator>(strip(FS->getCond()));
  const auto *L = Cmp ? dyn_cast<DeclRefExpr>(strip(Cmp->getLHS())) : nullptr;
  if (!Cmp || !L || L->getDecl() != IVDecl ||
      (Cmp->getOpcode() != BO_LT && Cmp->getOpcode() != BO_LE))
    return fail(FS->getCond()->getBeginLoc(), RejectKind::Regroup,
                "loop with the step '" + Step + "' is not bounded by '" + IV +
                    " < N' or '" + IV + " <= N'");
  std::string Why;
  std::optional<IndexPoly> B = indexOf(Cmp->getRHS(), Why);
  if (!B)
    return fail(Cmp->getRHS()->getBeginLoc(), RejectKind::Regroup, Why);
  // j < U runs ceil(U/S) times, j <= L floor(L/S) + 1 = floor((L+S)/S):
  // both U/S where S divides U (the condition groupCount states).
  std::optional<IndexPoly> U = Cmp->getOpcode() == BO_LT ? B : B->add(S);
  if (!U || U->usesLoopVars())
    return fail(Cmp->getRHS()->getBeginLoc(), RejectKind::Regroup,
                "bound of the loop with the step '" + Step +
                    "' depends on another loop's variable");
  std::optional<IndexPoly> Count = groupCount(*U, S, Why);
  std::optional<Divisor> Dv = Count ? divisorOf(S, Why) : std::nullopt;
  if (!Dv)
    return fail(At, RejectKind::Regroup,
                "loop with the step '" + Step + "': " + Why);
  std::vector<SizeMonomial> Products;
  std::optional<AffineExpr> Last = Count->toAffine(&Products);
  if (!Last || !(Last = Last->addConstant(-1)))
    return fail(At, RejectKind::Regroup,
                "loop with the step '" + Step + "': its count '" +
                    Count->str() + "' is not a product of sizes");
  registerProducts(Products);
  Loop G;
  G.IV = freshIV(Plain.IV + "_g");
  G.First = Bound::single(AffineExpr(0));
  G.Last = Bound::single(*Last);
  bool LoopVarProduct = false;
  Out.Value = *IndexPoly::loopVar(G.IV).mul(S, LoopVarProduct);
  Out.Loops = {std::move(G)};
  return true;
}

bool NestBuilder::planStripMine(const ForStmt *FS, const VarDecl *IVDecl,
                                const Loop &Plain, Regroup &Out,
                                bool &Planned) {
  Planned = false;
  // `i / S` decides S; chains of that same divisor (`c % K`, `c / K / K`)
  // only deepen the groups. A loop with remainders alone is looked at only
  // where it could run in groups (its divisors are not named otherwise).
  std::vector<const Expr *> Divs, Chain;
  int Depth = 0;
  divisionChains(FS->getBody(), IVDecl, Divs, Chain, Depth);
  bool Unit = Plain.Step == 1 && Plain.First.isAffine() &&
              Plain.First.affine() == AffineExpr(0);
  if (Divs.empty() && (Chain.empty() || !Unit || Depth > 4))
    return true;
  const std::vector<const Expr *> &Decide = Divs.empty() ? Chain : Divs;
  auto Same = [&](const Expr *D) {
    return llvm::any_of(Decide, [&](const Expr *E) {
      return Expr::isSameComparisonOperand(D, E);
    });
  };
  if (Depth > 4 || !llvm::all_of(Chain, Same))
    Depth = 1; // other divisors: refused where they are used
  std::string Why;
  std::optional<IndexPoly> S;
  for (const Expr *D : Decide) {
    std::optional<IndexPoly> P = indexOf(D, Why);
    if (!P || P->usesLoopVars() || P->isConstant() || (S && *S != *P))
      return true; // exactQuotient says why, where it is used
    S = P;
  }
  if (!Unit)
    return true;
  // i < U, or i <= U - 1: U iterations.
  const auto *Cmp = dyn_cast<BinaryOperator>(strip(FS->getCond()));
  const auto *L = Cmp ? dyn_cast<DeclRefExpr>(strip(Cmp->getLHS())) : nullptr;
  if (!Cmp || !L || L->getDecl() != IVDecl ||
      (Cmp->getOpcode() != BO_LT && Cmp->getOpcode() != BO_LE))
    return true;
  std::optional<IndexPoly> B = indexOf(Cmp->getRHS(), Why);
  if (!B)
    return true;
  std::optional<IndexPoly> UP =
      Cmp->getOpcode() == BO_LT ? B : B->add(IndexPoly::constant(1));
  if (!UP)
    return true;
  IndexPoly U = *UP;
  if (U.usesLoopVars() || (Depth == 1 && U == *S))
    return true; // i < GS: i / GS is 0, exactQuotient proves it
  // Groups of S^Depth: c < C*K*K with c / K / K runs C groups of K*K.
  IndexPoly Whole = *S;
  for (int I = 1; I < Depth; ++I) {
    bool LoopVarProduct = false;
    std::optional<IndexPoly> Next = Whole.mul(*S, LoopVarProduct);
    if (!Next)
      return true;
    Whole = *Next;
  }
  std::optional<IndexPoly> Count = groupCount(U, Whole, Why);
  std::optional<Divisor> Dv = Count ? divisorOf(*S, Why) : std::nullopt;
  std::vector<SizeMonomial> Products;
  std::optional<AffineExpr> Last =
      Dv ? Count->toAffine(&Products) : std::nullopt;
  if (Last)
    Last = Last->addConstant(-1);
  if (!Last)
    return fail(FS->getBeginLoc(), RejectKind::Regroup,
                "loop variable '" + declName(IVDecl) + "' divided by '" +
                    S->str() + "': the loop cannot run in groups of it (" +
                    (Why.empty() ? "count '" + U.str() + "'" : Why) + ")");
  registerProducts(Products);
  Loop G;
  G.IV = freshIV(Plain.IV + "_g");
  G.First = Bound::single(AffineExpr(0));
  G.Last = Bound::single(*Last);
  Out.Value = IndexPoly::loopVar(G.IV);
  Out.Loops = {std::move(G)};
  // i = (i_g*S + i_r2)*S + i_r, outer first; the innermost is i_r.
  for (int Level = Depth; Level >= 1; --Level) {
    Loop R;
    R.IV = freshIV(Plain.IV + "_r" + (Level > 1 ? std::to_string(Level) : ""));
    R.GroupInner = true;
    R.First = Bound::single(AffineExpr(0));
    R.Last = Bound::single(*Dv->Affine.addConstant(-1));
    bool LoopVarProduct = false;
    std::optional<IndexPoly> Scaled = Out.Value.mul(*S, LoopVarProduct);
    std::optional<IndexPoly> Next =
        Scaled ? Scaled->add(IndexPoly::loopVar(R.IV)) : std::nullopt;
    if (!Next)
      return fail(FS->getBeginLoc(), RejectKind::Overflow,
                  "index arithmetic overflows");
    Out.Value = *Next;
    Out.Loops.push_back(std::move(R));
  }
  Planned = true;
  return true;
}

bool NestBuilder::planUnitStride(const ForStmt *FS, const Loop &Plain,
                                 Regroup &Out) {
  if (Plain.Step <= 1 || !Plain.First.isAffine() ||
      !Plain.First.affine().isConstant() || !Plain.Last.isAffine())
    return fail(FS->getBeginLoc(), RejectKind::Condition,
                "condition raises the start of the "
                "strided loop over '" +
                    Plain.IV + "'");
  int64_t C = Plain.First.affine().constant();
  std::optional<AffineExpr> Span = Plain.Last.affine().addConstant(-C);
  if (!Span)
    return fail(FS->getBeginLoc(), RejectKind::Overflow,
                "loop bound arithmetic overflows");
  Loop S;
  S.IV = freshIV(Plain.IV + "_s");
  S.First = Bound::single(AffineExpr(0));
  S.Last = Bound();
  S.Last.Terms.push_back({*Span, Plain.Step});
  Dividends.push_back(*Span);
  Out.Value = *IndexPoly::loopVar(S.IV)
                   .scale(Plain.Step)
                   ->add(IndexPoly::constant(C));
  Out.Loops = {std::move(S)};
  return true;
}

bool NestBuilder::lowerRegrouped(const ForStmt *FS, const VarDecl *IVDecl,
                                 Regroup RG, Loop &Out,
                                 const std::optional<bool> &SplitBranch) {
  noteExtended(FS->getBeginLoc(), "loop over groups of its variable");
  SourceLoc Loc = Out.Loc;
  Out = std::move(RG.Loops.front());
  Out.Loc = Loc;
  enterLoop(Out, nullptr, FS->getBody());
  LoopStack.back().For = FS;
  LoopStack.back().Regrouped = true;
  Loop *In = &Out;
  unsigned Entered = 1;
  for (size_t I = 1; I < RG.Loops.size(); ++I, ++Entered) {
    RG.Loops[I].Loc = Loc;
    In->Body.push_back(Node::loop(std::move(RG.Loops[I])));
    In = &In->Body.back().L.front();
    enterLoop(*In, nullptr, FS->getBody());
    LoopStack.back().For = FS;
    LoopStack.back().Regrouped = true;
  }
  LoopStack.back().Split = SplitBranch;
  std::optional<Binding> Before;
  if (auto It = Bindings.find(IVDecl); It != Bindings.end())
    Before = It->second;
  Bindings[IVDecl] = Binding::index(RG.Value);
  bool Ok = lowerBody(FS->getBody(), *In, /*IsLoopBody=*/true, SplitBranch);
  if (Before)
    Bindings[IVDecl] = *Before;
  else
    Bindings.erase(IVDecl);
  while (Entered--)
    leaveLoop();
  return Ok;
}

bool NestBuilder::takeSplit(const clang::Stmt *Where) {
  LoopFrame &F = LoopStack.back();
  if (F.SplitTaken)
    return fail(Where->getBeginLoc(), RejectKind::Condition,
                "a second condition splits the loop over '" + F.L->IV +
                    "' into ranges");
  F.SplitTaken = true;
  return true;
}

bool NestBuilder::choiceParts(const Expr *Cond, const Loop &L,
                              std::vector<Constraint> (&Parts)[2],
                              std::string &Why) {
  // v == c, v != c, and a bare integer v (v != 0), under any number of
  // '!', where c is the first or the last value of a unit-step loop: that
  // one iteration against the rest.
  const Expr *S = strip(Cond);
  bool IsEq = false;
  for (const auto *UO = dyn_cast<UnaryOperator>(S);
       UO && UO->getOpcode() == UO_LNot; UO = dyn_cast<UnaryOperator>(S)) {
    IsEq = !IsEq;
    S = strip(UO->getSubExpr());
  }
  const auto *Eq = dyn_cast<BinaryOperator>(S);
  const Expr *Lhs = nullptr, *Rhs = nullptr;
  if (Eq && Eq->isEqualityOp()) {
    Lhs = Eq->getLHS();
    Rhs = Eq->getRHS();
    IsEq ^= Eq->getOpcode() == BO_EQ;
  } else if (S->getType()->isIntegerType() &&
             !(Eq && (Eq->isComparisonOp() || Eq->isLogicalOp()))) {
    Lhs = S; // v, as v != 0
  }
  if (Lhs) {
    std::optional<IndexPoly> A = indexOf(Lhs, Why);
    std::optional<IndexPoly> B =
        !A ? std::nullopt
           : Rhs ? indexOf(Rhs, Why) : std::optional(IndexPoly::constant(0));
    std::optional<IndexPoly> D = B ? A->sub(*B) : std::nullopt;
    if (!D)
      return false;
    int64_t K = D->part({}).coeff(L.IV);
    if (K == -1)
      D = D->scale(-1);
    std::optional<IndexPoly> Rest =
        D ? D->sub(IndexPoly::loopVar(L.IV)) : std::nullopt;
    std::optional<IndexPoly> CP = Rest ? Rest->scale(-1) : std::nullopt;
    std::optional<AffineExpr> C = CP ? CP->toAffine() : std::nullopt; // v == c
    bool AtFirst = C && L.First.isAffine() && L.First.affine() == *C;
    bool AtLast = C && L.Last.isAffine() && L.Last.affine() == *C;
    if ((K != 1 && K != -1) || (L.Step != 1 && L.Step != -1) ||
        (!AtFirst && !AtLast)) {
      Why = "choice on '" + text(Cond) + "' is not the first or the last "
            "value of '" + L.IV + "' against the rest";
      return false;
    }
    // With s the step: s*(c - v) >= 0 where v is c or comes before it in
    // the loop's order, s*(v - c) >= 0 where v is c or comes after it.
    IndexPoly V = IndexPoly::loopVar(L.IV);
    std::optional<IndexPoly> Ahead = CP->sub(V), Behind = V.sub(*CP);
    if (Ahead)
      Ahead = Ahead->scale(L.Step);
    if (Behind)
      Behind = Behind->scale(L.Step);
    std::optional<IndexPoly> AheadM1 =
        Ahead ? Ahead->sub(IndexPoly::constant(1)) : std::nullopt;
    std::optional<IndexPoly> BehindM1 =
        Behind ? Behind->sub(IndexPoly::constant(1)) : std::nullopt;
    if (!AheadM1 || !BehindM1) {
      Why = "index arithmetic overflows";
      return false;
    }
    Constraint Point{AtFirst ? *Ahead : *Behind, false};
    Constraint Others{AtFirst ? *BehindM1 : *AheadM1, false};
    Parts[0] = {IsEq ? Point : Others};
    Parts[1] = {IsEq ? Others : Point};
    return true;
  }
  std::optional<std::vector<Constraint>> T = constraintsOf(Cond, false, Why);
  std::optional<std::vector<Constraint>> F =
      T ? constraintsOf(Cond, true, Why) : std::nullopt;
  if (!F)
    return false;
  if (T->size() != 1 || F->size() != 1 || T->front().Equal ||
      F->front().Equal) {
    Why = "choice on '" + text(Cond) + "' splits the loop into more than "
                                       "two ranges";
    return false;
  }
  Parts[0] = *T;
  Parts[1] = *F;
  return true;
}

bool NestBuilder::sameChoice(const Expr *A, const Expr *B) {
  llvm::FoldingSetNodeID IA, IB;
  A->Profile(IA, Ctx, /*Canonical=*/true);
  B->Profile(IB, Ctx, /*Canonical=*/true);
  if (IA != IB)
    return false;
  std::vector<const clang::Stmt *> All;
  collectStmts(A, All);
  for (const clang::Stmt *S : All) {
    const auto *DRE = dyn_cast<DeclRefExpr>(S);
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!VD || !isModifiedWithin(VD, Nest))
      continue;
    if (llvm::none_of(LoopStack,
                      [&](const LoopFrame &F) { return F.IVDecl == VD; }))
      return false;
  }
  return true;
}

std::optional<bool> NestBuilder::lowerChosenDecl(const VarDecl *VD,
                                                 Loop &Parent, IRStmt &St) {
  if (isModified(VD))
    return std::nullopt;
  return lowerChosenValue(VD, VD->getInit(), nullptr, Parent, St);
}

std::optional<bool> NestBuilder::lowerChosenValue(const VarDecl *VD,
                                                  const Expr *Init,
                                                  const clang::Stmt *Here,
                                                  Loop &Parent, IRStmt &St) {
  const auto *CO =
      dyn_cast_or_null<ConditionalOperator>(Init ? strip(Init) : nullptr);
  QualType T = VD->getType();
  if (!CO || !(T->isIntegerType() || T->isPointerType()))
    return std::nullopt;
  const Expr *Cond = CO->getCond();
  if (usesNestData(Cond) || !mentionsLoopVar(Cond))
    return std::nullopt;
  // A window clamped in a local that bounds a loop and indexes nothing
  // (`int lo = x - K < 0 ? 0 : x - K;`) is that min or max bound where the
  // loop reads it (minMaxLocalInit), with no split of this loop.
  if (!Here && T->isIntegerType() && minMaxChoice(CO, Ctx) && boundNotIndex(VD))
    return std::nullopt;
  std::string Name = declName(VD);
  if (LoopStack.empty() || LoopStack.back().L != &Parent ||
      (Here ? LoopStack.back().Child != Here
            : !declares(LoopStack.back().Child, VD)))
    return fail(VD->getLocation(), RejectKind::Condition,
                "'" + Name + "' is chosen by '" + text(Cond) +
                    "' inside a block of the loop body, not in the body "
                    "itself");
  if (LoopFrame &LF = LoopStack.back();
      LF.SplitTaken && LF.ChoiceCond && sameChoice(Cond, LF.ChoiceCond))
    return lowerDecl(VD, Parent, St,
                     LF.ChoicePick == 0 ? CO->getTrueExpr()
                                        : CO->getFalseExpr());
  std::vector<Constraint> Parts[2];
  std::string Why;
  if (!choiceParts(Cond, Parent, Parts, Why))
    return fail(Cond->getBeginLoc(), RejectKind::Condition,
                "'" + Name + "' chosen by '" + text(Cond) + "': " + Why);
  int64_t A0 = Parts[0].front().E.part({}).coeff(Parent.IV);
  for (const auto &[M, E] : Parts[0].front().E.parts())
    for (const LoopFrame &F : LoopStack)
      if (F.L != &Parent && E.uses(F.L->IV))
        A0 = 0;
  if (A0 == 0)
    return fail(Cond->getBeginLoc(), RejectKind::Condition,
                "'" + Name + "' is chosen by '" + text(Cond) +
                    "', which is not a range of this loop's variable alone");
  const std::optional<bool> &Split = LoopStack.back().Split;
  if (!Split) {
    SplitRequested = true;
    return false;
  }
  if (!takeSplit(CO))
    return false;
  // Two parts of the loop's range, in the loop's order; each lowers the
  // whole body with its value of the variable.
  bool ZeroFirst = (A0 < 0) == (Parent.Step > 0);
  int Pick = (*Split == ZeroFirst) ? 0 : 1;
  if (!applyGuard(Parts[Pick], CO))
    return false;
  LoopStack.back().ChoiceCond = Cond;
  LoopStack.back().ChoicePick = Pick;
  return lowerDecl(VD, Parent, St,
                   Pick == 0 ? CO->getTrueExpr() : CO->getFalseExpr());
}
