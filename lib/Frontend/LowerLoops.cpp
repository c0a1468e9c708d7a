//===- LowerLoops.cpp - Loops, conditions and calls -----------------------===//
//
// for and range-based for become IR loops; if statements become what they
// are to a count (docs/design.md, "Conditions"): an affine condition moves
// into the bounds of a loop (or splits it in two, in order), a loop-
// invariant one picks its branch for the case being built, a data-dependent
// one whose branches are straight-line gives a range of work. A call to a
// function of the translation unit is lowered as its body at the call's
// arguments.
//
//===----------------------------------------------------------------------===//

#include "NestBuilder.h"
#include "CallSites.h"
#include "roofline/Frontend/CrossTU.h"
#include "roofline/IR/GuardLoop.h"

#include "clang/AST/StmtOpenMP.h"
#include "llvm/Frontend/OpenMP/OMP.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SaveAndRestore.h"

#include <algorithm>
#include <functional>

using namespace clang;
using namespace roofline;
using namespace roofline::frontend;
using IRStmt = roofline::Stmt;

namespace {

/// Whether the loop of OpenMP directive \p D is counted as if the pragma were
/// not there: worksharing, simd and loop transformations run each iteration
/// exactly once in all.
bool isOpenMPLoopCounted(const OMPExecutableDirective *D) {
  return D->hasAssociatedStmt() && isa<OMPLoopBasedDirective>(D);
}

/// What can end a loop body early: break, return, goto, co_return (not the
/// breaks of a switch), and co_await/co_yield. `continue` is lowered where
/// it stands (a guard, or refused); so is `if (c) return;` where
/// \p ReturnGuards (LowerAsserts.cpp).
struct EarlyEnds {
  const clang::Stmt *Exit = nullptr;
  const clang::Stmt *Suspension = nullptr;
};

void findEarlyEnds(const clang::Stmt *S, bool InSwitch, EarlyEnds &R,
                   bool ReturnGuards = false,
                   const clang::Stmt *BreakGuard = nullptr) {
  if (!S || isa<LambdaExpr>(S) || (R.Exit && R.Suspension))
    return;
  // `if (c) break;` ending a loop's body: a candidate early exit, lowered
  // where it stands (LowerEarlyExits.cpp).
  if (S == BreakGuard)
    return;
  if (const auto *FS = dyn_cast<ForStmt>(S))
    BreakGuard = lastBreakGuard(FS->getBody());
  else if (const auto *RS = dyn_cast<CXXForRangeStmt>(S))
    BreakGuard = lastBreakGuard(RS->getBody());
  // Every `if (c) return;` guard (records before it or not) is lowered
  // where it stands (LowerAsserts.cpp, LowerEarlyExits.cpp).
  if (ReturnGuards &&
      isa_and_nonnull<ReturnStmt>(exitGuarded(dyn_cast<IfStmt>(S))))
    return;
  if (isa<CoroutineSuspendExpr>(S)) {
    if (!R.Suspension)
      R.Suspension = S;
  } else if (!InSwitch &&
             (isa<BreakStmt>(S) || isa<ReturnStmt>(S) || isa<GotoStmt>(S) ||
              isa<IndirectGotoStmt>(S) || isa<CoreturnStmt>(S))) {
    if (!R.Exit)
      R.Exit = S;
    return;
  }
  InSwitch |= isa<SwitchStmt>(S);
  for (const clang::Stmt *Child : S->children())
    findEarlyEnds(Child, InSwitch, R, ReturnGuards, BreakGuard);
}

const char *exitKind(const clang::Stmt *S) {
  if (isa<BreakStmt>(S))
    return "break";
  if (isa<ReturnStmt>(S))
    return "return";
  if (isa<CoreturnStmt>(S))
    return "co_return";
  return "goto";
}

/// Shifts every term of \p B by \p Delta (floor(x/d) + c == floor((x+c*d)/d)).
std::optional<Bound> shiftBound(const Bound &B, int64_t Delta) {
  Bound R = B;
  for (BoundTerm &T : R.Terms) {
    int64_t Scaled;
    if (__builtin_mul_overflow(Delta, T.Divisor, &Scaled))
      return std::nullopt;
    std::optional<AffineExpr> E = T.Expr.addConstant(Scaled);
    if (!E)
      return std::nullopt;
    T.Expr = *E;
  }
  return R;
}

} // namespace

std::vector<const clang::Stmt *>
roofline::frontend::childrenOf(const clang::Stmt *S) {
  if (const auto *CS = dyn_cast<CompoundStmt>(S))
    return {CS->body_begin(), CS->body_end()};
  return {S};
}

namespace {

bool isLastChild(const clang::Stmt *Body, const clang::Stmt *Child) {
  std::vector<const clang::Stmt *> C = childrenOf(Body);
  while (!C.empty() && isa<NullStmt>(C.back()))
    C.pop_back();
  return !C.empty() && C.back() == Child;
}

/// `if (c) continue;`
bool isContinueGuard(const IfStmt *If) {
  if (!If || If->getElse())
    return false;
  const clang::Stmt *Then = If->getThen();
  if (const auto *CS = dyn_cast<CompoundStmt>(Then))
    Then = CS->size() == 1 ? CS->body_front() : nullptr;
  return Then && isa<ContinueStmt>(Then);
}

void addOps(std::map<Precision, OpCounts> &Into,
            const std::map<Precision, OpCounts> &From) {
  for (const auto &[P, C] : From)
    Into[P] += C;
}

/// Componentwise minimum (Min) or maximum of the counters of \p A and \p B.
OpCounts combineOps(const OpCounts &A, const OpCounts &B, bool Min) {
  auto Pick = [&](int64_t X, int64_t Y) {
    return Min ? std::min(X, Y) : std::max(X, Y);
  };
  OpCounts R;
  R.Macs = Pick(A.Macs, B.Macs);
  R.Adds = Pick(A.Adds, B.Adds);
  R.Muls = Pick(A.Muls, B.Muls);
  R.Divs = Pick(A.Divs, B.Divs);
  std::set<std::string> Names;
  for (const auto &[N, K] : A.Calls)
    Names.insert(N);
  for (const auto &[N, K] : B.Calls)
    Names.insert(N);
  for (const std::string &N : Names) {
    auto IA = A.Calls.find(N), IB = B.Calls.find(N);
    int64_t V = Pick(IA == A.Calls.end() ? 0 : IA->second,
                     IB == B.Calls.end() ? 0 : IB->second);
    if (V)
      R.Calls[N] = V;
  }
  return R;
}

OpCounts subtractOps(const OpCounts &A, const OpCounts &B) {
  OpCounts R;
  R.Macs = A.Macs - B.Macs;
  R.Adds = A.Adds - B.Adds;
  R.Muls = A.Muls - B.Muls;
  R.Divs = A.Divs - B.Divs;
  for (const auto &[N, K] : A.Calls) {
    auto It = B.Calls.find(N);
    int64_t V = K - (It == B.Calls.end() ? 0 : It->second);
    if (V)
      R.Calls[N] = V;
  }
  return R;
}

} // namespace

/// Declarations of scalars at most.
bool roofline::frontend::nothingCounted(const Loop &L) {
  return llvm::all_of(L.Body, [](const Node &N) {
    return !N.isLoop() && N.S.Accesses.empty() && N.S.Ops.empty() &&
           !N.S.IntOps && N.S.MaybeOps.empty();
  });
}

//===----------------------------------------------------------------------===//
// Loops
//===----------------------------------------------------------------------===//

std::string NestBuilder::ivName(const VarDecl *VD) {
  std::string Base = declName(VD), Name = Base;
  auto Taken = [&](const std::string &N) {
    if (ParamSet.count(N))
      return true;
    return llvm::any_of(IVs, [&](const auto &P) { return P.second == N; });
  };
  // A callee's loop variable may meet the caller's of the same name in one
  // subscript (x = inp + i*C passed in, then x[i]): names must differ.
  for (unsigned K = 2; Taken(Name); ++K)
    Name = Base + "." + std::to_string(K);
  return Name;
}

void NestBuilder::enterLoop(Loop &L, const VarDecl *IVDecl,
                            const clang::Stmt *Body) {
  IVs.push_back({IVDecl, L.IV});
  IVDecls.push_back(IVDecl);
  Ranges.push_back({L.IV, L.First, L.Last, L.Step, Innermost});
  Innermost = &Ranges.back();
  LoopStack.push_back({&L, Innermost, Body, nullptr});
  LoopStack.back().IVDecl = IVDecl;
  TouchedStack.emplace_back();
}

void NestBuilder::leaveLoop() {
  IVs.pop_back();
  IVDecls.pop_back();
  Innermost = const_cast<LoopRange *>(Innermost->Outer);
  LoopStack.pop_back();
  TouchedStack.pop_back();
}

bool NestBuilder::lowerFor(const ForStmt *FS, std::vector<Node> &Out) {
  // The other parts of a comma in the header are statements before it.
  Loop Before;
  for (const Expr *E : otherInits(FS))
    if (!lowerStmt(E, Before))
      return false;
  size_t OutBefore = Out.size(), PendingBefore = Pending.size();
  NormalizeFor = nullptr;
  bool Ok = lowerForSplit(FS, Out, /*Normalize=*/false);
  if (!Ok && NormalizeFor == FS && Reason.empty()) {
    // A condition raises the start of this strided loop: lowered again
    // over a unit-step variable (LowerRegroup.cpp). What the first try
    // recorded goes.
    NormalizeFor = nullptr;
    Out.erase(Out.begin() + OutBefore, Out.end());
    Pending.erase(Pending.begin() + PendingBefore, Pending.end());
    Ok = lowerForSplit(FS, Out, /*Normalize=*/true);
  }
  if (Ok)
    Out.insert(Out.begin() + OutBefore,
               std::make_move_iterator(Before.Body.begin()),
               std::make_move_iterator(Before.Body.end()));
  return Ok;
}

bool NestBuilder::lowerForSplit(const ForStmt *FS, std::vector<Node> &Out,
                                bool Normalize) {
  Loop L;
  SplitRequested = false;
  size_t PendingBefore = Pending.size();
  if (lowerForOnce(FS, L, std::nullopt, Normalize)) {
    if (SplitFor == FS)
      SplitFor = nullptr; // asked for by an index lowering did not keep
    Out.push_back(Node::loop(std::move(L)));
    return true;
  }
  if (SplitFor == FS && !SplitForWhy.empty() &&
      StringRef(Reason).contains(SplitForWhy))
    return lowerIndexSplit(FS, Out, Normalize, PendingBefore);
  if (!SplitRequested || !Reason.empty())
    return false;
  // The body is an if/else on this loop's variable, or picks a value by a
  // condition on it: the loop runs as two loops, the first part of its
  // range and then the rest, in order. The statements before the choice
  // were recorded by the first try: they go.
  SplitRequested = false;
  Pending.erase(Pending.begin() + PendingBefore, Pending.end());
  for (bool First : {true, false}) {
    Loop Part;
    if (!lowerForOnce(FS, Part, First, Normalize))
      return false;
    Out.push_back(Node::loop(std::move(Part)));
  }
  return true;
}

bool NestBuilder::lowerIndexSplit(const ForStmt *FS, std::vector<Node> &Out,
                                  bool Normalize, size_t PendingBefore) {
  // A condition in an index or bound of the body splits this loop: two
  // loops over the parts of its range, in order (LowerConditionalIndex.cpp).
  // What the first try recorded goes.
  Reason.clear();
  ReasonLoc = SourceLocation();
  SplitFor = nullptr;
  Pending.erase(Pending.begin() + PendingBefore, Pending.end());
  std::vector<Constraint> Parts[2] = {SplitForParts[0], SplitForParts[1]};
  const clang::Stmt *At = SplitForAt;
  for (bool First : {true, false}) {
    Loop Part;
    ApplyFor = FS;
    ApplyPart = &Parts[First ? 0 : 1];
    ApplyAt = At;
    bool Ok = lowerForOnce(FS, Part, First, Normalize);
    ApplyFor = nullptr;
    if (!Ok)
      return false;
    Out.push_back(Node::loop(std::move(Part)));
  }
  return true;
}

bool NestBuilder::lowerForOnce(const ForStmt *FS, Loop &Out,
                               const std::optional<bool> &SplitBranch,
                               bool Normalize) {
  Out.Loc = loc(FS->getBeginLoc());
  // The outermost loop's scan covers the inner loops' bodies too.
  EarlyEnds Ends;
  if (IVs.empty() && Frames.size() == 1)
    findEarlyEnds(FS->getBody(), /*InSwitch=*/false, Ends,
                  /*ReturnGuards=*/true, lastBreakGuard(FS->getBody()));
  if (const clang::Stmt *Exit = Ends.Exit)
    return fail(Exit->getBeginLoc(), RejectKind::EarlyExit,
                Twine("early exit ('") + exitKind(Exit) + "') out of the loop");
  if (const clang::Stmt *Susp = Ends.Suspension)
    return fail(Susp->getBeginLoc(), RejectKind::EarlyExit,
                Twine("coroutine suspension ('") +
                    (isa<CoyieldExpr>(Susp) ? "co_yield" : "co_await") +
                    "') inside the nest: it may never be resumed");
  const VarDecl *IVDecl = nullptr;
  if (!FS->getCond() || !FS->getInc())
    return fail(FS->getBeginLoc(), RejectKind::LoopHeader,
                "for loop without condition or increment");
  // `for (; i < n; ++i)`: i starts where earlier code left it
  // (LowerLoopStart.cpp). An init that sets another variable counts too.
  bool Continued = continuesVariable(FS);
  if (Continued ? !lowerContinuedStart(FS, Out.IV, IVDecl, Out.First)
                : !lowerInit(loopVarInit(FS), Out.IV, IVDecl, Out.First))
    return false;
  // j += GS: a loop over groups (LowerRegroup.cpp).
  std::optional<IndexPoly> SymStep = symbolicStep(FS, IVDecl);
  if (!SymStep && (!lowerStep(FS->getInc(), IVDecl, Out.Step) ||
                   !lowerCond(FS->getCond(), IVDecl, Out.Step, Out.Last)))
    return false;
  if (isModifiedWithin(IVDecl, FS->getBody()))
    return fail(FS->getBeginLoc(), RejectKind::InductionModified,
                "induction variable '" + declName(IVDecl) +
                    "' is modified in the loop body");
  Regroup RG;
  bool Planned = true;
  if (SymStep) {
    if (!planStepGroups(FS, IVDecl, *SymStep, Out, RG))
      return false;
  } else if (Normalize) {
    if (!planUnitStride(FS, Out, RG))
      return false;
  } else if (!planStripMine(FS, IVDecl, Out, RG, Planned)) {
    return false;
  }
  if (Planned)
    return lowerRegrouped(FS, IVDecl, std::move(RG), Out, SplitBranch);
  enterLoop(Out, IVDecl, FS->getBody());
  LoopStack.back().For = FS;
  LoopStack.back().Split = SplitBranch;
  if (ApplyFor == FS) {
    ApplyFor = nullptr;
    if (!applyIndexSplit(Out, *ApplyPart, ApplyAt)) {
      leaveLoop();
      return false;
    }
  }
  bool Ok = lowerBody(FS->getBody(), Out, /*IsLoopBody=*/true, SplitBranch);
  leaveLoop();
  return Ok;
}

