//===- LowerData.cpp - The arithmetic and accesses of statements ----------===//
//
// What a statement reads, writes and computes, per docs/design.md
// "Counting rules": element accesses through arrays, pointers into them and
// references (all resolved to the array they point into), floating
// arithmetic by precision, integer arithmetic on data (index arithmetic is
// not work), nothing for subexpressions a compiler folds.
//
//===----------------------------------------------------------------------===//

#include "NestBuilder.h"

#include "clang/AST/DeclTemplate.h"
#include "llvm/Support/SaveAndRestore.h"

using namespace clang;
using namespace roofline;
using namespace roofline::frontend;
using IRStmt = roofline::Stmt;

namespace {

const ClassTemplateSpecializationDecl *stdContainer(QualType T) {
  const auto *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(RD);
  if (!Spec || !Spec->isInStdNamespace())
    return nullptr;
  StringRef N = RD->getName();
  if (N == "vector" || N == "array" || N == "span")
    return Spec;
  // std::unique_ptr<float[]> and std::shared_ptr<float[]> own an array.
  const TemplateArgumentList &Args = Spec->getTemplateArgs();
  bool OwnsArray = (N == "unique_ptr" || N == "shared_ptr") && Args.size() >= 1 &&
                   Args[0].getKind() == TemplateArgument::Type &&
                   Args[0].getAsType()->isArrayType();
  return OwnsArray ? Spec : nullptr;
}

/// A smart pointer to an array: its one dimension is its element type's.
bool isSmartArray(const ClassTemplateSpecializationDecl *Spec) {
  StringRef N = Spec->getName();
  return N == "unique_ptr" || N == "shared_ptr";
}

} // namespace

// Row pointers: each row its own allocation (docs/design.md, "Rows of
// pointers").
QualType roofline::frontend::shapeOf(QualType T,
                                     std::vector<std::optional<AffineExpr>> &Ext,
                                     bool &IsPointer, bool &RowPointers, bool First) {
  T = T.getNonReferenceType().getCanonicalType();
  if (const auto *CAT = dyn_cast<ConstantArrayType>(T.getTypePtr())) {
    Ext.push_back(AffineExpr(CAT->getSize().getSExtValue()));
    return shapeOf(CAT->getElementType(), Ext, IsPointer, RowPointers, false);
  }
  if (const auto *AT = dyn_cast<ArrayType>(T.getTypePtr())) {
    Ext.push_back(std::nullopt);
    return shapeOf(AT->getElementType(), Ext, IsPointer, RowPointers, false);
  }
  if (const auto *PT = T->getAs<PointerType>(); PT && (First || !RowPointers)) {
    (First ? IsPointer : RowPointers) = true;
    Ext.push_back(std::nullopt);
    return shapeOf(PT->getPointeeType(), Ext, IsPointer, RowPointers, false);
  }
  if (const auto *Spec = stdContainer(T)) {
    const TemplateArgumentList &Args = Spec->getTemplateArgs();
    if (isSmartArray(Spec)) {
      IsPointer = true; // memory it was handed
      return shapeOf(Args[0].getAsType(), Ext, IsPointer, RowPointers, false);
    }
    std::optional<AffineExpr> N;
    // std::array<T, N> and std::span<T, N> (not dynamic_extent) know N.
    if (Args.size() >= 2 && Args[1].getKind() == TemplateArgument::Integral &&
        Args[1].getAsIntegral().getActiveBits() < 63)
      N = AffineExpr(Args[1].getAsIntegral().getSExtValue());
    Ext.push_back(N);
    if (Spec->getName() == "span")
      IsPointer = true; // a view of someone else's memory
    return shapeOf(Args[0].getAsType(), Ext, IsPointer, RowPointers, false);
  }
  return T;
}

namespace {

const BinaryOperator *asMul(const Expr *E) {
  const auto *BO = dyn_cast<BinaryOperator>(strip(E));
  return BO && BO->getOpcode() == BO_Mul ? BO : nullptr;
}

/// The precision a multiply runs at: its type for floats; for integers the
/// widest operand before promotion, so int8*int8 is an i8 MAC.
std::optional<Precision> macPrecision(const BinaryOperator *Mul) {
  std::optional<Precision> P = precisionOf(Mul->getType());
  if (!P || isFloating(*P))
    return P;
  auto SourceType = [](const Expr *E) {
    const Expr *In = E->IgnoreParens();
    while (const auto *Cast = dyn_cast<CastExpr>(In)) {
      if (!Cast->getType()->isIntegerType())
        break;
      In = Cast->getSubExpr()->IgnoreParens();
    }
    return precisionOf(In->getType());
  };
  std::optional<Precision> L = SourceType(Mul->getLHS());
  std::optional<Precision> R = SourceType(Mul->getRHS());
  if (!L || !R)
    return P;
  return precisionBytes(*L) >= precisionBytes(*R) ? L : R;
}

} // namespace

bool roofline::frontend::isContainerType(QualType T) {
  return stdContainer(T) != nullptr;
}

