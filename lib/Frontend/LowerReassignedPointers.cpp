//===- LowerReassignedPointers.cpp - Pointers set again before the nest ---===//
//
// NN code reuses a pointer name for the next tensor of a layer:
//
//   float *dt = s->x_db;                 // the rank-sized head
//   linear(s->dt, dt, w, b, d_inner, dt_rank);
//   dt = s->dt;                          // now the projected (d_inner) one
//   for (int i = 0; i < d_inner; i++) dt[i] = softplus(dt[i]);
//
// At the nest the pointer holds the value of its last assignment before it,
// when that assignment runs every time before the nest does and nothing
// sets the pointer between the two: it is then bound like a pointer set once
// (docs/design.md, "Pointers set again"). Refused where that is not certain:
// an assignment in a branch, a step or `&p` between, a `case` or label that
// could enter between, a right side naming the pointer itself, or a variable
// of the right side set again before the nest.
//
//===----------------------------------------------------------------------===//

#include "NestBuilder.h"

#include "clang/AST/ExprCXX.h"
#include "llvm/Support/SaveAndRestore.h"

using namespace clang;
using namespace roofline;
using namespace roofline::frontend;

namespace {

/// How a reference to the pointer uses it.
enum class RefKind { Read, Assign, Other };

/// A whole-statement `p = E;` (in a block), or an initialized declaration.
struct Setting {
  const clang::Stmt *S = nullptr; ///< the assignment or the DeclStmt
  const Expr *Value = nullptr;
};

bool anyOf(const clang::Stmt *S, llvm::function_ref<bool(const clang::Stmt *)> P) {
  if (!S)
    return false;
  if (P(S))
    return true;
  for (const clang::Stmt *C : S->children())
    if (anyOf(C, P))
      return true;
  return false;
}

bool refersToDecl(const clang::Stmt *S, const VarDecl *VD) {
  return anyOf(S, [&](const clang::Stmt *X) {
    const auto *DRE = dyn_cast<DeclRefExpr>(X);
    return DRE && DRE->getDecl() == VD;
  });
}

} // namespace

// Whether \p A ends before \p B begins, in the file (expansion locations:
// inside one macro expansion both are one location, and that is not before).
bool NestBuilder::endsBefore(const clang::Stmt *A, const clang::Stmt *B) const {
  SourceLocation E = SM.getExpansionLoc(A->getEndLoc()),
                 S = SM.getExpansionLoc(B->getBeginLoc());
  return E != S && SM.isBeforeInTranslationUnit(E, S);
}

// Whether \p S may run after \p From and before the nest's next start: after
// it in the file and before the nest or inside it, or anywhere in a loop
// around the nest that does not hold \p From (its next pass skips From).
bool NestBuilder::runsBetween(const clang::Stmt *S, const clang::Stmt *From) {
  if (endsBefore(From, S) && (endsBefore(S, Nest) || containsStmt(Nest, S)))
    return true;
  const ParentMap &PM = functionParents();
  for (const clang::Stmt *A = PM.getParent(Nest); A && !containsStmt(A, From);
       A = PM.getParent(A))
    if (isLoopStmt(A) && containsStmt(A, S))
      return true;
  return false;
}

std::optional<NestBuilder::View>
NestBuilder::reassignedPointerView(const VarDecl *VD, std::string &Why) {
  if (auto It = Reassigned.find(VD); It != Reassigned.end()) {
    Why = It->second.Why;
    return It->second.V;
  }
  ReassignedInfo &R = Reassigned[VD];
  R.V = lastSettingView(VD, R.Why, R.OnlyAssigned);
  if (R.V)
    bindPointer(VD, *R.V);
  Why = R.Why;
  return R.V;
}

bool NestBuilder::onlyAssigned(const VarDecl *VD) {
  auto It = Reassigned.find(VD);
  if (It == Reassigned.end()) {
    std::string Why;
    reassignedPointerView(VD, Why);
    It = Reassigned.find(VD);
  }
  return It->second.OnlyAssigned && !It->second.V;
}

