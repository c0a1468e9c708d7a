//===- LowerInvariantSwitch.cpp - A switch on a loop-invariant value ------===//
//
// darknet's `activate(x, a)` is `switch (a) { case LOGISTIC: return
// logistic_activate(x); ... } return 0;`, called per element of a loop over
// x. The value switched on is loop-invariant (a parameter the nest does not
// write), so the switch runs one path of its body in every iteration: the
// statements from the matching label (or default, or none) up to a `break`
// or a `return`, falling through the labels between. That path is lowered in
// place of the switch, once per case the nest is reported for, as an
// invariant `if` is (docs/design.md, "Conditions"): the value given with
// --param (an integer, or a label: `--param a=LOGISTIC`) or fixed by the
// calls in the translation unit picks the case; otherwise each label, the
// default and the fall-out are a case of their own (`[a == LOGISTIC]`).
// A switch on data or on loop variables, or on a variable the nest writes,
// a `break` or `continue` under a condition inside it, labels inside
// nested statements and GNU case ranges are refused with the reason.
//
//===----------------------------------------------------------------------===//

#include "NestBuilder.h"

using namespace clang;
using namespace roofline;
using namespace roofline::frontend;
using IRStmt = roofline::Stmt;

namespace {

/// A label of the switch body's top level, and where its statements start.
struct SwitchLabel {
  const SwitchCase *Case = nullptr;
  size_t Item = 0; // index into the flattened body
};

/// The first `break` that leaves the switch, or `continue`, inside \p S
/// (not at its top level: the path stops there); null where none.
const clang::Stmt *nestedJump(const clang::Stmt *S, bool InLoop,
                              bool InSwitch) {
  if (!S || isa<LambdaExpr>(S))
    return nullptr;
  if (isa<BreakStmt>(S) && !InLoop && !InSwitch)
    return S;
  if (isa<ContinueStmt>(S) && !InLoop)
    return S;
  InLoop |= isLoopStmt(S);
  InSwitch |= isa<SwitchStmt>(S);
  for (const clang::Stmt *C : S->children())
    if (const clang::Stmt *J = nestedJump(C, InLoop, InSwitch))
      return J;
  return nullptr;
}

/// A case label below the top level of the switch body (Duff's device).
const SwitchCase *nestedLabel(const clang::Stmt *S) {
  if (!S || isa<SwitchStmt>(S) || isa<LambdaExpr>(S))
    return nullptr;
  if (const auto *SC = dyn_cast<SwitchCase>(S))
    return SC;
  for (const clang::Stmt *C : S->children())
    if (const SwitchCase *L = nestedLabel(C))
      return L;
  return nullptr;
}

} // namespace

std::string NestBuilder::switchLabelText(const SwitchCase *SC) const {
  if (!SC)
    return "none";
  if (isa<DefaultStmt>(SC))
    return "default";
  return text(cast<CaseStmt>(SC)->getLHS());
}

bool NestBuilder::switchCondition(const SwitchStmt *SW) {
  if (SW->getInit() || SW->getConditionVariable())
    return fail(SW->getBeginLoc(), RejectKind::UnsupportedStatement,
                "switch with an initializer or a condition variable");
  const Expr *Cond = SW->getCond();
  CondKind K = classify(Cond);
  if (K == CondKind::Invariant)
    return true;
  const auto *DRE = dyn_cast<DeclRefExpr>(strip(Cond));
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (K == CondKind::Data && VD && !Bindings.count(VD) &&
      isModifiedWithin(VD, Nest))
    return fail(SW->getBeginLoc(), RejectKind::DataDependentBranch,
                "switch on '" + text(Cond) +
                    "', which the nest writes: the case taken changes as "
                    "it runs");
  if (K == CondKind::Data)
    return fail(SW->getBeginLoc(), RejectKind::DataDependentBranch,
                "switch on data ('" + text(Cond) +
                    "'): the case taken, and its work, depend on the data");
  return fail(SW->getBeginLoc(), RejectKind::Condition,
              "switch on loop variables ('" + text(Cond) +
                  "'): the case taken changes from one iteration to the "
                  "next");
}

