//===- LowerPointGathers.cpp - One element of each row, by a loaded index -===//
//
// A cross-entropy loss reads one probability per position, the target's:
//   const float *probs_bt = probs + b*T*Vp + t*Vp;
//   int ix = targets[b*T + t];
//   losses[b*T + t] = -logf(probs_bt[ix]);
// The column is data, but each row is read at one element only, so the
// elements read are as many as the rows, whatever the targets are. The
// access is counted as the row's element 0 with the index named
// (Access::GatherIndex), when (docs/design.md, "Point gathers"):
//   - the index is an integer local loaded from memory, declared in the
//     body of the loop that reads it (so it is one value per execution of
//     the access), never written again, outside any data-dependent branch;
//   - it is the whole subscript that completes the element: the last
//     dimension of a declared array (`p[b][ix]`, rows of its extent), or
//     added to a row start whose loop terms are all multiples of one
//     stride R (`probs + b*T*Vp + t*Vp`: R = Vp), with 0 <= ix < R stated
//     as the assumption the count rests on;
// and, checked by the analysis once the counts are known (Counts.cpp), the
// access is its array's only one and the rows it starts from are distinct
// on every execution (distinct elements == executions): then each
// execution reads its own row's element, exactly one. Anything else (a
// gathered row `wte + ix*C`, an index read in a loop inside its body, a
// second access of the array) stays refused as a gather.
//
//===----------------------------------------------------------------------===//

#include "NestBuilder.h"

#include <numeric>

using namespace clang;
using namespace roofline;
using namespace roofline::frontend;

namespace {

/// The sizes \p A and \p B have in common (both sorted, repeats allowed).
SizeMonomial commonSizes(const SizeMonomial &A, const SizeMonomial &B) {
  SizeMonomial Out;
  std::set_intersection(A.begin(), A.end(), B.begin(), B.end(),
                        std::back_inserter(Out));
  return Out;
}

/// The stride every loop term of the flat row start \p Row is a multiple
/// of, as text ("Vp", "2*C"); empty when there is none but 1 or no loop
/// term at all (the rows would overlap, or not move).
std::string rowStride(const IndexPoly &Row) {
  std::optional<SizeMonomial> Common;
  int64_t G = 0;
  for (const auto &[M, Coef] : Row.parts()) {
    if (Coef.terms().empty())
      continue;
    Common = Common ? commonSizes(*Common, M) : M;
    for (const auto &Term : Coef.terms())
      G = std::gcd(G, Term.second < 0 ? -Term.second : Term.second);
  }
  if (!Common || (Common->empty() && G < 2))
    return "";
  if (Common->empty())
    return std::to_string(G);
  return G == 1 ? monomialName(*Common)
                : std::to_string(G) + "*" + monomialName(*Common);
}

/// Whether \p E is integer arithmetic on scalar variables and constants
/// only: no load, no call, no side effect to count.
bool scalarArithmetic(const Expr *E) {
  E = E->IgnoreParenCasts();
  if (isa<IntegerLiteral, CharacterLiteral>(E))
    return true;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    return VD && VD->getType()->isIntegerType();
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return (UO->getOpcode() == UO_Minus || UO->getOpcode() == UO_Plus) &&
           scalarArithmetic(UO->getSubExpr());
  const auto *BO = dyn_cast<BinaryOperator>(E);
  return BO && (BO->isMultiplicativeOp() || BO->isAdditiveOp()) &&
         scalarArithmetic(BO->getLHS()) && scalarArithmetic(BO->getRHS());
}

} // namespace

void NestBuilder::noteGatherLocal(const VarDecl *VD, const Expr *Init) {
  if (Frames.size() == 1 && ArmDepth == 0 && Init &&
      VD->getType()->isIntegerType() && !isModified(VD) && usesNestData(Init))
    GatherLocals[VD] = Innermost;
}

const VarDecl *NestBuilder::gatherLocal(const Expr *E) const {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  auto It = VD ? GatherLocals.find(VD) : GatherLocals.end();
  if (It == GatherLocals.end() || It->second != Innermost || isModified(VD))
    return nullptr;
  return VD;
}

std::optional<IndexPoly> NestBuilder::pointGather(const View &V,
                                                  const Expr *IdxE) {
  if (!AllowPointGather || ArmDepth != 0 || Frames.size() != 1 ||
      !V.Gather.empty())
    return std::nullopt;
  // `ix`, or an index plus it (`n*C + ix`, `ix + n*C`).
  const VarDecl *VD = gatherLocal(IdxE);
  std::optional<IndexPoly> Rest = IndexPoly::constant(0);
  const auto *BO = dyn_cast<BinaryOperator>(IdxE->IgnoreParenImpCasts());
  if (!VD && BO && BO->getOpcode() == BO_Add) {
    std::string Ignored;
    for (int Side = 0; Side < 2 && !VD; ++Side)
      if ((VD = gatherLocal(Side ? BO->getRHS() : BO->getLHS())))
        Rest = indexOf(Side ? BO->getLHS() : BO->getRHS(), Ignored);
  }
  if (!VD || !Rest)
    return std::nullopt;
  const ArrayBase &B = Bases[V.Base];
  if (V.Subs.size() != B.Extents.size())
    return std::nullopt; // a gathered row, not one element of it
  std::optional<IndexPoly> Row = V.Subs.back().add(*Rest);
  if (!Row)
    return std::nullopt;
  std::string Stride;
  if (B.Extents.size() > 1) {
    if (!Row->isZero() || !B.Extents.back())
      return std::nullopt;
    Stride = B.Extents.back()->str();
  } else {
    Stride = rowStride(*Row);
    if (Stride.empty())
      return std::nullopt;
  }
  std::string Name = declName(VD);
  PendingGather = Name;
  std::string Note = "'" + B.Name + "' is accessed at one element of each "
                     "row, picked by '" + Name + "' (loaded from memory): "
                     "counted as one element a row, assuming 0 <= " + Name +
                     " < " + Stride;
  addNote(std::move(Note));
  noteExtended(IdxE->getBeginLoc(),
               "an element picked by an index loaded from memory");
  return Rest;
}

std::optional<IndexPoly> NestBuilder::scratchGather(const View &V,
                                                    const Expr *IdxE) {
  const ArrayBase &B = Bases[V.Base];
  if (!AllowPointGather || !B.Scratch || V.Subs.size() != B.Extents.size() ||
      !scalarArithmetic(IdxE))
    return std::nullopt;
  PendingGather = text(IdxE);
  addNote("'" + B.Name + "' is scratch (no bytes) and accessed at an element '" +
          PendingGather + "' picks, which the tool does not follow");
  noteExtended(IdxE->getBeginLoc(), "an element of a scratch array picked "
                                    "by a value the tool does not follow");
  return IndexPoly::constant(0);
}