bool NestBuilder::lowerInit(const clang::Stmt *Init, std::string &IV,
                            const VarDecl *&IVDecl, Bound &First) {
  const Expr *InitVal = nullptr;
  if (const auto *DS = dyn_cast<DeclStmt>(Init)) {
    if (!DS->isSingleDecl())
      return fail(Init->getBeginLoc(), RejectKind::LoopHeader,
                  "loop initializes several variables");
    const auto *VD = dyn_cast<VarDecl>(DS->getSingleDecl());
    if (!VD || !VD->getInit())
      return fail(Init->getBeginLoc(), RejectKind::LoopHeader,
                  "loop variable has no initializer");
    IVDecl = VD;
    InitVal = VD->getInit();
  } else if (const auto *BO =
                 dyn_cast<BinaryOperator>(strip(dyn_cast<Expr>(Init)))) {
    const auto *DRE = BO->getOpcode() == BO_Assign
                          ? dyn_cast<DeclRefExpr>(strip(BO->getLHS()))
                          : nullptr;
    if (!DRE || !isa<VarDecl>(DRE->getDecl()))
      return fail(Init->getBeginLoc(), RejectKind::LoopHeader,
                  "unsupported loop initialization");
    IVDecl = cast<VarDecl>(DRE->getDecl());
    InitVal = BO->getRHS();
  } else {
    return fail(Init->getBeginLoc(), RejectKind::LoopHeader,
                "unsupported loop initialization");
  }
  if (!IVDecl->getType()->isIntegerType())
    return fail(Init->getBeginLoc(), RejectKind::LoopHeader,
                "loop variable '" + declName(IVDecl) + "' is not an integer");
  IV = ivName(IVDecl);
  return lowerBound(InitVal, First);
}

bool NestBuilder::lowerStep(const Expr *Inc, const VarDecl *IVDecl,
                            int64_t &Step) {
  Inc = strip(Inc);
  auto IsIV = [&](const Expr *E) {
    const auto *DRE = dyn_cast<DeclRefExpr>(strip(E));
    return DRE && DRE->getDecl() == IVDecl;
  };
  auto ConstantOf = [&](const Expr *E, int64_t &V) {
    Expr::EvalResult R;
    if (!E->EvaluateAsInt(R, Ctx))
      return false;
    V = R.Val.getInt().getExtValue();
    return true;
  };
  if (const auto *UO = dyn_cast<UnaryOperator>(Inc)) {
    if (UO->isIncrementDecrementOp() && IsIV(UO->getSubExpr())) {
      Step = UO->isIncrementOp() ? 1 : -1;
      return true;
    }
  } else if (const auto *BO = dyn_cast<BinaryOperator>(Inc)) {
    int64_t V;
    if ((BO->getOpcode() == BO_AddAssign || BO->getOpcode() == BO_SubAssign) &&
        IsIV(BO->getLHS()) && ConstantOf(BO->getRHS(), V)) {
      Step = BO->getOpcode() == BO_AddAssign ? V : -V;
      if (Step == 0)
        return fail(Inc->getBeginLoc(), RejectKind::LoopTermination,
                    "loop step is zero");
      return true;
    }
    // i = i + c
    if (BO->getOpcode() == BO_Assign && IsIV(BO->getLHS())) {
      const auto *Add = dyn_cast<BinaryOperator>(strip(BO->getRHS()));
      if (Add && (Add->getOpcode() == BO_Add || Add->getOpcode() == BO_Sub) &&
          IsIV(Add->getLHS()) && ConstantOf(Add->getRHS(), V) && V != 0) {
        Step = Add->getOpcode() == BO_Add ? V : -V;
        return true;
      }
    }
  }
  // `j++, k++`: a counter stepped in the header (LowerCounters.cpp).
  if (const auto *BO = dyn_cast<BinaryOperator>(strip(Inc));
      BO && BO->getOpcode() == BO_Comma)
    for (const Expr *Part : {BO->getLHS(), BO->getRHS()})
      if (const auto *Stepped = dyn_cast_or_null<DeclRefExpr>(
              isa<UnaryOperator>(strip(Part))
                  ? strip(cast<UnaryOperator>(strip(Part))->getSubExpr())
              : isa<CompoundAssignOperator>(strip(Part))
                  ? strip(cast<CompoundAssignOperator>(strip(Part))->getLHS())
                  : nullptr);
          Stepped && !IsIV(Stepped))
        return fail(Inc->getBeginLoc(), RejectKind::LoopHeader,
                    "loop increment '" + text(Inc) + "' also steps '" +
                        Stepped->getDecl()->getNameAsString() +
                        "': a counter stepped in a loop header is not "
                        "counted");
  return fail(Inc->getBeginLoc(), RejectKind::LoopHeader,
              "loop increment is not a constant step of the loop variable");
}

bool NestBuilder::checkConstantBound(const Expr *Cond, const Expr *BoundE,
                                     const VarDecl *IVDecl,
                                     BinaryOperatorKind Op, int64_t Step,
                                     Bound &B) {
  Expr::EvalResult R;
  QualType IVT = IVDecl->getType();
  if (!IVT->isIntegerType() || !BoundE->EvaluateAsInt(R, Ctx))
    return true;
  llvm::APSInt V = R.Val.getInt();
  // The lowered bound is plain integer arithmetic; C's is modular where the
  // operands are unsigned ('0u - 1' is UINT_MAX, not -1). Take C's value.
  if (B.isAffine() && B.affine().isConstant()) {
    if (V.getSignificantBits() > 64)
      return fail(Cond->getBeginLoc(), RejectKind::Overflow,
                  "loop bound " + toString(V, 10) +
                      " is out of the 64-bit range");
    if (V.getExtValue() != B.affine().constant())
      B = Bound::single(AffineExpr(V.getExtValue()));
  }
  // The loop variable must reach the value that ends the loop: an
  // 'unsigned char c < 300' wraps around at 255 and an 'int i <= INT_MAX'
  // overflows, so neither terminates. A step s may overshoot by s - 1.
  unsigned W = Ctx.getIntWidth(IVT);
  bool U = IVT->isUnsignedIntegerOrEnumerationType();
  const unsigned Wide = 130;
  llvm::APInt Exit = V.isUnsigned() ? V.zext(Wide) : V.sext(Wide);
  llvm::APInt Over(Wide,
                   static_cast<uint64_t>(Step > 0 ? Step - 1 : -(Step + 1)));
  llvm::APInt One(Wide, 1);
  bool Reaches = true;
  if (Step > 0 && (Op == BO_LT || Op == BO_LE || Op == BO_NE)) {
    llvm::APInt Need =
        Exit + Over + (Op == BO_LE ? One : llvm::APInt(Wide, 0));
    llvm::APInt Max = U ? llvm::APInt::getMaxValue(W).zext(Wide)
                        : llvm::APInt::getSignedMaxValue(W).sext(Wide);
    Reaches = Need.sle(Max);
  } else if (Step < 0 && (Op == BO_GT || Op == BO_GE || Op == BO_NE)) {
    llvm::APInt Need =
        Exit - Over - (Op == BO_GE ? One : llvm::APInt(Wide, 0));
    llvm::APInt Min = U ? llvm::APInt(Wide, 0)
                        : llvm::APInt::getSignedMinValue(W).sext(Wide);
    Reaches = Need.sge(Min);
  }
  if (!Reaches)
    return fail(Cond->getBeginLoc(), RejectKind::LoopTermination,
                "loop variable of type '" + IVT.getAsString() +
                    "' cannot step past the bound " + toString(V, 10) +
                    ": it wraps around or overflows first, and the loop may "
                    "never terminate");
  return true;
}

bool NestBuilder::lowerCond(const Expr *Cond, const VarDecl *IVDecl,
                            int64_t Step, Bound &Last) {
  const auto *BO = dyn_cast<BinaryOperator>(strip(Cond));
  if (!BO || !BO->isComparisonOp())
    return fail(Cond->getBeginLoc(), RejectKind::LoopHeader,
                "loop condition is not a comparison of the loop variable");
  auto IsIV = [&](const Expr *E) {
    const auto *DRE = dyn_cast<DeclRefExpr>(strip(E));
    return DRE && DRE->getDecl() == IVDecl;
  };
  BinaryOperatorKind Op = BO->getOpcode();
  const Expr *BoundE = nullptr;
  if (IsIV(BO->getLHS())) {
    BoundE = BO->getRHS();
  } else if (IsIV(BO->getRHS())) {
    BoundE = BO->getLHS();
    // N > i  is  i < N.
    switch (Op) {
    case BO_LT: Op = BO_GT; break;
    case BO_GT: Op = BO_LT; break;
    case BO_LE: Op = BO_GE; break;
    case BO_GE: Op = BO_LE; break;
    default: break;
    }
  } else {
    return fail(Cond->getBeginLoc(), RejectKind::LoopHeader,
                "loop condition does not compare the loop variable");
  }
  Bound B;
  if (!lowerBound(BoundE, B))
    return false;
  bool Up = Step > 0;
  // An unsigned variable counting down to 'i >= L' wraps around below zero
  // when L <= 0: the loop never ends. Only a positive constant L is safe.
  if (!Up && Op == BO_GE && IVDecl->getType()->isUnsignedIntegerType()) {
    Expr::EvalResult L;
    if (!BoundE->EvaluateAsInt(L, Ctx) || !L.Val.getInt().isStrictlyPositive())
      return fail(Cond->getBeginLoc(), RejectKind::LoopTermination,
                  "unsigned loop variable counting down to '>= " +
                      Twine(L.Val.isInt() ? toString(L.Val.getInt(), 10)
                                          : std::string("a size")) +
                      "' wraps around below zero and may never terminate");
  }
  if (!checkConstantBound(Cond, BoundE, IVDecl, Op, Step, B))
    return false;
  std::optional<Bound> R;
  switch (Op) {
  case BO_LT: if (Up) R = shiftBound(B, -1); break;
  case BO_LE: if (Up) R = B; break;
  case BO_GT: if (!Up) R = shiftBound(B, 1); break;
  case BO_GE: if (!Up) R = B; break;
  case BO_NE:
    // Only a unit step is sure to hit the bound; a larger one may skip it.
    if (Step == 1 || Step == -1)
      R = shiftBound(B, Up ? -1 : 1);
    else
      return fail(Cond->getBeginLoc(), RejectKind::LoopTermination,
                  "'!=' condition with step " + Twine(Step) +
                      " may skip the bound and never terminate");
    break;
  default:
    return fail(Cond->getBeginLoc(), RejectKind::LoopHeader,
                "unsupported loop condition");
  }
  if (!R)
    return fail(Cond->getBeginLoc(), RejectKind::LoopTermination,
                "loop condition and step direction disagree (the loop "
                "runs zero times or never terminates)");
  Last = *R;
  return true;
}

/// The extent of the dimension a range-for walks, as a size.
bool NestBuilder::lowerRangeFor(const CXXForRangeStmt *RS, Loop &Out) {
  Out.Loc = loc(RS->getBeginLoc());
  EarlyEnds Ends;
  if (IVs.empty() && Frames.size() == 1)
    findEarlyEnds(RS->getBody(), /*InSwitch=*/false, Ends,
                  /*ReturnGuards=*/false, lastBreakGuard(RS->getBody()));
  if (const clang::Stmt *Exit = Ends.Exit)
    return fail(Exit->getBeginLoc(), RejectKind::EarlyExit,
                Twine("early exit ('") + exitKind(Exit) + "') out of the loop");
  const VarDecl *Var = RS->getLoopVariable();
  const Expr *Range = strip(RS->getRangeInit());
  std::string Why;
  std::optional<View> V = viewOf(Range, Why);
  if (!V)
    return fail(Range->getBeginLoc(), RejectKind::RangeFor,
                "range-based for over '" + text(Range) + "': " +
                    (Why.empty() ? "not a named array or container" : Why));
  const ArrayBase &B = Bases[V->Base];
  size_t Dim = V->Subs.size() - 1;
  // The number of elements: a span's length, a constant extent, or the
  // container's size().
  AffineExpr N;
  const Binding *RangeBinding = nullptr;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Range))
    if (const auto *RV = dyn_cast<VarDecl>(DRE->getDecl()))
      if (auto It = Bindings.find(RV); It != Bindings.end())
        RangeBinding = &It->second;
  if (RangeBinding && RangeBinding->Length) {
    if (!toAffine(*RangeBinding->Length, Range, N))
      return false;
  } else if (!V->Subs.back().isZero()) {
    return fail(Range->getBeginLoc(), RejectKind::RangeFor,
                "range-based for over '" + text(Range) +
                    "', which does not start a row");
  } else if (Dim < B.Extents.size() && B.Extents[Dim]) {
    N = *B.Extents[Dim];
  } else if (Dim == 0 && B.Container && !RangeBinding) {
    SizeName S;
    S.Name = B.Name + ".size()";
    S.Origin = "container";
    addParam(S);
    N = AffineExpr::var(S.Name);
  } else {
    return fail(Range->getBeginLoc(), RejectKind::RangeFor,
                "range-based for over '" + text(Range) +
                    "': its length can differ from row to row");
  }
  Out.IV = ivName(Var) + "_i";
  Out.First = Bound::single(AffineExpr(0));
  Out.Last = Bound::single(*N.addConstant(-1));
  Out.Step = 1;
  noteExtended(RS->getBeginLoc(), "range-based for loop");
  enterLoop(Out, nullptr, RS->getBody());
  View Elem = *V;
  Elem.Subs.back() = *V->Subs.back().add(IndexPoly::loopVar(Out.IV));
  bool Ok = true;
  if (Var->getType()->isReferenceType()) {
    Binding Bd;
    Bd.Kind = Elem.Subs.size() == B.Extents.size() ? Binding::Element
                                                   : Binding::Pointer;
    if (Bd.Kind == Binding::Pointer)
      Elem.Subs.push_back(IndexPoly());
    Bd.V = Elem;
    Bindings[Var] = Bd;
  } else if (Elem.Subs.size() != B.Extents.size()) {
    Ok = fail(Var->getLocation(), RejectKind::RangeFor,
              "range-based for copies a whole row '" + declName(Var) +
                  "' each iteration");
  } else {
    // A copy: one read of the element, then a scalar.
    IRStmt St;
    St.Loc = loc(Var->getLocation());
    Ok = recordAccess(Elem, nullptr, St, /*Read=*/true, /*Write=*/false);
    if (Ok)
      Out.Body.push_back(Node::stmt(std::move(St)));
  }
  Ok = Ok && lowerBody(RS->getBody(), Out, /*IsLoopBody=*/true);
  leaveLoop();
  return Ok;
}

//===----------------------------------------------------------------------===//
// Bodies and statements
//===----------------------------------------------------------------------===//