//===----------------------------------------------------------------------===//
// Arrays and views into them
//===----------------------------------------------------------------------===//

std::optional<unsigned> NestBuilder::baseOf(const ValueDecl *D,
                                            const std::string &Name,
                                            QualType DeclType,
                                            SourceLocation Loc, bool Scratch,
                                            std::string &Why) {
  std::string Key = Name;
  if (auto It = BaseIndex.find(Key); It != BaseIndex.end()) {
    if (Bases[It->second].Decl == D || !isa_and_nonnull<VarDecl>(D))
      return It->second;
    // Another variable of the same name (a callee's local array).
    Key = FD->getNameAsString() + ":" + Name;
    if (auto It2 = BaseIndex.find(Key); It2 != BaseIndex.end())
      return It2->second;
  }
  if (std::string Alias = localObjectAlias(D, Key); !Alias.empty()) {
    Why = "'" + Key + "' and '" + Alias + "' may be one array: a struct reached through a local "
          "pointer to it and by another path";
    return std::nullopt;
  }
  ArrayBase B;
  B.Name = Key;
  B.Decl = D;
  B.Type = DeclType;
  QualType Elem = shapeOf(DeclType, B.Extents, B.IsPointer, B.RowPointers);
  B.Container = isContainerType(DeclType);
  if (B.Extents.empty()) {
    Why = "'" + Name + "' is not an array";
    return std::nullopt;
  }
  std::optional<Precision> P = precisionOf(Elem);
  if (!P) {
    Why = "element type '" + Elem.getAsString() + "' of '" + Name +
          "' is not supported";
    return std::nullopt;
  }
  B.Elem = *P;
  B.Scratch = Scratch;
  const auto *VD = dyn_cast_or_null<VarDecl>(D);
  B.IsPointer |= !VD || isa<ParmVarDecl>(VD) || DeclType->isReferenceType();
  B.LocalStorage = VD && VD->hasLocalStorage() && !isa<ParmVarDecl>(VD) &&
                   !DeclType->isReferenceType() && !DeclType->isPointerType() &&
                   !Scratch;
  (void)Loc;
  BaseIndex[Key] = Bases.size();
  Bases.push_back(std::move(B));
  return Bases.size() - 1;
}

std::optional<NestBuilder::View>
NestBuilder::viewOfDecl(const VarDecl *VD, std::string &Why) {
  std::string Name = declName(VD);
  if (auto B = Bindings.find(VD); B != Bindings.end()) {
    if (B->second.Kind == Binding::Pointer || B->second.Kind == Binding::Element)
      return B->second.V;
    Why = "'" + Name + "' is not an array";
    return std::nullopt;
  }
  if (NullPointers.count(VD)) {
    Why = "'" + Name + "' is a null pointer here";
    return std::nullopt;
  }
  QualType T = VD->getType();
  if (const auto *PVD = dyn_cast<ParmVarDecl>(VD))
    T = PVD->getOriginalType();
  if (T->isPointerType() && isModified(VD)) {
    Why = "pointer '" + Name + "' is reassigned or advanced in the function";
    return std::nullopt;
  }
  // A pointer set once before the nest into another array is that array.
  if (T->isPointerType() && !isa<ParmVarDecl>(VD) && VD->getInit()) {
    std::string Inner;
    if (std::optional<View> V = viewOf(VD->getInit(), Inner)) {
      bindPointer(VD, *V);
      return V;
    }
    // From a pointer field the function assigns, with no one known value
    // (assigned twice, conditionally): it may be one of the nest's arrays,
    // so it is no array of its own either.
    if (const MemberExpr *Field = assignedPointerField(VD->getInit())) {
      Why = "pointer '" + Name + "' = '" + text(VD->getInit()) + "': " +
            (Inner.empty()
                 ? "field '" + text(Field) + "' is assigned in the function"
                 : Inner);
      return std::nullopt;
    }
  }
  if (!T->isPointerType() && !T->isArrayType() &&
      !isContainerType(T) &&
      !(T->isReferenceType() && (T.getNonReferenceType()->isArrayType() ||
                                 isContainerType(T)))) {
    Why = "'" + Name + "' is not an array";
    return std::nullopt;
  }
  return View::start(
      baseOf(VD, Name, T, VD->getLocation(), /*Scratch=*/false, Why));
}

void NestBuilder::bindPointer(const VarDecl *VD, const View &V) {
  Binding B;
  B.Kind = Binding::Pointer;
  B.V = V;
  Bindings[VD] = B;
}

std::string NestBuilder::localObjectAlias(const ValueDecl *D, const std::string &Name) const {
  if (!isa_and_nonnull<FieldDecl>(D) || LocalObjects.empty())
    return "";
  auto Local = [&](const std::string &N) {
    return llvm::any_of(LocalObjects, [&](const std::string &P) { return StringRef(N).starts_with(P); });
  };
  for (const ArrayBase &B : Bases)
    if (B.Decl == D && B.Name != Name && (Local(B.Name) || Local(Name)))
      return B.Name;
  return "";
}

