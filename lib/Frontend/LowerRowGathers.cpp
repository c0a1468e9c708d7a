//===- LowerRowGathers.cpp - Rows picked by an index loaded from memory ---===//
//
// A token embedding reads one row of its table per position:
//   int ix = inp[b*T + t];
//   const float *wte_ix = wte + ix*C;
//   for (int i = 0; i < C; i++) out_bt[i] = wte_ix[i] + wpe_t[i];
// Which rows are read depends on the tokens, so the distinct elements do
// too: from one row's (every position the same token) to one row per
// position (every one a different token). The frontend records such an
// access within its row, with the index and the loop whose body loads it
// (Access::GatherIndex, Access::GatherLoop); the analysis makes the bytes
// that range and checks what it rests on (Counts.cpp, checkRowGathers;
// docs/design.md, "Row gathers"). Taken when:
//   - the index is an integer local loaded from memory, declared in the body
//     of a loop of the nest, never written again, outside any
//     data-dependent branch (noteGatherLocal);
//   - the offset is that local times a size (no loop variable, no load),
//     plus an affine rest: `ix*C`, `C*ix`, `ix*C + i`; or the local alone
//     (plus a rest), a row of one element (`delta[index]`), or the row of a
//     dimension before the last (`wte[ix][i]`);
//   - the view picks no other row.
// Anything else with a loaded offset stays refused as a gather.
//
//===----------------------------------------------------------------------===//

#include "NestBuilder.h"

using namespace clang;
using namespace roofline;
using namespace roofline::frontend;

std::pair<const VarDecl *, const LoopRange *>
NestBuilder::rowGatherLocal(const Expr *E) const {
  const auto *DRE = dyn_cast<DeclRefExpr>(strip(E));
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  auto It = VD ? GatherLocals.find(VD) : GatherLocals.end();
  if (It == GatherLocals.end() || !It->second || isModified(VD))
    return {nullptr, nullptr};
  return {VD, It->second};
}

std::optional<IndexPoly> NestBuilder::rowGather(View &V, const Expr *Off,
                                                std::string &Why) {
  // Only the nest function's own locals are gather locals, so the offset
  // is the nest's even where it is a call's argument (`axpy(wte + ix*C,
  // ...)`): the callee's accesses through it are in the picked row.
  if (ArmDepth != 0 || !V.Gather.empty())
    return std::nullopt;
  const Expr *Rest = nullptr, *Pick = strip(Off);
  if (const auto *BO = dyn_cast<BinaryOperator>(Pick);
      BO && BO->getOpcode() == BO_Add) {
    // The product is the side that reads memory.
    bool LeftLoads = usesNestData(BO->getLHS());
    Pick = strip(LeftLoads ? BO->getLHS() : BO->getRHS());
    Rest = LeftLoads ? BO->getRHS() : BO->getLHS();
  }
  // The local alone picks a row of a dimension before the last, or one
  // element of the last (a row of one: darknet's `delta[index] += ...`).
  auto [VD, Loop] = rowGatherLocal(Pick);
  const Expr *StrideE = nullptr;
  const auto *Mul = dyn_cast<BinaryOperator>(Pick);
  if (!VD && Mul && Mul->getOpcode() == BO_Mul) {
    std::tie(VD, Loop) = rowGatherLocal(Mul->getLHS());
    StrideE = Mul->getRHS();
    if (!VD) {
      std::tie(VD, Loop) = rowGatherLocal(Mul->getRHS());
      StrideE = Mul->getLHS();
    }
  }
  if (!VD)
    return std::nullopt;
  std::string Ignored;
  std::optional<IndexPoly> Stride =
      StrideE ? indexOf(StrideE, Ignored) : IndexPoly::constant(1);
  std::string Name = declName(VD);
  if (!Stride || Stride->usesLoopVars() ||
      (StrideE && usesNestData(StrideE))) {
    Why = "gather: the row '" + text(Pick) + "' is picked by '" + Name +
          "' (loaded from memory) with a stride '" + text(StrideE) +
          "' that is no size of the nest";
    return std::nullopt;
  }
  std::optional<IndexPoly> RestIdx =
      Rest ? indexOf(Rest, Why) : IndexPoly::constant(0);
  if (!RestIdx)
    return std::nullopt;
  V.Gather = Name;
  V.GatherLoop = Loop->IV;
  noteExtended(Off->getBeginLoc(), "a row picked by an index loaded from memory");
  return RestIdx;
}