bool NestBuilder::lowerBody(const clang::Stmt *S, Loop &Parent,
                            bool IsLoopBody,
                            const std::optional<bool> &SplitBranch) {
  std::vector<const clang::Stmt *> Children = childrenOf(S);
  for (size_t I = 0; I < Children.size(); ++I) {
    if (Returned)
      return true; // nothing after the function's return runs
    const clang::Stmt *C = Children[I];
    if (IsLoopBody && !LoopStack.empty() && LoopStack.back().L == &Parent)
      LoopStack.back().Child = C;
    const auto *If = dyn_cast<IfStmt>(C);
    bool Done = false;
    if (If && IsLoopBody && isLastChild(S, C) &&
        !lowerExitGuard(If, Parent, Done))
      return false;
    if (Done)
      continue;
    if (If && !lowerReturnGuard(If, Parent, Done))
      return false;
    if (Done)
      continue;
    if (If && isContinueGuard(If)) {
      const Expr *Cond = If->getCond();
      if (!IsLoopBody || !nothingCounted(Parent))
        return fail(C->getBeginLoc(), RejectKind::ConditionalContinue,
                    "'continue' after work in the loop body: part of the "
                    "body runs conditionally");
      CondKind K = classify(Cond);
      if (K == CondKind::Data)
        return fail(Cond->getBeginLoc(), RejectKind::ConditionalContinue,
                    "'continue' under a data-dependent condition '" +
                        text(Cond) + "'");
      if (K == CondKind::Invariant) {
        if (invariantValue(Cond))
          return true; // the rest of the body never runs
        continue;
      }
      std::string Why;
      std::optional<std::vector<Constraint>> Cs =
          constraintsOf(Cond, /*Negate=*/true, Why);
      if (!Cs) {
        bool Handled = false;
        bool Ok = lowerUnionContinue(
            If, llvm::ArrayRef(Children).drop_front(I + 1), Parent, Handled);
        if (Handled)
          return Ok;
        return fail(Cond->getBeginLoc(), RejectKind::Condition, Why);
      }
      if (!applyGuard(*Cs, If))
        return false;
      continue;
    }
    if (If) {
      bool Whole = IsLoopBody && nothingCounted(Parent) &&
                   isLastChild(S, C);
      if (!lowerIf(If, Parent, Whole, Whole ? SplitBranch : std::nullopt))
        return false;
      continue;
    }
    if (!lowerStmt(C, Parent))
      return false;
  }
  return true;
}

bool NestBuilder::lowerStmt(const clang::Stmt *S, Loop &Parent) {
  if (isa<NullStmt>(S))
    return true;
  if (const auto *CS = dyn_cast<CompoundStmt>(S))
    return lowerBody(CS, Parent, /*IsLoopBody=*/false);
  if (const auto *FS = dyn_cast<ForStmt>(S))
    return lowerFor(FS, Parent.Body);
  if (const auto *RS = dyn_cast<CXXForRangeStmt>(S)) {
    Loop Inner;
    if (!lowerRangeFor(RS, Inner))
      return false;
    Parent.Body.push_back(Node::loop(std::move(Inner)));
    return true;
  }
  if (isa<WhileStmt>(S) || isa<DoStmt>(S))
    return fail(S->getBeginLoc(), RejectKind::WhileLoop,
                "while loop inside the nest: trip count is "
                "not statically known");
  if (isa<BreakStmt>(S) || isa<ReturnStmt>(S) || isa<GotoStmt>(S) ||
      isa<IndirectGotoStmt>(S))
    return fail(S->getBeginLoc(), RejectKind::EarlyExit,
                "early exit ('" +
                    StringRef(S->getStmtClassName()).drop_back(4).lower() +
                    "') out of the loop");
  if (isa<ContinueStmt>(S))
    return fail(S->getBeginLoc(), RejectKind::ConditionalContinue,
                "'continue' skips part of the body: conditional execution");
  if (const auto *If = dyn_cast<IfStmt>(S))
    return lowerIf(If, Parent, /*WholeBody=*/false, std::nullopt);
  if (const auto *SW = dyn_cast<SwitchStmt>(S))
    return lowerSwitch(SW, Parent); // loop-invariant only

  if (isa<LabelStmt>(S))
    return fail(S->getBeginLoc(), RejectKind::UnsupportedStatement,
                "label inside the nest (goto target)");
  if (const auto *D = dyn_cast<OMPExecutableDirective>(S)) {
    if (isOpenMPLoopCounted(D))
      return lowerStmt(D->getRawStmt(), Parent);
    return fail(S->getBeginLoc(), RejectKind::OpenMP,
                Twine("OpenMP '") +
                    llvm::omp::getOpenMPDirectiveName(D->getDirectiveKind()) +
                    "' directive inside the nest");
  }

  IRStmt St;
  St.Loc = loc(S->getBeginLoc());
  bool Plain = true; // a statement ValueLowering can express
  llvm::SaveAndRestore InStmt(StmtParent, &Parent);
  HoistedArrays StmtHoisted;
  llvm::SaveAndRestore InHoist(Hoisted, &StmtHoisted);
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    size_t Before = Bindings.size();
    for (const Decl *D : DS->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D))
        if (!lowerDecl(VD, Parent, St))
          return false;
    Plain = Bindings.size() == Before;
    if (!Plain && (!St.Accesses.empty() || !St.Ops.empty() || St.IntOps))
      noteExtended(S->getBeginLoc(), "declaration of an index or pointer "
                                     "beside data");
  } else if (const auto *E = dyn_cast<Expr>(S)) {
    if (std::optional<bool> Done = lowerIndexReassignment(S))
      return *Done;
    if (std::optional<bool> Done = lowerBodyAssignment(S, Parent, St))
      return *Done;
    if (std::optional<bool> Done = lowerCalleeReassignment(S))
      return *Done;
    const auto *CE = dyn_cast<CallExpr>(strip(E));
    if (CE)
      if (std::optional<bool> Done = lowerMemCall(CE, Parent))
        return *Done;
    std::string Why;
    if (CE && (!isa<CXXOperatorCallExpr>(CE) || lambdaClassOf(CE)) &&
        !isa<CXXMemberCallExpr>(CE) && inlinableCallee(CE, Why))
      return inlineCall(CE, &Parent, nullptr);
    if (!visitData(E, St))
      return false;
  } else {
    return fail(S->getBeginLoc(), RejectKind::UnsupportedStatement,
                "unsupported statement '" + StringRef(S->getStmtClassName()) +
                    "' inside the nest");
  }
  if (!checkHoistedArrays(St, S->getBeginLoc()))
    return false;
  if (Plain && !Frames.empty() && Frames.size() == 1)
    Values.lower(S, St);
  if (!St.Accesses.empty() || !St.Ops.empty() || St.IntOps || St.Value ||
      !St.MaybeOps.empty())
    Parent.Body.push_back(Node::stmt(std::move(St)));
  return true;
}

// A pointer or reference declared in the nest: a view into an array, an
// element, a null pointer, or a pointer the nest advances.
bool NestBuilder::lowerPointerDecl(const VarDecl *VD, const Expr *Init) {
  QualType T = VD->getType();
  std::string Why;
  if (!Init)
    return fail(VD->getLocation(), RejectKind::PointerNotFollowed,
                "pointer '" + declName(VD) + "' declared without a value");
  QualType Pointee = T->getPointeeType();
  if (T->isReferenceType() && !Pointee->isArrayType() &&
      !Pointee->isRecordType() && !Pointee->isPointerType()) {
    // float &v = A[i]: the element itself.
    std::optional<View> V = viewOf(Init, Why);
    if (!V)
      return fail(Init->getBeginLoc(), RejectKind::PointerNotFollowed,
                  "reference '" + declName(VD) + "' to '" + text(Init) +
                      "': " + Why);
    Binding B;
    B.Kind = Binding::Element;
    B.V = *V;
    Bindings[VD] = B;
    noteExtended(VD->getLocation(), "reference to an element");
    return true;
  }
  if (T->isPointerType() && Init->isNullPointerConstant(
                                Ctx, Expr::NPC_ValueDependentIsNotNull)) {
    NullPointers.insert(VD);
    return true;
  }
  // `Config *p = &m->config;` in an inlined helper: a struct of sizes,
  // named like a parameter receiving it.
  if (T->isPointerType() && Pointee->isRecordType() && !isContainerType(Pointee) &&
      !isModified(VD))
    if (std::optional<Binding> O = objectBinding(Init, T, Why)) {
      Bindings[VD] = *O;
      LocalObjects.push_back(O->ObjectName);
      return true;
    }
  Why.clear();
  std::optional<View> V = viewOf(Init, Why);
  if (!V)
    return fail(Init->getBeginLoc(), RejectKind::PointerNotFollowed,
                "pointer '" + declName(VD) + "' = '" + text(Init) +
                    "': " + Why);
  if (isModifiedWithin(VD, Nest) && !BodyAssigned.count(VD) && !calleeRebound(VD)) {
    // A pointer the nest advances: a counter from its declaration
    // (LowerCounters.cpp).
    if (!T->isPointerType() || Frames.size() != 1)
      return fail(VD->getLocation(), RejectKind::PointerReassigned,
                  "pointer '" + declName(VD) +
                      "' is reassigned or advanced inside the nest");
    InNestPointers[VD] = *V;
    if (const CounterInfo &C = counterInfo(VD); !C.Start)
      return fail(VD->getLocation(), RejectKind::PointerReassigned,
                  "pointer '" + declName(VD) +
                      "', which the nest advances: " + C.Why);
    return true;
  }
  bindPointer(VD, *V);
  return true;
}

// A scalar declared in the nest: an integer counter, an index, integer
// arithmetic on no loaded data, or data.
bool NestBuilder::lowerScalarDecl(const VarDecl *VD, const Expr *Init,
                                  IRStmt &St) {
  QualType T = VD->getType();
  std::string Why;
  if (T->isIntegerType() && Frames.size() == 1 && isModifiedWithin(VD, Nest) &&
      isSequentialIndex(VD)) {
    // Set again only by statements of this body (LowerBodyAssignments.cpp).
    if (std::optional<IndexPoly> P = indexOf(Init, Why)) {
      Bindings[VD] = Binding::index(*P);
      SequentialIndices.insert(VD);
      return true;
    }
    if (isWindowValue(Init)) {
      OpaqueInts[VD] = {"'" + declName(VD) + "' = '" + text(Init) +
                            "' holds a min or max: only a loop bound may "
                            "read it",
                        mentionsLoopVar(Init)};
      setWindowLocal(VD, Init);
      SequentialIndices.insert(VD);
      return true;
    }
  }
  if (T->isIntegerType() && Frames.size() == 1 && isModifiedWithin(VD, Nest)) {
    // An integer the nest advances from here on: a counter from its
    // declaration (LowerCounters.cpp). A start that is no index is data,
    // counted; the counter's uses are then refused with the reason.
    InNestStart &C = InNestCounters[VD];
    C = InNestStart();
    if (!Init) {
      C.Why = "'" + declName(VD) + "' has no initializer";
      return true;
    }
    if (std::optional<IndexPoly> P = indexOf(Init, Why)) {
      C.Start = *P;
      return true;
    }
    C.Why = "'" + declName(VD) + "' starts at '" + text(Init) + "' (" + Why +
            ")";
    return visitData(Init, St);
  }
  if (T->isIntegerType() && Init && !isModified(VD)) {
    // An index computed from loop variables and sizes is not work.
    if (std::optional<IndexPoly> P = indexOf(Init, Why)) {
      Bindings[VD] = Binding::index(*P);
      return true;
    }
    // Integer arithmetic on no loaded data is index arithmetic even when
    // the tool cannot follow its value: it is not work.
    if (!usesNestData(Init)) {
      OpaqueInts[VD] = {"'" + declName(VD) + "' = '" + text(Init) +
                            "' is not an index: " + Why,
                        mentionsLoopVar(Init)};
      if (Frames.size() == 1 && isWindowValue(Init))
        setWindowLocal(VD, Init);
      noteGuardLocal(VD, Init);
      return true;
    }
  }
  noteGatherLocal(VD, Init);
  return !Init || visitData(Init, St);
}

bool NestBuilder::lowerDecl(const VarDecl *VD, Loop &Parent, IRStmt &St,
                            const Expr *InitOverride) {
  if (!InitOverride)
    if (std::optional<bool> Done = lowerChosenDecl(VD, Parent, St))
      return *Done;
  QualType T = VD->getType();
  const Expr *Init = InitOverride ? InitOverride : VD->getInit();
  std::string Why;
  if (T->isReferenceType() || T->isPointerType())
    return lowerPointerDecl(VD, Init);
  if (const auto *CAT = dyn_cast<ConstantArrayType>(T.getTypePtr())) {
    (void)CAT;
    // A small local array: scratch, not memory traffic.
    if (!baseOf(VD, declName(VD), T, VD->getLocation(), /*Scratch=*/true,
                Why))
      return fail(VD->getLocation(), RejectKind::UnsupportedLocal, Why);
    noteExtended(VD->getLocation(), "local array inside the nest");
    return true;
  }
  if (const auto *VAT = dyn_cast<VariableArrayType>(T.getTypePtr())) {
    // C's `float acc[UNROLL]` with a const int UNROLL is variable-length
    // as far as the type goes; a size it is.
    AffineExpr N;
    if (!VAT->getSizeExpr() || !lowerAffine(VAT->getSizeExpr(), N))
      return Reason.empty()
                 ? fail(VD->getLocation(), RejectKind::UnsupportedLocal,
                        "variable-length array '" + declName(VD) +
                            "' inside the nest")
                 : false;
    std::optional<unsigned> B = baseOf(VD, declName(VD), T, VD->getLocation(),
                                       /*Scratch=*/true, Why);
    if (!B)
      return fail(VD->getLocation(), RejectKind::UnsupportedLocal, Why);
    Bases[*B].Extents.front() = N;
    noteExtended(VD->getLocation(), "local array inside the nest");
    return true;
  }
  if (T->isArrayType())
    return fail(VD->getLocation(), RejectKind::UnsupportedLocal,
                "array '" + declName(VD) + "' of unknown size inside the nest");
  if (T->isRecordType() && isContainerType(T)) {
    StringRef Kind = T->getAsCXXRecordDecl()->getName();
    if (Kind == "array" && (!Init || !isa<CXXConstructExpr>(strip(Init)) ||
                            cast<CXXConstructExpr>(strip(Init))->getNumArgs() == 0 ||
                            isa<InitListExpr>(strip(Init)))) {
      // A std::array accumulator: scratch, like float acc[4].
      if (!baseOf(VD, declName(VD), T, VD->getLocation(), /*Scratch=*/true,
                  Why))
        return fail(VD->getLocation(), RejectKind::UnsupportedLocal, Why);
      noteExtended(VD->getLocation(), "local array inside the nest");
      return true;
    }
    const auto *CE = Init ? dyn_cast<CXXConstructExpr>(strip(Init)) : nullptr;
    if (Kind == "span" && CE && CE->getNumArgs() >= 1) {
      // A span of (pointer, length) or of a container: a view with a length.
      std::optional<View> V = viewOf(CE->getArg(0), Why);
      if (!V)
        return fail(Init->getBeginLoc(), RejectKind::PointerNotFollowed,
                    "span '" + declName(VD) + "' = '" + text(Init) +
                        "': " + Why);
      Binding B;
      B.Kind = Binding::Pointer;
      B.V = *V;
      if (CE->getNumArgs() == 2) {
        std::optional<IndexPoly> Len = indexOf(CE->getArg(1), Why);
        if (!Len)
          return fail(CE->getArg(1)->getBeginLoc(),
                      RejectKind::PointerNotFollowed,
                      "length of span '" + declName(VD) + "': " + Why);
        B.Length = *Len;
      }
      Bindings[VD] = B;
      return true;
    }
  }
  if (Init && isa<LambdaExpr>(strip(Init))) {
    // Made here, run where it is called (LowerHelperCalls.cpp).
    noteExtended(VD->getLocation(), "lambda made inside the nest");
    return true;
  }
  if (T->isRecordType())
    return fail(VD->getLocation(), RejectKind::UnsupportedLocal,
                "local object '" + declName(VD) +
                    "' of class type inside the nest");
  return lowerScalarDecl(VD, Init, St);
}

