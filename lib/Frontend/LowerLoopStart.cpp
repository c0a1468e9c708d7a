//===- LowerLoopStart.cpp - A loop that starts where its variable is ------===//
//
// `for (; i < n; ++i)`, the remainder loop of a loop unrolled by hand
// (kann's kautodiff.c, issue 18), starts at the value i has when it is
// reached. That value is known here only where it is certain: i is a plain
// local, and the statement before the loop in the same block that last sets
// it is `i = E`, its declaration `int i = E`, or an earlier loop
// `for (i = S; i < B; i += k)` that leaves i at max(S, B) (step 1, or B - S
// a multiple of k by construction, as B = n>>3<<3 and S = 0 with k = 8), or
// else at S + k*q, q = (B - S + k - 1)/k a quotient size (steppedExit).
// Nothing between may change i or what E, S and B read. Anything else is
// refused with the reason (docs/user-guide.md, "Sizes").
//
//===----------------------------------------------------------------------===//

#include "NestBuilder.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/SmallVector.h"

using namespace clang;
using namespace roofline;
using namespace roofline::frontend;

namespace {

/// The variable an increment steps: `++i`, `i++`, `i += c`, `i = i + c`.
const VarDecl *steppedVar(const Expr *Inc) {
  const Expr *Target = nullptr;
  if (const auto *UO = dyn_cast<UnaryOperator>(strip(Inc)))
    Target = UO->isIncrementDecrementOp() ? UO->getSubExpr() : nullptr;
  else if (const auto *BO = dyn_cast<BinaryOperator>(strip(Inc)))
    Target = BO->isAssignmentOp() ? BO->getLHS() : nullptr;
  const auto *DRE = Target ? dyn_cast<DeclRefExpr>(strip(Target)) : nullptr;
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

/// `V = E` as an expression statement: E, else null.
const Expr *assignedValue(const clang::Stmt *S, const VarDecl *V) {
  const auto *BO = dyn_cast_or_null<BinaryOperator>(
      isa<Expr>(S) ? strip(cast<Expr>(S)) : nullptr);
  if (!BO || BO->getOpcode() != BO_Assign)
    return nullptr;
  const auto *DRE = dyn_cast<DeclRefExpr>(strip(BO->getLHS()));
  return DRE && DRE->getDecl() == V ? BO->getRHS() : nullptr;
}

/// The variables \p E reads.
llvm::SmallVector<const VarDecl *, 4> varsOf(const clang::Stmt *E) {
  llvm::SmallVector<const VarDecl *, 4> Out;
  struct Collect : RecursiveASTVisitor<Collect> {
    llvm::SmallVector<const VarDecl *, 4> &Out;
    explicit Collect(llvm::SmallVector<const VarDecl *, 4> &O) : Out(O) {}
    bool VisitDeclRefExpr(DeclRefExpr *D) {
      if (const auto *V = dyn_cast<VarDecl>(D->getDecl()))
        Out.push_back(V);
      return true;
    }
  } C(Out);
  C.TraverseStmt(const_cast<clang::Stmt *>(E));
  return Out;
}

/// A constant value of \p E.
std::optional<int64_t> constantOf(const Expr *E, const ASTContext &Ctx) {
  Expr::EvalResult R;
  if (!E->EvaluateAsInt(R, Ctx))
    return std::nullopt;
  return R.Val.getInt().getSExtValue();
}

/// Whether \p Body may leave a loop early: any break outside a switch,
/// return or goto (conservative: a break of an inner loop counts too).
bool mayEndEarly(const clang::Stmt *S, bool InSwitch = false) {
  if (!S || isa<LambdaExpr>(S))
    return false;
  if ((isa<BreakStmt>(S) && !InSwitch) || isa<ReturnStmt>(S) ||
      isa<GotoStmt>(S) || isa<IndirectGotoStmt>(S) || isa<CoreturnStmt>(S))
    return true;
  InSwitch |= isa<SwitchStmt>(S);
  return llvm::any_of(S->children(), [&](const clang::Stmt *C) {
    return mayEndEarly(C, InSwitch);
  });
}

} // namespace

/// The parts of a comma expression, left to right.
static void commaParts(const Expr *E, std::vector<const Expr *> &Out) {
  const auto *BO = dyn_cast<BinaryOperator>(E->IgnoreParens());
  if (BO && BO->getOpcode() == BO_Comma) {
    commaParts(BO->getLHS(), Out);
    commaParts(BO->getRHS(), Out);
    return;
  }
  Out.push_back(E);
}

std::vector<const Expr *> NestBuilder::otherInits(const ForStmt *FS) const {
  std::vector<const Expr *> Parts;
  if (const auto *E = dyn_cast_or_null<Expr>(FS->getInit()))
    commaParts(E, Parts);
  const clang::Stmt *IV = loopVarInit(FS);
  llvm::erase_if(Parts, [&](const Expr *P) { return P == IV; });
  return Parts;
}

const clang::Stmt *NestBuilder::loopVarInit(const ForStmt *FS) const {
  // `for (i = 1, max = x[0]; ...; i++)`: the part that sets the stepped
  // variable; the others run once before the loop.
  const auto *E = dyn_cast_or_null<Expr>(FS->getInit());
  const VarDecl *Stepped = FS->getInc() ? steppedVar(FS->getInc()) : nullptr;
  std::vector<const Expr *> Parts;
  if (E)
    commaParts(E, Parts);
  if (Parts.size() < 2 || !Stepped)
    return FS->getInit();
  for (const Expr *P : Parts)
    if (const auto *BO = dyn_cast<BinaryOperator>(strip(P));
        BO && BO->getOpcode() == BO_Assign)
      if (const auto *DRE = dyn_cast<DeclRefExpr>(strip(BO->getLHS()));
          DRE && DRE->getDecl() == Stepped)
        return P;
  return FS->getInit();
}

bool NestBuilder::continuesVariable(const ForStmt *FS) {
  const auto *Init = dyn_cast_or_null<Expr>(FS->getInit());
  if (!FS->getInit() || !FS->getInc())
    return !FS->getInit();
  const auto *BO = Init ? dyn_cast<BinaryOperator>(strip(Init)) : nullptr;
  const auto *DRE =
      BO && BO->isAssignmentOp() ? dyn_cast<DeclRefExpr>(strip(BO->getLHS()))
                                 : nullptr;
  const VarDecl *Stepped = steppedVar(FS->getInc());
  return DRE && Stepped && DRE->getDecl() != Stepped;
}

bool NestBuilder::isPlainOtherInit(const clang::Stmt *Init,
                                   const VarDecl *IVDecl) const {
  const auto *E = dyn_cast<Expr>(Init);
  if (!E || isModifiedWithin(IVDecl, Init))
    return false;
  if (!E->HasSideEffects(Ctx))
    return true;
  const auto *BO = dyn_cast<BinaryOperator>(strip(E));
  return BO && BO->getOpcode() == BO_Assign &&
         isa<DeclRefExpr>(strip(BO->getLHS())) &&
         !BO->getRHS()->HasSideEffects(Ctx);
}

bool NestBuilder::plainlyWritten(const VarDecl *VD) const {
  auto It = Frames.front().Modified.Vars.find(VD);
  if (It == Frames.front().Modified.Vars.end())
    return true;
  for (const ModificationSites::VarSite &VS : It->second) {
    const auto *BO = dyn_cast<BinaryOperator>(VS.Site);
    const auto *UO = dyn_cast<UnaryOperator>(VS.Site);
    if (!(BO && BO->isAssignmentOp()) && !(UO && UO->isIncrementDecrementOp()))
      return false;
  }
  return true;
}

bool NestBuilder::isMultipleByConstruction(const Expr *E, int64_t K,
                                           unsigned Depth) {
  if (Depth > 8)
    return false;
  const Expr *S = strip(E);
  if (std::optional<int64_t> C = constantOf(S, Ctx))
    return *C % K == 0;
  // A local defined once by its initializer and never written.
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    return VD && VD->isLocalVarDecl() && VD->getInit() && !isModified(VD) &&
           isMultipleByConstruction(VD->getInit(), K, Depth + 1);
  }
  const auto *BO = dyn_cast<BinaryOperator>(S);
  if (!BO)
    return false;
  switch (BO->getOpcode()) {
  case BO_Shl: // x << s is x * 2^s
    if (std::optional<int64_t> Sh = constantOf(BO->getRHS(), Ctx))
      return *Sh >= 0 && *Sh < 31 && (int64_t(1) << *Sh) % K == 0;
    return false;
  case BO_Mul:
    return isMultipleByConstruction(BO->getLHS(), K, Depth + 1) ||
           isMultipleByConstruction(BO->getRHS(), K, Depth + 1);
  case BO_Add:
  case BO_Sub:
    return isMultipleByConstruction(BO->getLHS(), K, Depth + 1) &&
           isMultipleByConstruction(BO->getRHS(), K, Depth + 1);
  default:
    return false;
  }
}

