//===- LowerStructRows.cpp - Members of one struct of an array of structs -===//
//
// NN code keeps per-layer tensors in arrays of structs: llama2.c's runq
// passes `w->wq + l` (a QuantizedTensor {int8_t *q; float *s;} per layer) to
// matmul, which reads `w->q[i*n + j]`; a MNIST trainer passes
// `&dataset->images[i]` (a struct {uint8_t pixels[784];} per image). Each
// such member is one array over all the structs, its first subscript the
// struct's (docs/design.md, "Arrays of structs"):
//
//   (w->wq + l)->q[k]        w->wq[].q[l][k]      a pointer member: rows of
//                                                 pointers, [?][?]
//   images[i].pixels[j]      images[].pixels[i][j] the only member: [?][784]
//   rows[i].x[j], rows[i].y  rows[].x[i][off + j] with other members: rows
//                                                 of the struct's size, the
//                                                 member at its offset
//
//   rows[i].id               rows[].id[i][off]    a number member: the same
//
// The struct's subscript must be an index like any other; a struct picked
// by data is a gather and refused. A number member of one struct passed to
// a callee is a value per struct, no size.
//
//===----------------------------------------------------------------------===//

#include "NestBuilder.h"

#include "clang/AST/RecordLayout.h"

using namespace clang;
using namespace roofline;
using namespace roofline::frontend;

namespace {

/// The struct type \p T points to or holds as elements (not a container,
/// not a union).
const RecordDecl *structElement(QualType T) {
  T = T.getNonReferenceType().getCanonicalType();
  QualType Elem;
  if (const auto *PT = T->getAs<PointerType>())
    Elem = PT->getPointeeType();
  else if (const auto *AT = dyn_cast<ArrayType>(T.getTypePtr()))
    Elem = AT->getElementType();
  else
    return nullptr;
  const RecordDecl *RD = Elem->getAsRecordDecl();
  return RD && !RD->isUnion() && !isContainerType(Elem) ? RD : nullptr;
}

/// The array of structs and the subscript \p E names one struct of:
/// `P + off`, `&P[off]` (pointers to it) or `P[off]` (the struct).
bool splitStructElement(const Expr *E, const Expr *&Array, const Expr *&Index) {
  E = strip(E);
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_AddrOf)
    E = strip(UO->getSubExpr());
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
    Array = ASE->getBase();
    Index = ASE->getIdx();
    return structElement(Array->getType()) != nullptr;
  }
  const auto *BO = dyn_cast<BinaryOperator>(E);
  if (!BO || BO->getOpcode() != BO_Add || !E->getType()->isPointerType())
    return false;
  splitPointerSum(BO, Array, Index);
  return structElement(Array->getType()) != nullptr;
}

} // namespace

bool NestBuilder::structRowOf(const Expr *E, StructRow &Out, std::string &Why) {
  const Expr *ArrayE = nullptr, *IndexE = nullptr;
  if (!splitStructElement(E, ArrayE, IndexE))
    return false;
  const Expr *A = strip(ArrayE);
  std::optional<std::string> Name;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(A)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (VD && !(VD->getType()->isPointerType() && isModified(VD)))
      Name = declName(VD);
  } else if (isa<MemberExpr>(A)) {
    Name = memberPath(A, Why, /*AnyField=*/false, /*FixedSuffices=*/false);
  }
  if (!Name) {
    if (Why.empty())
      Why = "'" + text(A) + "' is not a named array of structs";
    return false;
  }
  std::optional<IndexPoly> Row = indexOf(IndexE, Why);
  if (!Row) {
    if (usesNestData(IndexE))
      Why = dataIndexReason("the index", IndexE, "of", *Name);
    return false;
  }
  Out.Array = *Name;
  Out.Row = *Row;
  Out.Record = structElement(ArrayE->getType());
  return true;
}

const NestBuilder::StructRow *NestBuilder::boundStructRow(const MemberExpr *ME) const {
  const auto *DRE = dyn_cast<DeclRefExpr>(strip(ME->getBase()));
  if (!DRE)
    return nullptr;
  auto B = Bindings.find(dyn_cast<VarDecl>(DRE->getDecl()));
  return B != Bindings.end() && B->second.Row ? &*B->second.Row : nullptr;
}