//===----------------------------------------------------------------------===//
// Conditions
//===----------------------------------------------------------------------===//

bool NestBuilder::mentionsLoopVar(const Expr *E) {
  E = strip(E);
  if (!E)
    return false;
  if (isa<ArraySubscriptExpr>(E))
    return false; // inside a subscript a loop variable picks data
  if (const auto *OCE = dyn_cast<CXXOperatorCallExpr>(E);
      OCE && OCE->getOperator() == OO_Subscript)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD)
      return false;
    for (const auto &[Decl, Name] : IVs)
      if (Decl == VD)
        return true;
    if (auto O = OpaqueInts.find(VD); O != OpaqueInts.end())
      return O->second.MentionsLoops;
    auto B = Bindings.find(VD);
    return B != Bindings.end() && B->second.Kind == Binding::Index &&
           B->second.Value.usesLoopVars();
  }
  for (const clang::Stmt *C : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(C))
      if (mentionsLoopVar(CE))
        return true;
  return false;
}

bool NestBuilder::usesNestData(const Expr *E) {
  E = strip(E);
  if (!E)
    return false;
  if (isa<ArraySubscriptExpr>(E))
    return true;
  // A call's result is known only when it runs (math functions of known
  // values aside).
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    if (const IndexHelper *H = indexHelperOf(CE))
      return helperUsesNestData(CE, *H);
    const FunctionDecl *Callee = CE->getDirectCallee();
    if (!Callee || !isScalarMathName(Callee->getName()))
      return !isa<CXXMemberCallExpr>(CE) ||
             !isContainerType(
                 cast<CXXMemberCallExpr>(CE)->getImplicitObjectArgument()
                     ->getType());
  }
  if (const auto *OCE = dyn_cast<CXXOperatorCallExpr>(E);
      OCE && OCE->getOperator() == OO_Subscript)
    return true;
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_Deref)
    return true;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || VD->getType()->isPointerType())
      return false;
    if (auto B = Bindings.find(VD); B != Bindings.end())
      return B->second.Kind == Binding::Element;
    if (OpaqueInts.count(VD))
      return false;
    for (const auto &[Decl, Name] : IVs)
      if (Decl == VD)
        return false;
    // A variable set inside the nest, or a callee's own, holds data.
    bool Inside = SM.isPointWithin(VD->getLocation(), Nest->getBeginLoc(),
                                   Nest->getEndLoc());
    bool CalleeLocal = false;
    for (size_t I = 1; I < Frames.size(); ++I)
      CalleeLocal |= VD->getDeclContext() == Frames[I].FD;
    return Inside || CalleeLocal || isModifiedWithin(VD, Nest);
  }
  for (const clang::Stmt *C : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(C))
      if (usesNestData(CE))
        return true;
  return false;
}

// Every update of VD in S is ++, -- or += / -= of a value that reads no
// memory: VD counts steps, it holds no loaded data.
bool NestBuilder::onlyStepsIn(const VarDecl *VD, const clang::Stmt *S) {
  if (!S)
    return true;
  auto IsVD = [&](const Expr *E) {
    const auto *DRE = dyn_cast<DeclRefExpr>(strip(E));
    return DRE && DRE->getDecl() == VD;
  };
  if (const auto *UO = dyn_cast<UnaryOperator>(S);
      UO && UO->getOpcode() == UO_AddrOf && IsVD(UO->getSubExpr()))
    return false;
  if (const auto *BO = dyn_cast<BinaryOperator>(S);
      BO && BO->isAssignmentOp() && IsVD(BO->getLHS())) {
    bool Step = BO->getOpcode() == BO_AddAssign ||
                BO->getOpcode() == BO_SubAssign;
    if (!Step || usesNestData(BO->getRHS()))
      return false;
  }
  for (const clang::Stmt *C : S->children())
    if (!onlyStepsIn(VD, C))
      return false;
  return true;
}

namespace {

/// \p VD is declared in the header of a for loop.
bool isForInitVar(const VarDecl *VD) {
  const auto *FD = dyn_cast<FunctionDecl>(VD->getDeclContext());
  bool Found = false;
  std::function<void(const clang::Stmt *)> Walk = [&](const clang::Stmt *S) {
    if (!S || Found)
      return;
    if (const auto *FS = dyn_cast<ForStmt>(S))
      if (const auto *DS = dyn_cast_or_null<DeclStmt>(FS->getInit()))
        Found = llvm::is_contained(DS->decls(), VD);
    for (const clang::Stmt *C : S->children())
      Walk(C);
  };
  Walk(FD ? FD->getBody() : nullptr);
  return Found;
}

} // namespace

// A scalar declared before the nest (or in it, from a start that reads no
// memory) and assigned inside it, in an expression that reads no memory:
// the index moves with the nest's own updates, not with loaded data.
const VarDecl *NestBuilder::updatedScalarIn(const Expr *E) {
  E = strip(E);
  if (!E || isa<ArraySubscriptExpr>(E) || isa<CallExpr>(E))
    return nullptr;
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_Deref)
    return nullptr;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || !VD->getType()->isIntegerType() || Bindings.count(VD))
      return nullptr;
    bool Inside = SM.isPointWithin(VD->getLocation(), Nest->getBeginLoc(),
                                   Nest->getEndLoc());
    // Declared in the nest, it counts steps from a start that reads no
    // memory (a loop variable is no such counter).
    bool Counts = !Inside || (VD->getInit() && !usesNestData(VD->getInit()) &&
                              !isForInitVar(VD));
    return Counts && isModifiedWithin(VD, Nest) && onlyStepsIn(VD, Nest)
               ? VD
               : nullptr;
  }
  const VarDecl *Found = nullptr;
  for (const clang::Stmt *C : E->children()) {
    const auto *CE = dyn_cast_or_null<Expr>(C);
    if (!CE)
      continue;
    if (usesNestData(CE) && !updatedScalarIn(CE))
      return nullptr; // memory is read too: a gather
    if (const VarDecl *VD = updatedScalarIn(CE))
      Found = VD;
  }
  return Found;
}

std::string NestBuilder::dataIndexReason(const std::string &What,
                                         const Expr *E,
                                         const std::string &Prep,
                                         const std::string &Array) {
  // A counter refused for a reason of its own says it first.
  const VarDecl *Refused = refusedCounterIn(E);
  if (const VarDecl *VD = Refused ? nullptr : updatedScalarIn(E)) {
    auto It = CounterRefusals.find(VD);
    return What + " '" + text(E) + "' " + Prep + " '" + Array +
           "' depends on '" + declName(VD) +
           "', a counter the nest itself advances (not a load from memory)" +
           (It != CounterRefusals.end()
                ? " that is not affine in the loop variables: " + It->second
                : std::string(": only indices affine in the loop variables "
                              "are counted"));
  }
  if (const VarDecl *VD = Refused) {
    // Declared in the nest from a loaded value, it is data from there on.
    bool LoadedStart = InNestCounters.count(VD) && VD->getInit() &&
                       usesNestData(VD->getInit());
    return What + " '" + text(E) + "' " + Prep + " '" + Array +
           "' depends on '" + declName(VD) +
           "', a counter the nest itself advances " +
           (LoadedStart ? "from a value loaded from memory, "
                        : "(not a load from memory) ") +
           "that is not affine in the loop variables: " +
           CounterRefusals.find(VD)->second;
  }
  // A call other than an index helper (which may load: lookup(i) returning
  // table[i]) is no load of its own.
  if (const auto *CE = dyn_cast<CallExpr>(strip(E));
      CE && !isa<CXXOperatorCallExpr>(CE) && !indexHelperOf(CE)) {
    bool DataArgs = llvm::any_of(callArguments(CE), [&](const Expr *A) { return usesNestData(A); });
    if (!DataArgs)
      return What + " '" + text(E) + "' " + Prep + " '" + Array +
             "' is what a call returns, which the tool does not follow (an "
             "index helper returns one integer expression of its integer "
             "arguments)";
  }
  return "gather: " + What + " '" + text(E) + "' " + Prep + " '" + Array +
         "' is loaded from memory, so the elements it touches depend on the "
         "data";
}

NestBuilder::CondKind NestBuilder::classify(const Expr *Cond) {
  std::string Why;
  if (std::optional<std::vector<Constraint>> Cs =
          constraintsOf(Cond, false, Why)) {
    for (const Constraint &C : *Cs)
      if (C.E.usesLoopVars())
        return CondKind::Affine;
    return CondKind::Invariant;
  }
  if (usesNestData(Cond))
    return CondKind::Data;
  if (mentionsLoopVar(Cond))
    return CondKind::Affine; // not affine: lowering says why
  return CondKind::Invariant;
}

std::optional<std::vector<NestBuilder::Constraint>>
NestBuilder::constraintsOf(const Expr *Cond, bool Negate, std::string &Why) {
  const Expr *S = strip(Cond);
  if (const auto *UO = dyn_cast<UnaryOperator>(S);
      UO && UO->getOpcode() == UO_LNot)
    return constraintsOf(UO->getSubExpr(), !Negate, Why);
  bool LocalNegate = Negate;
  if (const GuardLocal *G = guardLocalOf(S, LocalNegate)) {
    std::optional<Conjunctions> Parts = guardLocalParts(*G, LocalNegate, Why);
    if (Parts && Parts->size() == 1)
      return Parts->front();
    if (Parts)
      Why = "condition '" + text(S) + "' is a union of ranges ('||')";
    return std::nullopt;
  }
  const auto *BO = dyn_cast<BinaryOperator>(S);
  auto NotAffine = [&]() -> std::optional<std::vector<Constraint>> {
    Why = mentionsLoopVar(S) ? "condition '" + text(S) +
                                   "' on loop variables is not affine"
                             : "condition '" + text(S) +
                                   "' is not a comparison of loop variables "
                                   "and sizes";
    return std::nullopt;
  };
  if (!BO)
    return NotAffine();
  BinaryOperatorKind Op = BO->getOpcode();
  if (Op == BO_LAnd || Op == BO_LOr) {
    // A conjunction is a list of constraints; a disjunction is not (it is
    // a union of ranges).
    if ((Op == BO_LAnd) == Negate) {
      Why = "condition '" + text(S) + "' is a union of ranges ('||')";
      return std::nullopt;
    }
    auto L = constraintsOf(BO->getLHS(), Negate, Why);
    auto R = L ? constraintsOf(BO->getRHS(), Negate, Why) : std::nullopt;
    if (!R)
      return std::nullopt;
    L->insert(L->end(), R->begin(), R->end());
    return L;
  }
  if (!BO->isComparisonOp() || !BO->getLHS()->getType()->isIntegerType() ||
      !BO->getRHS()->getType()->isIntegerType())
    return NotAffine();
  std::optional<IndexPoly> L = indexOf(BO->getLHS(), Why);
  std::optional<IndexPoly> R = L ? indexOf(BO->getRHS(), Why) : std::nullopt;
  if (!R) {
    Why = "condition '" + text(S) + "': " + Why;
    return std::nullopt;
  }
  if (Negate) {
    switch (Op) {
    case BO_LT: Op = BO_GE; break;
    case BO_LE: Op = BO_GT; break;
    case BO_GT: Op = BO_LE; break;
    case BO_GE: Op = BO_LT; break;
    case BO_EQ: Op = BO_NE; break;
    case BO_NE: Op = BO_EQ; break;
    default: break;
    }
  }
  std::optional<IndexPoly> D = R->sub(*L); // R - L
  std::optional<IndexPoly> Out;
  bool Equal = false;
  switch (Op) {
  case BO_LT: if (D) Out = D->sub(IndexPoly::constant(1)); break;
  case BO_LE: Out = D; break;
  case BO_GT: if (D) Out = D->scale(-1); if (Out) Out = Out->sub(IndexPoly::constant(1)); break;
  case BO_GE: if (D) Out = D->scale(-1); break;
  case BO_EQ: Out = D; Equal = true; break;
  default:
    Why = "condition '" + text(S) + "' ('!=') excludes one point: a union "
          "of two ranges";
    return std::nullopt;
  }
  if (!Out) {
    Why = "index arithmetic overflows";
    return std::nullopt;
  }
  return std::vector<Constraint>{{*Out, Equal}};
}

namespace {

// Over NestBuilder's LoopStack (its frames: L, Body, Child).

/// The index in \p Stack of the innermost loop whose variable \p E uses,
/// or -1.
template <typename FrameStack>
int innermostLoopUsing(const FrameStack &Stack, const IndexPoly &E) {
  int K = static_cast<int>(Stack.size()) - 1;
  for (; K >= 0; --K)
    if (E.part({}).uses(Stack[K].L->IV))
      break;
  return K;
}

/// Whether every loop from Stack[K] inward is all there is of its parent's
/// body: only then may a condition narrow Stack[K].
template <typename FrameStack>
bool wholeBodiesFrom(const FrameStack &Stack, size_t K) {
  for (size_t J = K; J + 1 < Stack.size(); ++J)
    if (!nothingCounted(*Stack[J].L) ||
        !isLastChild(Stack[J].Body, Stack[J].Child))
      return false;
  return true;
}

} // namespace

bool NestBuilder::guardNarrowsLoops(const std::vector<Constraint> &Cs) {
  for (const Constraint &C : Cs) {
    int K = innermostLoopUsing(LoopStack, C.E);
    if (K < 0 || !wholeBodiesFrom(LoopStack, K))
      return false;
  }
  return true;
}

bool NestBuilder::lowerGuardLoop(const std::vector<Constraint> &Cs,
                                 const clang::Stmt *Branch,
                                 const clang::Stmt *Where, Loop &Parent,
                                 bool Narrows) {
  return guardLoop(Cs, Where, Parent, Narrows, /*Pin=*/false, [&](Loop &G) {
    return lowerBody(Branch, G, /*IsLoopBody=*/false);
  });
}

bool NestBuilder::lowerGuardLoop(const std::vector<Constraint> &Cs,
                                 llvm::ArrayRef<const clang::Stmt *> Stmts,
                                 const clang::Stmt *Where, Loop &Parent,
                                 bool Narrows) {
  return guardLoop(Cs, Where, Parent, Narrows, /*Pin=*/false, [&](Loop &G) {
    return llvm::all_of(Stmts,
                        [&](const clang::Stmt *S) { return lowerStmt(S, G); });
  });
}

bool NestBuilder::guardLoop(const std::vector<Constraint> &Cs,
                            const clang::Stmt *Where, Loop &Parent,
                            bool Narrows, bool Pin,
                            llvm::function_ref<bool(Loop &)> LowerBody) {
  // for (__ifN = max(0, e...); __ifN <= min(0, c..., e...); ++__ifN): one
  // iteration exactly when every c >= 0 and e == 0 hold. A name starting
  // with "__" is reserved in C and C++, so no source name clashes; it
  // indexes nothing (docs/user-guide.md, "Conditions").
  Loop G;
  if (!guardBounds(Cs, Where, Pin, G))
    return false;
  G.Narrows = Narrows;
  if (!LowerBody(G))
    return false;
  // An empty one that narrows its parent still runs its iterations.
  if (!G.Body.empty() || G.Narrows)
    Parent.Body.push_back(Node::loop(std::move(G)));
  return true;
}

