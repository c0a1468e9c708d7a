//===- LowerRunTimeLocals.cpp - Locals computed at run time as sizes ------===//
//
// A local integer the function computes once before the nest from something
// the analysis cannot follow (`n = kad_len(q);`, `int rows = t->shape[0];`)
// has one value for the whole nest: it is a size of its own, named by the
// variable, like a parameter (docs/user-guide.md, "Sizes"; docs/design.md,
// "Sizes"). Only where that is certain: one definition in the function, before
// the nest and outside it, and every other use a plain read (no `&n`, no
// reference bound to it, no `n++`). A local of a function called inside the
// nest is computed once per call, not once per nest, and stays refused.
//
//===----------------------------------------------------------------------===//

#include "NestBuilder.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;
using namespace roofline;
using namespace roofline::frontend;

namespace {

/// How a function uses one local: its plain reads, its plain assignments
/// and every reference to it.
class LocalUses : public RecursiveASTVisitor<LocalUses> {
public:
  explicit LocalUses(const VarDecl *VD) : VD(VD) {}

  bool VisitImplicitCastExpr(ImplicitCastExpr *C) {
    if (C->getCastKind() == CK_LValueToRValue)
      if (const DeclRefExpr *D = refTo(C->getSubExpr()))
        Reads.insert(D);
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *B) {
    if (B->getOpcode() == BO_Assign)
      if (const DeclRefExpr *D = refTo(B->getLHS())) {
        Assignments.push_back(B);
        AssignedRefs.insert(D);
      }
    return true;
  }
  /// An argument bound to a `const T &` parameter is read, not changed
  /// (std::min(n, 4)).
  bool VisitCallExpr(CallExpr *C) {
    const FunctionDecl *Callee = C->getDirectCallee();
    if (!Callee)
      return true;
    // A member operator's object is argument 0 and no parameter.
    unsigned Skip = isa<CXXOperatorCallExpr>(C) && isa<CXXMethodDecl>(Callee);
    for (unsigned I = Skip; I < C->getNumArgs(); ++I) {
      const DeclRefExpr *D = refTo(C->getArg(I));
      unsigned P = I - Skip;
      if (!D || P >= Callee->getNumParams())
        continue;
      QualType T = Callee->getParamDecl(P)->getType();
      if (T->isReferenceType() && T->getPointeeType().isConstQualified())
        Reads.insert(D);
    }
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *D) {
    if (D->getDecl() == VD)
      Refs.push_back(D);
    return true;
  }

  /// True when every reference is a plain read or a plain assignment.
  bool onlyReadsAndAssignments() const {
    for (const DeclRefExpr *D : Refs)
      if (!Reads.count(D) && !AssignedRefs.count(D))
        return false;
    return true;
  }

  llvm::SmallVector<const BinaryOperator *, 2> Assignments;

private:
  const DeclRefExpr *refTo(const Expr *E) const {
    // Binding a `const int &` adds const through a no-op cast.
    E = E->IgnoreParens();
    while (const auto *C = dyn_cast<ImplicitCastExpr>(E)) {
      if (C->getCastKind() != CK_NoOp)
        break;
      E = C->getSubExpr()->IgnoreParens();
    }
    const auto *D = dyn_cast<DeclRefExpr>(E);
    return D && D->getDecl() == VD ? D : nullptr;
  }

  const VarDecl *VD;
  llvm::SmallPtrSet<const DeclRefExpr *, 8> Reads;
  llvm::SmallPtrSet<const DeclRefExpr *, 2> AssignedRefs;
  llvm::SmallVector<const DeclRefExpr *, 8> Refs;
};

} // namespace

const Expr *NestBuilder::runTimeDefinition(const VarDecl *VD,
                                           std::string &Why) {
  if (!Nest || !FD || !FD->getBody() || isa<ParmVarDecl>(VD) ||
      !VD->isLocalVarDecl() || VD->isStaticLocal() ||
      !VD->getType()->isIntegerType() ||
      VD->getParentFunctionOrMethod() != FD)
    return nullptr;
  SourceLocation NestBegin = SM.getExpansionLoc(Nest->getBeginLoc());
  SourceLocation NestEnd = SM.getExpansionLoc(Nest->getEndLoc());
  auto InNest = [&](SourceLocation L) {
    return SM.isPointWithin(SM.getExpansionLoc(L), NestBegin, NestEnd);
  };
  if (InNest(VD->getLocation()))
    return nullptr;
  LocalUses Uses(VD);
  Uses.TraverseStmt(const_cast<clang::Stmt *>(FD->getBody()));
  std::string Name = "'" + declName(VD) + "'";
  if (!Uses.onlyReadsAndAssignments()) {
    Why = Name + " may change through its address or a reference (a "
                 "computed size must be defined once and only read)";
    return nullptr;
  }
  size_t Definitions = Uses.Assignments.size() + (VD->getInit() ? 1 : 0);
  if (Definitions != 1) {
    Why = Name + " is assigned " + std::to_string(Definitions) +
          " times in the function: its value at the nest is not one size";
    return nullptr;
  }
  if (const Expr *Init = VD->getInit())
    return Init;
  SourceLocation At = SM.getExpansionLoc(Uses.Assignments.front()->getEndLoc());
  if (InNest(At) || !SM.isBeforeInTranslationUnit(At, NestBegin)) {
    Why = Name + " is assigned " +
          (InNest(At) ? "inside the nest" : "after the nest") +
          ": it has no one value at the nest";
    return nullptr;
  }
  return Uses.Assignments.front()->getRHS();
}

std::optional<IndexPoly> NestBuilder::runTimeSize(const VarDecl *VD,
                                                  const Expr *Def) {
  SizeName S;
  S.Name = declName(VD);
  S.Origin = "run-time";
  addParam(S);
  Notes.push_back("size " + S.Name + " = " + text(Def) +
                  " is computed at run time: counted as a size of its own "
                  "(give it with --param " +
                  S.Name + "=VALUE)");
  return IndexPoly::size(S.Name);
}