std::optional<NestBuilder::View>
NestBuilder::lastSettingView(const VarDecl *VD, std::string &Why, bool &OnlyAssigned) {
  OnlyAssigned = false;
  if (!Nest || Frames.empty() || VD->getDeclContext() != Frames.front().FD ||
      !VD->getType()->isPointerType() || VD->isStaticLocal() ||
      VD->getType().isVolatileQualified())
    return std::nullopt;
  const clang::Stmt *Body = Frames.front().FD->getBody();
  const ParentMap &PM = functionParents();
  std::string Name = declName(VD);
  // Every reference, sorted by how it uses the pointer.
  std::vector<std::pair<const DeclRefExpr *, RefKind>> Refs;
  anyOf(Body, [&](const clang::Stmt *S) {
    const auto *DRE = dyn_cast<DeclRefExpr>(S);
    if (!DRE || DRE->getDecl() != VD)
      return false;
    const clang::Stmt *P = PM.getParentIgnoreParens(DRE);
    RefKind K = RefKind::Other;
    bool InLambda = false; // a lambda may set it wherever it is called
    for (const clang::Stmt *A = P; A && !InLambda; A = PM.getParent(A))
      InLambda = isa<LambdaExpr>(A);
    if (InLambda)
      K = RefKind::Other;
    else if (const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(P);
        Cast && Cast->getCastKind() == CK_LValueToRValue)
      K = RefKind::Read;
    else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(P);
             BO && BO->getOpcode() == BO_Assign && strip(BO->getLHS()) == DRE)
      K = RefKind::Assign;
    Refs.push_back({DRE, K});
    return false;
  });
  bool Assigned = llvm::any_of(Refs, [](auto &R) { return R.second == RefKind::Assign; });
  OnlyAssigned = Assigned && llvm::none_of(Refs, [](auto &R) { return R.second == RefKind::Other; });
  // Set once (viewOfDecl binds it), stepped or its address taken anywhere
  // (the counters; an address kept could change it behind any setting), or
  // set inside the nest (LowerBodyAssignments.cpp): others' to follow.
  if (!OnlyAssigned || llvm::any_of(Refs, [&](auto &R) {
        return R.second != RefKind::Read && containsStmt(Nest, R.first);
      })) {
    OnlyAssigned = false;
    return std::nullopt;
  }
  std::vector<Setting> Settings;
  for (const auto &[DRE, K] : Refs)
    if (K == RefKind::Assign) {
      const auto *BO = cast<BinaryOperator>(PM.getParentIgnoreParens(DRE));
      Settings.push_back({BO, BO->getRHS()});
    }
  if (VD->getInit() && !isa<ParmVarDecl>(VD))
    Settings.push_back({PM.getParent(VD->getInit()), VD->getInit()});
  // The last setting before the nest in a block around it.
  const Setting *Last = nullptr;
  for (const Setting &S : Settings) {
    const clang::Stmt *Block = S.S ? PM.getParent(S.S) : nullptr;
    if (!S.S || !isa_and_nonnull<CompoundStmt>(Block) || !containsStmt(Block, Nest) ||
        !endsBefore(S.S, Nest))
      continue;
    if (!Last || endsBefore(Last->S, S.S))
      Last = &S;
  }
  auto Refuse = [&](const std::string &Reason) -> std::optional<View> {
    Why = "pointer '" + Name + "' " + Reason;
    return std::nullopt;
  };
  if (!Last)
    return Refuse("is set in a branch or a loop before the nest, not in a block "
                  "around it: which value it has at the nest is not known");
  for (const auto &[DRE, K] : Refs)
    if (K != RefKind::Read && PM.getParentIgnoreParens(DRE) != Last->S &&
        runsBetween(DRE, Last->S))
      return Refuse("is set again ('" + text(PM.getParentIgnoreParens(DRE)) +
                    "') after '" + text(Last->S) + "', before the nest runs");
  if (anyOf(Body, [&](const clang::Stmt *S) {
        return (isa<SwitchCase>(S) || isa<LabelStmt>(S)) && runsBetween(S, Last->S);
      }))
    return Refuse("is set by '" + text(Last->S) +
                  "', and a 'case' or label after it may enter the nest without it");
  if (refersToDecl(Last->Value, VD))
    return Refuse("is set from itself ('" + text(Last->S) +
                  "'): its value before is not followed");
  // The right side is read at the nest: nothing it names may change between.
  std::string Changed;
  const ModificationSites &Mod = Frames.front().Modified;
  anyOf(Last->Value, [&](const clang::Stmt *S) {
    if (const auto *ME = dyn_cast<MemberExpr>(S)) {
      const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl());
      for (const clang::Stmt *Site : F ? Mod.FieldSites.lookup(F)
                                       : llvm::SmallVector<const clang::Stmt *, 2>())
        if (runsBetween(Site, Last->S)) {
          Changed = text(ME);
          return true;
        }
      return false;
    }
    const auto *DRE = dyn_cast<DeclRefExpr>(S);
    const auto *Var = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!Var)
      return false;
    auto It = Mod.Vars.find(Var);
    if (It == Mod.Vars.end())
      return false;
    for (const ModificationSites::VarSite &Site : It->second)
      if (runsBetween(Site.Site, Last->S)) {
        Changed = declName(Var);
        return true;
      }
    return false;
  });
  if (!Changed.empty())
    return Refuse("is set by '" + text(Last->S) + "', and '" + Changed +
                  "' changes after it, before the nest runs");
  llvm::SaveAndRestore HideIVs(IVs, {});
  std::string Inner;
  std::optional<View> V = viewOf(Last->Value, Inner);
  if (!V)
    return Refuse("= '" + text(Last->Value) + "': " + Inner);
  return V;
}