bool NestBuilder::guardBounds(const std::vector<Constraint> &Cs,
                              const clang::Stmt *Where, bool Pin, Loop &G) {
  G.IV = guardLoopIV(++GuardLoops);
  G.IsGuard = true;
  G.Loc = loc(Where->getBeginLoc());
  G.First = Bound::single(AffineExpr());
  G.Last = Bound::single(AffineExpr());
  auto Add = [](Bound &B, Bound::KindTy Kind, const AffineExpr &E) {
    BoundTerm T{E, 1};
    if (std::find(B.Terms.begin(), B.Terms.end(), T) == B.Terms.end()) {
      B.Terms.push_back(T);
      B.Kind = Kind;
    }
  };
  for (const Constraint &C : Cs) {
    std::vector<SizeMonomial> Products;
    std::optional<IndexPoly> E = C.E;
    std::string Why;
    if (Pin && !C.E.toAffine(nullptr)) {
      // The loop variable the message names: any the constraint uses.
      std::string IV;
      for (const auto &[M, Coef] : C.E.parts())
        for (const auto &[Name, K] : Coef.terms())
          IV = Name;
      E = pinLoopVarTimesSize(C.E, IV, Why);
      if (!E)
        return fail(Where->getBeginLoc(), RejectKind::Condition, Why);
    }
    std::optional<AffineExpr> A = E->toAffine(&Products);
    if (!A)
      return fail(Where->getBeginLoc(), RejectKind::Condition,
                  "condition on loop variables is not affine (a loop "
                  "variable times a size)");
    registerProducts(Products);
    Add(G.Last, Bound::Min, *A);
    if (C.Equal)
      Add(G.First, Bound::Max, *A);
  }
  return true;
}

bool NestBuilder::applyGuard(const std::vector<Constraint> &Cs,
                             const clang::Stmt *Where) {
  for (const Constraint &C : Cs) {
    // The innermost loop whose variable the condition uses; it may only
    // narrow that loop if every loop between is all of its parent's body.
    int K = innermostLoopUsing(LoopStack, C.E);
    if (K < 0)
      return fail(Where->getBeginLoc(), RejectKind::Condition,
                  "condition mixes loop variables with loop-invariant parts");
    if (!wholeBodiesFrom(LoopStack, K))
      return fail(Where->getBeginLoc(), RejectKind::Condition,
                  "condition on '" + LoopStack[K].L->IV +
                      "' guards only part of the loop over it");
    if (!tightenLoop(*LoopStack[K].L, *LoopStack[K].R, LoopStack[K].L->IV,
                     C.E, C.Equal, Where))
      return false;
  }
  return true;
}

namespace {

bool combineBound(Bound &B, const BoundTerm &T, Bound::KindTy Kind) {
  if (B.Kind == Bound::Single)
    B.Kind = Kind;
  else if (B.Kind != Kind)
    return false;
  if (std::find(B.Terms.begin(), B.Terms.end(), T) == B.Terms.end())
    B.Terms.push_back(T);
  return true;
}

} // namespace

void NestBuilder::simplifyBound(Bound &B, bool IsUpper,
                                const LoopRange *Outer) {
  // In min(T - 1, t) under t <= T - 1 the first term never decides.
  // (The caller keeps the result only where the trip count provably stays
  // >= 0: max(0, t) as t would give negative trips the loop never had.)
  for (size_t I = 0; I < B.Terms.size() && B.Terms.size() > 1;) {
    bool Redundant = false;
    for (size_t J = 0; J < B.Terms.size() && !Redundant; ++J) {
      if (I == J || B.Terms[I].Divisor != 1 || B.Terms[J].Divisor != 1)
        continue;
      std::optional<AffineExpr> D = IsUpper ? B.Terms[I].Expr.sub(B.Terms[J].Expr)
                                            : B.Terms[J].Expr.sub(B.Terms[I].Expr);
      if (!D)
        continue;
      for (const AffineExpr &Low : boundsOver(*D, Outer, /*Upper=*/false))
        Redundant |= Low.isConstant() && Low.constant() >= 0;
    }
    if (Redundant)
      B.Terms.erase(B.Terms.begin() + I);
    else
      ++I;
  }
  if (B.Terms.size() == 1)
    B.Kind = Bound::Single;
}

bool NestBuilder::tightenLoop(Loop &L, LoopRange &R, const std::string &IV,
                              const IndexPoly &Guard, bool Equal,
                              const clang::Stmt *Where) {
  std::string PinWhy;
  std::optional<IndexPoly> Pinned = pinLoopVarTimesSize(Guard, IV, PinWhy);
  if (!Pinned)
    return fail(Where->getBeginLoc(), RejectKind::Condition, PinWhy);
  const IndexPoly &E = *Pinned;
  for (const auto &[M, Coef] : E.parts())
    if (!M.empty() && Coef.uses(IV))
      return fail(Where->getBeginLoc(), RejectKind::Condition,
                  "condition on '" + IV +
                      "' is not affine (the loop "
                      "variable times a size)");
  int64_t A = E.part({}).coeff(IV);
  std::optional<IndexPoly> RestP = E.sub(IndexPoly::loopVar(IV).scale(A).value());
  std::vector<SizeMonomial> Products;
  std::optional<AffineExpr> Rest = RestP ? RestP->toAffine(&Products)
                                         : std::nullopt;
  if (!Rest)
    return fail(Where->getBeginLoc(), RejectKind::Condition,
                "condition on '" + IV + "' is not affine");
  registerProducts(Products);
  // A*IV + Rest >= 0 (== 0).
  auto Lower = [&]() -> std::optional<BoundTerm> { // IV >= ceil(-Rest / A)
    int64_t Pa = A > 0 ? A : -A;
    std::optional<AffineExpr> Num = A > 0 ? Rest->scale(-1) : *Rest;
    if (Num)
      Num = Num->addConstant(Pa - 1);
    if (!Num)
      return std::nullopt;
    return BoundTerm{*Num, Pa};
  };
  auto Upper = [&]() -> std::optional<BoundTerm> { // IV <= floor(Rest / -A)
    int64_t Pa = A > 0 ? A : -A;
    std::optional<AffineExpr> Num = A < 0 ? *Rest : Rest->scale(-1);
    if (!Num)
      return std::nullopt;
    return BoundTerm{*Num, Pa};
  };
  bool WantLower = Equal || A > 0, WantUpper = Equal || A < 0;
  std::optional<BoundTerm> Lo, Hi;
  if (Equal) {
    // A*IV + Rest == 0: IV = -Rest/A, between ceil and floor of it.
    std::optional<AffineExpr> NegRest = Rest->scale(A > 0 ? -1 : 1);
    int64_t Pa = A > 0 ? A : -A;
    if (!NegRest)
      return fail(Where->getBeginLoc(), RejectKind::Overflow,
                  "index arithmetic overflows");
    Hi = BoundTerm{*NegRest, Pa};
    std::optional<AffineExpr> C = NegRest->addConstant(Pa - 1);
    if (C)
      Lo = BoundTerm{*C, Pa};
  } else {
    if (WantLower)
      Lo = Lower();
    if (WantUpper)
      Hi = Upper();
  }
  if ((WantLower && !Lo) || (WantUpper && !Hi))
    return fail(Where->getBeginLoc(), RejectKind::Overflow,
                "index arithmetic overflows");
  bool Up = L.Step > 0;
  // The start of a strided loop fixes its lattice: only a unit step may
  // start later.
  if (WantLower) {
    if (Up && L.Step != 1 && !Equal) {
      // Lowered again over a unit-step variable, where the loop is a plain
      // for (LowerRegroup.cpp, planUnitStride).
      for (const LoopFrame &F : LoopStack)
        if (F.L == &L && F.For && !F.Regrouped && Reason.empty()) {
          NormalizeFor = F.For;
          return false;
        }
    }
    if (Up && L.Step != 1)
      return fail(Where->getBeginLoc(), RejectKind::Condition,
                  "condition raises the start of the strided loop over '" + IV +
                      "'");
    if (!combineBound(Up ? L.First : L.Last, *Lo, Bound::Max))
      return fail(Where->getBeginLoc(), RejectKind::Condition,
                  "condition on '" + IV + "' meets a min() loop bound");
  }
  if (WantUpper) {
    if (!Up && L.Step != -1)
      return fail(Where->getBeginLoc(), RejectKind::Condition,
                  "condition lowers the start of the strided loop over '" + IV +
                      "'");
    if (!combineBound(Up ? L.Last : L.First, *Hi, Bound::Min))
      return fail(Where->getBeginLoc(), RejectKind::Condition,
                  "condition on '" + IV + "' meets a max() loop bound");
  }
  // Drop terms that never decide, where the loop's trip count stays
  // provably >= 0 without them (formulas are exact only then).
  Bound First = L.First, Last = L.Last;
  simplifyBound(First, /*IsUpper=*/!Up, R.Outer);
  simplifyBound(Last, /*IsUpper=*/Up, R.Outer);
  if (First.isAffine() && Last.isAffine()) {
    std::optional<AffineExpr> Span = Up ? Last.affine().sub(First.affine())
                                        : First.affine().sub(Last.affine());
    bool NonNegative = false;
    if (Span)
      for (const AffineExpr &Low : boundsOver(*Span, R.Outer, false))
        NonNegative |= Low.isConstant() && Low.constant() >= -1;
    if (NonNegative) {
      L.First = First;
      L.Last = Last;
    }
  } else {
    // A min or max stays: no formula either way, and the values are the
    // same over the loops around.
    L.First = First;
    L.Last = Last;
  }
  R.First = L.First;
  R.Last = L.Last;
  noteExtended(Where->getBeginLoc(), "condition on a loop variable");
  return true;
}

std::optional<NestBuilder::Invariant>
NestBuilder::pointerTest(const Expr *Cond) {
  const Expr *S = strip(Cond);
  const Expr *P = nullptr;
  bool NonNullWhenTrue = true;
  if (const auto *UO = dyn_cast<UnaryOperator>(S);
      UO && UO->getOpcode() == UO_LNot &&
      strip(UO->getSubExpr())->getType()->isPointerType()) {
    P = strip(UO->getSubExpr());
    NonNullWhenTrue = false;
  } else if (S->getType()->isPointerType()) {
    P = S;
  } else if (const auto *BO = dyn_cast<BinaryOperator>(S);
             BO && BO->isEqualityOp()) {
    const Expr *L = strip(BO->getLHS()), *R = strip(BO->getRHS());
    auto IsNull = [&](const Expr *E) {
      return E->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull);
    };
    if (IsNull(R) && L->getType()->isPointerType())
      P = L;
    else if (IsNull(L) && R->getType()->isPointerType())
      P = R;
    NonNullWhenTrue = BO->getOpcode() == BO_NE;
  }
  if (!P)
    return std::nullopt;
  P = P->IgnoreParenCasts();
  std::string Name;
  std::optional<bool> NonNull;
  bool IsMember = false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(P)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || (isModified(VD) && !Bindings.count(VD) &&
                !NullPointers.count(VD)))
      return std::nullopt;
    Name = declName(VD);
    if (NullPointers.count(VD))
      NonNull = false;
    else if (auto B = Bindings.find(VD); B != Bindings.end())
      NonNull = boundNonNull(B->second, Name, IsMember);
    else if (const auto *PVD = dyn_cast<ParmVarDecl>(VD))
      NonNull = Calls.nonNull(PVD);
  } else {
    std::string Why;
    std::optional<std::string> Path = memberPath(P, Why);
    if (!Path)
      return std::nullopt;
    Name = *Path;
    IsMember = true;
  }
  std::string Origin;
  if (std::optional<int64_t> Given = givenValue(Name, Origin, IsMember))
    NonNull = *Given != 0;
  Invariant I;
  if (NonNull)
    I.Value = *NonNull == NonNullWhenTrue;
  I.Key = "nonnull:" + Name;
  I.TrueText = Name + " != NULL";
  I.FalseText = Name + " == NULL";
  I.Negated = !NonNullWhenTrue;
  return I;
}

std::optional<bool> NestBuilder::boundNonNull(const Binding &B,
                                              std::string &Name,
                                              bool &IsMember) {
  if (B.Kind != Binding::Pointer)
    return true;
  // At an offset into its base it is not null (arithmetic on a null
  // pointer is undefined); at the base's start it is the caller's pointer
  // itself, null where that one is: the callee's `if (b == NULL)` is the
  // caller's `bias == NULL`.
  const ArrayBase &Base = Bases[B.V.Base];
  bool AtStart = llvm::all_of(B.V.Subs,
                              [](const IndexPoly &P) { return P.isZero(); });
  if (!Base.IsPointer || !AtStart || !Base.Decl)
    return true;
  Name = Base.Name;
  IsMember = isa<FieldDecl>(Base.Decl);
  if (const auto *PVD = dyn_cast<ParmVarDecl>(Base.Decl))
    return Calls.nonNull(PVD);
  return std::nullopt;
}

NestBuilder::Invariant NestBuilder::evalInvariant(const Expr *Cond) {
  const Expr *S = strip(Cond);
  if (std::optional<Invariant> F = functionTest(S))
    return *F;
  if (std::optional<Invariant> P = pointerTest(S))
    return *P;
  if (std::optional<bool> V = switchFixes(S)) {
    Invariant I;
    I.Value = *V;
    return I;
  }
  auto Atom = [&]() {
    std::string Text = invariantText(S);
    Invariant I;
    I.Key = "cond:" + Text;
    I.TrueText = Text;
    I.FalseText = "!(" + Text + ")";
    return I;
  };
  if (const auto *UO = dyn_cast<UnaryOperator>(S);
      UO && UO->getOpcode() == UO_LNot) {
    Invariant I = evalInvariant(UO->getSubExpr());
    if (I.Value)
      I.Value = !*I.Value;
    I.Negated = !I.Negated;
    return I;
  }
  // flag != 0 and flag == 0 are the flag, and its negation.
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isEqualityOp()) {
    Expr::EvalResult R;
    for (int Side = 0; Side < 2; ++Side) {
      const Expr *Other = Side ? BO->getLHS() : BO->getRHS();
      const Expr *Mine = Side ? BO->getRHS() : BO->getLHS();
      if (Other->getType()->isIntegerType() &&
          Mine->getType()->isIntegerType() && Other->EvaluateAsInt(R, Ctx) &&
          R.Val.getInt().isZero()) {
        Invariant I = evalInvariant(Mine);
        if (BO->getOpcode() == BO_EQ) {
          if (I.Value)
            I.Value = !*I.Value;
          I.Negated = !I.Negated;
        }
        return I;
      }
    }
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(S);
      BO && (BO->getOpcode() == BO_LAnd || BO->getOpcode() == BO_LOr)) {
    bool And = BO->getOpcode() == BO_LAnd;
    Invariant L = evalInvariant(BO->getLHS()), R = evalInvariant(BO->getRHS());
    Invariant I;
    if ((L.Value && *L.Value != And) || (R.Value && *R.Value != And))
      I.Value = !And; // false && _, true || _
    else if (L.Value && R.Value)
      I.Value = And;
    else if (L.Value)
      return R;
    else if (R.Value)
      return L;
    else
      return Atom();
    return I;
  }
  // Sizes: evaluated where they have values.
  std::string Why;
  if (const auto *BO = dyn_cast<BinaryOperator>(S);
      BO && BO->getOpcode() == BO_NE &&
      BO->getLHS()->getType()->isIntegerType()) {
    std::optional<IndexPoly> L = indexOf(BO->getLHS(), Why);
    std::optional<IndexPoly> R = L ? indexOf(BO->getRHS(), Why) : std::nullopt;
    std::optional<IndexPoly> D = R ? L->sub(*R) : std::nullopt;
    std::optional<AffineExpr> A = D ? D->toAffine() : std::nullopt;
    if (A)
      if (std::optional<__int128> V = evalSizes(*A, sizeValues())) {
        Invariant I;
        I.Value = *V != 0;
        return I;
      }
  }
  std::optional<std::vector<Constraint>> Cs = constraintsOf(S, false, Why);
  if (!Cs && S->getType()->isIntegerType()) {
    // `n % 4` (llm.c's `B*T % 8 != 0`): its value where the sizes have one.
    if (std::optional<int64_t> V = sizeValueOf(S)) {
      Invariant I;
      I.Value = *V != 0;
      return I;
    }
    std::optional<IndexPoly> P = indexOf(S, Why);
    if (P) {
      std::optional<AffineExpr> A = P->toAffine();
      SizeValues Vals = sizeValues();
      if (A)
        if (std::optional<__int128> V = evalSizes(*A, Vals)) {
          Invariant I;
          I.Value = *V != 0;
          return I;
        }
    }
  }
  if (Cs) {
    SizeValues Vals = sizeValues();
    bool All = true, Holds = true;
    for (const Constraint &C : *Cs) {
      std::optional<AffineExpr> A = C.E.toAffine();
      std::optional<__int128> V = A ? evalSizes(*A, Vals) : std::nullopt;
      if (!V) {
        All = false;
        break;
      }
      Holds &= C.Equal ? *V == 0 : *V >= 0;
    }
    if (All) {
      Invariant I;
      I.Value = Holds;
      return I;
    }
  }
  return Atom();
}

