//===- LowerUnionGuards.cpp - Conditions that are unions of ranges --------===//
//
// An affine condition with `||` (or `&&` under a negation: the rest of the
// body after `if (t2 > t && h > 0) continue;`) holds on a union of ranges,
// which no one narrowed loop or guard loop describes. It is the disjoint
// union of conjunctions, `a || b` = `a` + `!a && b`, so the branch runs in
// one guard loop per part and every iteration is counted once
// (docs/design.md, "Conditions"). `x != y` is the two parts `x < y` and
// `x > y`. Only affine atoms; more than eight parts are refused.
//
//===----------------------------------------------------------------------===//

#include "NestBuilder.h"

#include "llvm/Support/SaveAndRestore.h"

using namespace clang;
using namespace roofline;
using namespace roofline::frontend;

namespace {

constexpr size_t MaxParts = 8;

using Parts = std::vector<std::vector<NestBuilder::Constraint>>;

/// Every conjunction of one part of \p A with one part of \p B.
Parts product(const Parts &A, const Parts &B) {
  Parts Out;
  for (const auto &P : A)
    for (const auto &Q : B) {
      Out.push_back(P);
      Out.back().insert(Out.back().end(), Q.begin(), Q.end());
    }
  return Out;
}

} // namespace

std::optional<NestBuilder::Conjunctions>
NestBuilder::disjointParts(const Expr *Cond, bool Negate, std::string &Why) {
  const Expr *S = strip(Cond);
  if (const auto *UO = dyn_cast<UnaryOperator>(S);
      UO && UO->getOpcode() == UO_LNot)
    return disjointParts(UO->getSubExpr(), !Negate, Why);
  bool LocalNegate = Negate;
  if (const GuardLocal *G = guardLocalOf(S, LocalNegate))
    return guardLocalParts(*G, LocalNegate, Why);
  const auto *BO = dyn_cast<BinaryOperator>(S);
  BinaryOperatorKind Op = BO ? BO->getOpcode() : BO_Comma;
  if (Op == BO_LAnd || Op == BO_LOr) {
    std::optional<Conjunctions> L = disjointParts(BO->getLHS(), Negate, Why);
    std::optional<Conjunctions> R =
        L ? disjointParts(BO->getRHS(), Negate, Why) : std::nullopt;
    if (!R)
      return std::nullopt;
    Conjunctions Out;
    if ((Op == BO_LAnd) != Negate) {
      Out = product(*L, *R); // both hold
    } else {
      // One holds: the left, or the left fails and the right holds.
      std::optional<Conjunctions> NotL =
          disjointParts(BO->getLHS(), !Negate, Why);
      if (!NotL)
        return std::nullopt;
      Out = *L;
      for (auto &P : product(*NotL, *R))
        Out.push_back(std::move(P));
    }
    if (Out.size() > MaxParts) {
      Why = "condition '" + text(S) + "' is a union of more than " +
            std::to_string(MaxParts) + " ranges";
      return std::nullopt;
    }
    return Out;
  }
  if (BO && BO->getOpcode() == (Negate ? BO_EQ : BO_NE)) {
    // x != y: below, then above.
    std::string Inner;
    std::optional<std::vector<Constraint>> Below = constraintsOf(
        BinaryOperator::Create(Ctx, BO->getLHS(), BO->getRHS(), BO_LT,
                               Ctx.IntTy, VK_PRValue, OK_Ordinary,
                               BO->getOperatorLoc(), FPOptionsOverride()),
        false, Inner);
    std::optional<std::vector<Constraint>> Above =
        Below ? constraintsOf(BinaryOperator::Create(
                                  Ctx, BO->getLHS(), BO->getRHS(), BO_GT,
                                  Ctx.IntTy, VK_PRValue, OK_Ordinary,
                                  BO->getOperatorLoc(), FPOptionsOverride()),
                              false, Inner)
              : std::nullopt;
    if (!Above) {
      Why = Inner;
      return std::nullopt;
    }
    return Conjunctions{*Below, *Above};
  }
  std::string Inner;
  std::optional<std::vector<Constraint>> Cs = constraintsOf(S, Negate, Inner);
  if (!Cs) {
    Why = Inner;
    return std::nullopt;
  }
  return Conjunctions{*Cs};
}

bool NestBuilder::lowerUnionIf(const IfStmt *If, Loop &Parent,
                               bool WholeBody, bool &Handled) {
  const Expr *Cond = If->getCond();
  // indexOf reads a non-empty Why as a failure already seen: each probe
  // gets its own.
  std::string Probe[2], Why;
  bool IsUnion = !constraintsOf(Cond, false, Probe[0]) ||
                 (If->getElse() && !constraintsOf(Cond, true, Probe[1]));
  if (!IsUnion)
    return false;
  std::optional<Conjunctions> T = disjointParts(Cond, false, Why);
  std::optional<Conjunctions> F =
      T && If->getElse() ? disjointParts(Cond, true, Why) : std::nullopt;
  if (!T || (If->getElse() && !F))
    return false; // the caller refuses with its own reason
  Handled = true;
  noteExtended(Cond->getBeginLoc(), "condition that is a union of ranges");
  // The whole body: its guard loops are the loop's iterations, as a
  // narrowed loop's would be.
  llvm::SaveAndRestore Narrow(NarrowingGuards, WholeBody);
  for (const std::vector<Constraint> &Part : *T)
    if (!lowerGuardLoop(Part, If->getThen(), If, Parent))
      return false;
  if (F)
    for (const std::vector<Constraint> &Part : *F)
      if (!lowerGuardLoop(Part, If->getElse(), If, Parent))
        return false;
  return true;
}

bool NestBuilder::lowerUnionContinue(const IfStmt *If,
                                     llvm::ArrayRef<const clang::Stmt *> Rest,
                                     Loop &Parent, bool &Handled) {
  std::string Why;
  std::optional<Conjunctions> Parts =
      disjointParts(If->getCond(), /*Negate=*/true, Why);
  if (!Parts || Parts->size() < 2)
    return false;
  Handled = true;
  noteExtended(If->getCond()->getBeginLoc(),
               "'continue' under a condition whose negation is a union of "
               "ranges");
  llvm::SaveAndRestore Narrow(NarrowingGuards, true);
  for (const std::vector<Constraint> &Part : *Parts)
    if (!lowerGuardLoop(Part, Rest, If, Parent))
      return false;
  return true;
}
