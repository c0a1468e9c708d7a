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
  if (BO && BO->getOpcode() == (Negate ? BO_EQ : BO_NE))
    return notEqualParts(BO, Why);
  std::string Inner;
  std::optional<std::vector<Constraint>> Cs = constraintsOf(S, Negate, Inner);
  if (!Cs) {
    Why = Inner;
    return std::nullopt;
  }
  return Conjunctions{*Cs};
}

std::optional<NestBuilder::Conjunctions>
NestBuilder::notEqualParts(const BinaryOperator *Ne, std::string &Why) {
  if (!Ne->getLHS()->getType()->isIntegerType() ||
      !Ne->getRHS()->getType()->isIntegerType()) {
    Why = "condition '" + text(Ne) +
          "' is not a comparison of loop variables and sizes";
    return std::nullopt;
  }
  // indexOf reads a non-empty Why as a failure already seen.
  std::string Inner;
  std::optional<IndexPoly> L = indexOf(Ne->getLHS(), Inner);
  std::optional<IndexPoly> R = L ? indexOf(Ne->getRHS(), Inner) : std::nullopt;
  std::optional<IndexPoly> D = R ? R->sub(*L) : std::nullopt; // R - L
  std::optional<IndexPoly> Below = D ? D->sub(IndexPoly::constant(1)) : D;
  std::optional<IndexPoly> Above = D ? D->scale(-1) : D;
  if (Above)
    Above = Above->sub(IndexPoly::constant(1));
  if (!Below || !Above) {
    Why = "condition '" + text(Ne) + "': " + Inner;
    return std::nullopt;
  }
  return Conjunctions{{{*Below, false}}, {{*Above, false}}};
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
  for (const std::vector<Constraint> &Part : *T)
    if (!lowerGuardLoop(Part, If->getThen(), If, Parent, WholeBody))
      return false;
  if (F)
    for (const std::vector<Constraint> &Part : *F)
      if (!lowerGuardLoop(Part, If->getElse(), If, Parent, WholeBody))
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
  for (const std::vector<Constraint> &Part : *Parts)
    if (!lowerGuardLoop(Part, Rest, If, Parent, /*Narrows=*/true))
      return false;
  return true;
}
