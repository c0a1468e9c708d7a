//===- LowerCounters.cpp - Indices kept in counters the nest advances -----===//
//
// `int k = 0; for i { for j { ... w[k++] ... } }` keeps an affine index in a
// scalar: k = k0 + i*M + j. A counter is an integer local set before the nest
// to an index of the sizes, and inside the nest only advanced (++, --, +=/-=
// a constant or a size), unconditionally, in loop bodies. Its value at a use
// is its start, plus for each enclosing loop the steps of the iterations done
// (completed iterations times the steps of one whole body), plus the steps
// of the statements before the use in the current iteration
// (docs/user-guide.md, "Counters"). Anything else is refused with the
// reason.
//
//===----------------------------------------------------------------------===//

#include "NestBuilder.h"

#include "clang/AST/ParentMap.h"
#include "llvm/Support/SaveAndRestore.h"

#include <functional>

using namespace clang;
using namespace roofline;
using namespace roofline::frontend;

namespace {

const VarDecl *refersTo(const Expr *E) {
  const auto *DRE = dyn_cast_or_null<DeclRefExpr>(
      E ? E->IgnoreParenImpCasts() : nullptr);
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

/// A step of \p VD: `k++`, `--k`, `k += c`, `k -= c` (the operator).
const Expr *stepOf(const clang::Stmt *S, const VarDecl *VD) {
  if (const auto *UO = dyn_cast<UnaryOperator>(S);
      UO && UO->isIncrementDecrementOp() && refersTo(UO->getSubExpr()) == VD)
    return UO;
  if (const auto *BO = dyn_cast<CompoundAssignOperator>(S);
      BO && (BO->getOpcode() == BO_AddAssign ||
             BO->getOpcode() == BO_SubAssign) &&
      refersTo(BO->getLHS()) == VD)
    return BO;
  return nullptr;
}

} // namespace

const ParentMap &NestBuilder::functionParents() {
  if (!Parents)
    Parents = std::make_shared<ParentMap>(
        const_cast<clang::Stmt *>(Frames.front().FD->getBody()));
  return *Parents;
}

const VarDecl *NestBuilder::counterOf(const Expr *E) {
  const VarDecl *VD = refersTo(E);
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->isIncrementDecrementOp())
    VD = refersTo(UO->getSubExpr());
  if (!VD || Bindings.count(VD) ||
      llvm::any_of(IVs, [&](const auto &P) { return P.first == VD; }))
    return nullptr;
  return isCounterCandidate(VD) ? VD : nullptr;
}

// A step of a counter is index arithmetic: it counts nothing.
bool NestBuilder::isCounterStep(const Expr *E) {
  const VarDecl *VD = nullptr;
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    VD = refersTo(UO->getSubExpr());
  else if (const auto *CA = dyn_cast<CompoundAssignOperator>(E))
    VD = refersTo(CA->getLHS());
  if (!VD || !stepOf(E, VD) || Bindings.count(VD) ||
      llvm::any_of(IVs, [&](const auto &P) { return P.first == VD; }) ||
      !(isCounterCandidate(VD) || pointerCounterOf(E)))
    return false;
  return counterInfo(VD).Start.has_value();
}

bool NestBuilder::isCounterCandidate(const VarDecl *VD) {
  return VD->getType()->isIntegerType() && isAdvancedLocal(VD);
}

// A local declared before the nest (in the nest's own function, not an
// inlined callee's) that the nest (a pointer: the function) changes; or a pointer declared in the
// nest and advanced there (InNestPointers). Only the nest's function can
// name it: inside an inlined call it is an argument the nest passes
// (genann's `derivative(*o)` with `++o;` after it), used where the call is.
bool NestBuilder::isAdvancedLocal(const VarDecl *VD) {
  if (!Nest || Frames.empty() || !VD->isLocalVarDecl() ||
      VD->getDeclContext() != Frames.front().FD)
    return false;
  if (InNestPointers.count(VD) || InNestCounters.count(VD))
    return true;
  bool Inside = SM.isPointWithin(VD->getLocation(), Nest->getBeginLoc(),
                                 Nest->getEndLoc());
  // An integer changed only outside the nest is the program walk's to
  // value (a loop variable around it); a pointer stepped only before the
  // nest starts further on (stepsBeforeNest).
  return !Inside && (VD->getType()->isPointerType()
                         ? isModified(VD)
                         : isModifiedWithin(VD, Nest));
}

