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
  if (lambdaClassOf(CE))
    return text(CE->getArg(0));
  // `m(r, c)`, `rows[r]`: the call as written names the operator best.
  return isa<CXXOperatorCallExpr>(CE) ? text(CE) : text(CE->getCallee());
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

namespace {

/// \p C reads nothing and calls nothing: integer compares of indices, which
/// cost nothing (an assertion in a helper, `assert(r < rows_)`).
bool indexOnly(const clang::Stmt *C) {
  if (isa<ArraySubscriptExpr, CallExpr>(C))
    return false;
  if (const auto *UO = dyn_cast<UnaryOperator>(C);
      UO && (UO->getOpcode() == UO_Deref || UO->isIncrementDecrementOp()))
    return false;
  if (const auto *BO = dyn_cast<BinaryOperator>(C); BO && BO->isAssignmentOp())
    return false;
  return llvm::all_of(C->children(), [](const clang::Stmt *Ch) {
    return !Ch || indexOnly(Ch);
  });
}

/// The first line of \p Text, for a message.
std::string firstLine(llvm::StringRef Text) {
  llvm::StringRef Line = Text.split('\n').first.trim();
  return Line.size() < Text.trim().size() ? (Line + " ...").str() : Line.str();
}

} // namespace

bool NestBuilder::helperLocal(const clang::Stmt *S, bool Accessor,
                              IndexHelper &Out) {
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls()) {
      const auto *VD = dyn_cast<VarDecl>(D);
      if (!VD || !VD->getInit())
        return false;
      QualType T = VD->getType();
      bool Pointer = Accessor && T->isPointerType() &&
                     T->getPointeeType()->isArithmeticType();
      if (!T->isIntegerType() && !Pointer)
        return false;
      Out.Locals.push_back(VD);
    }
    return true;
  }
  bool HoldsWhen = true;
  const Expr *Cond = assertedCondition(S, HoldsWhen);
  return Cond && indexOnly(Cond);
}

std::optional<NestBuilder::IndexHelper>
NestBuilder::indexHelperBody(const FunctionDecl *Def, bool Accessor,
                             std::string &Why) {
  IndexHelper Out;
  Out.Def = Def;
  Out.Ret = finalReturn(Def);
  if (!Out.Ret) {
    Why = "its body does not end in `return e;`";
    return std::nullopt;
  }
  const auto *Body = cast<CompoundStmt>(Def->getBody());
  for (const clang::Stmt *S : llvm::make_range(Body->body_begin(), Body->body_end() - 1))
    if (!helperLocal(S, Accessor, Out)) {
      Why = "'" + firstLine(text(S)) + "' before its return (only integer locals, " +
            (Accessor ? "row pointers, " : "") + "and assertions that read nothing)";
      return std::nullopt;
    }
  ModificationSites Mod = modificationsIn(Body);
  // An accessor may hand out a container field's element (a non-const
  // `v_[i]` is a change of v_ to the walk), never move a position.
  if (Accessor)
    for (const FieldDecl *F : Mod.Fields)
      if (!isContainerType(F->getType().getNonReferenceType())) {
        Why = "it changes the field '" + F->getNameAsString() + "'";
        return std::nullopt;
      }
  for (const ParmVarDecl *P : Def->parameters()) {
    QualType T = P->getType();
    bool Struct = T->isRecordType() && !isContainerType(T);
    bool Taken = Accessor && (T->isPointerType() || T->isReferenceType()) &&
                 !T->getPointeeType()->isFunctionType();
    if (!T->isIntegerType() && !Struct && !Taken) {
      Why = "its parameter '" + declName(P) + "' is a '" + T.getAsString() + "'";
      return std::nullopt;
    }
    if (Mod.Vars.count(P)) {
      Why = "it changes its parameter '" + declName(P) + "'";
      return std::nullopt;
    }
  }
  for (const VarDecl *VD : Out.Locals)
    if (Mod.Vars.count(VD)) {
      Why = "it changes its local '" + declName(VD) + "'";
      return std::nullopt;
    }
  return Out;
}

