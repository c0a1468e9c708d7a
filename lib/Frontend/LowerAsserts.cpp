//===- LowerAsserts.cpp - assert() and early returns inside a nest --------===//
//
// `assert(c)` in any of the forms the C library's <assert.h> gives it (a
// GNU statement expression in C, a conditional in C++ and strict C, or a
// hand-written `if (!c) __assert_fail(...)`) counts as the run where the
// assertion holds: the condition's work every time, the failing branch
// (which never returns) dropped; glibc's `sizeof ((c) ? 1 : 0)` part is not
// evaluated and costs nothing. An early `return` of the nest's function
// under a loop-invariant condition is a case of its own. docs/design.md,
// "Conditions", states both rules.
//
//===----------------------------------------------------------------------===//

#include "NestBuilder.h"

#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;
using namespace roofline;
using namespace roofline::frontend;
using IRStmt = roofline::Stmt;

namespace {

/// Parens, casts to void and `__extension__` off.
const Expr *stripVoid(const Expr *E) {
  while (E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E);
        Cast && Cast->getType()->isVoidType()) {
      E = Cast->getSubExpr();
      continue;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E);
        UO && UO->getOpcode() == UO_Extension) {
      E = UO->getSubExpr();
      continue;
    }
    return E;
  }
  return nullptr;
}

/// A call of the C library's failing-assertion function (glibc's
/// `__assert_fail` and `__assert_perror_fail`, BSD's and macOS's `__assert`
/// and `__assert_rtn`), or of abort or a trap, which never returns.
bool isAssertFailCall(const clang::Stmt *S) {
  const auto *CE = dyn_cast_or_null<CallExpr>(
      stripVoid(dyn_cast_or_null<Expr>(S)));
  const FunctionDecl *Callee = CE ? CE->getDirectCallee() : nullptr;
  if (!Callee || !Callee->getIdentifier() || !Callee->isNoReturn())
    return false;
  // A library's own check macro may stop the program directly
  // (TensorFlow Lite's `TFLITE_DCHECK(c)`: `c ? (void)0 : abort()`).
  return llvm::StringSwitch<bool>(Callee->getName())
      .Cases("__assert_fail", "__assert_perror_fail", "__assert",
             "__assert_rtn", "__assert2", true)
      .Cases("abort", "__builtin_trap", true)
      .Default(false);
}

/// The failing branch: the call alone, perhaps in a block of its own.
bool isAssertFailBranch(const clang::Stmt *S) {
  if (const auto *CS = dyn_cast_or_null<CompoundStmt>(S))
    return CS->size() == 1 && isAssertFailBranch(CS->body_front());
  return isAssertFailCall(S);
}

/// A branch that does nothing: absent, `;`, `{}`, `(void)0`, `void(0)`.
bool isNoOp(const clang::Stmt *S) {
  if (!S || isa<NullStmt>(S))
    return true;
  if (const auto *CS = dyn_cast<CompoundStmt>(S))
    return llvm::all_of(CS->body(), isNoOp);
  const auto *E = dyn_cast<Expr>(S);
  if (!E)
    return false;
  const Expr *In = stripVoid(E);
  return E->getType()->isVoidType() && In && In != E->IgnoreParens() &&
         (isa<IntegerLiteral>(In) || isa<CXXBoolLiteralExpr>(In));
}

/// `if (c) ; else fail` or `if (!c) fail`: the condition as written and
/// the value it has where the assertion holds.
const Expr *assertedByIf(const IfStmt *If, bool &HoldsWhen) {
  if (!If || If->getInit() || If->getConditionVariable() ||
      If->isConstexpr() || If->isConsteval())
    return nullptr;
  if (isNoOp(If->getThen()) && If->getElse() &&
      isAssertFailBranch(If->getElse())) {
    HoldsWhen = true;
    return If->getCond();
  }
  if (isAssertFailBranch(If->getThen()) && isNoOp(If->getElse())) {
    HoldsWhen = false;
    return If->getCond();
  }
  return nullptr;
}

