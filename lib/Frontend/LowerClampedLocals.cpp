//===- LowerClampedLocals.cpp - A size set again under a condition --------===//
//
// darknet's shortcut_cpu sets `int sample = w2/w1;` and then clamps it,
// `if (sample < 1) sample = 1;`, before the nest: at the nest the local is
// `sample < 1 ? 1 : w2/w1`, the condition read with the value before the
// if. Like a `?:` in a bound, that condition is a loop-invariant case of the
// nest (docs/design.md, "Conditions"; docs/user-guide.md, "Sizes"). Also
// `int n; if (c) n = a; else n = b;`. Only where the value at the nest is
// certain: both definitions at the function's top level (no loop or branch
// around them), the if after the first and the nest after the if, plain
// assignments only, and nothing the condition or the values read changes
// after the if.
//
//===----------------------------------------------------------------------===//

#include "NestBuilder.h"

#include "llvm/Support/SaveAndRestore.h"

using namespace clang;
using namespace roofline;
using namespace roofline::frontend;

namespace {

/// `VD = E` as a statement of its own (`x = e;` or `{ x = e; }`): E.
const Expr *assignedTo(const clang::Stmt *S, const VarDecl *VD) {
  if (const auto *CS = dyn_cast_or_null<CompoundStmt>(S))
    S = CS->size() == 1 ? CS->body_front() : nullptr;
  const auto *BO = dyn_cast_or_null<BinaryOperator>(S);
  if (!BO || BO->getOpcode() != BO_Assign)
    return nullptr;
  const auto *DRE = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParens());
  return DRE && DRE->getDecl() == VD ? BO->getRHS() : nullptr;
}

/// The value a top-level statement gives \p VD (`int n = e;`, `n = e;`).
const Expr *definedBy(const clang::Stmt *S, const VarDecl *VD) {
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls())
      if (D == VD)
        return VD->getInit();
    return nullptr;
  }
  return assignedTo(S, VD);
}

} // namespace

std::optional<NestBuilder::ClampedLocal>
NestBuilder::clampedLocal(const VarDecl *VD) {
  if (!Nest || !FD || isa<ParmVarDecl>(VD) || !VD->isLocalVarDecl() ||
      VD->isStaticLocal() || !VD->getType()->isIntegerType() ||
      VD->getParentFunctionOrMethod() != FD)
    return std::nullopt;
  const auto *Body = dyn_cast_or_null<CompoundStmt>(FD->getBody());
  auto Sites = Frames.front().Modified.Vars.find(VD);
  if (!Body || Sites == Frames.front().Modified.Vars.end())
    return std::nullopt;
  // The top-level statements that define it, in order; every modification
  // must be one of them.
  ClampedLocal CL;
  unsigned Defs = VD->getInit() ? 1 : 0, Seen = 0;
  SourceLocation NestBegin = SM.getExpansionLoc(Nest->getBeginLoc());
  for (const clang::Stmt *S : Body->body()) {
    if (!SM.isBeforeInTranslationUnit(SM.getExpansionLoc(S->getEndLoc()),
                                      NestBegin))
      break;
    const auto *If = dyn_cast<IfStmt>(S);
    if (If && !If->getInit() && !If->getConditionVariable() &&
        !If->isConstexpr() && assignedTo(If->getThen(), VD)) {
      if (CL.If)
        return std::nullopt; // a second if: not one clamp
      CL.If = If;
      CL.Then = assignedTo(If->getThen(), VD);
      CL.Else = If->getElse() ? assignedTo(If->getElse(), VD) : nullptr;
      if (If->getElse() && !CL.Else)
        return std::nullopt;
      Seen += CL.Else ? 2 : 1;
    } else if (const Expr *E = definedBy(S, VD)) {
      if (CL.If)
        return std::nullopt; // set again after the if
      CL.Before = E;
      Seen += isa<DeclStmt>(S) ? 0 : 1;
    }
  }
  Defs += Sites->second.size();
  if (!CL.If || Seen + (VD->getInit() ? 1 : 0) != Defs)
    return std::nullopt;
  for (const ModificationSites::VarSite &VS : Sites->second) {
    const auto *BO = dyn_cast<BinaryOperator>(VS.Site);
    if (!BO || BO->getOpcode() != BO_Assign)
      return std::nullopt;
  }
  if (CL.Else)
    CL.Before = nullptr; // overwritten on both arms
  else if (!CL.Before)
    return std::nullopt;
  return CL;
}

std::optional<IndexPoly> NestBuilder::clampedIndex(const VarDecl *VD,
                                                   const ClampedLocal &CL,
                                                   std::string &Why) {
  std::string Name = "'" + declName(VD) + "'";
  const Expr *Cond = CL.If->getCond();
  // What the condition and the values read must have the same value at
  // the nest as at the if.
  std::vector<const DeclRefExpr *> Refs;
  for (const clang::Stmt *S : {(const clang::Stmt *)Cond,
                               (const clang::Stmt *)CL.Then,
                               (const clang::Stmt *)CL.Else})
    declRefsIn(S, Refs);
  SourceLocation IfBegin = SM.getExpansionLoc(CL.If->getBeginLoc());
  for (const DeclRefExpr *DRE : Refs) {
    const auto *Other = cast<VarDecl>(DRE->getDecl());
    if (Other == VD) {
      if (!CL.Before) {
        Why = Name + " is read in the condition that sets it: it has no "
                     "value there";
        return std::nullopt;
      }
      continue;
    }
    auto It = Frames.front().Modified.Vars.find(Other);
    if (It != Frames.front().Modified.Vars.end())
      for (const ModificationSites::VarSite &VS : It->second)
        if (!SM.isBeforeInTranslationUnit(
                SM.getExpansionLoc(VS.Site->getEndLoc()), IfBegin)) {
          Why = Name + " is set under '" + text(Cond) + "', and '" +
                declName(Other) +
                "', which that reads, changes after it: its value at the "
                "nest is not known";
          return std::nullopt;
        }
  }
  std::optional<IndexPoly> Before;
  if (CL.Before) {
    Before = definitionIndex(VD, CL.Before, /*RunTime=*/true, Why);
    if (!Before)
      return std::nullopt;
    LocalCache[VD] = Before; // the condition reads the value before the if
  }
  llvm::SaveAndRestore HideIVs(IVs, {});
  if (classify(Cond) != CondKind::Invariant || usesNestData(Cond) ||
      Cond->HasSideEffects(Ctx)) {
    Why = Name + " is set under the condition '" + text(Cond) +
          "', which depends on the data: its value at the nest is not one "
          "size";
    return std::nullopt;
  }
  bool Holds;
  {
    // The case reads `numel(q) > 8`, not `n > 8` (n is 8 after the if).
    std::string Spelling = CL.Before ? text(CL.Before) : "";
    if (CL.Before &&
        !isa<DeclRefExpr, IntegerLiteral, CallExpr, MemberExpr,
             ArraySubscriptExpr, ParenExpr>(CL.Before->IgnoreImpCasts()))
      Spelling = "(" + Spelling + ")";
    llvm::SaveAndRestore Spell(SpelledAs, SpelledAs);
    if (CL.Before)
      SpelledAs[VD] = Spelling;
    Holds = invariantValue(Cond);
  }
  const Expr *Value = Holds ? CL.Then : CL.Else;
  if (!Value)
    return Before;
  // A value computed at run time under a condition would be a second size
  // of the same name: refused.
  return definitionIndex(VD, Value, /*RunTime=*/false, Why);
}
