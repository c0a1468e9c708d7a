//===- CallSites.cpp - What the calls in a translation unit pass ---------===//

#include "CallSites.h"
#include "NestBuilder.h"

#include <algorithm>

using namespace clang;
using namespace roofline::frontend;

namespace {

/// Whether \p E, passed for a pointer parameter, is a null pointer (false),
/// surely points to something (true: an array, an address taken), or is of
/// unknown value.
std::optional<bool> pointerNonNull(const Expr *E, ASTContext &Ctx) {
  if (E->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull))
    return false;
  E = E->IgnoreParenCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return UO->getOpcode() == UO_AddrOf ? std::optional<bool>(true)
                                        : std::nullopt;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (DRE->getType()->isArrayType())
      return true; // decays to its first element
  if (const auto *BO = dyn_cast<BinaryOperator>(E);
      BO && BO->isAdditiveOp()) {
    const Expr *P = nullptr, *Offset = nullptr;
    splitPointerSum(BO, P, Offset);
    return pointerNonNull(P, Ctx);
  }
  return std::nullopt;
}

} // namespace

bool CallSiteCollector::VisitCallExpr(CallExpr *CE) {
  const FunctionDecl *FD = CE->getDirectCallee();
  if (!FD)
    return true;
  CalleeRefs.insert(CE->getCallee()->IgnoreParenImpCasts());
  FD = FD->getCanonicalDecl();
  auto &Slots = Values[FD];
  Slots.resize(std::max<size_t>(Slots.size(), CE->getNumArgs()));
  for (unsigned I = 0; I < CE->getNumArgs(); ++I) {
    const Expr *A = CE->getArg(I);
    Slot &S = Slots[I];
    Expr::EvalResult R;
    if (!A->isValueDependent() && A->EvaluateAsInt(R, Ctx))
      S.Seen.insert(R.Val.getInt().getExtValue());
    else
      S.NonConstant = true;
    if (A->getType()->isPointerType() && !A->isValueDependent()) {
      std::optional<bool> NN = pointerNonNull(A, Ctx);
      ++(NN ? (*NN ? S.NotNull : S.Null) : S.Unknown);
    }
  }
  noteSharedArguments(CE, FD);
  return true;
}

void CallSiteCollector::noteSharedArguments(const CallExpr *CE,
                                            const FunctionDecl *FD) {
  for (unsigned I = 0; I < CE->getNumArgs(); ++I) {
    if (!CE->getArg(I)->getType()->isPointerType())
      continue;
    const VarDecl *BI = pointerBase(CE->getArg(I));
    for (unsigned J = I + 1; BI && J < CE->getNumArgs(); ++J)
      if (CE->getArg(J)->getType()->isPointerType() &&
          pointerBase(CE->getArg(J)) == BI) {
        Shared[FD].push_back({I, J, roofline::declName(BI), CE->getBeginLoc()});
        return; // one finding per call is enough
      }
  }
}

llvm::ArrayRef<SharedArgument>
CallSiteCollector::sharedArguments(const FunctionDecl *FD) const {
  auto It = Shared.find(FD->getCanonicalDecl());
  if (It == Shared.end())
    return {};
  return It->second;
}

const CallSiteCollector::Slot *
CallSiteCollector::slotOf(const ParmVarDecl *P) const {
  const auto *FD = dyn_cast<FunctionDecl>(P->getDeclContext());
  if (!FD)
    return nullptr;
  auto It = Values.find(FD->getCanonicalDecl());
  if (It == Values.end())
    return nullptr;
  unsigned Idx = P->getFunctionScopeIndex();
  return Idx < It->second.size() ? &It->second[Idx] : nullptr;
}

std::optional<int64_t> CallSiteCollector::valueOf(const ParmVarDecl *P) const {
  const Slot *S = slotOf(P);
  if (!S || S->NonConstant || S->Seen.size() != 1)
    return std::nullopt;
  return *S->Seen.begin();
}

std::optional<bool> CallSiteCollector::nonNull(const ParmVarDecl *P) const {
  const Slot *S = slotOf(P);
  if (!S || S->Unknown || (S->Null && S->NotNull) || (!S->Null && !S->NotNull))
    return std::nullopt;
  return S->NotNull > 0;
}

bool CallSiteCollector::VisitDeclRefExpr(DeclRefExpr *DRE) {
  // A call's callee is visited after the call itself: any other reference
  // to a function takes its address.
  const auto *FD = dyn_cast<FunctionDecl>(DRE->getDecl());
  if (!FD || CalleeRefs.count(DRE))
    return true;
  FD = FD->getCanonicalDecl();
  if (TakenSet.insert(FD).second)
    Taken.push_back(FD);
  return true;
}

std::vector<const FunctionDecl *>
CallSiteCollector::addressTaken(QualType FnType) const {
  std::vector<const FunctionDecl *> Out;
  const SourceManager &SM = Ctx.getSourceManager();
  for (const FunctionDecl *FD : Taken) {
    const FunctionDecl *Def = nullptr;
    if (!FD->hasBody(Def) || !Def || SM.isInSystemHeader(Def->getLocation()))
      continue;
    if (Ctx.hasSameType(Def->getType(), FnType))
      Out.push_back(Def);
  }
  std::sort(Out.begin(), Out.end(),
            [&](const FunctionDecl *A, const FunctionDecl *B) {
              return SM.isBeforeInTranslationUnit(A->getLocation(),
                                                  B->getLocation());
            });
  return Out;
}