const MemberExpr *NestBuilder::assignedPointerField(const clang::Stmt *S) {
  if (!S)
    return nullptr;
  if (const auto *ME = dyn_cast<MemberExpr>(S))
    if (const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl());
        F && F->getType()->isPointerType())
      for (const FunctionFrame &Fr : Frames)
        if (Fr.Modified.Fields.count(F))
          return ME;
  for (const clang::Stmt *C : S->children())
    if (const MemberExpr *ME = assignedPointerField(C))
      return ME;
  return nullptr;
}

std::optional<NestBuilder::View> NestBuilder::viewOf(const Expr *E,
                                                     std::string &Why) {
  const Expr *S = strip(E);
  // BaseE[IdxE], or *BaseE when IdxE is null.
  auto Subscript = [&](const Expr *BaseE,
                       const Expr *IdxE) -> std::optional<View> {
    std::optional<View> V = viewOf(BaseE, Why);
    if (!V)
      return std::nullopt;
    std::optional<IndexPoly> Idx =
        IdxE ? indexOf(IdxE, Why) : IndexPoly::constant(0);
    std::string GatherWhy;
    if (!Idx && usesNestData(IdxE))
      Idx = pointGather(*V, IdxE); // LowerPointGathers.cpp
    if (!Idx && usesNestData(IdxE))
      Idx = rowGather(*V, IdxE, GatherWhy); // LowerRowGathers.cpp
    if (!Idx && IdxE)
      Idx = scratchGather(*V, IdxE);
    if (!Idx) {
      if (!GatherWhy.empty())
        Why = GatherWhy;
      else if (usesNestData(IdxE))
        Why = dataIndexReason("the index", IdxE, "of", Bases[V->Base].Name);
      return std::nullopt;
    }
    std::optional<IndexPoly> Sum = V->Subs.back().add(*Idx);
    if (!Sum) {
      Why = "index arithmetic overflows";
      return std::nullopt;
    }
    V->Subs.back() = *Sum;
    if (V->Subs.size() < Bases[V->Base].Extents.size())
      V->Subs.push_back(IndexPoly()); // a row: the start of the next dimension
    return V;
  };
  // A pointer set again before the nest (LowerReassignedPointers.cpp).
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
        VD && !Bindings.count(VD) && VD->getType()->isPointerType() && isModified(VD)) {
      if (std::optional<View> V = reassignedPointerView(VD, Why))
        return V;
      if (onlyAssigned(VD))
        return std::nullopt;
      Why.clear();
    }
  // A pointer the nest advances (`*w++`, `p[i]` after `p += M`).
  if (const VarDecl *Counter = pointerCounterOf(S))
    return pointerCounterView(Counter, S, Why);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      return viewOfDecl(VD, Why);
    Why = "'" + text(S) + "' is not an array";
    return std::nullopt;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(S)) {
    // A member of one struct of an array of structs.
    if (std::optional<View> V = structRowView(ME, Why))
      return V;
    if (!Why.empty())
      return std::nullopt;
    // A pointer field assigned first in a loop body of the nest.
    if (std::optional<View> V = boundFieldView(ME))
      return V;
    // A pointer field the function assigns before the nest (s->k).
    bool OwnArray = false;
    if (std::optional<View> V = assignedFieldView(ME, Why, OwnArray))
      return V;
    if (!Why.empty())
      return std::nullopt;
    std::optional<std::string> Path =
        memberPath(S, Why, OwnArray, /*FixedSuffices=*/true);
    if (!Path)
      return std::nullopt;
    const auto *F = cast<MemberExpr>(S)->getMemberDecl();
    return View::start(
        baseOf(F, *Path, F->getType(), S->getBeginLoc(), false, Why));
  }
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(S))
    return Subscript(ASE->getBase(), ASE->getIdx());
  // A class's accessor: the element or row it returns (LowerAccessors.cpp;
  // no accessor on a container, whose rules follow).
  if (const auto *CE = dyn_cast<CallExpr>(S))
    if (std::optional<View> V = accessorView(CE, Why); V || !Why.empty())
      return V;
  if (const auto *OCE = dyn_cast<CXXOperatorCallExpr>(S)) {
    // shared_ptr<T[]>'s operator[] is its base class's: the object is cast.
    if (OCE->getOperator() == OO_Subscript && OCE->getNumArgs() == 2 &&
        isContainerType(OCE->getArg(0)->IgnoreImpCasts()->getType()))
      return Subscript(OCE->getArg(0), OCE->getArg(1));
    Why = "call to '" + text(S) + "'";
    return std::nullopt;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
    if (UO->getOpcode() == UO_AddrOf)
      return viewOf(UO->getSubExpr(), Why);
    if (UO->getOpcode() == UO_Deref)
      return Subscript(UO->getSubExpr(), nullptr);
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(S);
      BO && BO->isAdditiveOp() && S->getType()->isPointerType())
    return pointerSumView(BO, Why);
  if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(S)) {
    const CXXMethodDecl *MD = MCE->getMethodDecl();
    const Expr *Obj = MCE->getImplicitObjectArgument();
    if (MD && isContainerType(Obj->IgnoreImpCasts()->getType())) {
      // v.data(), and p.get() of a smart pointer to an array.
      if ((MD->getName() == "data" || MD->getName() == "get") &&
          MCE->getNumArgs() == 0)
        return viewOf(Obj, Why);
      if (MD->getName() == "at" && MCE->getNumArgs() == 1)
        return Subscript(Obj, MCE->getArg(0));
    }
    Why = "call to '" + text(S) + "'";
    return std::nullopt;
  }
  if (const auto *CE = dyn_cast<CXXConstructExpr>(S)) {
    // A span (or a copy) made from an array or a pointer.
    if (CE->getNumArgs() >= 1 && isContainerType(CE->getType()))
      return viewOf(CE->getArg(0), Why);
    Why = "'" + text(S) + "' is not a named array";
    return std::nullopt;
  }
  if (const auto *Cast = dyn_cast<ExplicitCastExpr>(S)) {
    QualType To = Cast->getType(), From = Cast->getSubExpr()->getType();
    if (To->isPointerType() && From->isPointerType() &&
        Ctx.hasSameUnqualifiedType(To->getPointeeType(),
                                   From->getPointeeType()))
      return viewOf(Cast->getSubExpr(), Why);
    Why = "pointer cast '" + text(S) + "'";
    return std::nullopt;
  }
  if (isa<ConditionalOperator>(S))
    Why = "pointer chosen by a condition ('" + text(S) + "')";
  else if (isa<CallExpr>(S))
    Why = "pointer returned by a call ('" + text(S) + "')";
  else
    Why = "'" + text(S) + "' is not a named array";
  return std::nullopt;
}

