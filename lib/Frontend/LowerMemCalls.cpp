//===- LowerMemCalls.cpp - memset, memcpy, std::fill, std::copy -----------===//
//
// A call that sets or copies a run of elements is the loop it stands for,
// with no arithmetic (docs/design.md, "Counting rules"):
//   memset(p, c, n * sizeof *p)          writes p[0..n)
//   memcpy(d, s, n * sizeof *d), memmove  reads s[0..n), writes d[0..n)
//   std::fill(p, p + n, v), std::fill_n(p, n, v)
//   std::copy(s, s + n, d), std::copy_n(s, n, d)
// The element type is the pointer's; memset's and memcpy's element count is
// the size argument divided by the element size, exactly (a size that is
// not a multiple of it, or not affine, is refused).
//
//===----------------------------------------------------------------------===//

#include "NestBuilder.h"

#include "llvm/Support/SaveAndRestore.h"

using namespace clang;
using namespace roofline;
using namespace roofline::frontend;
using IRStmt = roofline::Stmt;

namespace {

enum class MemKind { None, Set, Copy, Fill, FillN, CopyRange, CopyN };

MemKind memKindOf(const CallExpr *CE, const SourceManager &SM) {
  const FunctionDecl *Callee = CE->getDirectCallee();
  if (!Callee || !Callee->getIdentifier() || isa<CXXMemberCallExpr>(CE) ||
      isa<CXXOperatorCallExpr>(CE))
    return MemKind::None;
  StringRef Name = Callee->getName();
  if (Callee->isInStdNamespace() && Callee->getPrimaryTemplate()) {
    if (Name == "fill" && CE->getNumArgs() == 3)
      return MemKind::Fill;
    if (Name == "fill_n" && CE->getNumArgs() == 3)
      return MemKind::FillN;
    if (Name == "copy" && CE->getNumArgs() == 3)
      return MemKind::CopyRange;
    if (Name == "copy_n" && CE->getNumArgs() == 3)
      return MemKind::CopyN;
    return MemKind::None;
  }
  // The C library's (a system header's, inline bodies of _FORTIFY_SOURCE
  // included), or the builtins they expand to; a function of the file with
  // that name is not one.
  if (Callee->hasBody() && !SM.isInSystemHeader(Callee->getLocation()))
    return MemKind::None;
  Name = withoutBuiltinPrefix(Name);
  Name.consume_front("__");
  Name.consume_back("_chk");
  if (Name == "memset" && CE->getNumArgs() >= 3)
    return MemKind::Set;
  if ((Name == "memcpy" || Name == "memmove") && CE->getNumArgs() >= 3)
    return MemKind::Copy;
  return MemKind::None;
}

/// The element type a pointer argument points to (an array argument's
/// element type), or a null type.
QualType elementTypeOf(const ASTContext &Ctx, const Expr *Arg) {
  QualType T = strip(Arg)->getType();
  if (T->isPointerType())
    return T->getPointeeType();
  if (const ArrayType *AT = Ctx.getAsArrayType(T))
    return AT->getElementType();
  return QualType();
}

} // namespace

std::optional<IndexPoly> NestBuilder::elementCount(const Expr *Bytes,
                                                   int64_t ElemBytes,
                                                   std::string &Why) {
  std::optional<IndexPoly> Size = indexOf(Bytes, Why);
  if (!Size) {
    if (usesNestData(Bytes))
      Why = "the size '" + text(Bytes) + "' depends on data";
    return std::nullopt;
  }
  // Size / ElemBytes, term by term: every coefficient must divide.
  IndexPoly Count;
  for (const auto &[M, Coef] : Size->parts()) {
    bool Divides = Coef.constant() % ElemBytes == 0;
    AffineExpr Q(Coef.constant() / ElemBytes);
    std::vector<std::string> IVsOfCoef;
    for (const auto &[Name, C] : Coef.terms()) {
      Divides &= C % ElemBytes == 0;
      Q = *Q.add(AffineExpr::var(Name, C / ElemBytes));
      IVsOfCoef.push_back(Name);
    }
    if (!Divides) {
      Why = "the size '" + text(Bytes) + "' is not a multiple of the " +
            "element size (" + std::to_string(ElemBytes) + " bytes)";
      return std::nullopt;
    }
    std::optional<IndexPoly> Term = IndexPoly::fromAffine(Q, IVsOfCoef);
    bool LoopVarProduct = false;
    for (const std::string &F : M)
      Term = Term ? Term->mul(IndexPoly::size(F), LoopVarProduct)
                  : std::nullopt;
    std::optional<IndexPoly> Sum = Term ? Count.add(*Term) : std::nullopt;
    if (!Sum) {
      Why = "the size '" + text(Bytes) + "' overflows";
      return std::nullopt;
    }
    Count = *Sum;
  }
  return Count;
}

