//===- LowerMirroredBranches.cpp - The same work on both sides of data ----===//
//
// darknet's gemm_bin adds or subtracts a row by the sign bit it loads:
// `if (A_PART) { for (j...) C[i*ldc+j] += B[k*ldb+j]; } else { for (j...)
// C[i*ldc+j] -= B[k*ldb+j]; }`. The branch is data-dependent and holds
// loops, which lowerArm refuses in general (the work would depend on the
// data). Where the two branches are the same code but for `+=` against `-=`
// on a floating-point value, each runs the same loops over the same elements
// with the same operations counted (a subtraction counts as an addition, a
// `-= a*b` as a multiply-add): the condition is counted every time and the
// then-branch lowered as the work of either (docs/design.md, "Conditions").
//
//===----------------------------------------------------------------------===//

#include "NestBuilder.h"

#include "llvm/ADT/FoldingSet.h"

using namespace clang;
using namespace roofline;
using namespace roofline::frontend;
using IRStmt = roofline::Stmt;

namespace {

/// Compares two statements as the work they do; variables declared in
/// corresponding places of the two are one.
class MirrorCompare {
public:
  explicit MirrorCompare(const ASTContext &Ctx) : Ctx(Ctx) {}

  bool same(const clang::Stmt *A, const clang::Stmt *B) {
    if (!A || !B)
      return A == B;
    if (A->getStmtClass() != B->getStmtClass())
      return false;
    if (const auto *EA = dyn_cast<Expr>(A))
      if (EA->getType() != cast<Expr>(B)->getType())
        return false;
    if (!sameNode(A, B))
      return false;
    auto CA = A->children(), CB = B->children();
    auto IA = CA.begin(), IB = CB.begin();
    for (; IA != CA.end() && IB != CB.end(); ++IA, ++IB)
      if (!same(*IA, *IB))
        return false;
    return IA == CA.end() && IB == CB.end();
  }

private:
  bool sameNode(const clang::Stmt *A, const clang::Stmt *B) {
    if (const auto *DA = dyn_cast<DeclRefExpr>(A)) {
      const ValueDecl *VA = DA->getDecl();
      const ValueDecl *VB = cast<DeclRefExpr>(B)->getDecl();
      auto It = Paired.find(VA);
      return VA == VB || (It != Paired.end() && It->second == VB);
    }
    if (const auto *SA = dyn_cast<DeclStmt>(A))
      return sameDecls(SA, cast<DeclStmt>(B));
    if (const auto *CA = dyn_cast<CompoundAssignOperator>(A)) {
      // `+=` and `-=` on a floating-point value: one FLOP (or MAC) either
      // way.
      const auto *CB = cast<CompoundAssignOperator>(B);
      auto AddOrSub = [](BinaryOperatorKind K) {
        return K == BO_AddAssign || K == BO_SubAssign;
      };
      return CA->getOpcode() == CB->getOpcode() ||
             (AddOrSub(CA->getOpcode()) && AddOrSub(CB->getOpcode()) &&
              CA->getComputationResultType()->isRealFloatingType() &&
              CA->getComputationResultType() ==
                  CB->getComputationResultType());
    }
    if (const auto *BA = dyn_cast<BinaryOperator>(A))
      return BA->getOpcode() == cast<BinaryOperator>(B)->getOpcode();
    if (const auto *UA = dyn_cast<UnaryOperator>(A))
      return UA->getOpcode() == cast<UnaryOperator>(B)->getOpcode();
    if (const auto *CA = dyn_cast<CastExpr>(A))
      return CA->getCastKind() == cast<CastExpr>(B)->getCastKind();
    if (const auto *MA = dyn_cast<MemberExpr>(A))
      return MA->getMemberDecl() == cast<MemberExpr>(B)->getMemberDecl() &&
             MA->isArrow() == cast<MemberExpr>(B)->isArrow();
    if (A->children().empty()) {
      // Literals and other leaves: as Clang profiles them.
      llvm::FoldingSetNodeID PA, PB;
      A->Profile(PA, Ctx, /*Canonical=*/true);
      B->Profile(PB, Ctx, /*Canonical=*/true);
      return PA == PB;
    }
    // Statements (for, compound, if, ...) and expressions whose meaning is
    // their class, type and children.
    return isa<CompoundStmt, ForStmt, IfStmt, ParenExpr, ArraySubscriptExpr,
               CallExpr, ConditionalOperator, NullStmt>(A) &&
           !isa<CXXMemberCallExpr, CXXOperatorCallExpr>(A);
  }

  bool sameDecls(const DeclStmt *A, const DeclStmt *B) {
    auto DA = A->decls(), DB = B->decls();
    auto IA = DA.begin(), IB = DB.begin();
    for (; IA != DA.end() && IB != DB.end(); ++IA, ++IB) {
      const auto *VA = dyn_cast<VarDecl>(*IA);
      const auto *VB = dyn_cast<VarDecl>(*IB);
      if (!VA || !VB || VA->getType() != VB->getType() ||
          VA->isStaticLocal() || VB->isStaticLocal())
        return false;
      Paired[VA] = VB; // the children compare the initializers
    }
    return IA == DA.end() && IB == DB.end();
  }

  const ASTContext &Ctx;
  llvm::DenseMap<const ValueDecl *, const ValueDecl *> Paired;
};

bool holdsLoop(const clang::Stmt *S) {
  if (!S)
    return false;
  if (isLoopStmt(S))
    return true;
  for (const clang::Stmt *C : S->children())
    if (holdsLoop(C))
      return true;
  return false;
}

} // namespace

bool NestBuilder::lowerMirroredBranch(const IfStmt *If, Loop &Parent,
                                      bool &Handled) {
  Handled = false;
  const clang::Stmt *Then = If->getThen(), *Else = If->getElse();
  if (!Else || !holdsLoop(Then))
    return false;
  MirrorCompare Compare(Ctx);
  if (!Compare.same(Then, Else))
    return false;
  Handled = true;
  IRStmt St;
  St.Loc = loc(If->getBeginLoc());
  if (!visitCondition(If->getCond(), St))
    return false;
  if (!St.Accesses.empty() || !St.Ops.empty() || St.IntOps)
    Parent.Body.push_back(Node::stmt(std::move(St)));
  std::string Note = "the branches of the if at line " +
                     std::to_string(loc(If->getBeginLoc()).Line) +
                     " do the same work (+= against -=): counted once";
  addNote(std::move(Note));
  noteExtended(If->getBeginLoc(), "data-dependent branch");
  return lowerBody(Then, Parent, /*IsLoopBody=*/false);
}