/// glibc's `(void) sizeof ((c) ? 1 : 0)`: not evaluated.
bool isUnevaluatedSizeof(const Expr *E) {
  const auto *U = dyn_cast_or_null<UnaryExprOrTypeTraitExpr>(stripVoid(E));
  return U && U->getKind() == UETT_SizeOf;
}

/// \p E as written in the assert's argument (text() gives the whole
/// `assert(...)` for anything inside the macro).
std::string argumentText(const Expr *E, const SourceManager &SM,
                         const LangOptions &LO) {
  SourceLocation B = E->getBeginLoc(), End = E->getEndLoc();
  if (!SM.isMacroArgExpansion(B) || !SM.isMacroArgExpansion(End))
    return "";
  CharSourceRange R = CharSourceRange::getTokenRange(SM.getSpellingLoc(B),
                                                     SM.getSpellingLoc(End));
  return Lexer::getSourceText(R, SM, LO).str();
}

} // namespace

const Expr *NestBuilder::assertedCondition(const clang::Stmt *S,
                                           bool &HoldsWhen) {
  if (const auto *If = dyn_cast_or_null<IfStmt>(S))
    return assertedByIf(If, HoldsWhen);
  const Expr *E = stripVoid(dyn_cast_or_null<Expr>(S));
  if (!E)
    return nullptr;
  // C with GNU extensions: `((void) sizeof (...), __extension__ ({ if ... }))`.
  if (const auto *BO = dyn_cast<BinaryOperator>(E);
      BO && BO->getOpcode() == BO_Comma && isUnevaluatedSizeof(BO->getLHS()))
    return assertedCondition(BO->getRHS(), HoldsWhen);
  if (const auto *SE = dyn_cast<StmtExpr>(E)) {
    const CompoundStmt *CS = SE->getSubStmt();
    return CS && CS->size() == 1 ? assertedCondition(CS->body_front(), HoldsWhen)
                                 : nullptr;
  }
  // C++ and strict C: `c ? (void)0 : fail`.
  if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
    if (isNoOp(CO->getTrueExpr()) && isAssertFailCall(CO->getFalseExpr())) {
      HoldsWhen = true;
      return CO->getCond();
    }
    if (isAssertFailCall(CO->getTrueExpr()) && isNoOp(CO->getFalseExpr())) {
      HoldsWhen = false;
      return CO->getCond();
    }
  }
  return nullptr;
}

bool NestBuilder::countAssertion(const Expr *Cond, bool HoldsWhen,
                                 IRStmt &St, SourceLocation At) {
  const Expr *E = Cond->IgnoreParenImpCasts();
  // C++'s `static_cast<bool>(c)`: a conversion, no work.
  if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E);
      Cast && Cast->getType()->isBooleanType())
    return countAssertion(Cast->getSubExpr(), HoldsWhen, St, At);
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_LNot)
    return countAssertion(UO->getSubExpr(), !HoldsWhen, St, At);
  if (const auto *BO = dyn_cast<BinaryOperator>(E);
      BO && (BO->getOpcode() == BO_LAnd || BO->getOpcode() == BO_LOr)) {
    // Where the assertion holds, `a && b` is true and `a || b` false: both
    // sides ran. The other way round, the right side runs on some runs only.
    bool Both = HoldsWhen == (BO->getOpcode() == BO_LAnd);
    if (!Both) {
      std::string Text = argumentText(BO, SM, Ctx.getLangOpts());
      return fail(BO->getBeginLoc(), RejectKind::DataDependentBranch,
                  "assert condition '" + (Text.empty() ? text(BO) : Text) +
                      "': its right side runs on some runs only (the work "
                      "depends on the data)");
    }
    return countAssertion(BO->getLHS(), HoldsWhen, St, At) &&
           countAssertion(BO->getRHS(), HoldsWhen, St, At);
  }
  // A condition on loop variables, sizes, counters and loop-invariant values
  // is index arithmetic or hoisted, as the condition of an `if` is: no work
  // and no case (the assertion holds in every case).
  if (!usesNestData(E) || updatedScalarIn(E))
    return true;
  return visitData(E, St);
}