std::optional<bool> NestBuilder::lowerMemCall(const CallExpr *CE,
                                              Loop &Parent) {
  MemKind K = memKindOf(CE, SM);
  if (K == MemKind::None)
    return std::nullopt;
  std::string Callee = declName(CE->getDirectCallee());
  auto Refuse = [&](const Twine &Why) {
    return fail(CE->getBeginLoc(), RejectKind::MemoryCall,
                "call to '" + Callee + "': " + Why);
  };
  bool IsCopy =
      K == MemKind::Copy || K == MemKind::CopyRange || K == MemKind::CopyN;
  // Destination, source, and how the count is given.
  const Expr *Dst = nullptr, *Src = nullptr;
  switch (K) {
  case MemKind::Set: case MemKind::Fill: case MemKind::FillN:
    Dst = CE->getArg(0);
    break;
  case MemKind::Copy:
    Dst = CE->getArg(0);
    Src = CE->getArg(1);
    break;
  case MemKind::CopyRange: case MemKind::CopyN:
    Src = CE->getArg(0);
    Dst = CE->getArg(2);
    break;
  case MemKind::None:
    break;
  }
  QualType Elem = elementTypeOf(Ctx, Dst);
  if (Elem.isNull() || !precisionOf(Elem))
    return Refuse("element type '" +
                  (Elem.isNull() ? strip(Dst)->getType() : Elem)
                      .getAsString() +
                  "' of '" + text(Dst) + "' is not supported");
  if (Src) {
    QualType SrcElem = elementTypeOf(Ctx, Src);
    if (SrcElem.isNull() || !Ctx.hasSameUnqualifiedType(Elem, SrcElem))
      return Refuse("it copies between different element types");
  }
  // The value set is computed once, before the run: a constant or a
  // scalar, never an element (whose load would go uncounted).
  if (K == MemKind::Set || K == MemKind::Fill || K == MemKind::FillN) {
    const Expr *Value = strip(CE->getArg(K == MemKind::Set ? 1 : 2));
    const auto *DRE = dyn_cast<DeclRefExpr>(Value);
    if (!isFoldable(Value) &&
        !(DRE && isa<VarDecl>(DRE->getDecl()) && !isElementRef(Value) &&
          DRE->getType()->isArithmeticType()))
      return Refuse("the value '" + text(Value) +
                    "' is computed from data: only a constant or a scalar "
                    "variable is counted");
  }
  std::string Why;
  std::optional<IndexPoly> Count;
  if (K == MemKind::Set || K == MemKind::Copy) {
    int64_t Bytes = Ctx.getTypeSizeInChars(Elem).getQuantity();
    Count = elementCount(CE->getArg(2), Bytes, Why);
  } else if (K == MemKind::FillN || K == MemKind::CopyN) {
    Count = indexOf(CE->getArg(1), Why);
  } else {
    // [first, last) of one array: last - first.
    std::optional<View> First = viewOf(CE->getArg(0), Why);
    std::optional<View> Last =
        First ? viewOf(CE->getArg(1), Why) : std::nullopt;
    if (First && Last &&
        (First->Base != Last->Base ||
         First->Subs.size() != Last->Subs.size() ||
         !std::equal(First->Subs.begin(), First->Subs.end() - 1,
                     Last->Subs.begin())))
      Why = "'" + text(CE->getArg(0)) + "' and '" + text(CE->getArg(1)) +
            "' are not one row of one array";
    else if (First && Last)
      Count = Last->Subs.back().sub(First->Subs.back());
  }
  if (!Count)
    return Refuse("its element count: " +
                  (Why.empty() ? std::string("not an affine expression")
                               : Why));
  AffineExpr N;
  {
    llvm::SaveAndRestore Guard(InBound, true);
    if (!toAffine(*Count, CE, N))
      return false;
  }
  std::optional<View> D = viewOf(Dst, Why);
  if (!D)
    return Refuse("destination '" + text(Dst) + "': " + Why);
  std::optional<View> S;
  if (Src && !(S = viewOf(Src, Why)))
    return Refuse("source '" + text(Src) + "': " + Why);

  Loop L;
  L.IV = freshIV(IsCopy ? "i_copy" : "i_set");
  L.First = Bound::single(AffineExpr(0));
  L.Last = Bound::single(*N.addConstant(-1));
  L.Step = 1;
  L.Loc = loc(CE->getBeginLoc());
  noteExtended(CE->getBeginLoc(), "call to '" + Callee + "'");
  enterLoop(L, nullptr, CE);
  IRStmt St;
  St.Loc = L.Loc;
  auto Record = [&](View V, bool Read) {
    V.Subs.back() = *V.Subs.back().add(IndexPoly::loopVar(L.IV));
    if (!recordAccess(V, nullptr, St, Read, !Read))
      return false;
    St.Accesses.back().Loc = L.Loc;
    Pending.back().Loc = CE->getBeginLoc();
    return true;
  };
  bool Ok = (!S || Record(*S, /*Read=*/true)) && Record(*D, /*Read=*/false);
  leaveLoop();
  if (!Ok)
    return false;
  L.Body.push_back(Node::stmt(std::move(St)));
  Parent.Body.push_back(Node::loop(std::move(L)));
  std::string Note = "'" + Callee + "' counted as a loop over " +
                     N.str() + " elements of " + text(Dst);
  addNote(std::move(Note));
  return true;
}
