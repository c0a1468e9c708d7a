//===- LowerBodyAssignments.cpp - Pointers assigned first in a loop body --===//
//
// llm.c's layer loop declares `float *residual;` before the loop and assigns
// it first in the body, `residual = l == 0 ? acts.encoded : acts.residual3 +
// (l-1)*B*T*C;`, then passes it on; llama2.c's sets `s->k = s->key_cache +
// loff + pos*kv_dim;` and then writes through s->k. Where every use of the
// pointer in the nest follows that assignment in the same loop body, and
// nothing else in the nest changes the pointer, the assignment is a
// declaration there: the pointer is bound to the view it is assigned, per
// iteration, exactly as `float *residual = ...;` in the body would be
// (lowerPointerDecl). A field is resolved to the array it points into, never
// an array of its own: s->k aliases key_cache. Anything else (a use before
// the assignment, a second assignment, one under a branch or in a block, a
// call that may reach the struct) stays refused with the reason
// (docs/design.md, "Pointers assigned in a loop body").
//
//===----------------------------------------------------------------------===//

#include "NestBuilder.h"

#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;
using namespace roofline;
using namespace roofline::frontend;

using IRStmt = roofline::Stmt;

namespace {

/// The statements of a loop body, in order.
std::vector<const clang::Stmt *> bodyStatements(const clang::Stmt *Body) {
  if (const auto *CS = dyn_cast_or_null<CompoundStmt>(Body))
    return {CS->body_begin(), CS->body_end()};
  if (Body)
    return {Body};
  return {};
}

} // namespace

bool roofline::frontend::capturedByLambda(const clang::Stmt *S,
                                          const VarDecl *VD) {
  std::vector<const clang::Stmt *> All;
  collectStmts(S, All);
  for (const clang::Stmt *X : All)
    if (const auto *LE = dyn_cast<LambdaExpr>(X))
      for (const LambdaCapture &C : LE->captures())
        if (C.capturesVariable() && C.getCapturedVar() == VD)
          return true;
  return false;
}

std::optional<std::pair<const void *, std::string>>
NestBuilder::fieldKey(const MemberExpr *ME) {
  std::string Why;
  std::optional<std::string> Path = memberPath(ME, Why, /*AnyField=*/true);
  if (!Path)
    return std::nullopt;
  const Expr *Root = memberRoot(ME);
  const void *Key = nullptr;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Root))
    Key = DRE->getDecl();
  else if (!isa<CXXThisExpr>(Root))
    return std::nullopt;
  return std::make_pair(Key, *Path);
}

std::optional<NestBuilder::View>
NestBuilder::boundFieldView(const MemberExpr *ME) {
  // Only the uses bodyAssignmentProblem checked: those in the nest of its
  // own function (an argument being bound to an inlined callee included).
  if (FieldBindings.empty() || !containsStmt(Nest, ME))
    return std::nullopt;
  std::optional<std::pair<const void *, std::string>> Key = fieldKey(ME);
  if (!Key)
    return std::nullopt;
  auto It = FieldBindings.find(*Key);
  if (It == FieldBindings.end())
    return std::nullopt;
  return It->second;
}