std::optional<NestBuilder::View>
NestBuilder::pointerSumView(const BinaryOperator *BO, std::string &Why) {
  const Expr *P = nullptr, *Off = nullptr;
  splitPointerSum(BO, P, Off);
  std::optional<View> V = viewOf(P, Why);
  if (!V)
    return std::nullopt;
  std::optional<IndexPoly> Idx = indexOf(Off, Why);
  if (!Idx && usesNestData(Off)) {
    std::string GatherWhy;
    if (BO->getOpcode() == BO_Add)
      Idx = rowGather(*V, Off, GatherWhy); // LowerRowGathers.cpp
    if (!Idx)
      Why = !GatherWhy.empty() ? GatherWhy
                               : dataIndexReason("the offset", Off, "into",
                                                 Bases[V->Base].Name);
  }
  if (!Idx)
    return std::nullopt;
  std::optional<IndexPoly> Sum = BO->getOpcode() == BO_Add
                                     ? V->Subs.back().add(*Idx)
                                     : V->Subs.back().sub(*Idx);
  if (!Sum) {
    Why = "index arithmetic overflows";
    return std::nullopt;
  }
  V->Subs.back() = *Sum;
  return V;
}

bool NestBuilder::isElementRef(const Expr *E) const {
  E = strip(E);
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return ME->getType()->isArithmeticType() && isStructRowMember(ME);
  if (isa<ArraySubscriptExpr>(E))
    return true;
  if (const auto *OCE = dyn_cast<CXXOperatorCallExpr>(E);
      OCE && OCE->getOperator() == OO_Subscript)
    return true;
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return UO->getOpcode() == UO_Deref;
  if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(E)) {
    const CXXMethodDecl *MD = MCE->getMethodDecl();
    if (MD && MD->getName() == "at" &&
        isContainerType(MCE->getImplicitObjectArgument()->getType()))
      return true;
  }
  if (const auto *CE = dyn_cast<CallExpr>(E))
    return isElementAccessor(CE); // LowerAccessors.cpp
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl())) {
      auto B = Bindings.find(VD);
      return B != Bindings.end() && B->second.Kind == Binding::Element;
    }
  return false;
}

