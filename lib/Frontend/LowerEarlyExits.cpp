//===- LowerEarlyExits.cpp - Loops that stop early on the data -----------===//
//
// `if (coin < cdf) return i;` (a sampler) or `if (x[i] == key) break;` (a
// search) as the last statement of a loop's body, on a condition that
// depends on the data: the loop may stop after any of its iterations. The
// condition is counted on every iteration that runs, the loop is marked
// Loop::ExitsEarly, and the counts become a range from its first iteration
// per entry to every iteration (docs/design.md, "Early exits"). The branch
// may first record into locals the nest does not read (`last = i;`). A `return`
// stops the whole nest, so it is taken from the outermost loop only; an
// exit elsewhere in the body, or under a condition on loop variables, stays
// refused.
//
//===----------------------------------------------------------------------===//

#include "NestBuilder.h"

using namespace clang;
using namespace roofline;
using namespace roofline::frontend;
using IRStmt = roofline::Stmt;

namespace {

/// `x = e;` with x a local variable (not a reference): what an exit may
/// record before it leaves (llama2.c's `last_idx = i; break;`).
const BinaryOperator *recordAssignment(const clang::Stmt *S) {
  const auto *BO = dyn_cast<BinaryOperator>(S);
  if (!BO || BO->getOpcode() != BO_Assign)
    return nullptr;
  const auto *DRE = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParens());
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  return VD && VD->hasLocalStorage() && !VD->getType()->isReferenceType()
             ? BO
             : nullptr;
}

const VarDecl *recordedVar(const BinaryOperator *BO) {
  return cast<VarDecl>(
      cast<DeclRefExpr>(BO->getLHS()->IgnoreParens())->getDecl());
}

/// How many times \p S names \p VD.
unsigned timesNamed(const clang::Stmt *S, const VarDecl *VD) {
  if (!S)
    return 0;
  unsigned N = 0;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    N += DRE->getDecl() == VD;
  for (const clang::Stmt *C : S->children())
    N += timesNamed(C, VD);
  return N;
}

} // namespace

const clang::Stmt *roofline::frontend::exitGuarded(const IfStmt *If) {
  const clang::Stmt *Then = plainThen(If);
  if (!Then)
    return nullptr;
  std::vector<const clang::Stmt *> C = childrenOf(Then);
  if (C.empty() || !(isa<BreakStmt>(C.back()) || isa<ReturnStmt>(C.back())))
    return nullptr;
  for (size_t I = 0; I + 1 < C.size(); ++I)
    if (!recordAssignment(C[I]))
      return nullptr;
  return C.back();
}

std::vector<const BinaryOperator *>
roofline::frontend::recordedBy(const IfStmt *If) {
  std::vector<const BinaryOperator *> Out;
  for (const clang::Stmt *S : childrenOf(If->getThen()))
    if (const BinaryOperator *BO = recordAssignment(S))
      Out.push_back(BO);
  return Out;
}

const clang::Stmt *roofline::frontend::lastBreakGuard(const clang::Stmt *Body) {
  if (!Body)
    return nullptr;
  std::vector<const clang::Stmt *> C = childrenOf(Body);
  while (!C.empty() && isa<NullStmt>(C.back()))
    C.pop_back();
  if (C.empty())
    return nullptr;
  const clang::Stmt *Exit = exitGuarded(dyn_cast<IfStmt>(C.back()));
  return Exit && isa<BreakStmt>(Exit) ? C.back() : nullptr;
}

bool NestBuilder::exitFromWholeLoops(const IfStmt *If, bool IsReturn) {
  // A split or regrouped loop is several loops of the IR: stopping one part
  // stops the others too, which no single loop's range says.
  size_t From = IsReturn ? 0 : LoopStack.size() - 1;
  for (size_t I = From; I < LoopStack.size(); ++I) {
    const LoopFrame &F = LoopStack[I];
    if (F.Split || F.SplitHeader || F.Regrouped)
      return fail(If->getBeginLoc(), RejectKind::EarlyExit,
                  "early exit on the data from a loop that is counted in "
                  "parts (split by a condition, or run in groups)");
  }
  return true;
}

bool NestBuilder::recordsUnseen(const IfStmt *If) {
  std::vector<const BinaryOperator *> Records = recordedBy(If);
  if (Records.empty())
    return true;
  // A helper's local may be read by the caller's code around the call.
  if (Frames.size() != 1)
    return fail(If->getBeginLoc(), RejectKind::EarlyExit,
                "early exit that records a value, in a called function");
  const clang::Stmt *Root = LoopStack.front().Body;
  for (const BinaryOperator *BO : Records) {
    const VarDecl *VD = recordedVar(BO);
    if (!isPlainValue(BO->getRHS()))
      return fail(BO->getBeginLoc(), RejectKind::EarlyExit,
                  "early exit that records a computed value '" +
                      text(BO->getRHS()) + "'");
    // Every mention in the nest is a record: the nest never reads it.
    auto Recorded = llvm::count_if(Records, [&](const BinaryOperator *Other) {
      return recordedVar(Other) == VD;
    });
    if (timesNamed(Root, VD) != static_cast<unsigned>(Recorded) ||
        capturedByLambda(FD->getBody(), VD))
      return fail(BO->getBeginLoc(), RejectKind::EarlyExit,
                  "early exit that records '" + declName(VD) +
                      "', which the nest also reads or writes");
  }
  return true;
}

bool NestBuilder::lowerExitGuard(const IfStmt *If, Loop &Parent, bool &Done) {
  Done = false;
  const clang::Stmt *Exit = exitGuarded(If);
  if (!Exit || ArmDepth != 0 || LoopStack.empty() ||
      LoopStack.back().L != &Parent)
    return true;
  const Expr *Cond = If->getCond();
  if (classify(Cond) != CondKind::Data)
    return true; // a loop-invariant or affine exit: the other rules
  const auto *Ret = dyn_cast<ReturnStmt>(Exit);
  // A return from a loop inside another would also skip the rest of the
  // outer loop's body: refused where it stands (lowerReturnGuard).
  if (Ret && (Frames.size() != 1 || LoopStack.size() != 1))
    return true;
  Done = true;
  if (!exitFromWholeLoops(If, Ret != nullptr) || !recordsUnseen(If) ||
      (Ret && !plainReturnValue(Ret)))
    return false;
  IRStmt St;
  St.Loc = loc(If->getBeginLoc());
  if (!visitCondition(Cond, St))
    return false;
  Parent.Body.push_back(Node::stmt(std::move(St)));
  Parent.ExitsEarly = true;
  noteExtended(If->getBeginLoc(), "early exit");
  addNote(std::string("early exit ('") + (Ret ? "return" : "break") +
          "') at line " + std::to_string(loc(If->getBeginLoc()).Line) +
          " when '" + text(Cond) + "', which depends on the data");
  return true;
}