const FunctionDecl *NestBuilder::helperDefinition(const CallExpr *CE) const {
  // A getter: a method of the object, never one an override may replace.
  if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(CE)) {
    const CXXMethodDecl *MD = MCE->getMethodDecl();
    if (!MD || MD->isVirtual() || MD->isStatic())
      return nullptr;
  } else if (const auto *OCE = dyn_cast<CXXOperatorCallExpr>(CE);
             OCE && !lambdaClassOf(CE)) {
    const auto *MD = dyn_cast_or_null<CXXMethodDecl>(OCE->getDirectCallee());
    if (!MD || MD->isVirtual() ||
        (OCE->getOperator() != OO_Call && OCE->getOperator() != OO_Subscript))
      return nullptr;
  }
  const FunctionDecl *Callee = CE->getDirectCallee();
  const FunctionDecl *Def = nullptr;
  if (!Callee || !Callee->hasBody(Def) || !Def || Def->isVariadic() ||
      SM.isInSystemHeader(Def->getLocation()) ||
      callArguments(CE).size() != Def->getNumParams())
    return nullptr;
  return Def;
}

const NestBuilder::IndexHelper *NestBuilder::cachedHelper(const FunctionDecl *Def,
                                                         bool Accessor) {
  auto [It, New] = (Accessor ? AccessorHelpers : IndexHelpers).try_emplace(Def);
  if (New) {
    std::string Why;
    if (std::optional<IndexHelper> H = indexHelperBody(Def, Accessor, Why))
      It->second = std::make_unique<IndexHelper>(std::move(*H));
    else if (Accessor)
      AccessorWhy[Def] = Why;
  }
  return It->second.get();
}

