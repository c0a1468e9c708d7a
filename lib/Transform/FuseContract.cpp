//===- FuseContract.cpp - Loop fusion and array contraction (codegen) -----===//

#include "LoopTransforms.h"
#include "TransformUtil.h"

#include "roofline/Analysis/Dependence.h"

#include <algorithm>

using namespace roofline;

namespace {

std::vector<Loop *> fusedChain(Loop &Root, unsigned Depth) {
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

void mergeInto(LoopNest &A, const LoopNest &B) {
  for (const Array &X : B.Arrays)
    if (!A.findArray(X.Name))
      A.Arrays.push_back(X);
  for (const Param &X : B.Params)
    if (!A.findParam(X.Name))
      A.Params.push_back(X);
  for (const auto &[Name, T] : B.Sem.ArrayCTypes)
    A.Sem.ArrayCTypes.emplace(Name, T);
  A.Sem.LocalArrays.insert(B.Sem.LocalArrays.begin(), B.Sem.LocalArrays.end());
  for (const ScalarVar &V : B.Sem.Scalars)
    if (!A.Sem.findScalar(V.Name))
      A.Sem.Scalars.push_back(V);
  if (A.Sem.Complete && !B.Sem.Complete)
    A.Sem.WhyNot = B.Sem.WhyNot;
  A.Sem.Complete &= B.Sem.Complete;
}

} // namespace

/// Precondition (per pair, Dependence.h): the two roots have the same
/// bounds and step (fusableDepth > 0) and no access of the second nest
/// depends on one the first makes in a later fused iteration
/// (isFusionLegal). The second nest's body then runs right after the
/// first's in each fused iteration.
llvm::Expected<std::string> roofline::fuseAll(Program &P,
                                              const ParamValues &V) {
  if (P.Nests.size() < 2)
    return transformError("there is only one nest to fuse");
  std::string Why;
  while (P.Nests.size() > 1) {
    LoopNest &A = P.Nests[0].Nest;
    LoopNest B = P.Nests[1].Nest;
    unsigned D = fusableDepth(A, B);
    if (D == 0)
      return transformError("the nests at lines " + std::to_string(A.Loc.Line) +
                            " and " + std::to_string(B.Loc.Line) +
                            " have different loop bounds");
    Legality L = isFusionLegal(A, B, V);
    if (!L.Legal)
      return transformError(L.Reason);
    Why += (Why.empty() ? "" : "; ") + L.Reason;
    std::vector<Loop *> CA = fusedChain(A.Root, D);
    std::vector<Loop *> CB = fusedChain(B.Root, D);
    if (CA.size() < D || CB.size() < D)
      return transformError("fusable depth exceeds the chains");
    // Rename the second nest's fused loops to the first's, through fresh
    // names so a swap cannot capture.
    std::set<std::string> Used = loopNames(A);
    for (const std::string &N : loopNames(B))
      Used.insert(N);
    std::vector<std::string> Temp;
    for (unsigned K = 0; K < D; ++K) {
      Temp.push_back(freshName(Used, CB[K]->IV + "_f"));
      renameIV(B.Root, CB[K]->IV, Temp.back());
    }
    CB = fusedChain(B.Root, D);
    for (unsigned K = 0; K < D; ++K)
      renameIV(B.Root, Temp[K], CA[K]->IV);
    CB = fusedChain(B.Root, D);
    for (Node &N : CB[D - 1]->Body)
      CA[D - 1]->Body.push_back(std::move(N));
    mergeInto(A, B);
    P.Nests[0].Deps.reset();
    P.Nests.erase(P.Nests.begin() + 1);
  }
  return Why;
}

/// Precondition: every access to the array is in one loop body, at the
/// same subscripts, and the first of them is a plain store (`t[i] = ...`):
/// each iteration then writes the element before it reads it, so a scalar
/// carries the value. The array must be dead after the nest: a local array
/// of the function is; for any other, naming it asserts it (logged).
llvm::Expected<std::string>
roofline::contractArrays(Program &P, const std::vector<std::string> &Arrays) {
  std::string Why;
  for (const std::string &T : Arrays) {
    KernelNest *Owner = nullptr;
    for (KernelNest &K : P.Nests)
      if (K.Nest.findArray(T)) {
        if (Owner)
          return transformError("'" + T + "' is used by several nests (fuse "
                                          "them first)");
        Owner = &K;
      }
    if (!Owner)
      return transformError("no array '" + T + "'");
    LoopNest &N = Owner->Nest;
    Loop *Parent = nullptr;
    std::vector<size_t> Sites;
    const std::vector<std::optional<AffineExpr>> *Subs = nullptr;
    std::string Problem;
    forEachLoopIn(N.Root, [&](Loop &L) {
      for (size_t I = 0; I < L.Body.size(); ++I) {
        if (L.Body[I].isLoop())
          continue;
        bool Touches = false;
        for (const Access &A : L.Body[I].S.Accesses) {
          if (A.ArrayName != T)
            continue;
          Touches = true;
          if (!Subs)
            Subs = &A.Subscripts;
          else if (*Subs != A.Subscripts)
            Problem = "'" + T + "' is accessed at different subscripts";
        }
        if (!Touches)
          continue;
        if (Parent && Parent != &L)
          Problem = "'" + T + "' is accessed in more than one loop body";
        Parent = &L;
        Sites.push_back(I);
      }
    });
    if (!Problem.empty())
      return transformError(Problem);
    Stmt &First = Parent->Body[Sites.front()].S;
    if (!First.Value || First.Value->Target != StmtValue::ArrayTarget ||
        First.Accesses[First.Value->TargetAccess].ArrayName != T ||
        First.Value->Op != "=")
      return transformError("the first access to '" + T +
                            "' in its loop body is not a plain store");
    for (const Access &A : First.Accesses)
      if (A.ArrayName == T && A.IsRead)
        return transformError("the store to '" + T + "' also reads it");

    std::set<std::string> Used = loopNames(N);
    std::string Name = T + "_r";
    if (Used.count(Name))
      Name = freshName(Used, T + "_r");
    ScalarVar SV;
    SV.Name = Name;
    SV.CType = N.Sem.ArrayCTypes.count(T) ? N.Sem.ArrayCTypes[T] : "float";
    SV.Kind = ScalarVar::Local;
    for (size_t Pos : Sites) {
      Stmt &S = Parent->Body[Pos].S;
      bool TargetIsT = S.Value->Target == StmtValue::ArrayTarget &&
                       S.Accesses[S.Value->TargetAccess].ArrayName == T;
      if (TargetIsT) {
        S.Value->Target = &S == &First ? StmtValue::ScalarDecl
                                       : StmtValue::ScalarTarget;
        S.Value->Scalar = Name;
      }
      for (size_t I = S.Accesses.size(); I-- > 0;) {
        if (S.Accesses[I].ArrayName != T)
          continue;
        S.Value->Value.walkMutable([&](ValueExpr &E) {
          if (E.Kind == ValueExpr::Load && E.Access == I)
            E = ValueExpr::scalar(Name);
        });
        // eraseAccess renumbers the target; keep it valid.
        if (S.Value->Target == StmtValue::ArrayTarget &&
            S.Value->TargetAccess == I)
          return transformError("internal: target of '" + T + "' kept");
        eraseAccess(S, static_cast<unsigned>(I));
      }
    }
    N.Sem.Scalars.push_back(SV);
    pruneArrays(N);
    Owner->Deps.reset();
    std::string Dead = N.Sem.LocalArrays.count(T)
                           ? "a local array of the function"
                           : "asserted dead after the nest by the schedule "
                             "(not a local array)";
    Why += (Why.empty() ? "" : "; ") + ("'" + T + "' is written before it is "
                                        "read in each iteration, and " + Dead);
  }
  return Why;
}