std::string NestBuilder::bodyAssignmentProblem(const clang::Stmt *S,
                                               const BinaryOperator *BO,
                                               const Loop &Parent) {
  const Expr *L = strip(BO->getLHS());
  const auto *DRE = dyn_cast<DeclRefExpr>(L);
  const VarDecl *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  const auto *ME = dyn_cast<MemberExpr>(L);
  const FieldDecl *F = ME ? dyn_cast<FieldDecl>(ME->getMemberDecl()) : nullptr;
  std::string Line = std::to_string(loc(BO->getBeginLoc()).Line);
  if (LoopStack.empty() || LoopStack.back().L != &Parent ||
      LoopStack.back().Child != S)
    return "assigned at line " + Line +
           " under a branch or in a block of the loop body, not in the body "
           "itself";
  // Where the function may change it: only plain assignments, one of them
  // in the nest (this one).
  const ModificationSites &Mod = Frames.front().Modified;
  unsigned InNest = 0;
  if (VD) {
    if (capturedByLambda(Frames.front().FD->getBody(), VD))
      return "a lambda captures it";
    for (const ModificationSites::VarSite &VS : Mod.Vars.lookup(VD)) {
      const auto *A = dyn_cast<BinaryOperator>(VS.Site);
      if (!A || A->getOpcode() != BO_Assign)
        return "it is advanced, or its address taken, at line " +
               std::to_string(loc(VS.Site->getBeginLoc()).Line);
      InNest += containsStmt(Nest, A);
    }
  } else {
    for (const clang::Stmt *Site : Mod.FieldSites.lookup(F)) {
      const auto *A = dyn_cast<BinaryOperator>(Site);
      if (!A || A->getOpcode() != BO_Assign)
        return "it is advanced, or its address taken, at line " +
               std::to_string(loc(Site->getBeginLoc()).Line);
      InNest += containsStmt(Nest, A);
    }
  }
  if (InNest != 1)
    return "assigned " + std::to_string(InNest) +
           " times inside the nest: its value at a use is not one known "
           "pointer";
  std::optional<std::pair<const void *, std::string>> Key;
  if (F && !(Key = fieldKey(ME)))
    return "its member chain is no named struct";
  // Every use in the nest follows the assignment in this body.
  std::vector<const clang::Stmt *> Body = bodyStatements(LoopStack.back().Body);
  auto At = std::find(Body.begin(), Body.end(), S);
  assert(At != Body.end() && "the current child is a statement of the body");
  llvm::DenseSet<const clang::Stmt *> After;
  std::vector<const clang::Stmt *> Later;
  for (auto It = std::next(At); It != Body.end(); ++It)
    collectStmts(*It, Later);
  After.insert(Later.begin(), Later.end());
  std::vector<const clang::Stmt *> InNestStmts;
  collectStmts(Nest, InNestStmts);
  for (const clang::Stmt *X : InNestStmts) {
    bool Use = false;
    if (const auto *R = dyn_cast<DeclRefExpr>(X))
      Use = VD && R->getDecl() == VD && R != DRE;
    if (const auto *M = dyn_cast<MemberExpr>(X))
      Use = F && M->getMemberDecl() == F && M != ME;
    if (!Use)
      continue;
    std::string UseLine = std::to_string(loc(X->getBeginLoc()).Line);
    if (!After.count(X))
      return "used at line " + UseLine + " where the assignment at line " +
             Line + " does not come first in the same loop body";
    if (F && fieldKey(cast<MemberExpr>(X)) != Key)
      return "used through another path '" + text(X) + "' at line " +
             UseLine + ", which may be the same struct";
  }
  if (F) {
    // Nothing after it in the body may change the struct (a call
    // receiving it); the value assigned is computed before.
    std::vector<const clang::Stmt *> Checked(Later);
    collectStmts(BO->getRHS(), Checked);
    for (const clang::Stmt *X : Checked)
      if (std::string Why = escapeAt(X, ME); !Why.empty())
        return "it may change in the loop body: " + Why;
    llvm::SmallPtrSet<const FunctionDecl *, 8> Seen;
    for (auto It = std::next(At); It != Body.end(); ++It)
      if (callsChanging(
              *It,
              [&](const ModificationSites &M) { return M.Fields.count(F) != 0; },
              Seen))
        return "a function called in the loop body may assign it";
  }
  return "";
}

