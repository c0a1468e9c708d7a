//===- LowerAccessors.cpp - Elements and rows reached through a class -----===//
//
// C++ kernels reach their arrays through a matrix or tensor class:
//   float &operator()(int r, int c) { return data[r * cols + c]; }
//   const float *row(int r) const { return data + r * cols; }
//   float *operator[](int r) { return data + r * cols; }
// and write `C(i, j) += A(i, k) * B(k, j)`, `const float *a = A.row(i);`,
// `A[i][k]`. An accessor has the index helpers' shape (int locals, then
// `return e;`, nothing changed) and returns a pointer or an element (a
// reference, or a value read by a subscript): its call is e, an element
// of or a pointer into the array e names, with the parameters bound to the
// arguments and the object's fields named through the caller's object
// (`A.data`, `A.cols`); docs/design.md, "Calls".
//
//===----------------------------------------------------------------------===//

#include "NestBuilder.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace roofline {
namespace frontend {

namespace {

/// \p E is written as one element: a subscript or a dereference.
bool elementSyntax(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (isa<ArraySubscriptExpr>(E))
    return true;
  if (const auto *OCE = dyn_cast<CXXOperatorCallExpr>(E))
    return OCE->getOperator() == OO_Subscript;
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return UO->getOpcode() == UO_Deref;
  return false;
}

} // namespace

const Expr *finalReturn(const FunctionDecl *Def) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Def->getBody());
  if (!Body || Body->size() == 0)
    return nullptr;
  const auto *Ret = dyn_cast<ReturnStmt>(Body->body_back());
  return Ret ? Ret->getRetValue() : nullptr;
}

NestBuilder::AccessorKind
NestBuilder::accessorKindOf(const CallExpr *CE,
                            const FunctionDecl *&Def) const {
  const Expr *Obj = objectArgument(CE);
  if (Obj && isContainerType(Obj->IgnoreImpCasts()->getType()))
    return AccessorKind::None; // v[i], v.at(i): the container rules
  Def = helperDefinition(CE);
  if (!Def)
    return AccessorKind::None;
  QualType R = Def->getReturnType();
  if (R->isPointerType())
    return R->getPointeeType()->isArithmeticType() ? AccessorKind::Pointer
                                                   : AccessorKind::None;
  if (R->isReferenceType())
    return R.getNonReferenceType()->isArithmeticType() ? AccessorKind::Element
                                                       : AccessorKind::None;
  // A function or lambda returning a value is inlined as calls are; a
  // reference it returns names an element only as an accessor.
  bool Method = Obj != nullptr;
  const Expr *Ret = finalReturn(Def);
  if (Method && R->isArithmeticType() && Ret && elementSyntax(Ret))
    return AccessorKind::Element;
  return AccessorKind::None;
}

bool NestBuilder::isElementAccessor(const CallExpr *CE) const {
  const FunctionDecl *Def = nullptr;
  return accessorKindOf(CE, Def) == AccessorKind::Element;
}

std::optional<NestBuilder::View>
NestBuilder::accessorView(const CallExpr *CE, std::string &Why) {
  const FunctionDecl *Def = nullptr;
  if (accessorKindOf(CE, Def) == AccessorKind::None)
    return std::nullopt;
  const IndexHelper *H = cachedHelper(Def, /*Accessor=*/true);
  if (!H) {
    Why = "call to '" + calleeText(CE) + "', no accessor: " + AccessorWhy[Def];
    return std::nullopt;
  }
  std::optional<View> Out;
  bool Done = inHelperCall(CE, *H, Why, [&](std::string &Inner) {
    Out = viewOf(H->Ret, Inner);
    if (!Out)
      Inner = "what it returns: " + Inner;
    return Out.has_value();
  });
  if (!Done)
    return std::nullopt;
  noteExtended(CE->getBeginLoc(),
               "array reached through '" + calleeText(CE) + "'");
  return Out;
}

} // namespace frontend
} // namespace roofline