const VarDecl *NestBuilder::pointerCounterOf(const Expr *E) {
  const Expr *S = E ? strip(E) : nullptr;
  const VarDecl *VD = refersTo(S);
  if (const auto *UO = dyn_cast_or_null<UnaryOperator>(S);
      UO && UO->isIncrementDecrementOp())
    VD = refersTo(UO->getSubExpr());
  if (const auto *CA = dyn_cast_or_null<CompoundAssignOperator>(S))
    VD = stepOf(CA, refersTo(CA->getLHS())) ? refersTo(CA->getLHS())
                                             : nullptr;
  if (!VD || Bindings.count(VD) || !VD->getType()->isPointerType())
    return nullptr;
  // Set again before the nest, not advanced: bound to its last setting.
  if (std::string Why; isModified(VD) && reassignedPointerView(VD, Why))
    return nullptr;
  return isAdvancedLocal(VD) ? VD : nullptr;
}

std::optional<NestBuilder::View>
NestBuilder::pointerCounterView(const VarDecl *VD, const Expr *Use,
                                std::string &Why) {
  std::optional<IndexPoly> Off = counterIndex(VD, Use, Why);
  if (!Off)
    return std::nullopt;
  auto Local = InNestPointers.find(VD);
  View V = Local != InNestPointers.end() ? Local->second
                                          : *counterInfo(VD).StartView;
  std::optional<IndexPoly> Sum = V.Subs.back().add(*Off);
  if (!Sum) {
    Why = "index arithmetic overflows";
    return std::nullopt;
  }
  V.Subs.back() = *Sum;
  return V;
}

// The start value of \p VD, or why it is no counter. Checked once per
// variable: every reference to it in the function is a read, or a step
// inside the nest that runs each time its loop body does.
const NestBuilder::CounterInfo &NestBuilder::counterInfo(const VarDecl *VD) {
  auto [It, New] = Counters.try_emplace(VD);
  CounterInfo &C = It->second;
  if (!New)
    return C;
  std::string Name = declName(VD);
  auto Refuse = [&](const std::string &Why) -> const CounterInfo & {
    C.Why = Why;
    return C;
  };
  if (!isa<ForStmt>(Nest))
    return Refuse("the nest is not a plain for loop");
  if (VD->isStaticLocal() || VD->getType().isVolatileQualified())
    return Refuse("'" + Name + "' is static or volatile");
  const Expr *Init = VD->getInit();
  if (!Init)
    return Refuse("'" + Name + "' has no initializer");
  std::string Inner;
  std::optional<IndexPoly> Start;
  bool IsPointer = VD->getType()->isPointerType();
  // Declared in the nest: its view is taken where the declaration runs
  // (lowerDecl), its steps counted from there.
  const clang::Stmt *Root = counterRoot(VD);
  bool InNest = Root != Nest;
  if (InNest) {
    if (auto It = InNestCounters.find(VD);
        It != InNestCounters.end() && !It->second.Start)
      return Refuse(It->second.Why);
    Start = IndexPoly::constant(0);
  } else {
    llvm::SaveAndRestore HideIVs(IVs, {});
    if (IsPointer) {
      // A pointer counts elements from the view it is bound to.
      C.StartView = viewOf(Init, Inner);
      if (C.StartView)
        Start = IndexPoly::constant(0);
    } else {
      Start = indexOf(Init, Inner);
    }
  }
  if (!Start)
    return Refuse("'" + Name + "' starts at '" + text(Init) + "' (" + Inner +
                  ")");
  // Set once before the nest: no loop may run the nest again without
  // setting it anew.
  const ParentMap &PM = functionParents();
  for (const clang::Stmt *A = InNest ? nullptr : PM.getParent(Nest); A;
       A = PM.getParent(A)) {
    if (SM.isPointWithin(VD->getLocation(), A->getBeginLoc(), A->getEndLoc()))
      break;
    if (isLoopStmt(A))
      return Refuse("a loop around the nest runs it again without setting '" +
                    Name + "' anew");
  }
  if (continueSkipsStep(Root, VD, PM))
    return Refuse("a 'continue' in the nest may skip a step of '" + Name +
                  "'");
  // Every reference: a read, or a step.
  llvm::SmallVector<const DeclRefExpr *, 8> Refs;
  std::function<void(const clang::Stmt *)> Collect =
      [&](const clang::Stmt *S) {
        if (!S)
          return;
        if (const auto *DRE = dyn_cast<DeclRefExpr>(S);
            DRE && DRE->getDecl() == VD)
          Refs.push_back(DRE);
        for (const clang::Stmt *Ch : S->children())
          Collect(Ch);
      };
  Collect(Frames.front().FD->getBody());
  for (const DeclRefExpr *DRE : Refs) {
    const clang::Stmt *P = PM.getParentIgnoreParens(DRE);
    if (const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(P);
        Cast && Cast->getCastKind() == CK_LValueToRValue) {
      // A callee given the pointer may keep or advance a copy of it.
      if (const auto *Call = dyn_cast_or_null<CallExpr>(
              PM.getParentIgnoreParenImpCasts(const_cast<ImplicitCastExpr *>(Cast)));
          IsPointer && Call)
        return Refuse("'" + Name + "' is passed to a call ('" + text(Call) +
                      "')");
      continue;
    }
    const Expr *Step = P ? stepOf(P, VD) : nullptr;
    if (!Step)
      return Refuse("'" + Name + "' is written or aliased by '" +
                    text(P ? P : DRE) + "'");
    // Steps outside the nest count where they run before it
    // (stepsBeforeNest); after it, or on a branch that excludes it, they
    // do not matter.
    if (!containsStmt(Nest, Step))
      continue;
    if (std::string Why = conditionalStep(Step, PM, Root, InNest);
        !Why.empty())
      return Refuse("'" + text(Step) + "' " + Why);
    if (!stepValue(Step, Inner))
      return Refuse("'" + text(Step) + "': " + Inner);
  }
  std::optional<IndexPoly> Before =
      InNest ? IndexPoly::constant(0) : stepsBeforeNest(VD, Inner);
  std::optional<IndexPoly> Sum = Before ? Start->add(*Before) : std::nullopt;
  if (!Sum)
    return Refuse(Inner);
  Start = *Sum;
  C.Start = *Start;
  return C;
}