bool NestBuilder::changedIn(
    const clang::Stmt *Def,
    llvm::ArrayRef<const clang::Stmt *> Between, const VarDecl *IVDecl,
    SourceLocation At) {
  for (const VarDecl *V : varsOf(Def)) {
    if (V == IVDecl)
      return fail(At, RejectKind::LoopStart,
                  "the start of loop variable '" + declName(IVDecl) +
                      "' is computed from itself ('" + text(Def) + "')");
    if (!V->getType()->isIntegerType())
      continue;
    bool Local = V->isLocalVarDecl() || isa<ParmVarDecl>(V);
    if (!Local || !plainlyWritten(V))
      return fail(At, RejectKind::LoopStart,
                  "'" + declName(V) + "', in the start of loop variable '" +
                      declName(IVDecl) +
                      "', may change before the loop (a global, or its "
                      "address is taken)");
    for (const clang::Stmt *S : Between)
      if (S && isModifiedWithin(V, S))
        return fail(S->getBeginLoc(), RejectKind::LoopStart,
                    "'" + declName(V) + "', in the start of loop variable '" +
                        declName(IVDecl) + "', changes before the loop");
  }
  return false;
}

bool NestBuilder::lowerContinuedStart(const ForStmt *FS, std::string &IV,
                                      const VarDecl *&IVDecl, Bound &First) {
  IVDecl = steppedVar(FS->getInc());
  SourceLocation At = FS->getBeginLoc();
  if (!IVDecl)
    return fail(At, RejectKind::LoopHeader,
                "for loop without init whose increment steps no variable");
  std::string Name = "'" + declName(IVDecl) + "'";
  std::string Unknown = "loop variable " + Name + " starts where earlier code "
                        "left it, and ";
  if (!IVDecl->getType()->isIntegerType())
    return fail(At, RejectKind::LoopHeader,
                "loop variable " + Name + " is not an integer");
  if (Frames.size() != 1 || !IVDecl->isLocalVarDecl() ||
      IVDecl->isStaticLocal() || !plainlyWritten(IVDecl))
    return fail(At, RejectKind::LoopStart,
                Unknown + "it is no plain local of this function (its "
                          "starting value is unknown)");
  // The init, if any, runs before the first test: it must leave i and what
  // its start reads alone (`for (s = 0.; i < n; ++i)`).
  const clang::Stmt *Init = FS->getInit();
  if (Init && !isPlainOtherInit(Init, IVDecl))
    return fail(Init->getBeginLoc(), RejectKind::LoopStart,
                Unknown + "the loop's init is not a "
                          "plain assignment of another "
                          "variable");
  const ParentMap &PM = functionParents();
  const auto *Block = dyn_cast_or_null<CompoundStmt>(PM.getParent(FS));
  if (!Block)
    return fail(At, RejectKind::LoopStart,
                Unknown + "the loop is not a statement of a block "
                          "(its starting value is unknown)");
  llvm::SmallVector<const clang::Stmt *, 8> Between = {Init};
  const clang::Stmt *const *It = llvm::find(Block->body(), FS);
  while (It != Block->body_begin()) {
    const clang::Stmt *Prev = *--It;
    if (isa<LabelStmt>(Prev) || isa<SwitchCase>(Prev))
      return fail(Prev->getBeginLoc(), RejectKind::LoopStart,
                  Unknown + "a label before it may enter with another value");
    if (const auto *DS = dyn_cast<DeclStmt>(Prev);
        DS && llvm::is_contained(DS->decls(), IVDecl)) {
      if (!IVDecl->getInit())
        return fail(At, RejectKind::LoopStart,
                    Unknown + "its declaration gives no value");
      return lowerStartValue(IVDecl->getInit(), Between, IVDecl, IV, First);
    }
    if (!isModifiedWithin(IVDecl, Prev)) {
      Between.push_back(Prev);
      continue;
    }
    if (const Expr *E = assignedValue(Prev, IVDecl))
      return lowerStartValue(E, Between, IVDecl, IV, First);
    if (const auto *Before = dyn_cast<ForStmt>(Prev))
      return lowerExitValue(Before, Between, IVDecl, IV, First);
    return fail(Prev->getBeginLoc(), RejectKind::LoopStart,
                Unknown + "this statement changes " + Name +
                    " in a way not followed (its starting value is unknown)");
  }
  return fail(At, RejectKind::LoopStart,
              Unknown + "nothing before it in its block sets " + Name +
                  " (its starting value is unknown)");
}