const SwitchCase *
NestBuilder::switchChoice(const SwitchStmt *SW,
                          llvm::ArrayRef<const SwitchCase *> Labels,
                          bool &Ok) {
  Ok = true;
  const Expr *Cond = SW->getCond();
  std::string Name = invariantText(strip(Cond));
  const SwitchCase *Default = nullptr;
  for (const SwitchCase *SC : Labels)
    if (isa<DefaultStmt>(SC))
      Default = SC;
  // A value the sizes give (--param a=1, the calls in the translation unit).
  if (std::optional<int64_t> V = sizeValueOf(Cond)) {
    for (const SwitchCase *SC : Labels) {
      const auto *CS = dyn_cast<CaseStmt>(SC);
      Expr::EvalResult R;
      if (CS && CS->getLHS()->EvaluateAsInt(R, Ctx) &&
          R.Val.getInt().getExtValue() == *V)
        return SC;
    }
    return Default;
  }
  // A label given by name: --param a=LOGISTIC.
  std::string Fn = FD->getNameAsString();
  for (const std::map<std::string, int64_t> *M :
       {&Opts.CallParams, &Opts.Params, &Opts.ConfigParams})
    for (const std::string &Key : {Fn + ":" + Name, Name}) {
      std::string Prefix = Key + "=";
      auto It = M->lower_bound(Prefix);
      if (It == M->end() || !StringRef(It->first).starts_with(Prefix))
        continue;
      MatchedKeys.insert(It->first);
      StringRef Given = StringRef(It->first).substr(Prefix.size());
      for (const SwitchCase *SC : Labels)
        if (isa<CaseStmt>(SC) && switchLabelText(SC) == Given)
          return SC;
      if (Default)
        return Default;
      Ok = fail(SW->getBeginLoc(), RejectKind::UnsupportedStatement,
                "--param " + It->first + ": '" + Given.str() +
                    "' is no case label of the switch on '" + Name + "'");
      return nullptr;
    }
  // An earlier switch on the same value decided it in this build.
  if (auto It = SwitchValues.find(Name); It != SwitchValues.end()) {
    const SwitchValue &Known = It->second;
    for (const SwitchCase *SC : Labels) {
      const auto *CS = dyn_cast<CaseStmt>(SC);
      Expr::EvalResult R;
      if (!CS || !CS->getLHS()->EvaluateAsInt(R, Ctx))
        continue;
      int64_t V = R.Val.getInt().getExtValue();
      if (Known.Value && *Known.Value == V)
        return SC;
      if (!Known.Value && !llvm::is_contained(Known.NotAny, V)) {
        Ok = fail(SW->getBeginLoc(), RejectKind::UnsupportedStatement,
                  "switch on '" + Name + "' with a label (" + text(CS->getLHS()) +
                      ") an earlier switch on it does not have: its cases "
                      "do not decide this one");
        return nullptr;
      }
    }
    return Default;
  }
  // This case's label, or one case per label (Frontend.cpp builds them).
  std::string Key = "sw:" + Name;
  std::vector<std::string> Values;
  for (const SwitchCase *SC : Labels)
    Values.push_back(switchLabelText(SC));
  if (!Default)
    Values.push_back("none");
  std::string Picked = Values.front();
  bool Assigned = false;
  for (auto It = Case.lower_bound(Key + "=");
       It != Case.end() && StringRef(It->first).starts_with(Key + "="); ++It)
    if (It->second) {
      Picked = It->first.substr(Key.size() + 1);
      Assigned = true;
    }
  if (!Assigned &&
      std::none_of(UnassignedTargets.begin(), UnassignedTargets.end(),
                   [&](const TargetChoice &C) { return C.Key == Key; })) {
    TargetChoice C;
    C.Key = Key;
    C.Name = Name;
    C.Targets = Values;
    C.Switch = true;
    UnassignedTargets.push_back(std::move(C));
  }
  std::string Label = Picked == "default" ? Name + ": default"
                      : Picked == "none"  ? Name + ": no case label"
                                          : Name + " == " + Picked;
  if (std::none_of(CaseUsed.begin(), CaseUsed.end(),
                   [&](const auto &U) { return U.first == Label; }))
    CaseUsed.push_back({Label, true});
  for (const SwitchCase *SC : Labels)
    if (switchLabelText(SC) == Picked)
      return SC;
  return nullptr;
}

std::optional<bool> NestBuilder::switchFixes(const Expr *Cond) {
  const auto *BO = dyn_cast<BinaryOperator>(strip(Cond));
  if (SwitchValues.empty() || !BO || !BO->isEqualityOp())
    return std::nullopt;
  for (int Side = 0; Side < 2; ++Side) {
    const Expr *Mine = Side ? BO->getRHS() : BO->getLHS();
    const Expr *Other = Side ? BO->getLHS() : BO->getRHS();
    Expr::EvalResult R;
    if (!Mine->getType()->isIntegralOrEnumerationType() ||
        !Other->EvaluateAsInt(R, Ctx))
      continue;
    auto It = SwitchValues.find(invariantText(strip(Mine)));
    if (It == SwitchValues.end())
      continue;
    int64_t C = R.Val.getInt().getExtValue();
    std::optional<bool> Equal;
    if (It->second.Value)
      Equal = *It->second.Value == C;
    else if (llvm::is_contained(It->second.NotAny, C))
      Equal = false;
    if (!Equal)
      return std::nullopt;
    return *Equal == (BO->getOpcode() == BO_EQ);
  }
  return std::nullopt;
}