bool NestBuilder::recordAccess(View V, const Expr *E, IRStmt &St,
                               bool Read, bool Write) {
  ArrayBase &B = Bases[V.Base];
  if (V.Subs.size() != B.Extents.size())
    return fail(E ? E->getBeginLoc() : SourceLocation(),
                RejectKind::UnsupportedAccess,
                "'" + (E ? text(E) : B.Name) +
                    "' does not index every dimension of '" + B.Name + "'");
  if (E) {
    std::optional<Precision> P = precisionOf(E->getType());
    if (!P)
      return fail(E->getBeginLoc(), RejectKind::UnsupportedAccess,
                  "element type '" + E->getType().getAsString() + "' of '" +
                      B.Name + "' is not supported");
  }
  // The rows a branch on the data skips would be no row at all.
  if (!V.GatherLoop.empty() && ArmDepth != 0)
    return fail(E ? E->getBeginLoc() : SourceLocation(),
                RejectKind::DataDependentIndex,
                "gather: '" + (E ? text(E) : B.Name) + "' is in the row '" +
                    V.Gather + "' picks, under a data-dependent branch");
  B.Used = true;
  size_t Id = Pending.size();
  bool Touched = ArmDepth == 0 && !TouchedStack.empty();
  assert((V.Gather.empty() || PendingGather.empty()) && "two gathers");
  if (!V.Gather.empty())
    PendingGather = V.Gather;
  Pending.push_back({V.Base, Touched ? V.Subs : std::move(V.Subs), Innermost,
                     E ? E->getBeginLoc() : SourceLocation(),
                     std::exchange(PendingGather, std::string()),
                     V.GatherLoop});
  Access A;
  A.ArrayName = B.Name;
  A.IsRead = Read;
  A.IsWrite = Write;
  A.Text = "@" + std::to_string(Id); // settled in settleAccesses
  A.Loc = loc(E ? E->getBeginLoc() : Nest->getBeginLoc());
  if (E && Frames.size() == 1)
    Values.noteAccess(E, St.Accesses.size(), B.LocalStorage, B.Name);
  if (Touched)
    (DeferredTouches && Write && !Read ? *DeferredTouches
                                       : TouchedStack.back().Elements)
        .push_back({V.Base, std::move(V.Subs)});
  St.Accesses.push_back(std::move(A));
  return true;
}

bool NestBuilder::visitAccess(const Expr *E, IRStmt &St, bool Read,
                              bool Write) {
  std::string Why;
  PendingGather.clear();
  AllowPointGather = true;
  std::optional<View> V = viewOf(E, Why);
  AllowPointGather = false;
  if (!V)
    return fail(E->getBeginLoc(), accessFailKind(E),
                "access '" + text(E) + "': " + Why);
  return recordAccess(std::move(*V), E, St, Read, Write);
}

//===----------------------------------------------------------------------===//
// Arithmetic
//===----------------------------------------------------------------------===//

/// Whether a compiler computes \p E once, at compile time: literals,
/// constants, and arithmetic and math calls on them (`sqrtf(2.0f / M_PI)`).
bool NestBuilder::isFoldable(const Expr *E) const {
  E = strip(E);
  if (!E)
    return false;
  if (isa<IntegerLiteral>(E) || isa<FloatingLiteral>(E) ||
      isa<CharacterLiteral>(E) || isa<CXXBoolLiteralExpr>(E) ||
      isa<SubstNonTypeTemplateParmExpr>(E) || isa<UnaryExprOrTypeTraitExpr>(E))
    return true;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (isa<EnumConstantDecl>(DRE->getDecl()))
      return true;
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || isa<ParmVarDecl>(VD) || Bindings.count(VD))
      return false;
    if (VD->isConstexpr())
      return true;
    const Expr *Init = VD->getAnyInitializer();
    // A variable set once from constants is propagated like one.
    return Init && !isModified(VD) && !VD->getType()->isReferenceType() &&
           (VD->getType().isConstQualified() || VD->isLocalVarDecl()) &&
           Init != E && isFoldable(Init);
  }
  if (const auto *C = dyn_cast<CastExpr>(E))
    return isFoldable(C->getSubExpr());
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return !UO->isIncrementDecrementOp() && UO->getOpcode() != UO_AddrOf &&
           UO->getOpcode() != UO_Deref && isFoldable(UO->getSubExpr());
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return !BO->isAssignmentOp() && BO->getOpcode() != BO_Comma &&
           isFoldable(BO->getLHS()) && isFoldable(BO->getRHS());
  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return isFoldable(CO->getCond()) && isFoldable(CO->getTrueExpr()) &&
           isFoldable(CO->getFalseExpr());
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *Callee = CE->getDirectCallee();
    if (!Callee || isa<CXXMemberCallExpr>(CE) || isa<CXXOperatorCallExpr>(CE))
      return false;
    // INFINITY and NAN expand to these.
    StringRef Name = Callee->getName();
    if (Name.starts_with("__builtin_inf") || Name.starts_with("__builtin_nan") ||
        Name.starts_with("__builtin_huge_val"))
      return true;
    if (!(isScalarMathName(Name) || isFmaName(Name)))
      return false;
    for (const Expr *Arg : CE->arguments())
      if (!isFoldable(Arg))
        return false;
    return true;
  }
  return false;
}

void NestBuilder::countOp(QualType T, IRStmt &St, BinaryOperatorKind Op) {
  std::optional<Precision> P = precisionOf(T);
  if (!P)
    return;
  if (!isFloating(*P)) {
    ++St.IntOps;
    return;
  }
  OpCounts &C = St.Ops[*P];
  switch (Op) {
  case BO_Add: case BO_Sub: case BO_AddAssign: case BO_SubAssign:
    ++C.Adds; break;
  case BO_Mul: case BO_MulAssign:
    ++C.Muls; break;
  case BO_Div: case BO_DivAssign:
    ++C.Divs; break;
  default:
    break;
  }
}