bool NestBuilder::lowerStartValue(const Expr *E,
                                  llvm::ArrayRef<const clang::Stmt *> Between,
                                  const VarDecl *IVDecl, std::string &IV,
                                  Bound &First) {
  if (changedIn(E, Between, IVDecl, E->getBeginLoc()))
    return false;
  IV = ivName(IVDecl);
  return lowerBound(E, First);
}

bool NestBuilder::lowerExitValue(const ForStmt *Before,
                                 llvm::ArrayRef<const clang::Stmt *> Between,
                                 const VarDecl *IVDecl, std::string &IV,
                                 Bound &First) {
  SourceLocation At = Before->getBeginLoc();
  std::string Name = "'" + declName(IVDecl) + "'";
  std::string Unknown = "loop variable " + Name +
                        " starts where the loop before it left it, and ";
  const Expr *S = Before->getInit() ? assignedValue(Before->getInit(), IVDecl)
                                    : nullptr;
  // A loop without init (`int i = 0; for (; i <= n - 4; i += 4)`) starts
  // where the code before it left i: one step further back.
  std::optional<BoundTerm> Continued;
  if (!Before->getInit()) {
    std::string BeforeIV;
    const VarDecl *BeforeDecl = nullptr;
    Bound BeforeFirst;
    if (!lowerContinuedStart(Before, BeforeIV, BeforeDecl, BeforeFirst))
      return false;
    if (BeforeDecl != IVDecl || BeforeFirst.Kind != Bound::Single || BeforeFirst.Terms.size() != 1)
      return fail(At, RejectKind::LoopStart,
                  Unknown + "that loop's own start is not one value");
    Continued = BeforeFirst.Terms.front();
  }
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(
      Before->getCond() ? strip(Before->getCond()) : nullptr);
  const auto *CondVar =
      Cond ? dyn_cast<DeclRefExpr>(strip(Cond->getLHS())) : nullptr;
  int64_t K = 0;
  if (const auto *UO = dyn_cast_or_null<UnaryOperator>(
          Before->getInc() ? strip(Before->getInc()) : nullptr))
    K = UO->isIncrementOp() ? 1 : 0;
  else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(
               Before->getInc() ? strip(Before->getInc()) : nullptr);
           BO && BO->getOpcode() == BO_AddAssign)
    K = constantOf(BO->getRHS(), Ctx).value_or(0);
  if ((!S && !Continued) || !Cond || !CondVar || CondVar->getDecl() != IVDecl ||
      (Cond->getOpcode() != BO_LT && Cond->getOpcode() != BO_LE) || K <= 0 ||
      steppedVar(Before->getInc()) != IVDecl)
    return fail(
        At, RejectKind::LoopStart,
        Unknown + "that loop is not `for (" + Name.substr(1, Name.size() - 2) +
            " = S; i < B; i += k)` (where it leaves " + Name + " is unknown)");
  if (isModifiedWithin(IVDecl, Before->getBody()))
    return fail(At, RejectKind::LoopStart,
                Unknown + "that loop's body changes " + Name);
  if (mayEndEarly(Before->getBody()))
    return fail(At, RejectKind::LoopStart,
                Unknown + "that loop may end early (where it leaves " + Name +
                    " is unknown)");
  const Expr *B = Cond->getRHS();
  // Step 1 stops at B itself; a larger step at the first value >= B on S's
  // lattice, which is B only where B - S is a multiple of the step.
  bool Exact = K == 1 || (Cond->getOpcode() == BO_LT && S &&
                          isMultipleByConstruction(S, K) &&
                          isMultipleByConstruction(B, K));
  std::string NotMultiple = Unknown + "that loop steps by " + std::to_string(K) +
                            " up to '" + text(B) + "', not a multiple of " +
                            std::to_string(K) + " from '" +
                            (S ? text(S) : Continued->str()) +
                            "' by construction (where it leaves " + Name +
                            " is not proven)";
  llvm::SmallVector<const clang::Stmt *, 8> Changes(Between.begin(),
                                                    Between.end());
  Changes.push_back(Before->getBody());
  Changes.push_back(Before->getInc());
  if ((S && changedIn(S, Changes, IVDecl, At)) || changedIn(B, Changes, IVDecl, At))
    return false;
  // The earlier start's variables (by name) keep their value up to here.
  if (Continued)
    for (const clang::Stmt *C : Changes)
      for (const auto &[Var, Sites] : modificationsIn(C).Vars)
        if (llvm::any_of(Continued->Expr.terms(),
                         [&, V = Var](const auto &T) { return T.first == declName(V); }))
          return fail(At, RejectKind::LoopStart,
                      "'" + declName(Var) + "', in the start of loop variable " + Name +
                          ", changes before the loop");
  IV = ivName(IVDecl);
  BoundTerm Start, Stop;
  if (Continued)
    Start = *Continued;
  else if (!lowerBoundTerm(S, Start))
    return false;
  if (!lowerBoundTerm(B, Stop))
    return false;
  if (Cond->getOpcode() == BO_LE) {
    std::optional<AffineExpr> Next = Stop.Expr.addConstant(Stop.Divisor);
    if (!Next)
      return fail(At, RejectKind::Overflow, "loop bound arithmetic overflows");
    Stop.Expr = *Next;
  }
  if (!Exact)
    return steppedExit(Start, Stop, K, NotMultiple, At, First);
  // max(S, B): the loop before may not run at all. Where B - S is a sum of
  // sizes (>= 0, as everywhere in the counts) or a constant, the max is
  // decided here and the count keeps a formula.
  First = Bound();
  std::optional<bool> StopIsMax = sizesDecide(Start, Stop);
  if (StopIsMax) {
    First.Terms.push_back(*StopIsMax ? Stop : Start);
    return true;
  }
  First.Kind = Bound::Max;
  First.Terms = {Start, Stop};
  return true;
}