std::string NestBuilder::invariantText(const Expr *S) {
  std::string Text = text(S);
  // A case is keyed by its text: a helper's `n % 4` called once with n
  // and once with m is two conditions, so the helper's variables are
  // spelled as the caller's values (docs/design.md, "Conditions").
  std::vector<const DeclRefExpr *> Refs;
  declRefsIn(S, Refs);
  const FunctionDecl *Root = Frames.empty() ? nullptr : Frames.front().FD;
  unsigned Start = SM.getFileOffset(SM.getExpansionLoc(S->getBeginLoc()));
  std::string Out;
  unsigned At = 0;
  for (const DeclRefExpr *DRE : Refs) {
    const auto *VD = cast<VarDecl>(DRE->getDecl());
    auto Spelled = SpelledAs.find(VD);
    if (Spelled == SpelledAs.end() &&
        (!VD->isLocalVarDeclOrParm() || VD->getDeclContext() == Root))
      continue;
    SourceLocation L = DRE->getBeginLoc();
    unsigned Offset = SM.getFileOffset(L) - Start;
    unsigned End = Offset + VD->getName().size();
    if (L.isMacroID() || Offset < At || End > Text.size())
      return callSiteText(Text);
    std::optional<std::string> Value;
    auto B = Bindings.find(VD);
    if (Spelled != SpelledAs.end()) {
      Value = Spelled->second;
    } else if (B != Bindings.end() && B->second.Kind == Binding::Index) {
      Value = B->second.Value.str();
      if (!llvm::all_of(*Value,
                        [](char C) { return llvm::isAlnum(C) || C == '_'; }))
        Value = "(" + *Value + ")";
    } else if (B != Bindings.end() && B->second.Kind == Binding::Object) {
      // `c->n` of a struct the caller passed as `&cfg`: `cfg.n`.
      StringRef Rest = StringRef(Text).substr(End).ltrim();
      unsigned Accessor = Rest.starts_with("->") ? 2 : Rest.starts_with(".");
      if (Accessor) {
        Value = B->second.ObjectName;
        End = Text.size() - Rest.size() + Accessor;
      }
    } else if (std::optional<int64_t> V = foldedLocal(VD)) {
      Value = std::to_string(*V);
    }
    if (!Value)
      return callSiteText(Text);
    Out += Text.substr(At, Offset - At) + *Value;
    At = End;
  }
  return Out + Text.substr(At);
}

std::string NestBuilder::callSiteText(const std::string &Text) const {
  // Not in the caller's words: the condition of this call only.
  for (auto F = Frames.rbegin(); F != Frames.rend(); ++F)
    if (F->CallLine)
      return Text + " [in " + declName(F->FD) + " called at line " +
             std::to_string(F->CallLine) + "]";
  return Text;
}

std::optional<int64_t> NestBuilder::sizeValueOf(const Expr *E) {
  E = strip(E);
  if (const auto *BO = dyn_cast<BinaryOperator>(E);
      BO && (BO->getOpcode() == BO_Rem || BO->getOpcode() == BO_Div)) {
    std::optional<int64_t> L = sizeValueOf(BO->getLHS());
    std::optional<int64_t> R = L ? sizeValueOf(BO->getRHS()) : std::nullopt;
    if (!R || *R == 0)
      return std::nullopt;
    // C's quotient and remainder (toward zero), as the program computes.
    return BO->getOpcode() == BO_Rem ? *L % *R : *L / *R;
  }
  std::string Why;
  std::optional<IndexPoly> P = indexOf(E, Why);
  std::optional<AffineExpr> A = P ? P->toAffine() : std::nullopt;
  std::optional<__int128> V = A ? evalSizes(*A, sizeValues()) : std::nullopt;
  if (!V || *V > INT64_MAX || *V < INT64_MIN)
    return std::nullopt;
  return static_cast<int64_t>(*V);
}

bool NestBuilder::invariantValue(const Expr *Cond) {
  Invariant I = evalInvariant(Cond);
  if (I.Value)
    return *I.Value;
  // The case fixes the atom; the condition may be its negation.
  bool Atom = true;
  if (auto It = Case.find(I.Key); It != Case.end()) {
    Atom = It->second;
  } else if (std::none_of(Unassigned.begin(), Unassigned.end(),
                          [&](const auto &U) { return U.first == I.Key; })) {
    Unassigned.push_back({I.Key, I.TrueText});
  }
  std::string Label = Atom ? I.TrueText : I.FalseText;
  if (std::none_of(CaseUsed.begin(), CaseUsed.end(),
                   [&](const auto &U) { return U.first == Label; }))
    CaseUsed.push_back({Label, Atom});
  noteExtended(Cond->getBeginLoc(), "loop-invariant condition");
  return Atom != I.Negated;
}

bool NestBuilder::lowerIf(const IfStmt *If, Loop &Parent, bool WholeBody,
                          const std::optional<bool> &SplitBranch) {
  if (If->getInit() || If->getConditionVariable())
    return fail(If->getBeginLoc(), RejectKind::UnsupportedStatement,
                "if with an initializer or a condition variable");
  if (If->isConsteval())
    return fail(If->getBeginLoc(), RejectKind::UnsupportedStatement,
                "'if consteval' inside the nest");
  IRStmt Checked;
  Checked.Loc = loc(If->getBeginLoc());
  bool Asserted = false;
  if (!lowerAssertion(If, Checked, Asserted))
    return false;
  if (Asserted) {
    if (!Checked.Accesses.empty() || !Checked.Ops.empty() || Checked.IntOps)
      Parent.Body.push_back(Node::stmt(std::move(Checked)));
    return true;
  }
  const Expr *Cond = If->getCond();
  if (If->isConstexpr()) {
    Expr::EvalResult R;
    bool V = Cond->EvaluateAsInt(R, Ctx) && R.Val.getInt().getBoolValue();
    const clang::Stmt *Branch = V ? If->getThen() : If->getElse();
    return !Branch || lowerBody(Branch, Parent, WholeBody);
  }
  // `i != j` without else: two ranges of the loop, in order (not a test
  // of a condition kept in a local, `valid != 0`: LowerGuardLocals.cpp).
  const auto *Ne = dyn_cast<BinaryOperator>(strip(Cond));
  bool LocalNegate = false;
  bool IsNe = Ne && Ne->getOpcode() == BO_NE && !If->getElse() &&
              !guardLocalOf(Ne, LocalNegate) &&
              classify(Cond) == CondKind::Affine && !usesNestData(Cond);
  CondKind K = IsNe ? CondKind::Affine : classify(Cond);
  if (K == CondKind::Invariant) {
    const clang::Stmt *Branch =
        invariantValue(Cond) ? If->getThen() : If->getElse();
    return !Branch || lowerBody(Branch, Parent, WholeBody);
  }
  if (K == CondKind::Data) {
    bool Mirrored = false;
    bool Ok = lowerMirroredBranch(If, Parent, Mirrored);
    if (Mirrored)
      return Ok;
    std::vector<const clang::Stmt *> Arms{If->getThen()};
    if (If->getElse())
      Arms.push_back(If->getElse());
    return lowerDataBranch(Cond, Arms, Parent, If->getBeginLoc());
  }
  // Affine.
  if (!WholeBody || !IsNe) {
    bool Handled = false;
    bool Ok = lowerUnionIf(If, Parent, WholeBody, Handled);
    if (Handled)
      return Ok;
  }
  std::string Why;
  if (!WholeBody) {
    // Each branch in a loop of at most one iteration (lowerGuardLoop).
    std::optional<std::vector<Constraint>> T = constraintsOf(Cond, false, Why);
    std::optional<std::vector<Constraint>> F =
        T && If->getElse() ? constraintsOf(Cond, true, Why) : std::nullopt;
    if (!T || (If->getElse() && !F))
      return fail(Cond->getBeginLoc(), RejectKind::Condition,
                  "condition '" + text(Cond) +
                      "' on loop variables guards only part of the loop "
                      "body, and " +
                      Why);
    return lowerGuardLoop(*T, If->getThen(), If, Parent) &&
           (!F || lowerGuardLoop(*F, If->getElse(), If, Parent));
  }
  if (!If->getElse() && !IsNe) {
    std::optional<std::vector<Constraint>> Cs = constraintsOf(Cond, false, Why);
    if (!Cs)
      return fail(Cond->getBeginLoc(), RejectKind::Condition, Why);
    if (!guardNarrowsLoops(*Cs))
      return lowerGuardLoop(*Cs, If->getThen(), If, Parent);
    return applyGuard(*Cs, If) &&
           lowerBody(If->getThen(), Parent, /*IsLoopBody=*/true);
  }
  // Two parts of the loop's range: each runs one branch.
  if (!SplitBranch) {
    SplitRequested = true;
    return false;
  }
  if (!takeSplit(If))
    return false;
  std::vector<Constraint> Parts[2];
  const clang::Stmt *Branches[2];
  if (IsNe) {
    std::optional<Conjunctions> Ranges = notEqualParts(Ne, Why);
    if (!Ranges)
      return fail(Cond->getBeginLoc(), RejectKind::Condition, Why);
    Parts[0] = (*Ranges)[0];
    Parts[1] = (*Ranges)[1];
    Branches[0] = Branches[1] = If->getThen();
  } else {
    std::optional<std::vector<Constraint>> T = constraintsOf(Cond, false, Why);
    std::optional<std::vector<Constraint>> F =
        T ? constraintsOf(Cond, true, Why) : std::nullopt;
    if (!F || T->size() != 1 || F->size() != 1 || T->front().Equal ||
        F->front().Equal)
      return fail(Cond->getBeginLoc(), RejectKind::Condition,
                  "if/else on '" + text(Cond) +
                      "' splits the loop into more than two ranges");
    Parts[0] = *T;
    Parts[1] = *F;
    Branches[0] = If->getThen();
    Branches[1] = If->getElse();
  }
  // Which part comes first in the loop's order: the one bounding the loop
  // variable from above, for an upward loop.
  const std::string &IV = Parent.IV;
  int64_t A0 = Parts[0].front().E.part({}).coeff(IV);
  if (A0 == 0)
    return fail(Cond->getBeginLoc(), RejectKind::Condition,
                "if/else on '" + text(Cond) +
                    "', which does not depend on this loop's variable, is "
                    "its whole body");
  bool ZeroFirst = (A0 < 0) == (Parent.Step > 0);
  int Pick = (*SplitBranch == ZeroFirst) ? 0 : 1;
  return applyGuard(Parts[Pick], If) &&
         lowerBody(Branches[Pick], Parent, /*IsLoopBody=*/true);
}

//===----------------------------------------------------------------------===//
// Data-dependent branches
//===----------------------------------------------------------------------===//

bool NestBuilder::lowerArm(const clang::Stmt *S, IRStmt &Acc) {
  if (!S || isa<NullStmt>(S))
    return true;
  if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
    for (const clang::Stmt *C : CS->body())
      if (!lowerArm(C, Acc))
        return false;
    return true;
  }
  if (isLoopStmt(S))
    return fail(S->getBeginLoc(), RejectKind::DataDependentBranch,
                "loop inside a data-dependent branch: its "
                "work depends on the data");
  if (isa<ContinueStmt>(S) || isa<BreakStmt>(S) || isa<ReturnStmt>(S) ||
      isa<GotoStmt>(S))
    return fail(S->getBeginLoc(), RejectKind::DataDependentBranch,
                "jump inside a data-dependent branch");
  if (const auto *If = dyn_cast<IfStmt>(S)) {
    bool Asserted = false;
    if (!lowerAssertion(If, Acc, Asserted))
      return false;
    if (Asserted)
      return true;
    const Expr *Cond = If->getCond();
    CondKind K = classify(Cond);
    if (K == CondKind::Invariant) {
      const clang::Stmt *B =
          invariantValue(Cond) ? If->getThen() : If->getElse();
      return lowerArm(B, Acc);
    }
    if (K == CondKind::Affine)
      return fail(Cond->getBeginLoc(), RejectKind::DataDependentBranch,
                  "condition on loop variables inside a "
                  "data-dependent branch");
    if (!visitCondition(Cond, Acc))
      return false;
    std::vector<IRStmt> Arms(2);
    if (!lowerArm(If->getThen(), Arms[0]) || !lowerArm(If->getElse(), Arms[1]))
      return false;
    return mergeArms(Arms, Acc, If->getBeginLoc());
  }
  if (const auto *SW = dyn_cast<SwitchStmt>(S))
    return lowerSwitchArm(SW, Acc);
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    Loop Dummy;
    for (const Decl *D : DS->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D))
        if (!lowerDecl(VD, Dummy, Acc))
          return false;
    return true;
  }
  if (const auto *E = dyn_cast<Expr>(S))
    return visitData(E, Acc);
  return fail(S->getBeginLoc(), RejectKind::UnsupportedStatement,
              "unsupported statement '" + StringRef(S->getStmtClassName()) +
                  "' in a data-dependent branch");
}

