//===- Fusion.cpp - Fuse adjacent nests, contract their intermediates -----===//
//
// (Rewritten to the same contract after this file was overwritten by
// mistake in the CodeGen work; Fusion.h is unchanged.)
//
//===----------------------------------------------------------------------===//

#include "roofline/Transform/Fusion.h"
#include "roofline/Analysis/Dependence.h"

#include "TransformUtil.h"

using namespace roofline;

namespace {

std::vector<Loop *> chainOf(Loop &Root, unsigned Depth) {
  std::vector<Loop *> C{&Root};
  while (C.size() < Depth) {
    Loop *Only = nullptr;
    for (Node &N : C.back()->Body)
      if (N.isLoop())
        Only = &N.loop();
    if (!Only)
      break;
    C.push_back(Only);
  }
  return C;
}

/// Drops the accesses to \p Contract from every statement; their values
/// become scalars named after the array, so the statement values stay
/// consistent with the accesses.
void contract(Loop &L, const std::set<std::string> &Contract) {
  for (Node &N : L.Body) {
    if (N.isLoop()) {
      contract(N.loop(), Contract);
      continue;
    }
    Stmt &S = N.S;
    for (size_t I = S.Accesses.size(); I-- > 0;) {
      const std::string Name = S.Accesses[I].ArrayName;
      if (!Contract.count(Name))
        continue;
      if (S.Value) {
        if (S.Value->Target == StmtValue::ArrayTarget &&
            S.Value->TargetAccess == I) {
          S.Value->Target = StmtValue::ScalarTarget;
          S.Value->Scalar = Name;
        }
        S.Value->Value.walkMutable([&](ValueExpr &E) {
          if (E.Kind == ValueExpr::Load && E.Access == I)
            E = ValueExpr::scalar(Name);
        });
      }
      eraseAccess(S, static_cast<unsigned>(I));
    }
  }
}

} // namespace

llvm::Expected<LoopNest>
roofline::fuseNests(const std::vector<const LoopNest *> &Nests,
                    const std::set<std::string> &Contract) {
  if (Nests.empty())
    return transformError("no nests to fuse");
  LoopNest Out = *Nests.front();
  for (size_t I = 1; I < Nests.size(); ++I) {
    LoopNest B = *Nests[I];
    unsigned D = fusableDepth(Out, B);
    if (D == 0)
      return transformError("the nests at lines " +
                            std::to_string(Out.Loc.Line) + " and " +
                            std::to_string(B.Loc.Line) +
                            " have different loop bounds");
    std::vector<Loop *> CA = chainOf(Out.Root, D), CB = chainOf(B.Root, D);
    if (CA.size() < D || CB.size() < D)
      return transformError("fusable depth exceeds the loop chains");
    // Through fresh names, so that swapping two IVs cannot capture.
    std::set<std::string> Used = loopNames(Out);
    for (const std::string &N : loopNames(B))
      Used.insert(N);
    std::vector<std::string> Temp;
    for (unsigned K = 0; K < D; ++K) {
      Temp.push_back(freshName(Used, CB[K]->IV + "_f"));
      renameIV(B.Root, CB[K]->IV, Temp.back());
    }
    for (unsigned K = 0; K < D; ++K)
      renameIV(B.Root, Temp[K], CA[K]->IV);
    CB = chainOf(B.Root, D);
    for (Node &N : CB[D - 1]->Body)
      CA[D - 1]->Body.push_back(std::move(N));
    for (const Array &X : B.Arrays)
      if (!Out.findArray(X.Name))
        Out.Arrays.push_back(X);
    for (const Param &X : B.Params)
      if (!Out.findParam(X.Name))
        Out.Params.push_back(X);
    for (const auto &[Name, T] : B.Sem.ArrayCTypes)
      Out.Sem.ArrayCTypes.emplace(Name, T);
    Out.Sem.LocalArrays.insert(B.Sem.LocalArrays.begin(),
                               B.Sem.LocalArrays.end());
    for (const ScalarVar &V : B.Sem.Scalars)
      if (!Out.Sem.findScalar(V.Name))
        Out.Sem.Scalars.push_back(V);
    Out.Sem.Complete &= B.Sem.Complete;
  }
  if (!Contract.empty()) {
    contract(Out.Root, Contract);
    pruneArrays(Out);
  }
  return Out;
}