bool NestBuilder::assignTarget(const Expr *L, IRStmt &St, bool Compound) {
  L = strip(L);
  if (isElementRef(L))
    return visitAccess(L, St, /*Read=*/Compound, /*Write=*/true);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(L)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (VD && Compound && pointerCounterOf(L) &&
        !counterInfo(VD).Why.empty())
      return fail(L->getBeginLoc(), RejectKind::PointerReassigned,
                  "pointer '" + declName(VD) +
                      "', which the nest advances: " + counterInfo(VD).Why);
    if (VD && (Bindings.count(VD) || VD->getType()->isPointerType()))
      return fail(L->getBeginLoc(), RejectKind::PointerReassigned,
                  "pointer or index variable '" + declName(VD) +
                      "' is reassigned inside the nest");
    return true;
  }
  return fail(L->getBeginLoc(), RejectKind::UnsupportedAccess,
              std::string(Compound ? "compound " : "") + "assignment to '" +
                  text(L) +
                  "' that is neither a scalar nor an "
                  "array element");
}

bool NestBuilder::countBinary(const BinaryOperator *BO, IRStmt &St) {
  BinaryOperatorKind Op = BO->getOpcode();
  if (Op == BO_Assign) {
    // The value is read before the target is written.
    std::vector<std::pair<unsigned, std::vector<IndexPoly>>> Target;
    {
      llvm::SaveAndRestore Defer(DeferredTouches, &Target);
      if (!assignTarget(BO->getLHS(), St, false))
        return false;
    }
    bool Ok = visitData(BO->getRHS(), St);
    if (!TouchedStack.empty())
      llvm::append_range(TouchedStack.back().Elements, Target);
    return Ok;
  }
  if (BO->isCompoundAssignmentOp()) {
    if (!assignTarget(BO->getLHS(), St, true))
      return false;
    const auto *CAO = cast<CompoundAssignOperator>(BO);
    const BinaryOperator *Mul = asMul(BO->getRHS());
    if ((Op == BO_AddAssign || Op == BO_SubAssign) && Mul &&
        !isFoldable(Mul))
      if (std::optional<Precision> P = macPrecision(Mul)) {
        ++St.Ops[*P].Macs;
        return visitData(Mul->getLHS(), St) && visitData(Mul->getRHS(), St);
      }
    countOp(CAO->getComputationResultType(), St, Op);
    return visitData(BO->getRHS(), St);
  }
  if (Op == BO_Comma)
    return visitData(BO->getLHS(), St) && visitData(BO->getRHS(), St);
  if (Op == BO_LAnd || Op == BO_LOr)
    return countShortCircuit(BO, St);
  // Integer arithmetic on loop variables and sizes is addressing; on any
  // value that reads no memory it is still no work on data.
  if (BO->getType()->isIntegerType() && !BO->isComparisonOp()) {
    std::string Why;
    if (indexOf(BO, Why) || !usesNestData(BO))
      return true;
  }
  if (Op == BO_Add || Op == BO_Sub) {
    // a*b + c: the multiply feeds the add, one MAC.
    for (int Side = 0; Side < 2; ++Side) {
      const Expr *Mine = Side ? BO->getRHS() : BO->getLHS();
      const Expr *Other = Side ? BO->getLHS() : BO->getRHS();
      const BinaryOperator *Mul = asMul(Mine);
      if (!Mul || isFoldable(Mul))
        continue;
      if (std::optional<Precision> P = macPrecision(Mul)) {
        ++St.Ops[*P].Macs;
        return visitData(Mul->getLHS(), St) && visitData(Mul->getRHS(), St) &&
               visitData(Other, St);
      }
    }
  }
  if (BO->isComparisonOp()) {
    // `0 < x` compares floats too: the literal is converted.
    std::optional<Precision> P = precisionOf(strip(BO->getLHS())->getType());
    if (!P || !isFloating(*P))
      P = precisionOf(strip(BO->getRHS())->getType());
    if (P && isFloating(*P))
      ++St.Ops[*P].Calls["cmp"];
  } else {
    countOp(BO->getType(), St, Op);
  }
  return visitData(BO->getLHS(), St) && visitData(BO->getRHS(), St);
}

bool NestBuilder::countShortCircuit(const BinaryOperator *BO, IRStmt &St) {
  // `a && b` is `a ? b : false`, `a || b` is `a ? true : b`: a choice on
  // the data. The first operand runs always, the second's work is a range
  // [0, its work], and what it reads must have been read before (the rules
  // of data-dependent branches: mergeArms; docs/design.md, "Conditions").
  if (!visitCondition(BO->getLHS(), St))
    return false;
  std::vector<IRStmt> Arms(2);
  {
    llvm::SaveAndRestore InArm(ArmDepth, ArmDepth + 1);
    if (!visitCondition(BO->getRHS(), Arms[0]))
      return false;
  }
  return mergeArms(Arms, St, BO->getOperatorLoc());
}