bool NestBuilder::switchPath(const SwitchStmt *SW, SwitchPath &Out) {
  if (!switchCondition(SW))
    return false;
  const auto *Body = dyn_cast_or_null<CompoundStmt>(SW->getBody());
  if (!Body)
    return fail(SW->getBeginLoc(), RejectKind::UnsupportedStatement,
                "switch whose body is not a block");
  // The body's top level, labels unwrapped: `case A: case B: s;` is the
  // labels A and B, then s.
  std::vector<const clang::Stmt *> Items;
  std::vector<SwitchLabel> Labels;
  for (const clang::Stmt *S : Body->body()) {
    while (const auto *SC = dyn_cast<SwitchCase>(S)) {
      if (const auto *CS = dyn_cast<CaseStmt>(SC); CS && CS->caseStmtIsGNURange())
        return fail(SC->getBeginLoc(), RejectKind::UnsupportedStatement,
                    "case range ('...') in a switch");
      Labels.push_back({SC, Items.size()});
      S = SC->getSubStmt();
    }
    if (const SwitchCase *Inner = nestedLabel(S))
      return fail(Inner->getBeginLoc(), RejectKind::UnsupportedStatement,
                  "case label inside a statement of the switch: the path "
                  "from it is not followed");
    Items.push_back(S);
  }
  std::vector<const SwitchCase *> Cases;
  for (const SwitchLabel &L : Labels)
    Cases.push_back(L.Case);
  bool Ok = true;
  const SwitchCase *Chosen = switchChoice(SW, Cases, Ok);
  if (!Ok)
    return false;
  SwitchValue Known;
  if (const auto *CS = dyn_cast_or_null<CaseStmt>(Chosen)) {
    Expr::EvalResult R;
    if (CS->getLHS()->EvaluateAsInt(R, Ctx))
      Known.Value = R.Val.getInt().getExtValue();
  } else {
    for (const SwitchCase *SC : Cases) {
      Expr::EvalResult R;
      if (const auto *C = dyn_cast<CaseStmt>(SC);
          C && C->getLHS()->EvaluateAsInt(R, Ctx))
        Known.NotAny.push_back(R.Val.getInt().getExtValue());
    }
  }
  SwitchValues[invariantText(strip(SW->getCond()))] = Known;
  noteExtended(SW->getBeginLoc(), "loop-invariant switch");
  if (!Chosen)
    return true; // no label matches: nothing of the body runs
  size_t From = llvm::find_if(Labels, [&](const SwitchLabel &L) {
                  return L.Case == Chosen;
                })->Item;
  for (size_t I = From; I < Items.size(); ++I) {
    const clang::Stmt *S = Items[I];
    if (isa<BreakStmt>(S))
      return true;
    if (const auto *Ret = dyn_cast<ReturnStmt>(S)) {
      Out.Return = Ret;
      return true;
    }
    if (const clang::Stmt *J = nestedJump(S, false, false))
      return fail(J->getBeginLoc(), RejectKind::EarlyExit,
                  Twine("'") + (isa<BreakStmt>(J) ? "break" : "continue") +
                      "' under a condition inside a switch: the path the "
                      "case runs depends on it");
    Out.Stmts.push_back(S);
  }
  return true;
}

bool NestBuilder::lowerSwitch(const SwitchStmt *SW, Loop &Parent) {
  SwitchPath P;
  if (!switchPath(SW, P))
    return false;
  if (P.Return)
    return fail(P.Return->getBeginLoc(), RejectKind::EarlyExit,
                "early exit ('return') in a switch inside the nest");
  for (const clang::Stmt *S : P.Stmts)
    if (!lowerStmt(S, Parent))
      return false;
  return true;
}

bool NestBuilder::lowerSwitchArm(const SwitchStmt *SW, IRStmt &Acc) {
  SwitchPath P;
  if (!switchPath(SW, P))
    return false;
  if (P.Return)
    return fail(P.Return->getBeginLoc(), RejectKind::DataDependentBranch,
                "jump inside a data-dependent branch");
  for (const clang::Stmt *S : P.Stmts)
    if (!lowerArm(S, Acc))
      return false;
  return true;
}

bool NestBuilder::expandCalleeSwitches(std::vector<const clang::Stmt *> &Stmts,
                                       const Expr *&Result) {
  // Each switch at the helper's top level becomes its path; a path that
  // returns ends the helper with its value.
  for (size_t I = 0; I < Stmts.size(); ++I) {
    const auto *SW = dyn_cast<SwitchStmt>(Stmts[I]);
    if (!SW)
      continue;
    SwitchPath P;
    if (!switchPath(SW, P))
      return false;
    std::vector<const clang::Stmt *> Next(Stmts.begin(), Stmts.begin() + I);
    Next.insert(Next.end(), P.Stmts.begin(), P.Stmts.end());
    if (P.Return)
      Result = P.Return->getRetValue();
    else
      Next.insert(Next.end(), Stmts.begin() + I + 1, Stmts.end());
    Stmts = std::move(Next);
    I += P.Stmts.size();
    --I;
  }
  return true;
}