// In an inlined helper, statements run once per call in the order they are
// lowered: a local pointer set again by a statement of the helper's body
// itself (no loop, branch or block around it) is rebound there, its uses
// after it seeing the new view, as a declaration would.
bool NestBuilder::calleeRebound(const VarDecl *VD) const {
  if (Frames.size() < 2 || !VD->isLocalVarDecl() ||
      VD->getDeclContext() != Frames.back().FD || !VD->getType()->isPointerType())
    return false;
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Frames.back().FD->getBody());
  auto It = Frames.back().Modified.Vars.find(VD);
  if (!Body || It == Frames.back().Modified.Vars.end())
    return false;
  return llvm::all_of(It->second, [&](const ModificationSites::VarSite &Site) {
    const auto *BO = dyn_cast<BinaryOperator>(Site.Site);
    return BO && BO->getOpcode() == BO_Assign && strip(BO->getLHS()) == Site.Ref &&
           llvm::is_contained(Body->body(), BO);
  });
}

std::optional<bool> NestBuilder::lowerCalleeReassignment(const clang::Stmt *S) {
  const auto *E = dyn_cast<Expr>(S);
  const auto *BO = E ? dyn_cast<BinaryOperator>(strip(E)) : nullptr;
  const auto *DRE = BO && BO->getOpcode() == BO_Assign
                        ? dyn_cast<DeclRefExpr>(strip(BO->getLHS()))
                        : nullptr;
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!VD || !calleeRebound(VD))
    return std::nullopt;
  std::string Why;
  std::optional<View> V = viewOf(BO->getRHS(), Why);
  if (!V)
    return fail(BO->getRHS()->getBeginLoc(), RejectKind::PointerNotFollowed,
                "pointer '" + declName(VD) + "' = '" + text(BO->getRHS()) + "': " + Why);
  bindPointer(VD, *V);
  noteExtended(BO->getBeginLoc(), "pointer set again in a called helper");
  return true;
}