/// Arms of a data-dependent branch into one statement: the cheapest arm's
/// work for sure, the rest up to the dearest as maybe; element writes every
/// arm makes once; re-reads of elements already touched dropped. Anything
/// else makes the bytes depend on the data: refused.
bool NestBuilder::mergeArms(std::vector<IRStmt> &Arms, IRStmt &Into,
                            SourceLocation At) {
  auto Key = [&](const Access &A) {
    const PendingAccess &P = Pending[std::stoul(A.Text.substr(1))];
    return std::make_pair(P.Base, P.Subs);
  };
  auto Touched = [&](const std::pair<unsigned, std::vector<IndexPoly>> &K) {
    if (llvm::any_of(Into.Accesses, [&](const Access &A) {
          return A.IsRead && Key(A) == K;
        }))
      return true;
    // The statement's own target is written after its value is read:
    // `A[i] = c ? A[i] : 0` reads A[i] before anything touched it (its
    // note waits for the value: DeferredTouches).
    return llvm::is_contained(TouchedStack.back().Elements, K);
  };
  // How often an arm reads an element: one every arm reads as often is
  // read whichever way the branch goes (`c ? x[i] - 1 : x[i]`).
  auto Reads = [&](const IRStmt &Arm, const auto &K) {
    return llvm::count_if(Arm.Accesses, [&](const Access &B) {
      return !B.IsWrite && Key(B) == K;
    });
  };
  std::vector<Access> Writes, SureReads;
  for (size_t I = 0; I < Arms.size(); ++I) {
    for (const Access &A : Arms[I].Accesses) {
      auto K = Key(A);
      if (!A.IsWrite) {
        if (Touched(K))
          continue;
        bool Alike = llvm::all_of(Arms, [&](const IRStmt &Arm) {
          auto First = llvm::find_if(Arm.Accesses, [&](const Access &B) {
            return Key(B) == K;
          });
          return First != Arm.Accesses.end() && !First->IsWrite &&
                 Reads(Arm, K) == Reads(Arms[0], K);
        });
        if (!Alike)
          return fail(At, RejectKind::DataDependentBranch,
                      "data-dependent branch reads '" + Bases[K.first].Name +
                          "' elements that are not read before it: the "
                          "bytes depend on the data");
        if (I == 0)
          SureReads.push_back(A);
        continue;
      }
      bool Everywhere = true;
      for (size_t J = 0; J < Arms.size() && Everywhere; ++J)
        Everywhere = llvm::any_of(Arms[J].Accesses, [&](const Access &B) {
          return B.IsWrite && Key(B) == K;
        });
      if (!Everywhere)
        return fail(At, RejectKind::DataDependentBranch,
                    "data-dependent branch writes '" + Bases[K.first].Name +
                        "' elements only on some of its paths: the "
                        "bytes depend on the data");
      if (std::none_of(Writes.begin(), Writes.end(),
                       [&](const Access &W) { return Key(W) == K; }))
        Writes.push_back(A);
    }
  }
  for (Access &R : SureReads)
    Into.Accesses.push_back(std::move(R));
  for (Access &W : Writes)
    Into.Accesses.push_back(std::move(W));
  // Work: per precision, the least any arm does for sure, up to the most.
  std::set<Precision> Ps;
  for (const IRStmt &A : Arms) {
    for (const auto &[P, C] : A.Ops)
      Ps.insert(P);
    for (const auto &[P, C] : A.MaybeOps)
      Ps.insert(P);
  }
  for (Precision P : Ps) {
    std::optional<OpCounts> Lo, Hi;
    for (const IRStmt &A : Arms) {
      OpCounts Sure, Most;
      if (auto It = A.Ops.find(P); It != A.Ops.end())
        Sure = It->second;
      Most = Sure;
      if (auto It = A.MaybeOps.find(P); It != A.MaybeOps.end()) {
        std::map<Precision, OpCounts> M{{P, Most}};
        addOps(M, {{P, It->second}});
        Most = M[P];
      }
      Lo = Lo ? combineOps(*Lo, Sure, true) : Sure;
      Hi = Hi ? combineOps(*Hi, Most, false) : Most;
    }
    if (!Lo->empty())
      addOps(Into.Ops, {{P, *Lo}});
    OpCounts Extra = subtractOps(*Hi, *Lo);
    if (!Extra.empty())
      addOps(Into.MaybeOps, {{P, Extra}});
  }
  int64_t LoInt = INT64_MAX, HiInt = 0;
  for (const IRStmt &A : Arms) {
    LoInt = std::min(LoInt, A.IntOps);
    HiInt = std::max(HiInt, A.IntOps + A.MaybeIntOps);
  }
  Into.IntOps += LoInt;
  Into.MaybeIntOps += HiInt - LoInt;
  noteExtended(At, "data-dependent branch");
  return true;
}

bool NestBuilder::lowerDataBranch(const Expr *Cond,
                                  const std::vector<const clang::Stmt *> &Arms,
                                  Loop &Parent, SourceLocation At) {
  IRStmt St;
  St.Loc = loc(At);
  if (!visitCondition(Cond, St))
    return false;
  std::vector<IRStmt> Lowered(std::max<size_t>(Arms.size(), 2));
  {
    llvm::SaveAndRestore InArm(ArmDepth, ArmDepth + 1);
    for (size_t I = 0; I < Arms.size(); ++I)
      if (!lowerArm(Arms[I], Lowered[I]))
        return false;
  }
  if (!mergeArms(Lowered, St, At))
    return false;
  Parent.Body.push_back(Node::stmt(std::move(St)));
  return true;
}

//===----------------------------------------------------------------------===//
// Calls to functions of the translation unit
//===----------------------------------------------------------------------===//

const FunctionDecl *NestBuilder::inlinableCallee(const CallExpr *CE,
                                                 std::string &Why) {
  const FunctionDecl *Callee = CE->getDirectCallee();
  if (!Callee && !isa<CXXOperatorCallExpr>(CE) && !isa<CXXMemberCallExpr>(CE))
    if (std::optional<FunctionRef> FR = functionRefOf(CE->getCallee(), Why))
      Callee = targetOf(*FR, Why);
  if (!Callee) {
    if (!Why.empty())
      Why = "indirect call '" + text(CE) + "': " + Why;
    return nullptr;
  }
  const FunctionDecl *Def = nullptr;
  if (!Callee->hasBody(Def) || !Def)
    Def = importedDefinition(Callee, Why);
  if (!Def || Def->isVariadic())
    return nullptr;
  if (SM.isInSystemHeader(Def->getLocation()))
    return nullptr;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(Def); MD && MD->isVirtual()) {
    Why = "virtual call to '" + declName(Def) + "'";
    return nullptr;
  }
  // A lambda's copies must hold what the variables hold (LowerHelperCalls.cpp).
  if (std::string Capture = lambdaCaptureReason(CE); !Capture.empty()) {
    Why = Capture;
    return nullptr;
  }
  return Def;
}

const FunctionDecl *NestBuilder::importedDefinition(const FunctionDecl *Callee,
                                                    std::string &Why) {
  // --cross-tu: the one definition elsewhere in the compile database
  // (CrossTU.h), as the --entry walk finds it.
  if (!Opts.CrossTUNests)
    return nullptr;
  std::string Elsewhere;
  if (const FunctionDecl *Def =
          bodyFromElsewhere(Opts.CrossTU.get(), Ctx, Callee, Elsewhere))
    return Def;
  if (!Elsewhere.empty())
    Why = "call to '" + declName(Callee) + "', " + Elsewhere;
  return nullptr;
}

// A struct of sizes a callee's parameter or a local pointer \p T receives
// from \p Arg (the struct, its address, or a pointer to it): its fields are
// named after the caller's path (`m->config.dim`), or rows of an array of
// structs.
std::optional<NestBuilder::Binding>
NestBuilder::objectBinding(const Expr *Arg, QualType T, std::string &Why) {
  const Expr *Obj = strip(Arg);
  // C++ copies a struct argument by its copy constructor.
  if (const auto *CCE = dyn_cast<CXXConstructExpr>(Obj);
      CCE && CCE->getNumArgs() == 1 &&
      CCE->getConstructor()->isCopyOrMoveConstructor())
    Obj = strip(CCE->getArg(0));
  bool Address = false;
  if (const auto *UO = dyn_cast<UnaryOperator>(Obj); UO && UO->getOpcode() == UO_AddrOf) {
    Obj = strip(UO->getSubExpr());
    Address = true;
  }
  Binding B;
  B.Kind = Binding::Object;
  std::string Name;
  StructRow Row;
  const auto *DRE = dyn_cast<DeclRefExpr>(Obj);
  auto Outer = DRE ? Bindings.find(dyn_cast<VarDecl>(DRE->getDecl())) : Bindings.end();
  if (Outer != Bindings.end() && Outer->second.Row)
    return Outer->second; // passed on from a caller's struct row
  if (DRE)
    Name = declName(DRE->getDecl());
  else if (std::optional<std::string> Path = memberPath(Obj, Why))
    Name = *Path;
  else if (std::string RowWhy; structRowOf(Arg, Row, RowWhy)) {
    B.ObjectName = Row.Array + "[" + Row.Row.str() + "].";
    B.Row = Row;
    return B;
  } else if (!RowWhy.empty())
    Why = RowWhy;
  if (Name.empty()) {
    if (Why.empty())
      Why = "not a named struct";
    return std::nullopt;
  }
  B.ObjectName = Name + (T->isPointerType() && !Address ? "->" : ".");
  return B;
}

bool NestBuilder::bindArguments(const CallExpr *CE, const FunctionDecl *Callee,
                                IRStmt &ArgWork) {
  assert(!Frames.empty() && Frames.back().FD == Callee &&
         "inlineCall pushes the callee's frame before binding");
  // The callee's own changes: the function around a lambda sees the
  // lambda's body too, adjustments of its parameters included.
  const ModificationSites &CalleeMod = Frames.back().Modified;
  llvm::ArrayRef<const Expr *> Args = callArguments(CE);
  if (Args.size() != Callee->getNumParams())
    return fail(CE->getBeginLoc(), RejectKind::CallArgument,
                "call to '" + declName(Callee) + "' with default arguments");
  for (unsigned I = 0; I < Args.size(); ++I) {
    const ParmVarDecl *P = Callee->getParamDecl(I);
    const Expr *Arg = Args[I];
    QualType T = P->getType();
    std::string Why;
    Binding B;
    // `o0 = e;` through `float &o0` writes the caller's element or scalar.
    bool WritesThrough = T->isReferenceType() &&
                         T.getNonReferenceType()->isArithmeticType() &&
                         !T.getNonReferenceType().isConstQualified();
    if (!WritesThrough && CalleeMod.Vars.count(P))
      return fail(Arg->getBeginLoc(), RejectKind::CallArgument,
                  "'" + declName(Callee) + "' modifies its parameter '" +
                      declName(P) + "'");
    if (T->isPointerType() || T->isReferenceType()) {
      QualType Pointee = T->getPointeeType();
      if (Pointee->isFunctionType()) {
        // Resolved where it is called or compared: an unused one makes no
        // cases.
        std::optional<FunctionRef> FR = functionRefOf(Arg, Why);
        if (!FR)
          return fail(Arg->getBeginLoc(), RejectKind::CallArgument,
                      "argument '" + text(Arg) + "' of '" + declName(Callee) +
                          "': " + Why);
        B.Kind = Binding::Function;
        B.Fn = *FR;
        Bindings[P] = B;
        continue;
      }
      if (Pointee->isRecordType() && !isContainerType(Pointee)) {
        std::optional<Binding> O = objectBinding(Arg, T, Why);
        if (!O)
          return fail(Arg->getBeginLoc(), RejectKind::CallArgument,
                      "argument '" + text(Arg) + "' of '" + declName(Callee) + "': " + Why);
        Bindings[P] = *O;
        continue;
      }
      if (T->isPointerType() &&
          Arg->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull)) {
        NullPointers.insert(P);
        continue;
      }
      bool ScalarRef = T->isReferenceType() && Pointee->isArithmeticType();
      if (ScalarRef && Pointee.isConstQualified()) {
        if (!visitData(Arg, ArgWork))
          return false;
        continue; // a value, read once
      }
      if (ScalarRef && callerScalar(Arg, Why))
        continue; // the caller's own float: a scalar, as the caller's is
      std::optional<View> V = Why.empty() ? viewOf(Arg, Why) : std::nullopt;
      if (!V)
        return fail(Arg->getBeginLoc(), RejectKind::CallArgument,
                    "argument '" + text(Arg) + "' of '" + declName(Callee) +
                        "': " + Why);
      B.Kind = ScalarRef ? Binding::Element : Binding::Pointer;
      B.V = *V;
      Bindings[P] = B;
      continue;
    }
    if (T->isIntegerType()) {
      if (std::optional<IndexPoly> Idx = indexOf(Arg, Why)) {
        Bindings[P] = Binding::index(*Idx);
        continue;
      }
    }
    if (T->isRecordType()) {
      // A copy the callee only reads (darknet's `layer l`): its fields are
      // the caller's struct's.
      const RecordDecl *R = T->getAsRecordDecl();
      std::optional<Binding> O;
      if (!isContainerType(T) && R && !assignsFieldOf(CalleeMod, R))
        O = objectBinding(Arg, T, Why);
      if (!O)
        return fail(Arg->getBeginLoc(), RejectKind::CallArgument,
                    "argument '" + text(Arg) + "' of '" + declName(Callee) +
                        "' passes an object by value" +
                        (Why.empty() ? "" : ": " + Why));
      Bindings[P] = *O;
      continue;
    }
    // An integer that is no index (darknet's im2col passes `h_offset + h *
    // stride`, h_offset = (c / ksize) % ksize) is a value the tool does not
    // follow: no size of the callee's, and a condition or subscript on it
    // is refused with this reason.
    if (T->isIntegerType())
      OpaqueInts[P] = {"'" + declName(P) + "' = argument '" + text(Arg) +
                           "' of '" + declName(Callee) + "', not an index" +
                           (Why.empty() ? "" : ": " + Why),
                       mentionsLoopVar(Arg) || usesNestData(Arg)};
    // A value: computed once at the call.
    if (!visitData(Arg, ArgWork))
      return false;
  }
  return true;
}

namespace {

/// The value `if (C) return V;` returns (returnGuarded, LowerAsserts.cpp);
/// null otherwise.
const Expr *guardedReturn(const clang::Stmt *S) {
  const ReturnStmt *Ret = returnGuarded(dyn_cast_or_null<IfStmt>(S));
  return Ret ? Ret->getRetValue() : nullptr;
}

} // namespace

const Expr *
NestBuilder::returnChainValue(std::vector<const clang::Stmt *> &Stmts,
                              const Expr *Result, const FunctionDecl *Callee) {
  QualType T = Callee->getReturnType();
  if (!Result || !T->isArithmeticType())
    return Result;
  // Built from the last guard back: c1 ? e1 : (c2 ? e2 : e3).
  while (!Stmts.empty()) {
    const Expr *Guarded = guardedReturn(Stmts.back());
    if (!Guarded)
      break;
    const auto *If = cast<IfStmt>(Stmts.back());
    Result = new (Ctx)
        ConditionalOperator(const_cast<Expr *>(If->getCond()), If->getIfLoc(),
                            const_cast<Expr *>(Guarded), Result->getBeginLoc(),
                            const_cast<Expr *>(Result), T.getUnqualifiedType(),
                            VK_PRValue, OK_Ordinary);
    Stmts.pop_back();
  }
  return Result;
}

const Expr *roofline::frontend::soleReturn(const clang::Stmt *S) {
  if (const auto *CS = dyn_cast_or_null<CompoundStmt>(S))
    S = CS->size() == 1 ? CS->body_front() : nullptr;
  const auto *Ret = dyn_cast_or_null<ReturnStmt>(S);
  return Ret ? Ret->getRetValue() : nullptr;
}

