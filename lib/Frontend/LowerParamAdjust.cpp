//===- LowerParamAdjust.cpp - A helper's own copy of an index argument ----===//
//
// A by-value integer parameter is the helper's copy of its argument:
// darknet's im2col_get_pixel starts with `row -= pad; col -= pad;` and then
// tests and subscripts the adjusted values. Straight-line statements at the
// top of the body that assign such a parameter (`p -= e`, `p += e`,
// `p = e`, `++p`, `p--`) bind it to the argument's index adjusted by them,
// exactly, in order; any other change of a parameter (in a loop, under a
// condition, address taken, after other statements) is still refused by
// bindArguments (docs/design.md, "Calls").
//
//===----------------------------------------------------------------------===//

#include "NestBuilder.h"

using namespace clang;
using namespace roofline;
using namespace roofline::frontend;

namespace {

/// The parameter of \p Callee that \p S adjusts, where \p S is one of the
/// statements above on a signed integer (a wrapping unsigned copy would not
/// be the polynomial); null otherwise.
const ParmVarDecl *adjustedParam(const clang::Stmt *S,
                                 const FunctionDecl *Callee) {
  const auto *E = dyn_cast_or_null<Expr>(S);
  if (!E)
    return nullptr;
  E = E->IgnoreParens();
  const Expr *Target = nullptr;
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->isIncrementDecrementOp())
      Target = UO->getSubExpr();
  } else if (const auto *CAO = dyn_cast<CompoundAssignOperator>(E)) {
    if ((CAO->getOpcode() == BO_AddAssign ||
         CAO->getOpcode() == BO_SubAssign) &&
        CAO->getComputationResultType()->isSignedIntegerType())
      Target = CAO->getLHS();
  } else if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->getOpcode() == BO_Assign)
      Target = BO->getLHS();
  }
  const auto *DRE =
      Target ? dyn_cast<DeclRefExpr>(Target->IgnoreParens()) : nullptr;
  const auto *P = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
  if (!P || P->getDeclContext() != Callee)
    return nullptr;
  QualType T = P->getType();
  if (!T->isSignedIntegerType() || T.isVolatileQualified())
    return nullptr;
  return P;
}

} // namespace

size_t roofline::frontend::parameterAdjustments(
    llvm::ArrayRef<const clang::Stmt *> Stmts, const FunctionDecl *Callee) {
  size_t N = 0;
  while (N < Stmts.size() && adjustedParam(Stmts[N], Callee))
    ++N;
  return N;
}

ModificationSites roofline::frontend::modificationsAfter(
    const clang::Stmt *Body, llvm::ArrayRef<const clang::Stmt *> Skip) {
  ModificationSites M = modificationsIn(Body);
  if (Skip.empty())
    return M;
  std::vector<const VarDecl *> Emptied;
  for (auto &[VD, Sites] : M.Vars) {
    llvm::erase_if(Sites, [&](const ModificationSites::VarSite &VS) {
      return llvm::any_of(Skip, [&](const clang::Stmt *S) {
        return containsStmt(S, VS.Site);
      });
    });
    if (Sites.empty())
      Emptied.push_back(VD);
  }
  for (const VarDecl *VD : Emptied)
    M.Vars.erase(VD);
  return M;
}

bool NestBuilder::adjustParameters(llvm::ArrayRef<const clang::Stmt *> Adjust,
                                   const FunctionDecl *Callee) {
  for (const clang::Stmt *S : Adjust) {
    const ParmVarDecl *P = adjustedParam(S, Callee);
    assert(P && "parameterAdjustments chose a statement adjustedParam rejects");
    const Expr *E = cast<Expr>(S)->IgnoreParens();
    std::string Refusal = "'" + declName(Callee) + "' modifies its parameter '" +
                          declName(P) + "'";
    auto B = Bindings.find(P);
    if (B == Bindings.end() || B->second.Kind != Binding::Index)
      return fail(E->getBeginLoc(), RejectKind::CallArgument,
                  Refusal + ", whose argument is no index");
    std::string Why;
    std::optional<IndexPoly> New;
    if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      New = B->second.Value.add(
          IndexPoly::constant(UO->isIncrementOp() ? 1 : -1));
    } else {
      const auto *BO = cast<BinaryOperator>(E);
      std::optional<IndexPoly> R = indexOf(BO->getRHS(), Why);
      if (!R)
        return fail(BO->getRHS()->getBeginLoc(), RejectKind::CallArgument,
                    Refusal + ": " + Why);
      // indexOf found the parameter's binding as it stands: `row = row - pad`.
      B = Bindings.find(P);
      if (BO->getOpcode() == BO_Assign)
        New = R;
      else if (BO->getOpcode() == BO_AddAssign)
        New = B->second.Value.add(*R);
      else
        New = B->second.Value.sub(*R);
    }
    if (!New)
      return fail(E->getBeginLoc(), RejectKind::Overflow,
                  Refusal + ": index arithmetic overflows");
    B->second.Value = *New;
  }
  return true;
}