namespace {

const clang::Stmt *findJump(const clang::Stmt *S);

bool stepsOutside(const clang::Stmt *S, const clang::Stmt *Skip,
                  const VarDecl *VD) {
  if (!S || S == Skip)
    return false;
  if (stepOf(S, VD))
    return true;
  for (const clang::Stmt *Ch : S->children())
    if (stepsOutside(Ch, Skip, VD))
      return true;
  return false;
}

/// \p S ends in a return, and leaves by no other way.
bool onlyReturns(const clang::Stmt *S) {
  const clang::Stmt *Last = S;
  if (const auto *CS = dyn_cast_or_null<CompoundStmt>(S))
    Last = CS->body_empty() ? nullptr : CS->body_back();
  return isa_and_nonnull<ReturnStmt>(Last) && findJump(S) == Last;
}

/// A statement that may leave a loop or a block early.
const clang::Stmt *findJump(const clang::Stmt *S) {
  if (!S)
    return nullptr;
  if (isa<BreakStmt>(S) || isa<ContinueStmt>(S) || isa<GotoStmt>(S) ||
      isa<IndirectGotoStmt>(S) || isa<ReturnStmt>(S) || isa<LabelStmt>(S) ||
      isa<SwitchStmt>(S))
    return S;
  for (const clang::Stmt *Ch : S->children())
    if (const clang::Stmt *J = findJump(Ch))
      return J;
  return nullptr;
}

} // namespace

// Where the value of \p VD is counted from: the nest, or for a counter
// declared in it, the block holding its declaration.
const clang::Stmt *NestBuilder::counterRoot(const VarDecl *VD) {
  if (!InNestPointers.count(VD) && !InNestCounters.count(VD))
    return Nest;
  const ParentMap &PM = functionParents();
  const clang::Stmt *Found = Nest;
  std::function<void(const clang::Stmt *)> Walk = [&](const clang::Stmt *S) {
    if (!S)
      return;
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (D == VD)
          Found = PM.getParent(DS);
    for (const clang::Stmt *Ch : S->children())
      Walk(Ch);
  };
  Walk(Nest);
  return Found;
}

// The steps of \p VD that run, every time, between its declaration and the
// entry of the nest: the whole steps of the statements before the nest (an
// earlier sibling nest: its trip counts times its steps), none from a branch
// that excludes the nest or returns before it.
std::optional<IndexPoly> NestBuilder::stepsBeforeNest(const VarDecl *VD,
                                                      std::string &Why) {
  const ParentMap &PM = functionParents();
  IndexPoly Sum = IndexPoly::constant(0);
  const clang::Stmt *Child = Nest;
  // Cases and labels: which earlier statements ran is not the order of the
  // text.
  for (const clang::Stmt *A = PM.getParent(Nest); A; A = PM.getParent(A)) {
    if ((isa<SwitchStmt>(A) || isa<SwitchCase>(A) || isa<LabelStmt>(A)) &&
        stepsOutside(A, Nest, VD)) {
      Why = "a 'switch' or label around the nest holds steps of '" +
            declName(VD) + "'";
      return std::nullopt;
    }
    if (SM.isPointWithin(VD->getLocation(), A->getBeginLoc(), A->getEndLoc()))
      break;
  }
  for (const clang::Stmt *A = PM.getParent(Nest); A;
       Child = A, A = PM.getParent(A)) {
    if (isa<CompoundStmt>(A)) {
      for (const clang::Stmt *S : A->children()) {
        if (S == Child)
          break;
        std::optional<IndexPoly> P = wholeSteps(VD, S, Why);
        std::optional<IndexPoly> Next = P ? Sum.add(*P) : std::nullopt;
        if (!Next)
          return std::nullopt;
        Sum = *Next;
      }
    } else {
      const auto *If = dyn_cast<IfStmt>(A);
      for (const clang::Stmt *S : A->children()) {
        bool Branch = If && (S == If->getThen() || S == If->getElse());
        if (S != Child && !Branch && stepsIn(S, VD)) {
          Why = "'" + text(S) + "', on the way into the nest, steps '" +
                declName(VD) + "'";
          return std::nullopt;
        }
      }
    }
    if (SM.isPointWithin(VD->getLocation(), A->getBeginLoc(), A->getEndLoc()))
      break;
  }
  return Sum;
}

