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

std::optional<NestBuilder::IndexHelper>
NestBuilder::indexHelperBody(const FunctionDecl *Def) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Def->getBody());
  if (!Body || Body->size() == 0)
    return std::nullopt;
  IndexHelper Out;
  Out.Def = Def;
  const auto *Ret = dyn_cast<ReturnStmt>(Body->body_back());
  Out.Ret = Ret ? Ret->getRetValue() : nullptr;
  if (!Out.Ret)
    return std::nullopt;
  for (const clang::Stmt *S : llvm::make_range(Body->body_begin(), Body->body_end() - 1)) {
    const auto *DS = dyn_cast<DeclStmt>(S);
    if (!DS)
      return std::nullopt;
    for (const Decl *D : DS->decls()) {
      const auto *VD = dyn_cast<VarDecl>(D);
      if (!VD || !VD->getType()->isIntegerType() || !VD->getInit())
        return std::nullopt;
      Out.Locals.push_back(VD);
    }
  }
  ModificationSites Mod = modificationsIn(Body);
  for (const ParmVarDecl *P : Def->parameters()) {
    QualType T = P->getType();
    bool Struct = T->isRecordType() && !isContainerType(T);
    if ((!T->isIntegerType() && !Struct) || Mod.Vars.count(P))
      return std::nullopt;
  }
  for (const VarDecl *VD : Out.Locals)
    if (Mod.Vars.count(VD))
      return std::nullopt;
  return Out;
}

const NestBuilder::IndexHelper *NestBuilder::indexHelperOf(const CallExpr *CE) {
  // A getter (`m.rows()`, `m.at(r, c)`) is one too, its object's fields
  // named through the object (helperIndex).
  if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(CE)) {
    const CXXMethodDecl *MD = MCE->getMethodDecl();
    if (!MD || MD->isVirtual() || MD->isStatic())
      return nullptr;
  } else if (isa<CXXOperatorCallExpr>(CE) && !lambdaClassOf(CE)) {
    return nullptr;
  }
  const FunctionDecl *Callee = CE->getDirectCallee();
  const FunctionDecl *Def = nullptr;
  if (!Callee || !Callee->hasBody(Def) || !Def || Def->isVariadic() ||
      !Def->getReturnType()->isIntegerType() ||
      SM.isInSystemHeader(Def->getLocation()) ||
      callArguments(CE).size() != Def->getNumParams())
    return nullptr;
  auto [It, New] = IndexHelpers.try_emplace(Def);
  if (New)
    if (std::optional<IndexHelper> H = indexHelperBody(Def))
      It->second = std::make_unique<IndexHelper>(std::move(*H));
  return It->second.get();
}

// While it lives, variables of a helper (parameters, locals) are bound as
// given; the bindings they had come back after.
class NestBuilder::IndexParams {
public:
  explicit IndexParams(NestBuilder &B) : B(B) {}
  void bind(const VarDecl *VD, const Binding &Bd) {
    if (auto It = B.Bindings.find(VD); It != B.Bindings.end())
      Saved.emplace_back(VD, It->second);
    B.Bindings[VD] = Bd;
    Bound.push_back(VD);
  }
  void bindIndex(const VarDecl *VD, const IndexPoly &P) {
    Binding Bd;
    Bd.Kind = Binding::Index;
    Bd.Value = P;
    bind(VD, Bd);
  }
  ~IndexParams() {
    for (const VarDecl *VD : Bound)
      B.Bindings.erase(VD);
    for (auto &[VD, Bd] : Saved)
      B.Bindings[VD] = Bd;
  }

private:
  NestBuilder &B;
  std::vector<const VarDecl *> Bound;
  std::vector<std::pair<const VarDecl *, Binding>> Saved;
};

std::optional<IndexPoly> NestBuilder::helperIndex(const CallExpr *CE,
                                                  const IndexHelper &H,
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
  IndexParams Scope(*this);
  std::optional<std::string> Object = ThisObject;
  if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(CE)) {
    std::string Inner;
    Object = getterObject(MCE, Inner);
    if (!Object) {
      Why = "the object of '" + text(CE) + "': " + Inner;
      return std::nullopt;
    }
  }
  llvm::SaveAndRestore This(ThisObject, Object);
  llvm::ArrayRef<const Expr *> Args = callArguments(CE);
  for (const ParmVarDecl *P : H.Def->parameters()) {
    const Expr *Arg = Args[P->getFunctionScopeIndex()];
    std::string Inner;
    // A struct by value: its fields are the caller's (entry_index(l, ...)).
    if (P->getType()->isRecordType()) {
      std::optional<Binding> O = objectBinding(Arg, P->getType(), Inner);
      if (!O) {
        Why = "argument '" + text(Arg) + "' of '" + Name + "': " + Inner;
        return std::nullopt;
      }
      Scope.bind(P, *O);
      continue;
    }
    std::optional<IndexPoly> V = indexOf(Arg, Inner);
    if (!V) {
      Why = "argument '" + text(Arg) + "' of '" + Name + "': " + Inner;
      return std::nullopt;
    }
    Scope.bindIndex(P, *V);
  }
  llvm::SaveAndRestore Depth(HelperIndexDepth, HelperIndexDepth + 1);
  for (const VarDecl *VD : H.Locals) {
    std::string Inner;
    std::optional<IndexPoly> V = indexOf(VD->getInit(), Inner);
    if (!V) {
      Why = "in '" + Name + "', '" + declName(VD) + "': " + Inner;
      return std::nullopt;
    }
    Scope.bindIndex(VD, *V);
  }
  std::string Inner;
  std::optional<IndexPoly> Out = indexOf(H.Ret, Inner);
  if (!Out)
    Why = "in '" + Name + "', the index it returns: " + Inner;
  else
    noteExtended(CE->getBeginLoc(), "index computed by '" + Name + "'");
  return Out;
}

std::optional<std::string>
NestBuilder::getterObject(const CXXMemberCallExpr *MCE, std::string &Why) {
  const Expr *Obj = strip(MCE->getImplicitObjectArgument());
  if (isa<CXXThisExpr>(Obj)) // a getter of the nest's own object
    return ThisObject ? *ThisObject : std::string();
  std::optional<Binding> O =
      objectBinding(Obj, MCE->getImplicitObjectArgument()->getType(), Why);
  if (!O)
    return std::nullopt;
  if (O->Row) {
    Why = "one object of the array '" + O->Row->Array + "' (a value per object)";
    return std::nullopt;
  }
  return O->ObjectName;
}

bool NestBuilder::helperUsesNestData(const CallExpr *CE,
                                     const IndexHelper &H) {
  for (const Expr *Arg : callArguments(CE))
    if (usesNestData(Arg))
      return true;
  if (HelperIndexDepth >= 8)
    return true;
  // The parameters hold the arguments, looked at above; a local holds data
  // where its initializer reads some.
  llvm::SaveAndRestore Depth(HelperIndexDepth, HelperIndexDepth + 1);
  IndexParams Scope(*this);
  Binding Object;
  Object.Kind = Binding::Object;
  for (const ParmVarDecl *P : H.Def->parameters()) {
    if (P->getType()->isRecordType())
      Scope.bind(P, Object);
    else
      Scope.bindIndex(P, IndexPoly::constant(0));
  }
  for (const VarDecl *VD : H.Locals) {
    if (usesNestData(VD->getInit()))
      return true;
    Scope.bindIndex(VD, IndexPoly::constant(0));
  }
  return usesNestData(H.Ret);
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