std::optional<bool> NestBuilder::lowerBodyAssignment(const clang::Stmt *S,
                                                     Loop &Parent,
                                                     IRStmt &St) {
  const auto *E = dyn_cast<Expr>(S);
  const auto *BO = E ? dyn_cast<BinaryOperator>(strip(E)) : nullptr;
  if (!BO || BO->getOpcode() != BO_Assign ||
      !BO->getLHS()->getType()->isPointerType() || Frames.size() != 1 || !Nest)
    return std::nullopt;
  const Expr *L = strip(BO->getLHS());
  std::string Prefix;
  const VarDecl *VD = nullptr;
  const auto *ME = dyn_cast<MemberExpr>(L);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(L)) {
    VD = dyn_cast<VarDecl>(DRE->getDecl());
    // Declared inside the nest: lowerPointerDecl's, as before.
    if (!VD || !VD->hasLocalStorage() ||
        SM.isPointWithin(SM.getExpansionLoc(VD->getLocation()),
                         SM.getExpansionLoc(Nest->getBeginLoc()),
                         SM.getExpansionLoc(Nest->getEndLoc())))
      return std::nullopt;
    Prefix = "pointer or index variable '" + declName(VD) +
             "' is reassigned inside the nest";
  } else if (ME && isa<FieldDecl>(ME->getMemberDecl())) {
    Prefix = "assignment to '" + text(L) +
             "' that is neither a scalar nor an array element";
  } else {
    return std::nullopt;
  }
  if (std::string Problem = bodyAssignmentProblem(S, BO, Parent);
      !Problem.empty())
    return fail(BO->getBeginLoc(), RejectKind::PointerReassigned,
                Prefix + " (" + Problem + ")");
  std::string Line = std::to_string(loc(BO->getBeginLoc()).Line);
  if (VD) {
    BodyAssigned.insert(VD);
    noteExtended(BO->getBeginLoc(), "pointer assigned first in a loop body");
    if (std::optional<bool> Done =
            lowerChosenValue(VD, BO->getRHS(), S, Parent, St))
      return *Done;
    return lowerDecl(VD, Parent, St, BO->getRHS());
  }
  std::string Why;
  std::optional<View> V = viewOf(BO->getRHS(), Why);
  if (!V)
    return fail(BO->getRHS()->getBeginLoc(), RejectKind::PointerNotFollowed,
                "pointer field '" + text(L) + "' = '" + text(BO->getRHS()) +
                    "': " + Why);
  FieldBindings[*fieldKey(ME)] = *V;
  noteExtended(BO->getBeginLoc(), "pointer field assigned first in a loop body");
  return true;
}

// --- Index locals set again in their body ---
//
// darknet's YOLO layer: `int index = entry_index(l, b, n*l.w*l.h, 0);
// activate_array(l.output + index, ...); index = entry_index(l, b,
// n*l.w*l.h, 4); activate_array(l.output + index, ...);`. Where every change
// of an integer local is such a statement of the loop body that declares
// it, lowering the body in order sees at each use the value of the last one
// before it: the local is an index bound anew at each (docs/design.md,
// "Index locals set again"). One set under a branch, in an inner loop or
// through its address stays a counter (LowerCounters.cpp).

namespace {

/// \p S as `VD = E`, `VD += E` or `VD -= E`; null where it is none.
const BinaryOperator *indexStep(const clang::Stmt *S, const VarDecl *VD) {
  const auto *E = dyn_cast_or_null<Expr>(S);
  // A call binding temporaries (`k = std::max(k, 0)`) wraps the statement
  // in cleanups.
  const auto *BO =
      E ? dyn_cast<BinaryOperator>(E->IgnoreImplicit()->IgnoreParens())
        : nullptr;
  if (!BO || (BO->getOpcode() != BO_Assign && BO->getOpcode() != BO_AddAssign &&
              BO->getOpcode() != BO_SubAssign))
    return nullptr;
  const auto *DRE = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParens());
  return DRE && (!VD || DRE->getDecl() == VD) ? BO : nullptr;
}

} // namespace

bool NestBuilder::isSequentialIndex(const VarDecl *VD) const {
  if (Frames.size() != 1 || LoopStack.empty() || !Nest ||
      !VD->getType()->isIntegerType() || !VD->getInit() ||
      capturedByLambda(Frames.front().FD->getBody(), VD))
    return false;
  std::vector<const clang::Stmt *> Body = bodyStatements(LoopStack.back().Body);
  auto At = std::find(Body.begin(), Body.end(), LoopStack.back().Child);
  if (At == Body.end() || !isa<DeclStmt>(*At))
    return false;
  llvm::SmallPtrSet<const clang::Stmt *, 8> Later;
  for (auto It = std::next(At); It != Body.end(); ++It)
    if (const BinaryOperator *Step = indexStep(*It, VD))
      Later.insert(Step);
  const auto &Sites = Frames.front().Modified.Vars.lookup(VD);
  return !Sites.empty() &&
         llvm::all_of(Sites, [&](const ModificationSites::VarSite &VS) {
           return indexStep(VS.Site, VD) && Later.count(VS.Site);
         });
}