// The steps one run of \p S, a statement before the nest, adds to \p VD:
// every step in it unconditional, no early exit.
std::optional<IndexPoly> NestBuilder::wholeSteps(const VarDecl *VD,
                                                 const clang::Stmt *S,
                                                 std::string &Why) {
  if (!stepsIn(S, VD))
    return IndexPoly::constant(0);
  // `if (c) { ... return; }`: where the nest runs, this branch did not.
  if (const auto *If = dyn_cast<IfStmt>(S);
      If && !If->getElse() && !stepsIn(If->getCond(), VD) &&
      !(If->getInit() && stepsIn(If->getInit(), VD)) && onlyReturns(If->getThen()))
    return IndexPoly::constant(0);
  std::string Name = declName(VD);
  if (const clang::Stmt *J = findJump(S)) {
    Why = "'" + text(J) + "' before the nest may skip a step of '" + Name +
          "'";
    return std::nullopt;
  }
  const ParentMap &PM = functionParents();
  std::string Problem;
  std::function<void(const clang::Stmt *)> Check = [&](const clang::Stmt *X) {
    if (!X || !Problem.empty())
      return;
    if (const Expr *Step = stepOf(X, VD))
      if (std::string W = conditionalStep(Step, PM, S); !W.empty())
        Problem = "'" + text(Step) + "', before the nest, " + W;
    for (const clang::Stmt *Ch : X->children())
      Check(Ch);
  };
  Check(S);
  if (!Problem.empty()) {
    Why = Problem;
    return std::nullopt;
  }
  return counterSteps(VD, S, Why);
}

// A `continue` skips the rest of its loop's body: it matters only where
// that body steps \p VD.
bool NestBuilder::continueSkipsStep(const clang::Stmt *S, const VarDecl *VD,
                                    const ParentMap &PM) {
  if (!S)
    return false;
  if (isa<ContinueStmt>(S)) {
    const clang::Stmt *L = PM.getParent(S);
    while (L && !isLoopStmt(L))
      L = PM.getParent(L);
    return !L || stepsIn(L, VD);
  }
  for (const clang::Stmt *Ch : S->children())
    if (continueSkipsStep(Ch, VD, PM))
      return true;
  return false;
}

bool NestBuilder::stepsIn(const clang::Stmt *S, const VarDecl *VD) {
  if (!S)
    return false;
  if (stepOf(S, VD))
    return true;
  for (const clang::Stmt *Ch : S->children())
    if (stepsIn(Ch, VD))
      return true;
  return false;
}

// Empty when \p Step runs once per run of the loop body around it (or once,
// in the nest's own body); else why not.
std::string NestBuilder::conditionalStep(const Expr *Step,
                                         const ParentMap &PM,
                                         const clang::Stmt *Root,
                                         bool ScopeGuards) {
  if (!Root)
    Root = Nest;
  if (Step == Root)
    return "";
  const clang::Stmt *Child = Step;
  for (const clang::Stmt *A = PM.getParent(Step); A;
       Child = A, A = PM.getParent(A)) {
    if (const auto *FS = dyn_cast<ForStmt>(A)) {
      if (FS->getBody() != Child)
        return "is in the header of a loop";
      if (A == Root)
        return "";
      continue;
    }
    // Root is a block, a declaration or an expression statement here; an
    // `if` or a loop as Root still makes its steps conditional.
    if (isa<CompoundStmt>(A) || isa<DeclStmt>(A) ||
        (isa<Expr>(A) && !isa<ConditionalOperator>(A) &&
         !isa<BinaryConditionalOperator>(A) &&
         !(isa<BinaryOperator>(A) && cast<BinaryOperator>(A)->isLogicalOp()))) {
      if (A == Root)
        return "";
      continue;
    }
    if (isa<ConditionalOperator>(A) || isa<BinaryConditionalOperator>(A))
      return "is under a condition ('?:')";
    if (const auto *BO = dyn_cast<BinaryOperator>(A);
        BO && BO->isLogicalOp())
      return "is under a condition ('" + BO->getOpcodeStr().str() + "')";
    if (isa<Expr>(A))
      continue;
    // In a counter's scope, a branch whose condition keeps its value there
    // runs all of its steps or none (the uses it holds see them all:
    // unguardedUse).
    if (const auto *If = dyn_cast<IfStmt>(A);
        If && ScopeGuards && !If->getInit() && !If->getConditionVariable() &&
        (Child == If->getThen() || Child == If->getElse())) {
      if (std::string Why = scopeVariance(If->getCond(), Root); !Why.empty())
        return "is under a condition ('" + text(If->getCond()) + "') that " +
               Why;
      continue;
    }
    if (isa<IfStmt>(A) || isa<SwitchStmt>(A))
      return "is under a condition ('" +
             StringRef(A->getStmtClassName()).drop_back(4).lower() + "')";
    return "is inside a '" +
           StringRef(A->getStmtClassName()).drop_back(4).lower() +
           "' statement";
  }
  return "is outside the nest";
}