const NestBuilder::IndexHelper *NestBuilder::indexHelperOf(const CallExpr *CE) {
  // An operator call is a lambda's or an accessor's (LowerAccessors.cpp).
  if (isa<CXXOperatorCallExpr>(CE) && !lambdaClassOf(CE))
    return nullptr;
  const FunctionDecl *Def = helperDefinition(CE);
  if (!Def || !Def->getReturnType()->isIntegerType())
    return nullptr;
  return cachedHelper(Def, /*Accessor=*/false);
}

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
    bind(VD, Binding::index(P));
  }
  /// \p VD bound to the index \p E computes; false (\p Why) where none.
  bool bindIndexOf(const VarDecl *VD, const Expr *E, std::string &Why) {
    std::optional<IndexPoly> V = B.indexOf(E, Why);
    if (V)
      bindIndex(VD, *V);
    return V.has_value();
  }
  /// \p VD bound (as \p Kind, Pointer or Element) to the view \p E names.
  bool bindViewOf(const VarDecl *VD, const Expr *E, Binding::KindTy Kind,
                  std::string &Why) {
    std::optional<View> V = B.viewOf(E, Why);
    if (!V)
      return false;
    Binding Bd;
    Bd.Kind = Kind;
    Bd.V = *V;
    bind(VD, Bd);
    return true;
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

bool NestBuilder::bindHelperParam(const ParmVarDecl *P, const Expr *Arg,
                                  IndexParams &Scope, std::string &Why) {
  QualType T = P->getType();
  QualType Pointee = T->isPointerType() || T->isReferenceType()
                         ? T->getPointeeType()
                         : QualType();
  bool Object = T->isRecordType() ||
                (!Pointee.isNull() && Pointee->isRecordType() &&
                 !isContainerType(Pointee));
  if (Object) {
    std::optional<Binding> O = objectBinding(Arg, T, Why);
    if (O)
      Scope.bind(P, *O);
    return O.has_value();
  }
  if (!Pointee.isNull()) // an array an accessor reaches into
    return Scope.bindViewOf(P, Arg,
                            T->isReferenceType() && Pointee->isArithmeticType()
                                ? Binding::Element
                                : Binding::Pointer,
                            Why);
  return Scope.bindIndexOf(P, Arg, Why);
}

bool NestBuilder::inHelperCall(const CallExpr *CE, const IndexHelper &H,
                               std::string &Why,
                               llvm::function_ref<bool(std::string &)> Body) {
  std::string Name = calleeText(CE);
  if (std::string Capture = lambdaCaptureReason(CE); !Capture.empty()) {
    Why = Capture;
    return false;
  }
  if (HelperIndexDepth >= 8) {
    Why = "helpers nested more than 8 deep ('" + Name + "')";
    return false;
  }
  IndexParams Scope(*this);
  std::optional<std::string> Object = ThisObject;
  if (const Expr *ObjArg = objectArgument(CE)) {
    std::string Inner;
    Object = callObject(ObjArg, Inner);
    if (!Object) {
      Why = "the object of '" + text(CE) + "': " + Inner;
      return false;
    }
  }
  // The arguments are the caller's expressions: bound before `this` is
  // the callee's object.
  llvm::ArrayRef<const Expr *> Args = callArguments(CE);
  for (const ParmVarDecl *P : H.Def->parameters()) {
    const Expr *Arg = Args[P->getFunctionScopeIndex()];
    std::string Inner;
    if (!bindHelperParam(P, Arg, Scope, Inner)) {
      Why = "argument '" + text(Arg) + "' of '" + Name + "': " + Inner;
      return false;
    }
  }
  llvm::SaveAndRestore This(ThisObject, Object);
  llvm::SaveAndRestore Depth(HelperIndexDepth, HelperIndexDepth + 1);
  for (const VarDecl *VD : H.Locals) {
    std::string Inner;
    bool Bound = VD->getType()->isPointerType() // an accessor's row pointer
                     ? Scope.bindViewOf(VD, VD->getInit(), Binding::Pointer, Inner)
                     : Scope.bindIndexOf(VD, VD->getInit(), Inner);
    if (!Bound) {
      Why = "in '" + Name + "', '" + declName(VD) + "': " + Inner;
      return false;
    }
  }
  std::string Inner;
  if (Body(Inner))
    return true;
  Why = "in '" + Name + "', " + Inner;
  return false;
}

std::optional<IndexPoly> NestBuilder::helperIndex(const CallExpr *CE,
                                                  const IndexHelper &H,
                                                  std::string &Why) {
  std::optional<IndexPoly> Out;
  bool Done = inHelperCall(CE, H, Why, [&](std::string &Inner) {
    Out = indexOf(H.Ret, Inner);
    if (!Out)
      Inner = "the index it returns: " + Inner;
    return Out.has_value();
  });
  if (!Done)
    return std::nullopt;
  noteExtended(CE->getBeginLoc(), "index computed by '" + calleeText(CE) + "'");
  return Out;
}

const Expr *objectArgument(const CallExpr *CE) {
  if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(CE))
    return MCE->getImplicitObjectArgument();
  if (isa<CXXOperatorCallExpr>(CE) && !lambdaClassOf(CE) &&
      isa_and_nonnull<CXXMethodDecl>(CE->getDirectCallee()))
    return CE->getArg(0);
  return nullptr;
}

std::optional<std::string> NestBuilder::callObject(const Expr *ObjArg,
                                                   std::string &Why) {
  const Expr *Obj = strip(ObjArg);
  QualType T = ObjArg->getType();
  // `(*x)(i, j)` calls the operator of the object x points to.
  if (const auto *UO = dyn_cast<UnaryOperator>(Obj);
      UO && UO->getOpcode() == UO_Deref) {
    T = UO->getSubExpr()->getType();
    Obj = strip(UO->getSubExpr());
  }
  if (isa<CXXThisExpr>(Obj)) // a getter of the nest's own object
    return ThisObject ? *ThisObject : std::string();
  std::optional<Binding> O = objectBinding(Obj, T, Why);
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
