//===- LowerHelperCalls.cpp - Index helpers and lambdas in a nest ---------===//
//
// Small helpers as C and C++ kernels write them (docs/design.md, "Calls"):
// an index computed by a function or a lambda of one `return e;`
// (`a[IDX(i, k, n)]`, `auto idx = [n](int i, int j) { return i*n + j; };`)
// is the index e at the call's arguments; a lambda called inside the nest
// is inlined as a function of the translation unit is, once what it
// captures is known to hold the value it had where the lambda was made.
//
//===----------------------------------------------------------------------===//

#include "NestBuilder.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/LambdaCapture.h"
#include "llvm/Support/SaveAndRestore.h"

using namespace clang;

namespace roofline {
namespace frontend {

llvm::ArrayRef<const Expr *> callArguments(const CallExpr *CE) {
  llvm::ArrayRef<const Expr *> Args(CE->getArgs(), CE->getNumArgs());
  // `f(a, b)` on an object: argument 0 is the object itself.
  if (isa<CXXOperatorCallExpr>(CE) &&
      isa_and_nonnull<CXXMethodDecl>(CE->getDirectCallee()) &&
      !Args.empty())
    return Args.drop_front();
  return Args;
}

const CXXRecordDecl *lambdaClassOf(const CallExpr *CE) {
  const auto *OCE = dyn_cast<CXXOperatorCallExpr>(CE);
  if (!OCE || OCE->getOperator() != OO_Call)
    return nullptr;
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(OCE->getDirectCallee());
  return MD && MD->getParent()->isLambda() ? MD->getParent() : nullptr;
}

std::string NestBuilder::calleeText(const CallExpr *CE) {
  // A lambda's callee is its implicit operator(), spelled as the parens.
  return lambdaClassOf(CE) ? text(CE->getArg(0)) : text(CE->getCallee());
}

std::string NestBuilder::lambdaCaptureReason(const CallExpr *CE) {
  const CXXRecordDecl *RD = lambdaClassOf(CE);
  if (!RD)
    return "";
  std::string Lambda = "lambda '" + calleeText(CE) + "'";
  for (const LambdaCapture &C : RD->captures()) {
    if (C.capturesThis())
      continue; // fields read through `this` are read when the call runs
    const auto *VD = C.capturesVariable() ? dyn_cast<VarDecl>(C.getCapturedVar()) : nullptr;
    if (!VD)
      return Lambda + " captures what the tool does not follow";
    if (C.getCaptureKind() != LCK_ByCopy)
      continue;
    // A copy holds the value from where the lambda was made: the same as
    // the variable's own only where nothing changes the variable. A copied
    // array or object is memory of its own.
    if (isModified(VD))
      return Lambda + " captures '" + declName(VD) + "' by copy, and '" +
             declName(VD) + "' changes in the function";
    QualType T = VD->getType().getNonReferenceType();
    if (T->isArrayType() || T->isRecordType())
      return Lambda + " copies '" + declName(VD) + "', an array or object";
  }
  return "";
}

const FunctionDecl *NestBuilder::indexHelperOf(const CallExpr *CE) {
  if (isa<CXXMemberCallExpr>(CE) ||
      (isa<CXXOperatorCallExpr>(CE) && !lambdaClassOf(CE)))
    return nullptr;
  const FunctionDecl *Callee = CE->getDirectCallee();
  const FunctionDecl *Def = nullptr;
  if (!Callee || !Callee->hasBody(Def) || !Def || Def->isVariadic() ||
      !Def->getReturnType()->isIntegerType() ||
      SM.isInSystemHeader(Def->getLocation()))
    return nullptr;
  const Expr *Ret = soleReturn(Def->getBody());
  if (!Ret || callArguments(CE).size() != Def->getNumParams())
    return nullptr;
  ModificationSites Mod = modificationsIn(Def->getBody());
  for (const ParmVarDecl *P : Def->parameters())
    if (!P->getType()->isIntegerType() || Mod.Vars.count(P))
      return nullptr;
  return Def;
}

// While it lives, the helper's parameters are bound to \p Values.
class NestBuilder::IndexParams {
public:
  IndexParams(NestBuilder &B, const FunctionDecl *Def,
              llvm::ArrayRef<IndexPoly> Values)
      : B(B), Def(Def) {
    for (const ParmVarDecl *P : Def->parameters()) {
      if (auto It = B.Bindings.find(P); It != B.Bindings.end())
        Saved.emplace_back(P, It->second);
      Binding Bd;
      Bd.Kind = Binding::Index;
      Bd.Value = Values[P->getFunctionScopeIndex()];
      B.Bindings[P] = Bd;
    }
  }
  ~IndexParams() {
    for (const ParmVarDecl *P : Def->parameters())
      B.Bindings.erase(P);
    for (auto &[P, Bd] : Saved)
      B.Bindings[P] = Bd;
  }

private:
  NestBuilder &B;
  const FunctionDecl *Def;
  std::vector<std::pair<const ParmVarDecl *, Binding>> Saved;
};

std::optional<IndexPoly> NestBuilder::helperIndex(const CallExpr *CE,
                                                  const FunctionDecl *Def,
                                                  std::string &Why) {
  std::string Name = calleeText(CE);
  if (std::string Capture = lambdaCaptureReason(CE); !Capture.empty()) {
    Why = Capture;
    return std::nullopt;
  }
  if (HelperIndexDepth >= 8) {
    Why = "index helpers nested more than 8 deep ('" + Name + "')";
    return std::nullopt;
  }
  std::vector<IndexPoly> Values;
  for (const Expr *Arg : callArguments(CE)) {
    std::string Inner;
    std::optional<IndexPoly> V = indexOf(Arg, Inner);
    if (!V) {
      Why = "argument '" + text(Arg) + "' of '" + Name + "': " + Inner;
      return std::nullopt;
    }
    Values.push_back(*V);
  }
  llvm::SaveAndRestore Depth(HelperIndexDepth, HelperIndexDepth + 1);
  IndexParams Bound(*this, Def, Values);
  std::string Inner;
  std::optional<IndexPoly> Out = indexOf(soleReturn(Def->getBody()), Inner);
  if (!Out)
    Why = "in '" + Name + "', the index it returns: " + Inner;
  else
    noteExtended(CE->getBeginLoc(), "index computed by '" + Name + "'");
  return Out;
}

bool NestBuilder::helperUsesNestData(const CallExpr *CE,
                                     const FunctionDecl *Def) {
  for (const Expr *Arg : callArguments(CE))
    if (usesNestData(Arg))
      return true;
  if (HelperIndexDepth >= 8)
    return true;
  // The parameters hold the arguments, looked at above.
  llvm::SaveAndRestore Depth(HelperIndexDepth, HelperIndexDepth + 1);
  std::vector<IndexPoly> Zeros(Def->getNumParams(), IndexPoly::constant(0));
  IndexParams Bound(*this, Def, Zeros);
  return usesNestData(soleReturn(Def->getBody()));
}

bool NestBuilder::callerScalar(const Expr *Arg, std::string &Why) {
  const auto *DRE = dyn_cast<DeclRefExpr>(strip(Arg));
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!VD || Bindings.count(VD) || !VD->hasLocalStorage())
    return false;
  // Integers stay refused: one changed by a call could be an index or a
  // counter the nest follows.
  if (VD->getType()->isIntegerType())
    Why = "'" + declName(VD) + "', an integer passed by reference, may be "
          "changed by the call (an index or counter the tool does not follow "
          "through calls)";
  return VD->getType()->isRealFloatingType();
}

} // namespace frontend
} // namespace roofline