std::string NestBuilder::scopeVariance(const Expr *Cond,
                                       const clang::Stmt *Root) {
  if (Cond->HasSideEffects(Ctx))
    return "has side effects";
  std::function<bool(const clang::Stmt *)> ReadsMemory =
      [&](const clang::Stmt *S) {
        if (!S)
          return false;
        if (isa<ArraySubscriptExpr>(S) || isa<CallExpr>(S) ||
            (isa<UnaryOperator>(S) &&
             cast<UnaryOperator>(S)->getOpcode() == UO_Deref))
          return true;
        return llvm::any_of(S->children(), ReadsMemory);
      };
  if (ReadsMemory(Cond))
    return "depends on data";
  const ParentMap &PM = functionParents();
  // The variable of a loop around the scope (set in the loop's header)
  // changes between runs of the scope, not within one.
  auto LoopAround = [&](const VarDecl *V) {
    for (const clang::Stmt *A = PM.getParent(Root); A; A = PM.getParent(A))
      if (const auto *FS = dyn_cast<ForStmt>(A)) {
        std::string W;
        std::optional<CounterLoop> L =
            counterLoop(FS, /*NeedTrip=*/false, W);
        if (L && L->IV == V)
          return true;
      }
    return false;
  };
  std::string Why;
  std::function<void(const clang::Stmt *)> Walk = [&](const clang::Stmt *S) {
    if (!S || !Why.empty())
      return;
    if (const auto *ME = dyn_cast<MemberExpr>(S))
      if (const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl());
          F && Frames.front().Modified.Fields.count(F))
        Why = "reads '" + text(ME) + "', which the function writes";
    if (const VarDecl *V = refersTo(dyn_cast<Expr>(S))) {
      // A constant (a constexpr size) never changes either.
      bool Local = (V->isLocalVarDecl() && !V->isStaticLocal()) ||
                   isa<ParmVarDecl>(V) || V->getType().isConstQualified();
      bool InScope = SM.isPointWithin(V->getLocation(), Root->getBeginLoc(),
                                      Root->getEndLoc());
      // A reference to const (`const Dims &cfg`) is read only, like a
      // pointer to its sizes.
      bool Ref = V->getType()->isReferenceType() &&
                 !V->getType().getNonReferenceType().isConstQualified();
      if (!Local || Ref)
        Why = "uses '" + declName(V) +
              "', which is no local variable or parameter";
      else if (InScope || isModifiedWithin(V, Root) ||
               (isModified(V) && !LoopAround(V)))
        Why = "uses '" + declName(V) +
              "', which changes within the counter's scope";
    }
    for (const clang::Stmt *Ch : S->children())
      Walk(Ch);
  };
  Walk(Cond);
  // Variables first: a loop variable of the scope is not lowered yet when
  // a pointer's declaration asks.
  if (Why.empty() && usesNestData(Cond))
    Why = "depends on data";
  return Why;
}

std::string NestBuilder::unguardedUse(const VarDecl *VD, const Expr *Use,
                                      const clang::Stmt *Root) {
  const ParentMap &PM = functionParents();
  std::string Why;
  std::function<void(const clang::Stmt *)> Walk = [&](const clang::Stmt *S) {
    if (!S || !Why.empty())
      return;
    if (const Expr *Step = stepOf(S, VD)) {
      const clang::Stmt *Child = Step;
      for (const clang::Stmt *A = PM.getParent(Step); A && Child != Root;
           Child = A, A = PM.getParent(A))
        if (const auto *If = dyn_cast<IfStmt>(A);
            If && (Child == If->getThen() || Child == If->getElse()) &&
            !containsStmt(Child, Use)) {
          Why = "this use of '" + declName(VD) +
                "' is outside the branch of 'if (" +
                text(If->getCond()) + ")' that holds its step '" + text(Step) +
                "'";
          return;
        }
    }
    for (const clang::Stmt *Ch : S->children())
      Walk(Ch);
  };
  Walk(Root);
  return Why;
}