const Expr *NestBuilder::branchesReturnValue(const clang::Stmt *S,
                                             const FunctionDecl *Callee) {
  // darknet's stair_activate: `if (n%2 == 0) return floor(x/2.); else
  // return (x - n) + floor(x/2.);` is the value `c ? e1 : e2`, counted by
  // the rules of conditions like returnChainValue's.
  QualType T = Callee->getReturnType();
  const auto *If = dyn_cast_or_null<IfStmt>(S);
  if (!If || !T->isArithmeticType() || If->getInit() ||
      If->getConditionVariable() || If->isConsteval() || !If->getElse())
    return nullptr;
  const Expr *Then = soleReturn(If->getThen());
  const Expr *Else = soleReturn(If->getElse());
  if (!Else)
    Else = branchesReturnValue(If->getElse(), Callee); // else if ...
  if (!Then || !Else)
    return nullptr;
  return new (Ctx) ConditionalOperator(
      const_cast<Expr *>(If->getCond()), If->getIfLoc(),
      const_cast<Expr *>(Then), If->getElseLoc(), const_cast<Expr *>(Else),
      T.getUnqualifiedType(), VK_PRValue, OK_Ordinary);
}

bool NestBuilder::lowerReturnTree(llvm::ArrayRef<const clang::Stmt *> Stmts,
                                  size_t From, const Expr *Result,
                                  IRStmt &Acc) {
  for (size_t I = From; I < Stmts.size(); ++I) {
    const Expr *Returned = guardedReturn(Stmts[I]);
    if (!Returned) {
      if (!lowerArm(Stmts[I], Acc))
        return false;
      continue;
    }
    const Expr *Cond = cast<IfStmt>(Stmts[I])->getCond();
    CondKind K = classify(Cond);
    if (K == CondKind::Invariant) {
      if (invariantValue(Cond))
        return visitData(Returned, Acc);
      continue;
    }
    if (K == CondKind::Affine && ArmDepth == 0 && StmtParent &&
        !usesNestData(Cond) &&
        affineSidesFit(Cond, Returned,
                       I + 1 == Stmts.size() ? Result : nullptr))
      return lowerAffineSides(Cond, Stmts[I], [&](int Side, IRStmt &W) {
        return Side == 0 ? visitData(Returned, W)
                         : lowerReturnTree(Stmts, I + 1, Result, W);
      });
    // `c ? Returned : ({ the rest; Result })`, as a conditional counts.
    if (!visitCondition(Cond, Acc))
      return false;
    std::vector<IRStmt> Arms(2);
    {
      llvm::SaveAndRestore InArm(ArmDepth, ArmDepth + 1);
      if (!visitData(Returned, Arms[0]) ||
          !lowerReturnTree(Stmts, I + 1, Result, Arms[1]))
        return false;
    }
    return mergeArms(Arms, Acc, Stmts[I]->getBeginLoc());
  }
  return !Result || visitData(Result, Acc);
}

namespace {

/// `if (c) { ...; return; }` without an else, no other exit in it: the rest
/// of a void helper is the else-branch. Null otherwise.
const IfStmt *exitGuard(const clang::Stmt *S) {
  const auto *If = dyn_cast_or_null<IfStmt>(S);
  if (!If || If->getElse() || If->getInit() || If->getConditionVariable())
    return nullptr;
  const clang::Stmt *Then = If->getThen();
  std::vector<const clang::Stmt *> Body;
  if (const auto *CS = dyn_cast<CompoundStmt>(Then))
    Body.assign(CS->body_begin(), CS->body_end());
  else
    Body.push_back(Then);
  const auto *Ret = Body.empty() ? nullptr : dyn_cast<ReturnStmt>(Body.back());
  if (!Ret || Ret->getRetValue())
    return nullptr;
  for (size_t I = 0; I + 1 < Body.size(); ++I) {
    EarlyEnds Ends;
    findEarlyEnds(Body[I], false, Ends);
    if (Ends.Exit)
      return nullptr;
  }
  return If;
}

} // namespace

bool NestBuilder::lowerCalleeStmts(llvm::ArrayRef<const clang::Stmt *> Stmts,
                                   Loop &Parent,
                                   const FunctionDecl *Callee) {
  for (size_t I = 0; I < Stmts.size(); ++I) {
    const auto *If = dyn_cast<IfStmt>(Stmts[I]);
    if (If && Callee->getReturnType()->isVoidType() && exitGuard(If)) {
      const clang::Stmt *Then = If->getThen();
      std::vector<const clang::Stmt *> Taken{Then};
      if (const auto *CS = dyn_cast<CompoundStmt>(Then))
        Taken.assign(CS->body_begin(), CS->body_end());
      Taken.pop_back(); // the return
      CondKind K = classify(If->getCond());
      if (K == CondKind::Affine)
        return lowerAffineExit(If, Taken, Stmts.drop_front(I + 1), Parent,
                               Callee);
      // llm.c's `if (B*T % 8 != 0) { matmul_forward_naive(...); return; }`:
      // on a loop-invariant condition, the taken side alone runs.
      if (K != CondKind::Invariant)
        return fail(If->getBeginLoc(), RejectKind::EarlyExit,
                    "early exit ('return') in '" + declName(Callee) +
                        "', called inside the nest, under a condition that "
                        "is not loop-invariant");
      if (!invariantValue(If->getCond()))
        continue;
      return lowerCalleeStmts(Taken, Parent, Callee);
    }
    if (If) {
      if (!lowerIf(If, Parent, /*WholeBody=*/false, std::nullopt))
        return false;
      continue;
    }
    if (!lowerStmt(Stmts[I], Parent))
      return false;
  }
  return true;
}

bool NestBuilder::canHoistCall(llvm::ArrayRef<const clang::Stmt *> Stmts,
                               const IRStmt *Value) const {
  // Not under a data-dependent branch (the loop would run on some paths),
  // and only where the helper returns last: no guarded return skips it.
  if (!StmtParent || ArmDepth != 0 || !Value)
    return false;
  bool HasLoop = false;
  for (const clang::Stmt *S : Stmts) {
    if (guardedReturn(S))
      return false;
    HasLoop |= isLoopStmt(S);
  }
  return HasLoop;
}

namespace {

/// The arrays the nodes from \p From of \p L access: all of them into
/// \p Touched, those written into \p Written.
void arraysAccessed(const Loop &L, size_t From, std::set<std::string> &Touched,
                    std::set<std::string> &Written) {
  for (size_t I = From; I < L.Body.size(); ++I) {
    const Node &N = L.Body[I];
    if (N.isLoop()) {
      arraysAccessed(N.L.front(), 0, Touched, Written);
      continue;
    }
    for (const Access &A : N.S.Accesses) {
      Touched.insert(A.ArrayName);
      if (A.IsWrite)
        Written.insert(A.ArrayName);
    }
  }
}

} // namespace

bool NestBuilder::noteHoistedArrays(const Loop &L, size_t From,
                                    const FunctionDecl *Callee,
                                    SourceLocation At) {
  assert(Hoisted && "a call is hoisted only out of a statement");
  std::set<std::string> Touched, Written;
  arraysAccessed(L, From, Touched, Written);
  // A helper's scratch array (`float tmp[8]` of its own) has no bytes:
  // its order against the statement changes no count.
  for (const ArrayBase &B : Bases)
    if (B.Scratch) {
      Touched.erase(B.Name);
      Written.erase(B.Name);
    }
  auto Unordered = [&](const std::string &Array, const std::string &Writer) {
    return fail(At, RejectKind::UnsupportedStatement,
                "call to '" + declName(Callee) + "' in an expression: '" +
                    Writer + "' writes '" + Array + "', which another " +
                    "operand of the expression also accesses, in no order "
                    "C fixes");
  };
  for (const std::string &A : Touched)
    if (auto W = Hoisted->Written.find(A); W != Hoisted->Written.end())
      return Unordered(A, W->second);
  for (const std::string &A : Written) {
    if (Hoisted->Touched.count(A))
      return Unordered(A, declName(Callee));
    Hoisted->Written.try_emplace(A, declName(Callee));
  }
  Hoisted->Touched.insert(Touched.begin(), Touched.end());
  return true;
}

bool NestBuilder::checkHoistedArrays(const IRStmt &St, SourceLocation At) {
  // A store the statement makes waits for the call's value; its reads
  // may come before or after the call's stores.
  for (const Access &A : St.Accesses)
    if (auto W = Hoisted->Written.find(A.ArrayName);
        A.IsRead && W != Hoisted->Written.end())
      return fail(At, RejectKind::UnsupportedStatement,
                  "call to '" + W->second + "' in an expression writes '" +
                      A.ArrayName + "', which the expression also reads, "
                      "in no order C fixes");
  return true;
}

bool NestBuilder::writesMemory(const Loop &L, size_t From) const {
  for (size_t I = From; I < L.Body.size(); ++I) {
    const Node &N = L.Body[I];
    if (N.isLoop() ? writesMemory(N.L.front(), 0)
                   : llvm::any_of(N.S.Accesses, [&](const Access &A) {
                       if (!A.IsWrite)
                         return false;
                       auto B = llvm::find_if(Bases, [&](const ArrayBase &X) {
                         return X.Name == A.ArrayName;
                       });
                       return B == Bases.end() || !B->Scratch;
                     }))
      return true;
  }
  return false;
}

bool NestBuilder::inlineCall(const CallExpr *CE, Loop *Parent, IRStmt *Value) {
  std::string Why;
  const FunctionDecl *Callee = inlinableCallee(CE, Why);
  if (!Callee)
    return fail(CE->getBeginLoc(), RejectKind::UnknownCall,
                Why.empty() ? "call to '" + text(CE->getCallee()) +
                                  "' with unknown side effects"
                            : Why);
  for (const FunctionFrame &F : Frames)
    if (F.FD == Callee && !F.Binding)
      return fail(CE->getBeginLoc(), RejectKind::Recursion,
                  "recursive call to '" + declName(Callee) + "'");
  if (InlineDepth >= 8)
    return fail(CE->getBeginLoc(), RejectKind::Recursion,
                "calls nested more than 8 deep");
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Callee->getBody());
  if (!Body)
    return fail(CE->getBeginLoc(), RejectKind::UnknownCall,
                "call to '" + declName(Callee) + "' whose body is not a block");
  // Only the last statement may return, or a chain of `if (c) return e;`
  // before it (the value is then a conditional).
  std::vector<const clang::Stmt *> Stmts(Body->body_begin(), Body->body_end());
  const Expr *Result = nullptr;
  if (!Stmts.empty()) {
    if (const auto *Ret = dyn_cast<ReturnStmt>(Stmts.back()))
      Result = Ret->getRetValue();
    else
      Result = branchesReturnValue(Stmts.back(), Callee);
    if (Result) {
      Stmts.pop_back();
      Result = returnChainValue(Stmts, Result, Callee);
    }
  }
  // `row -= pad;` first: the helper's copy of its argument, bound adjusted
  // (LowerParamAdjust.cpp); the statements are not lowered.
  std::vector<const clang::Stmt *> Adjust(
      Stmts.begin(), Stmts.begin() + parameterAdjustments(Stmts, Callee));
  Stmts.erase(Stmts.begin(), Stmts.begin() + Adjust.size());
  // In an expression, a guarded return before other statements of a scalar
  // helper is a branch of the helper (lowerReturnTree).
  bool Tree = Value && Result && Callee->getReturnType()->isArithmeticType();
  for (const clang::Stmt *S : Stmts) {
    if ((Tree && guardedReturn(S)) ||
        (!Value && Callee->getReturnType()->isVoidType() && exitGuard(S)))
      continue;
    EarlyEnds Ends;
    findEarlyEnds(S, false, Ends);
    if (Ends.Exit)
      return fail(Ends.Exit->getBeginLoc(), RejectKind::EarlyExit,
                  Twine("early exit ('") + exitKind(Ends.Exit) + "') in '" +
                      declName(Callee) + "', called inside the nest");
  }
  if (Value && canHoistCall(Stmts, Value)) {
    // Its loops run before the statement, in the statement's loop; the
    // value it returns is the statement's (docs/design.md, "Calls").
    Parent = StmtParent;
  }
  size_t HoistFrom = Parent ? Parent->Body.size() : 0;
  IRStmt ArgWork;
  ArgWork.Loc = loc(CE->getBeginLoc());
  ModificationSites Modified = modificationsAfter(Body, Adjust);
  Frames.push_back({Callee, Modified, /*Binding=*/true});
  bool Bound = bindArguments(CE, Callee, ArgWork) &&
               adjustParameters(Adjust, Callee);
  Frames.pop_back();
  if (!Bound)
    return false;
  noteExtended(CE->getBeginLoc(), "call to '" + declName(Callee) + "'");
  std::string Note = "call to " + declName(Callee) + " (line " +
                     std::to_string(loc(CE->getBeginLoc()).Line) +
                     ") counted as its body";
  addNote(std::move(Note));
  Frames.push_back({Callee, std::move(Modified), /*Binding=*/false,
                    loc(CE->getBeginLoc()).Line});
  llvm::SaveAndRestore Depth(InlineDepth, InlineDepth + 1);
  // A switch on a loop-invariant value runs one path of its body
  // (LowerInvariantSwitch.cpp); its case needs the arguments bound.
  bool Ok = expandCalleeSwitches(Stmts, Result);
  if (!Ok) {
    // refused; the callee's bindings are dropped below
  } else if (Value && !Parent) {
    // In an expression: straight-line work into the statement.
    addOps(Value->Ops, ArgWork.Ops);
    Value->IntOps += ArgWork.IntOps;
    for (Access &A : ArgWork.Accesses)
      Value->Accesses.push_back(std::move(A));
    Ok = lowerReturnTree(Stmts, 0, Result, *Value);
  } else {
    if (!ArgWork.Accesses.empty() || !ArgWork.Ops.empty() || ArgWork.IntOps)
      Parent->Body.push_back(Node::stmt(std::move(ArgWork)));
    Ok = lowerCalleeStmts(Stmts, *Parent, Callee);
    if (Ok && Value)
      Ok = noteHoistedArrays(*Parent, HoistFrom, Callee, CE->getBeginLoc());
    if (Ok && Result && Value) {
      Ok = visitData(Result, *Value);
    } else if (Ok && Result) {
      IRStmt St;
      St.Loc = loc(Result->getBeginLoc());
      Ok = visitData(Result, St);
      if (Ok && (!St.Accesses.empty() || !St.Ops.empty() || St.IntOps))
        Parent->Body.push_back(Node::stmt(std::move(St)));
    }
  }
  Frames.pop_back();
  // The callee's variables are bound afresh at its next call.
  for (const ParmVarDecl *P : Callee->parameters()) {
    Bindings.erase(P);
    NullPointers.erase(P);
    OpaqueInts.erase(P);
  }
  std::vector<const VarDecl *> Locals;
  for (const auto &[VD, B] : Bindings)
    if (VD->getDeclContext() == Callee)
      Locals.push_back(VD);
  for (const auto &[VD, O] : OpaqueInts)
    if (VD->getDeclContext() == Callee)
      Locals.push_back(VD);
  for (const VarDecl *VD : Locals) {
    Bindings.erase(VD);
    OpaqueInts.erase(VD);
  }
  std::vector<const VarDecl *> Cached;
  for (const auto &[VD, P] : LocalCache)
    if (VD->getDeclContext() == Callee)
      Cached.push_back(VD);
  for (const VarDecl *VD : Cached)
    LocalCache.erase(VD);
  return Ok;
}