bool NestBuilder::countCall(const CallExpr *CE, IRStmt &St) {
  // A call no counting rule covers: its body inlined where it can be, else
  // refused (with \p Default where inlinableCallee gives no reason).
  auto InlineOrFail = [&](const std::string &Default) {
    std::string Why;
    if (inlinableCallee(CE, Why))
      return inlineCall(CE, nullptr, &St);
    return fail(CE->getBeginLoc(), RejectKind::UnknownCall,
                Why.empty() ? Default : Why);
  };
  const FunctionDecl *Callee = CE->getDirectCallee();
  if (!Callee)
    return InlineOrFail("indirect call '" + text(CE) +
                        "' with unknown side effects");
  StringRef Name = Callee->getName();
  std::optional<Precision> P = precisionOf(CE->getType());
  if (isFmaName(Name) && CE->getNumArgs() == 3) {
    if (P)
      ++St.Ops[*P].Macs;
  } else if (isFloatClassName(Name) && CE->getNumArgs() == 1) {
    // isnan(x) is x != x: one compare in x's type, however the library
    // spells it (docs/design.md, "Counting rules").
    std::optional<Precision> ArgP = precisionOf(strip(CE->getArg(0))->getType());
    if (ArgP && isFloating(*ArgP))
      ++St.Ops[*ArgP].Calls["cmp"];
  } else if (std::optional<std::string> Math = mathFunctionName(Name)) {
    if (P && isFloating(*P))
      ++St.Ops[*P].Calls[*Math];
    else
      ++St.IntOps;
  } else {
    return InlineOrFail("call to '" + declName(Callee) +
                        "' with unknown side effects");
  }
  for (const Expr *Arg : CE->arguments())
    if (!visitData(Arg, St))
      return false;
  return true;
}

bool NestBuilder::visitConditional(const ConditionalOperator *CO,
                                   IRStmt &St) {
  const Expr *Cond = CO->getCond();
  CondKind K = classify(Cond);
  if (K == CondKind::Invariant)
    return visitData(invariantValue(Cond) ? CO->getTrueExpr()
                                          : CO->getFalseExpr(),
                     St);
  // A select between plain values is one operation on the condition.
  auto Plain = [&](const Expr *A) {
    A = strip(A);
    return isFoldable(A) ||
           (isa<DeclRefExpr>(A) && !isElementRef(A));
  };
  bool BothPlain = Plain(CO->getTrueExpr()) && Plain(CO->getFalseExpr());
  if (K == CondKind::Affine && !BothPlain && ArmDepth == 0 && StmtParent &&
      !usesNestData(Cond) &&
      affineSidesFit(Cond, CO->getTrueExpr(), CO->getFalseExpr()))
    return lowerAffineSides(Cond, CO, [&](int Side, IRStmt &W) {
      return visitData(Side == 0 ? CO->getTrueExpr() : CO->getFalseExpr(), W);
    });
  if (!visitCondition(Cond, St))
    return false;
  if (BothPlain)
    return true;
  std::vector<IRStmt> Arms(2);
  {
    llvm::SaveAndRestore InArm(ArmDepth, ArmDepth + 1);
    if (!visitData(CO->getTrueExpr(), Arms[0]) ||
        !visitData(CO->getFalseExpr(), Arms[1]))
      return false;
  }
  if (!mergeArms(Arms, St, CO->getBeginLoc()))
    return explainGuardLocal(Cond);
  return true;
}

bool NestBuilder::affineSidesFit(const Expr *Cond, const Expr *True,
                                 const Expr *False) {
  const Expr *Sides[2] = {True, False};
  for (int Side = 0; Side < 2; ++Side) {
    if (Sides[Side] && isFoldable(strip(Sides[Side])))
      continue;
    std::string Why;
    if (!constraintsOf(Cond, /*Negate=*/Side == 1, Why))
      return false;
  }
  return true;
}

bool NestBuilder::lowerAffineSides(
    const Expr *Cond, const clang::Stmt *Where,
    llvm::function_ref<bool(int, IRStmt &)> LowerSide) {
  // The value is the statement's either way: its uses count there; each
  // side's own work runs where its side of Cond holds, before the statement
  // (docs/design.md, "Calls").
  Loop Sides[2];
  IRStmt Work[2];
  for (int Side = 0; Side < 2; ++Side) {
    Work[Side].Loc = loc(Where->getBeginLoc());
    llvm::SaveAndRestore Into(StmtParent, &Sides[Side]);
    if (!LowerSide(Side, Work[Side]))
      return false;
  }
  Loop *Parent = StmtParent;
  for (int Side = 0; Side < 2; ++Side) {
    IRStmt &W = Work[Side];
    bool Empty = W.Accesses.empty() && W.Ops.empty() && W.MaybeOps.empty() &&
                 !W.IntOps && !W.MaybeIntOps;
    if (Empty && Sides[Side].Body.empty())
      continue;
    if (llvm::any_of(W.Accesses, [](const Access &A) { return A.IsWrite; }) ||
        writesMemory(Sides[Side], 0))
      return fail(Where->getBeginLoc(), RejectKind::Condition,
                  "a side of the condition '" + text(Cond) +
                      "' on loop variables writes memory inside an "
                      "expression");
    std::string Why;
    std::optional<std::vector<Constraint>> Cs =
        constraintsOf(Cond, /*Negate=*/Side == 1, Why);
    if (!Cs)
      return fail(Cond->getBeginLoc(), RejectKind::Condition,
                  "condition '" + text(Cond) + "' chooses a value: " + Why);
    Loop G;
    if (!guardBounds(*Cs, Where, /*Pin=*/true, G))
      return false;
    G.Body = std::move(Sides[Side].Body);
    if (!Empty)
      G.Body.push_back(Node::stmt(std::move(W)));
    Parent->Body.push_back(Node::loop(std::move(G)));
  }
  return true;
}