bool NestBuilder::lowerAssertion(const clang::Stmt *S, IRStmt &St,
                                 bool &Done) {
  bool HoldsWhen = true;
  const Expr *Cond = assertedCondition(S, HoldsWhen);
  Done = Cond != nullptr;
  if (!Cond)
    return true;
  noteExtended(S->getBeginLoc(), "assert");
  std::string Note = "assert (line " +
                     std::to_string(loc(S->getBeginLoc()).Line) +
                     "): its condition is counted, the failing branch "
                     "assumed not taken";
  addNote(std::move(Note));
  return countAssertion(Cond, HoldsWhen, St, S->getBeginLoc());
}

const clang::Stmt *roofline::frontend::plainThen(const IfStmt *If) {
  if (!If || If->getElse() || If->getInit() || If->getConditionVariable() ||
      If->isConstexpr() || If->isConsteval())
    return nullptr;
  return If->getThen();
}

const ReturnStmt *roofline::frontend::returnGuarded(const IfStmt *If) {
  const clang::Stmt *Then = plainThen(If);
  if (const auto *CS = dyn_cast_or_null<CompoundStmt>(Then))
    Then = CS->size() == 1 ? CS->body_front() : nullptr;
  return dyn_cast_or_null<ReturnStmt>(Then);
}

bool NestBuilder::lowerReturnGuard(const IfStmt *If, Loop &Parent,
                                   bool &Done) {
  const ReturnStmt *Ret = returnGuarded(If);
  Done = Ret && Frames.size() == 1;
  if (!Done)
    return true;
  const Expr *Cond = If->getCond();
  switch (classify(Cond)) {
  case CondKind::Data:
    return fail(Cond->getBeginLoc(), RejectKind::EarlyReturn,
                "early return under a data-dependent condition '" + text(Cond) +
                    "': the iterations that run depend on the "
                    "data");
  case CondKind::Affine:
    return fail(Cond->getBeginLoc(), RejectKind::EarlyReturn,
                "early return under a condition on loop variables '" +
                    text(Cond) + "': the nest stops part way (not counted)");
  case CondKind::Invariant:
    break;
  }
  if (!invariantValue(Cond))
    return true; // this case never returns here
  // The case where it returns: exact only where nothing ran before it (the
  // first statement of every loop around it, no guard or split between).
  bool First = ArmDepth == 0 && !LoopStack.empty() &&
               &Parent == LoopStack.back().L;
  for (const LoopFrame &F : LoopStack)
    First = First && nothingCounted(*F.L) && !F.Split && !F.Regrouped;
  if (!First)
    return fail(If->getBeginLoc(), RejectKind::EarlyReturn,
                "early return under the loop-invariant condition '" +
                    text(Cond) +
                    "' after work in the nest: the nest stops "
                    "part way in that case");
  if (!plainReturnValue(Ret))
    return false;
  Returned = true;
  Notes.push_back("the function returns at line " +
                  std::to_string(loc(If->getBeginLoc()).Line) +
                  " before any work of the nest: nothing runs in this case");
  return true;
}

bool NestBuilder::isPlainValue(const Expr *V) const {
  return !V || isFoldable(V) ||
         (isa<DeclRefExpr>(strip(V)) && !isElementRef(V));
}

bool NestBuilder::plainReturnValue(const ReturnStmt *Ret) {
  const Expr *V = Ret->getRetValue();
  if (isPlainValue(V))
    return true;
  return fail(V->getBeginLoc(), RejectKind::EarlyReturn,
              "early return of a computed value '" + text(V) +
                  "' inside the nest");
}