bool NestBuilder::isStructRowMember(const MemberExpr *ME) const {
  const Expr *Base = strip(ME->getBase());
  if (isa<DeclRefExpr>(Base))
    return boundStructRow(ME) != nullptr;
  const Expr *Array = nullptr, *Index = nullptr;
  bool Element = ME->isArrow() ? isa<BinaryOperator, UnaryOperator>(Base)
                               : isa<ArraySubscriptExpr>(Base);
  return Element && splitStructElement(Base, Array, Index);
}

std::optional<NestBuilder::View>
NestBuilder::structRowView(const MemberExpr *ME, std::string &Why) {
  const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl());
  if (!F)
    return std::nullopt;
  if (const StructRow *Bound = boundStructRow(ME))
    return memberRows(*Bound, F, Why);
  // `P[i].f` or `(P + i)->f`: the base is the struct itself or points to it.
  StructRow Row;
  if (!isStructRowMember(ME) || !structRowOf(strip(ME->getBase()), Row, Why))
    return std::nullopt;
  return memberRows(Row, F, Why);
}

std::optional<NestBuilder::View>
NestBuilder::memberRows(const StructRow &Row, const FieldDecl *F,
                        std::string &Why) {
  std::string Name = Row.Array + "[]." + declName(F);
  auto Existing = BaseIndex.find(Name);
  if (Existing == BaseIndex.end()) {
    std::optional<ArrayBase> B = memberBase(Row, F, Name, Why);
    if (!B)
      return std::nullopt;
    Existing = BaseIndex.try_emplace(Name, Bases.size()).first;
    Bases.push_back(std::move(*B));
  }
  View V;
  V.Base = Existing->second;
  V.Subs = {Row.Row, IndexPoly::constant(Bases[V.Base].MemberOffset)};
  return V;
}

std::optional<NestBuilder::ArrayBase>
NestBuilder::memberBase(const StructRow &Row, const FieldDecl *F,
                        const std::string &Name, std::string &Why) {
  QualType T = F->getType().getCanonicalType();
  ArrayBase B;
  B.Name = Name;
  B.Decl = F;
  B.Type = F->getType();
  B.IsPointer = true;
  B.Extents.push_back(std::nullopt); // the structs: however many there are
  std::vector<std::optional<AffineExpr>> Member;
  bool MemberPointer = false, Deeper = false;
  QualType Elem = shapeOf(T, Member, MemberPointer, Deeper);
  std::optional<Precision> P = precisionOf(Elem);
  if (!P || Deeper || isContainerType(T)) {
    Why = "member '" + declName(F) + "' of the structs of '" + Row.Array +
          "' is not a number or an array of numbers";
    return std::nullopt;
  }
  B.Elem = *P;
  B.RowPointers = MemberPointer;
  const ASTRecordLayout &Layout = Ctx.getASTRecordLayout(Row.Record);
  int64_t RecordBytes = Layout.getSize().getQuantity();
  int64_t ElemBytes = Ctx.getTypeSizeInChars(Elem).getQuantity();
  int64_t Offset = int64_t(Layout.getFieldOffset(F->getFieldIndex())) / 8;
  bool Only = std::distance(Row.Record->field_begin(), Row.Record->field_end()) == 1 &&
              !MemberPointer && !Member.empty() && Offset == 0 &&
              Ctx.getTypeSizeInChars(T).getQuantity() == RecordBytes;
  if (MemberPointer || Only) {
    // Each struct's own row of pointers, or rows exactly the member's.
    B.Extents.insert(B.Extents.end(), Member.begin(), Member.end());
  } else if (Member.size() <= 1 && ElemBytes > 0 &&
             RecordBytes % ElemBytes == 0 && Offset % ElemBytes == 0) {
    // Rows of the struct's size, the member at its offset in each.
    B.Extents.push_back(AffineExpr(RecordBytes / ElemBytes));
    B.MemberOffset = Offset / ElemBytes;
  } else {
    Why = "member '" + declName(F) + "' of the structs of '" + Row.Array +
          "': its rows are not whole elements of the struct's size";
    return std::nullopt;
  }
  return B;
}