void NestBuilder::countTruthTest(const Expr *Cond, IRStmt &St) {
  // `if (x)`, `x ? a : b` and `!x` on a float compare it with zero, as
  // `x != 0` does (docs/design.md, "Counting").
  if (std::optional<Precision> P = precisionOf(strip(Cond)->getType());
      P && isFloating(*P))
    ++St.Ops[*P].Calls["cmp"];
}

bool NestBuilder::visitCondition(const Expr *Cond, IRStmt &St) {
  countTruthTest(Cond, St);
  return visitData(Cond, St);
}

bool NestBuilder::visitData(const Expr *E, IRStmt &St) {
  const Expr *S = strip(E);
  if (!S || isFoldable(S) || isCounterStep(S))
    return true;
  bool Asserted = false;
  if (!lowerAssertion(S, St, Asserted))
    return false;
  if (Asserted)
    return true;
  if (isElementRef(S))
    return visitAccess(S, St, /*Read=*/true, /*Write=*/false);
  if (const auto *BO = dyn_cast<BinaryOperator>(S))
    return countBinary(BO, St);
  if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
    if (UO->isIncrementDecrementOp()) {
      const Expr *Sub = strip(UO->getSubExpr());
      countOp(Sub->getType(), St, BO_Add);
      return assignTarget(Sub, St, /*Compound=*/true);
    }
    if (UO->getOpcode() == UO_AddrOf)
      return fail(UO->getBeginLoc(), RejectKind::UnsupportedAccess,
                  "address taken inside the nest");
    if (UO->getOpcode() == UO_LNot)
      return visitCondition(UO->getSubExpr(), St);
    return visitData(UO->getSubExpr(), St);
  }
  if (const auto *CE = dyn_cast<CallExpr>(S)) {
    if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(CE)) {
      std::string Why;
      if (sizeOf(MCE, Why))
        return true; // v.size() is a size
      // A getter's value is an index of sizes and loop variables: no work.
      if (indexHelperOf(MCE) && indexOf(MCE, Why))
        return true;
    }
    if ((isa<CXXOperatorCallExpr>(CE) && !lambdaClassOf(CE)) ||
        isa<CXXMemberCallExpr>(CE))
      return fail(CE->getBeginLoc(), RejectKind::UnknownCall,
                  "call to '" + text(CE) + "' with unknown side effects");
    return countCall(CE, St);
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(S))
    return visitConditional(CO, St);
  if (isa<DeclRefExpr>(S) || isa<IntegerLiteral>(S) ||
      isa<FloatingLiteral>(S) || isa<CXXBoolLiteralExpr>(S) ||
      isa<CharacterLiteral>(S) || isa<ImplicitValueInitExpr>(S) ||
      isa<CXXNullPtrLiteralExpr>(S) || isa<GNUNullExpr>(S))
    return true;
  if (const auto *Cast = dyn_cast<ExplicitCastExpr>(S))
    return visitData(Cast->getSubExpr(), St);
  if (const auto *CE = dyn_cast<CXXConstructExpr>(S)) {
    for (const Expr *Arg : CE->arguments())
      if (!visitData(Arg, St))
        return false;
    return true;
  }
  if (const auto *IL = dyn_cast<InitListExpr>(S)) {
    for (const Expr *Init : IL->inits())
      if (!visitData(Init, St))
        return false;
    return true;
  }
  if (const auto *DA = dyn_cast<CXXDefaultArgExpr>(S))
    return visitData(DA->getExpr(), St);
  if (isa<MemberExpr>(S)) {
    std::string Why;
    if (S->getType()->isIntegerType() && sizeOf(S, Why))
      return true; // a size used as a value
    // A scalar field the function never assigns is an input, like a
    // scalar parameter (cfg->eps).
    if (Why.empty() && S->getType()->isArithmeticType() &&
        memberPath(S, Why, /*AnyField=*/false, /*FixedSuffices=*/true))
      return true;
    return fail(S->getBeginLoc(), RejectKind::UnsupportedAccess,
                "member access '" + text(S) + "' is not supported yet" +
                    (Why.empty() ? "" : ": " + Why));
  }
  if (isa<LambdaExpr>(S))
    return fail(S->getBeginLoc(), RejectKind::UnsupportedStatement,
                "lambda inside the nest");
  return fail(S->getBeginLoc(), RejectKind::UnsupportedStatement,
              "unsupported expression '" + text(S) + "'");
}
