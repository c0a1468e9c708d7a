//===- LowerGuardLocals.cpp - Conditions kept in an integer local ---------===//
//
// darknet's max pooling keeps its padding test in a local of the loop body,
// `int valid = (cur_h >= 0 && cur_h < l.h && ...);`, and tests it later,
// `(valid != 0) ? net.input[index] : -FLT_MAX`. A local declared in the nest
// from a condition on loop variables and sizes, and never written again, is
// that condition wherever it is tested (`v`, `v != 0`, `v == 0`, `!v`): its
// parts are taken where it is declared (the loop variables it reads have
// the values they have there, whatever runs before the test), and the test
// is lowered as the affine condition they make (guard loops, docs/design.md,
// "Conditions"). A local written again, or computed from data, is not one:
// its test stays a data-dependent condition.
//
//===----------------------------------------------------------------------===//

#include "NestBuilder.h"

using namespace clang;
using namespace roofline;
using namespace roofline::frontend;

namespace {

/// A condition as written: a comparison, `&&`, `||` or `!`.
bool isConditionShaped(const Expr *E) {
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return UO->getOpcode() == UO_LNot;
  const auto *BO = dyn_cast<BinaryOperator>(E);
  return BO && (BO->isComparisonOp() || BO->isLogicalOp());
}

} // namespace

void NestBuilder::noteGuardLocal(const VarDecl *VD, const Expr *Init) {
  GuardLocals.erase(VD);
  const Expr *S = strip(Init);
  if (!S || !isConditionShaped(S) || !mentionsLoopVar(S))
    return;
  GuardLocal G;
  bool Affine = false, Failed = false;
  for (int Negate = 0; Negate < 2; ++Negate) {
    // Each probe its own reason: indexOf reads a non-empty one as a
    // failure already seen.
    std::string Why;
    G.Parts[Negate] = disjointParts(S, Negate == 1, Why);
    G.Why[Negate] = "'" + declName(VD) + "' = '" + text(Init) + "'" +
                    (Why.empty() ? "" : ": " + Why);
    Failed |= !G.Parts[Negate];
    if (G.Parts[Negate])
      for (const std::vector<Constraint> &Part : *G.Parts[Negate])
        for (const Constraint &C : Part)
          Affine |= C.E.usesLoopVars();
  }
  // A side that is no condition on the loops keeps its reason for the
  // tests; one on sizes alone is left as it was (an opaque integer).
  if (Affine || Failed)
    GuardLocals[VD] = std::move(G);
}

const NestBuilder::GuardLocal *NestBuilder::guardLocalOf(const Expr *Cond,
                                                         bool &Negate) {
  auto Local = [&](const Expr *E) -> const GuardLocal * {
    const auto *DRE = dyn_cast<DeclRefExpr>(strip(E));
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    auto G = VD ? GuardLocals.find(VD) : GuardLocals.end();
    return G == GuardLocals.end() ? nullptr : &G->second;
  };
  const Expr *S = strip(Cond);
  if (const GuardLocal *G = Local(S))
    return G;
  // `v != 0`, `v == 1` (and the literal first): the local holds 0 or 1.
  const auto *BO = dyn_cast<BinaryOperator>(S);
  if (!BO || !BO->isEqualityOp())
    return nullptr;
  for (int Side = 0; Side < 2; ++Side) {
    const GuardLocal *G = Local(Side ? BO->getRHS() : BO->getLHS());
    const Expr *Other = Side ? BO->getLHS() : BO->getRHS();
    std::optional<llvm::APSInt> V =
        G ? Other->getIntegerConstantExpr(Ctx) : std::nullopt;
    if (!V || (*V != 0 && *V != 1))
      continue;
    // `v == 0` and `v != 1` hold where the local's condition fails.
    if ((BO->getOpcode() == BO_NE) == (*V != 0))
      Negate = !Negate;
    return G;
  }
  return nullptr;
}

std::optional<NestBuilder::Conjunctions>
NestBuilder::guardLocalParts(const GuardLocal &G, bool Negate,
                             std::string &Why) {
  if (!G.Parts[Negate])
    Why = G.Why[Negate];
  return G.Parts[Negate];
}

bool NestBuilder::explainGuardLocal(const Expr *Cond) {
  bool Negate = false;
  const GuardLocal *G = guardLocalOf(Cond, Negate);
  if (!G || Reason.empty())
    return false;
  // The data-dependent reading of the choice failed; the cause is that it
  // stayed one, not the data.
  std::string Why;
  if (ArmDepth)
    Why = "it is inside a data-dependent branch";
  else if (!G->Parts[0] || !G->Parts[1])
    Why = G->Why[G->Parts[0] ? 1 : 0];
  else
    Why = G->Why[0] + ": a side with work holds on a union of ranges";
  Reason = "condition '" + text(Cond) +
           "' on loop variables chooses a value that no guard loop runs (" +
           Why + "; " + Reason + ")";
  ReasonKind = RejectKind::Condition;
  return false;
}