// How much \p Step adds: 1, -1, a constant or a size.
std::optional<IndexPoly> NestBuilder::stepValue(const Expr *Step,
                                                std::string &Why) {
  if (const auto *UO = dyn_cast<UnaryOperator>(Step))
    return IndexPoly::constant(UO->isIncrementOp() ? 1 : -1);
  const auto *BO = cast<CompoundAssignOperator>(Step);
  std::optional<IndexPoly> V = loopFreeIndex(BO->getRHS(), Why);
  if (V && BO->getOpcode() == BO_SubAssign)
    V = V->scale(-1);
  return V;
}

// \p E as an index of the sizes alone: no loop variable, nothing set in
// the nest.
std::optional<IndexPoly> NestBuilder::loopFreeIndex(const Expr *E,
                                                    std::string &Why) {
  std::function<const VarDecl *(const clang::Stmt *)> InnerVar =
      [&](const clang::Stmt *S) -> const VarDecl * {
    if (!S)
      return nullptr;
    if (const VarDecl *VD = refersTo(dyn_cast<Expr>(S));
        VD && SM.isPointWithin(VD->getLocation(), Nest->getBeginLoc(),
                               Nest->getEndLoc()))
      return VD;
    for (const clang::Stmt *Ch : S->children())
      if (const VarDecl *VD = InnerVar(Ch))
        return VD;
    return nullptr;
  };
  if (const VarDecl *VD = InnerVar(E)) {
    Why = refersTo(E) == VD ? "'" + declName(VD) + "' is set by the nest"
                            : "'" + text(E) + "' uses '" + declName(VD) +
                                  "', which the nest sets";
    return std::nullopt;
  }
  llvm::SaveAndRestore HideIVs(IVs, {});
  std::optional<IndexPoly> P = indexOf(E, Why);
  if (P && P->usesLoopVars()) {
    Why = "'" + text(E) + "' depends on a loop variable";
    return std::nullopt;
  }
  return P;
}

// The loop `for (v = A; v < B; v++)` (or `v <= B`, `++v`, `v += 1`): its
// variable, A, and the trip count when it depends on sizes alone.
std::optional<NestBuilder::CounterLoop>
NestBuilder::counterLoop(const ForStmt *FS, bool NeedTrip, std::string &Why) {
  CounterLoop L;
  const Expr *First = nullptr;
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(FS->getInit());
      DS && DS->isSingleDecl())
    if (const auto *VD = dyn_cast<VarDecl>(DS->getSingleDecl())) {
      L.IV = VD;
      First = VD->getInit();
    }
  if (const auto *BO = dyn_cast_or_null<BinaryOperator>(FS->getInit());
      BO && BO->getOpcode() == BO_Assign) {
    L.IV = refersTo(BO->getLHS());
    First = BO->getRHS();
  }
  const Expr *Inc = FS->getInc() ? FS->getInc()->IgnoreParens() : nullptr;
  bool UnitStep = false;
  if (const auto *UO = dyn_cast_or_null<UnaryOperator>(Inc))
    UnitStep = UO->isIncrementOp() && refersTo(UO->getSubExpr()) == L.IV;
  if (const auto *CA = dyn_cast_or_null<CompoundAssignOperator>(Inc)) {
    Expr::EvalResult R;
    UnitStep = CA->getOpcode() == BO_AddAssign &&
               refersTo(CA->getLHS()) == L.IV &&
               CA->getRHS()->EvaluateAsInt(R, Ctx) &&
               R.Val.getInt().getExtValue() == 1;
  }
  const auto *Cond =
      dyn_cast_or_null<BinaryOperator>(FS->getCond() ? FS->getCond()->IgnoreParenImpCasts() : nullptr);
  bool Upper = Cond && (Cond->getOpcode() == BO_LT || Cond->getOpcode() == BO_LE) &&
               refersTo(Cond->getLHS()->IgnoreImpCasts()) == L.IV;
  if (!L.IV || !First || !UnitStep || !Upper) {
    Why = "the loop at '" + text(FS->getInit() ? FS->getInit() : FS) +
          "' is not 'for (v = A; v < B; v++)'";
    return std::nullopt;
  }
  std::string Inner;
  if (!NeedTrip) {
    std::optional<IndexPoly> A = indexOf(First, Inner);
    if (!A) {
      Why = "the start of the loop over '" + declName(L.IV) + "' (" + Inner +
            ")";
      return std::nullopt;
    }
    L.Start = *A;
    return L;
  }
  std::optional<IndexPoly> A = loopFreeIndex(First, Inner);
  std::optional<IndexPoly> B = A ? loopFreeIndex(Cond->getRHS(), Inner)
                                 : std::nullopt;
  std::optional<IndexPoly> Trip = B ? B->sub(*A) : std::nullopt;
  if (Trip && Cond->getOpcode() == BO_LE)
    Trip = Trip->add(IndexPoly::constant(1));
  if (!Trip) {
    Why = "the trip count of the loop over '" + declName(L.IV) +
          "' depends on the iteration (" + Inner + ")";
    return std::nullopt;
  }
  L.Start = *A;
  L.Trip = *Trip;
  return L;
}