// `for (i = S; i < B; i += K)` with B - S no multiple of K by construction
// (a 4x-unrolled loop's `i <= n - 4`) leaves i at the first value >= B on
// S's lattice: S + K*q with q = (B - S + K - 1) / K, a quotient size (C's
// division, toward zero: q <= 0 exactly where the loop does not run, when
// max(S, ...) is S). n - 3 and step 4 from 0 give q = n/4, the remainder
// loop's n mod 4 iterations.
bool NestBuilder::steppedExit(const BoundTerm &Start, const BoundTerm &Stop, int64_t K,
                              const std::string &Why, SourceLocation At, Bound &First) {
  std::optional<AffineExpr> Span = Stop.Expr.sub(Start.Expr);
  if (Span)
    Span = Span->addConstant(K - 1);
  bool Sizes = Span && Start.Divisor == 1 && Stop.Divisor == 1 &&
               llvm::all_of(Span->terms(), [&](const auto &T) {
                 return llvm::none_of(IVs, [&](const auto &P) { return P.second == T.first; });
               });
  if (!Sizes)
    return fail(At, RejectKind::LoopStart, Why);
  std::string QWhy, Num = Span->str();
  bool Plain = Span->constant() == 0 && Span->terms().size() == 1 &&
               Span->terms().begin()->second == 1;
  std::string Text = (Plain ? Num : "(" + Num + ")") + "/" + std::to_string(K);
  Text.erase(std::remove(Text.begin(), Text.end(), ' '), Text.end());
  std::optional<IndexPoly> Q =
      quotientSize(Text, IndexPoly::fromAffine(*Span, {}), IndexPoly::constant(K), QWhy);
  std::optional<AffineExpr> QA = Q ? Q->toAffine() : std::nullopt;
  std::optional<AffineExpr> Steps = QA ? QA->scale(K) : std::nullopt;
  std::optional<AffineExpr> Exit = Steps ? Start.Expr.add(*Steps) : std::nullopt;
  if (!Exit)
    return fail(At, RejectKind::LoopStart, QWhy.empty() ? Why : Why + ": " + QWhy);
  BoundTerm End{*Exit, 1};
  First = Bound();
  // The numerator a sum of sizes plus a constant >= 0: q >= 0, the end is
  // the max; else max(S, end) at the sizes.
  bool NonNegative = Span->constant() >= 0 &&
                     llvm::all_of(Span->terms(), [](const auto &T) { return T.second > 0; });
  if (NonNegative) {
    First.Terms.push_back(End);
    return true;
  }
  First.Kind = Bound::Max;
  First.Terms = {Start, End};
  return true;
}

std::optional<bool> NestBuilder::sizesDecide(const BoundTerm &Start,
                                             const BoundTerm &Stop) const {
  if (Start == Stop)
    return true;
  if (Start.Divisor != 1 || Stop.Divisor != 1)
    return std::nullopt;
  std::optional<AffineExpr> Span = Stop.Expr.sub(Start.Expr);
  if (!Span)
    return std::nullopt;
  if (Span->isConstant())
    return Span->constant() >= 0;
  bool Sizes = llvm::all_of(Span->terms(), [&](const auto &T) {
    return T.second > 0 && llvm::none_of(IVs, [&](const auto &P) {
             return P.second == T.first;
           });
  });
  if (Sizes && Span->constant() >= 0)
    return true;
  return std::nullopt;
}
