//===- LowerConditionalIndex.cpp - `c ? a : b` in indices and bounds ------===//
//
// A conditional expression in a loop bound, a subscript or a pointer offset
// (genann's `k < (h == L-1 ? outputs : hidden)`, `output + (h ? X : 0)`) is
// lowered by what its condition depends on (docs/design.md, "Conditions"):
// a loop-invariant condition is a case of the nest, like an invariant if; a
// condition on loop variables splits the innermost loop it uses into the
// two ranges where it holds and where it does not, each lowered with its
// operand, in the loop's order; a data-dependent one is refused.
//
//===----------------------------------------------------------------------===//

#include "NestBuilder.h"

#include "llvm/Support/SaveAndRestore.h"

using namespace clang;
using namespace roofline;
using namespace roofline::frontend;

namespace {

bool sameConstraints(const std::vector<NestBuilder::Constraint> &A,
                     const std::vector<NestBuilder::Constraint> &B) {
  return A.size() == B.size() &&
         std::equal(A.begin(), A.end(), B.begin(), [](const auto &X, const auto &Y) {
           return X.E == Y.E && X.Equal == Y.Equal;
         });
}

bool mentions(const clang::Stmt *S, const ValueDecl *D) {
  if (!S)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    return DRE->getDecl() == D;
  for (const clang::Stmt *C : S->children())
    if (mentions(C, D))
      return true;
  return false;
}

} // namespace

std::optional<NestBuilder::OrderedParts>
NestBuilder::orderedParts(const Expr *Cond, const Loop &L, std::string &Why) {
  OrderedParts Out;
  std::vector<Constraint> Parts[2];
  if (!choiceParts(Cond, L, Parts, Why))
    return std::nullopt;
  // The part that bounds the variable from above comes first in an upward
  // loop.
  int64_t A0 = Parts[0].front().E.part({}).coeff(L.IV);
  if (A0 == 0) {
    Why = "condition '" + text(Cond) + "' is not a range of '" + L.IV + "'";
    return std::nullopt;
  }
  Out.TrueFirst = (A0 < 0) == (L.Step > 0);
  Out.Parts[0] = Parts[Out.TrueFirst ? 0 : 1];
  Out.Parts[1] = Parts[Out.TrueFirst ? 1 : 0];
  return Out;
}

std::optional<IndexPoly>
NestBuilder::conditionalIndex(const ConditionalOperator *CO, std::string &Why) {
  const Expr *Cond = CO->getCond();
  std::string Where = InBound ? "loop bound" : "index";
  // The innermost loop whose variable the condition uses (from the loop
  // stack: a loop-free index, a trip count, hides the variables).
  int K = static_cast<int>(LoopStack.size()) - 1;
  for (; K >= 0; --K)
    if (LoopStack[K].IVDecl && mentions(Cond, LoopStack[K].IVDecl))
      break;
  auto DataDependent = [&]() {
    Why = "data-dependent condition '" + text(Cond) + "' in the " + Where +
          " '" + text(CO) + "': the iterations or elements depend on the data";
    return std::nullopt;
  };
  if (K < 0) {
    if (usesNestData(Cond))
      return DataDependent();
    if (mentionsLoopVar(Cond)) {
      Why = "condition '" + text(Cond) + "' in the " + Where +
            " uses a loop variable that is not a plain loop's";
      return std::nullopt;
    }
    return indexOf(invariantValue(Cond) ? CO->getTrueExpr()
                                        : CO->getFalseExpr(),
                   Why);
  }
  LoopFrame &F = LoopStack[K];
  const Loop &Range = F.SplitHeader ? *F.SplitHeader : *F.L;
  std::string Inner;
  std::optional<OrderedParts> P;
  {
    std::vector<std::pair<const VarDecl *, std::string>> AllIVs;
    for (const LoopFrame &Fr : LoopStack)
      AllIVs.push_back({Fr.IVDecl, Fr.L->IV});
    llvm::SaveAndRestore ShowIVs(IVs, AllIVs);
    if (usesNestData(Cond))
      return DataDependent();
    P = orderedParts(Cond, Range, Inner);
  }
  // The parts bound this loop's variable by outer ones and sizes only.
  for (size_t J = K + 1; P && J < LoopStack.size(); ++J)
    for (int Part = 0; Part < 2; ++Part)
      for (const Constraint &C : P->Parts[Part])
        for (const auto &[M, E] : C.E.parts())
          if (E.uses(LoopStack[J].L->IV)) {
            Inner = "it also uses '" + LoopStack[J].L->IV + "'";
            P.reset();
          }
  if (!P) {
    Why = "condition '" + text(Cond) + "' in the " + Where + " '" + text(CO) +
          "' does not split the loop over '" + Range.IV +
          "' in two ranges: " + Inner;
    return std::nullopt;
  }
  if (F.Split) {
    // This pass runs one part: the condition must be the one that split
    // the loop (or one with the same parts).
    int Mine = *F.Split ? 0 : 1;
    if (!F.SplitHeader || !sameConstraints(P->Parts[Mine], F.SplitPart)) {
      Why = "a second condition, '" + text(Cond) + "', splits the loop over '" +
            Range.IV + "' into ranges";
      return std::nullopt;
    }
    bool Holds = (Mine == 0) == P->TrueFirst;
    return indexOf(Holds ? CO->getTrueExpr() : CO->getFalseExpr(), Why);
  }
  if (!F.For || F.Regrouped) {
    Why = "condition '" + text(Cond) + "' in the " + Where +
          " would split the loop over '" + Range.IV +
          "', which is not a plain for loop";
    return std::nullopt;
  }
  // Lowering fails with this reason until the loop over it catches it
  // (lowerForSplit) and lowers each part.
  SplitFor = F.For;
  SplitForParts[0] = P->Parts[0];
  SplitForParts[1] = P->Parts[1];
  SplitForAt = CO;
  SplitForWhy = "condition '" + text(Cond) + "' in the " + Where +
                " splits the loop over '" + Range.IV + "' in two";
  Why = SplitForWhy;
  return std::nullopt;
}

bool NestBuilder::applyIndexSplit(Loop &L, const std::vector<Constraint> &Part,
                                  const clang::Stmt *Where) {
  LoopFrame &F = LoopStack.back();
  F.SplitHeader = L;
  F.SplitPart = Part;
  F.SplitTaken = true;
  for (const Constraint &C : Part)
    if (!tightenLoop(L, *F.R, L.IV, C.E, C.Equal, Where))
      return false;
  return true;
}