// A negative B - A runs no iteration, where the product of the trip count
// and the steps would count some: a trip count that is not a sum of sizes
// is stated as a condition on the sizes, checked where they are known.
bool NestBuilder::stateNonNegativeTrip(const CounterLoop &L,
                                       const VarDecl *VD, std::string &Why) {
  bool NonNegative = true;
  for (const auto &[M, Coef] : L.Trip.parts())
    NonNegative &= Coef.isConstant() && Coef.constant() >= 0;
  if (NonNegative)
    return true;
  std::vector<SizeMonomial> Products;
  std::optional<AffineExpr> T = L.Trip.toAffine(&Products);
  if (!T || T->isConstant()) {
    Why = "the loop over '" + declName(L.IV) + "' that advances '" +
          declName(VD) + "' may run a negative number of times";
    return false;
  }
  registerProducts(Products);
  Conditions.push_back({*T, "the loop over '" + declName(L.IV) +
                                "' that advances '" + declName(VD) +
                                "' runs at least 0 times"});
  return true;
}

// The steps one run of \p S adds to \p VD.
std::optional<IndexPoly> NestBuilder::counterSteps(const VarDecl *VD,
                                                   const clang::Stmt *S,
                                                   std::string &Why) {
  if (!S)
    return IndexPoly::constant(0);
  if (const Expr *Step = stepOf(S, VD))
    return stepValue(Step, Why);
  if (const auto *FS = dyn_cast<ForStmt>(S)) {
    std::optional<IndexPoly> Body = counterSteps(VD, FS->getBody(), Why);
    if (!Body || Body->isZero())
      return Body;
    std::optional<CounterLoop> L = counterLoop(FS, /*NeedTrip=*/true, Why);
    if (!L)
      return std::nullopt;
    if (isModifiedWithin(L->IV, FS->getBody())) {
      Why = "the loop over '" + declName(L->IV) + "' that advances '" +
            declName(VD) + "' changes its variable in its body";
      return std::nullopt;
    }
    if (!stateNonNegativeTrip(*L, VD, Why))
      return std::nullopt;
    bool LoopVarProduct = false;
    std::optional<IndexPoly> P = L->Trip.mul(*Body, LoopVarProduct);
    if (!P)
      Why = "the steps of '" + declName(VD) + "' overflow";
    return P;
  }
  IndexPoly Sum = IndexPoly::constant(0);
  for (const clang::Stmt *Ch : S->children()) {
    std::optional<IndexPoly> P = counterSteps(VD, Ch, Why);
    std::optional<IndexPoly> Next = P ? Sum.add(*P) : std::nullopt;
    if (!Next)
      return std::nullopt;
    Sum = *Next;
  }
  return Sum;
}