const VarDecl *NestBuilder::lazyReaderOf(const VarDecl *VD) const {
  // Guards are the locals lowered where used; window locals keep the
  // bindings of their setting, and other opaque integers are never read.
  for (const auto &[Guard, Info] : GuardLocals) {
    std::vector<const clang::Stmt *> InInit;
    collectStmts(Guard->getInit(), InInit);
    for (const clang::Stmt *X : InInit)
      if (const auto *DRE = dyn_cast<DeclRefExpr>(X);
          DRE && DRE->getDecl() == VD)
        return Guard;
  }
  return nullptr;
}

bool NestBuilder::isWindowValue(const Expr *E) {
  return (minMaxCall(E) || minMaxChoice(E, Ctx)) && !usesNestData(E);
}

void NestBuilder::setWindowLocal(const VarDecl *VD, const Expr *Value) {
  auto W = std::make_shared<WindowValue>();
  W->Value = Value;
  W->Bindings = Bindings;
  W->Windows = WindowLocals;
  WindowLocals[VD] = std::move(W);
}

std::optional<bool> NestBuilder::lowerIndexReassignment(const clang::Stmt *S) {
  if (SequentialIndices.empty() || Frames.size() != 1)
    return std::nullopt;
  const BinaryOperator *BO = indexStep(S, nullptr);
  const auto *VD = BO ? dyn_cast<VarDecl>(
                            cast<DeclRefExpr>(BO->getLHS()->IgnoreParens())
                                ->getDecl())
                      : nullptr;
  if (!VD || !SequentialIndices.count(VD))
    return std::nullopt;
  // A guard local is read where it is tested, not where it is declared: it
  // would see the new value there (window locals keep their bindings).
  if (const VarDecl *Reader = lazyReaderOf(VD))
    return fail(BO->getBeginLoc(), RejectKind::PointerReassigned,
                "index '" + declName(VD) + "' is set again after '" +
                    declName(Reader) + "' = '" + text(Reader->getInit()) +
                    "', which is read where it is used");
  std::string Why;
  std::optional<IndexPoly> P = indexOf(BO->getRHS(), Why);
  if (!P && BO->getOpcode() == BO_Assign && isWindowValue(BO->getRHS())) {
    // `hstart = max(hstart, 0);`: a window bound from here on.
    setWindowLocal(VD, BO->getRHS());
    Bindings.erase(VD);
    OpaqueInts[VD] = {"'" + declName(VD) + "' holds '" +
                          text(BO->getRHS()) + "' (set again at line " +
                          std::to_string(loc(BO->getBeginLoc()).Line) +
                          "): only a loop bound may read it",
                      mentionsLoopVar(BO->getRHS())};
    noteExtended(BO->getBeginLoc(), "a window local set again in its body");
    return true;
  }
  if (P && BO->getOpcode() != BO_Assign) {
    auto It = Bindings.find(VD);
    P = It == Bindings.end() ? std::nullopt
        : BO->getOpcode() == BO_AddAssign ? It->second.Value.add(*P)
                                          : It->second.Value.sub(*P);
    if (!P)
      Why = It == Bindings.end() ? "'" + declName(VD) + "' holds a min or max"
                                 : "index arithmetic overflows";
  }
  if (!P)
    return fail(BO->getBeginLoc(),
                usesNestData(BO->getRHS()) ? RejectKind::DataDependentIndex
                                           : RejectKind::PointerReassigned,
                "index '" + declName(VD) + "' is set again to '" +
                    text(BO->getRHS()) +
                    "', which is not an index: " + Why);
  Bindings[VD] = Binding::index(*P);
  WindowLocals.erase(VD);
  OpaqueInts.erase(VD);
  noteExtended(BO->getBeginLoc(), "an index local set again in its body");
  return true;
}