// The value of counter \p VD at \p Use: a reference to it, or one of its
// steps (`k++` is the value before, `++k` after).
std::optional<IndexPoly> NestBuilder::counterIndex(const VarDecl *VD,
                                                   const Expr *Use,
                                                   std::string &Why) {
  const CounterInfo &C = counterInfo(VD);
  std::string Name = declName(VD);
  auto Refuse = [&](const std::string &Reason) -> std::optional<IndexPoly> {
    Why = (VD->getType()->isPointerType()
               ? "pointer '" + Name + "', which the nest advances, "
               : "'" + Name + "', a counter the nest advances, ") +
          "is not affine in the loop variables: " + Reason;
    CounterRefusals[VD] = Reason;
    return std::nullopt;
  };
  if (!C.Start)
    return Refuse(C.Why);
  const ParentMap &PM = functionParents();
  const clang::Stmt *Root = counterRoot(VD);
  std::vector<const clang::Stmt *> Path{Use};
  while (Path.back() != Root) {
    const clang::Stmt *P = PM.getParent(Path.back());
    if (!P)
      return Refuse("'" + text(Use) + "' is not inside the nest");
    Path.push_back(P);
  }
  std::reverse(Path.begin(), Path.end()); // Nest ... Use
  if (Root != Nest)
    if (std::string Why = unguardedUse(VD, Use, Root); !Why.empty())
      return Refuse(Why);
  IndexPoly Value = *C.Start;
  if (auto It = InNestCounters.find(VD); It != InNestCounters.end()) {
    std::optional<IndexPoly> S = Value.add(*It->second.Start);
    if (!S)
      return Refuse("index arithmetic overflows");
    Value = *S;
  }
  std::string Inner;
  auto Add = [&](std::optional<IndexPoly> P) {
    std::optional<IndexPoly> S = P ? Value.add(*P) : std::nullopt;
    if (S)
      Value = *S;
    return S.has_value();
  };
  for (size_t I = 0; I + 1 < Path.size(); ++I) {
    const clang::Stmt *A = Path[I], *Child = Path[I + 1];
    if (const auto *FS = dyn_cast<ForStmt>(A)) {
      if (FS->getBody() != Child)
        return Refuse("'" + text(Use) + "' is in a loop header");
      std::optional<IndexPoly> Body = counterSteps(VD, FS->getBody(), Inner);
      if (!Body)
        return Refuse(Inner);
      if (Body->isZero())
        continue;
      std::optional<CounterLoop> L = counterLoop(FS, /*NeedTrip=*/false, Inner);
      if (!L)
        return Refuse(Inner);
      auto It =
          llvm::find_if(IVs, [&](const auto &P) { return P.first == L->IV; });
      if (It == IVs.end())
        return Refuse("the loop over '" + declName(L->IV) + "' is not lowered");
      bool LoopVarProduct = false;
      std::optional<IndexPoly> Done =
          IndexPoly::loopVar(It->second).sub(L->Start);
      if (!Add(Done ? Done->mul(strideSize(*Body), LoopVarProduct)
                    : std::nullopt))
        return Refuse("the iterations done of the loop over '" +
                      declName(L->IV) + "' times its steps is not affine");
      continue;
    }
    if (isa<CompoundStmt>(A)) {
      for (const clang::Stmt *S : A->children()) {
        if (S == Child)
          break;
        if (!Add(counterSteps(VD, S, Inner)))
          return Refuse(Inner);
      }
      continue;
    }
    if (const auto *If = dyn_cast<IfStmt>(A);
        If && (Child == If->getThen() || Child == If->getElse()))
      continue;
    // A full expression (or declaration): no step of VD in it but the use.
    std::optional<IndexPoly> Steps = counterSteps(VD, A, Inner);
    if (!Steps)
      return Refuse(Inner);
    const Expr *OwnStep = stepOf(Use, VD);
    std::optional<IndexPoly> Own =
        OwnStep ? stepValue(OwnStep, Inner) : IndexPoly::constant(0);
    if (!Own || *Steps != *Own ||
        (OwnStep && !isa<UnaryOperator>(OwnStep)))
      return Refuse("'" + text(A) + "' reads and advances '" + Name +
                    "' in one statement");
    if (OwnStep && cast<UnaryOperator>(OwnStep)->isPrefix() && !Add(Own))
      return Refuse(Inner);
    break;
  }
  // Generated code would need the counter's own updates.
  noteExtended(Use->getBeginLoc(),
               "an index kept in the counter '" + Name + "'");
  return Value;
}

// \p E uses data of the nest other than \p VD's own value (`k = k * 2`
// loads nothing).
bool NestBuilder::loadsBesides(const Expr *E, const VarDecl *VD) {
  E = strip(E);
  if (refersTo(E) == VD)
    return false;
  if (isa<DeclRefExpr>(E) || isa<ArraySubscriptExpr>(E) || isa<CallExpr>(E) ||
      (isa<UnaryOperator>(E) &&
       cast<UnaryOperator>(E)->getOpcode() == UO_Deref))
    return usesNestData(E);
  for (const clang::Stmt *Ch : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(Ch); CE && loadsBesides(CE, VD))
      return true;
  return false;
}

// A counter whose use was refused, in an index \p E that reads no memory
// itself, and that the nest never assigns a loaded value: the counter's
// reason, not a gather's, says why.
const VarDecl *NestBuilder::refusedCounterIn(const Expr *E) {
  const VarDecl *Found = nullptr;
  bool ReadsMemory = false;
  std::function<void(const clang::Stmt *)> Walk = [&](const clang::Stmt *S) {
    if (!S)
      return;
    if (isa<ArraySubscriptExpr>(S) || isa<CallExpr>(S) ||
        (isa<UnaryOperator>(S) &&
         cast<UnaryOperator>(S)->getOpcode() == UO_Deref))
      ReadsMemory = true;
    if (const VarDecl *VD = refersTo(dyn_cast<Expr>(S));
        VD && CounterRefusals.count(VD))
      Found = VD;
    for (const clang::Stmt *Ch : S->children())
      Walk(Ch);
  };
  Walk(E);
  if (ReadsMemory || !Found)
    return nullptr;
  bool Loaded = false;
  std::function<void(const clang::Stmt *)> Assigned =
      [&](const clang::Stmt *S) {
        if (!S)
          return;
        if (const auto *BO = dyn_cast<BinaryOperator>(S);
            BO && BO->isAssignmentOp() && refersTo(BO->getLHS()) == Found &&
            loadsBesides(BO->getRHS(), Found))
          Loaded = true;
        for (const clang::Stmt *Ch : S->children())
          Assigned(Ch);
      };
  Assigned(Nest);
  return Loaded ? nullptr : Found;
}
