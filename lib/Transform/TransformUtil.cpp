//===- TransformUtil.cpp - IR walking and rewriting helpers ---------------===//

#include "TransformUtil.h"

#include <algorithm>
#include <functional>

using namespace roofline;

std::set<std::string> roofline::loopNames(const LoopNest &N) {
  std::set<std::string> S;
  forEachLoopIn(N.Root, [&](const Loop &L) { S.insert(L.IV); });
  for (const Param &P : N.Params)
    S.insert(P.Name);
  for (const Array &A : N.Arrays)
    S.insert(A.Name);
  for (const ScalarVar &V : N.Sem.Scalars)
    S.insert(V.Name);
  return S;
}

std::string roofline::freshName(std::set<std::string> &Used,
                                const std::string &Base) {
  for (unsigned I = 1;; ++I) {
    std::string N = Base + "_" + std::to_string(I);
    if (Used.insert(N).second)
      return N;
  }
}

std::optional<Bound> roofline::substituteBound(const Bound &B,
                                               const std::string &Name,
                                               const AffineExpr &E) {
  Bound R = B;
  for (BoundTerm &T : R.Terms) {
    std::optional<AffineExpr> X = T.Expr.substitute(Name, E);
    if (!X)
      return std::nullopt;
    T.Expr = *X;
  }
  return R;
}

namespace {

void renameInStmt(Stmt &S, const std::string &From, const std::string &To) {
  AffineExpr V = AffineExpr::var(To);
  for (Access &A : S.Accesses) {
    bool Changed = false;
    for (auto &Sub : A.Subscripts)
      if (Sub && Sub->uses(From)) {
        Sub = Sub->substitute(From, V);
        Changed = true;
      }
    if (Changed) {
      A.Text = A.ArrayName;
      for (const auto &Sub : A.Subscripts)
        A.Text += "[" + (Sub ? Sub->str() : std::string("?")) + "]";
    }
  }
  if (S.Value)
    S.Value->Value.walkMutable([&](ValueExpr &E) {
      if (E.Kind == ValueExpr::Index && E.Name == From)
        E.Name = To;
    });
}

} // namespace

void roofline::renameIV(Loop &L, const std::string &From,
                        const std::string &To) {
  AffineExpr V = AffineExpr::var(To);
  forEachLoopIn(L, [&](Loop &X) {
    if (X.IV == From)
      X.IV = To;
    if (std::optional<Bound> B = substituteBound(X.First, From, V))
      X.First = *B;
    if (std::optional<Bound> B = substituteBound(X.Last, From, V))
      X.Last = *B;
    for (Node &N : X.Body)
      if (!N.isLoop())
        renameInStmt(N.S, From, To);
  });
}

Loop *roofline::findLoop(Loop &Root, const std::string &IV,
                         std::vector<Loop *> *Path) {
  std::vector<Loop *> Stack;
  Loop *Found = nullptr;
  std::vector<Loop *> FoundPath;
  std::function<void(Loop &)> Walk = [&](Loop &L) {
    if (Found)
      return;
    Stack.push_back(&L);
    if (L.IV == IV) {
      Found = &L;
      FoundPath = Stack;
    }
    for (Node &N : L.Body)
      if (N.isLoop())
        Walk(N.loop());
    Stack.pop_back();
  };
  Walk(Root);
  if (Path)
    *Path = FoundPath;
  return Found;
}

void roofline::pruneArrays(LoopNest &N) {
  std::set<std::string> Used;
  forEachLoopIn(N.Root, [&](const Loop &L) {
    for (const Node &X : L.Body)
      if (!X.isLoop())
        for (const Access &A : X.S.Accesses)
          Used.insert(A.ArrayName);
  });
  N.Arrays.erase(std::remove_if(N.Arrays.begin(), N.Arrays.end(),
                                [&](const Array &A) {
                                  return !Used.count(A.Name);
                                }),
                 N.Arrays.end());
}

void roofline::eraseAccess(Stmt &S, unsigned I) {
  S.Accesses.erase(S.Accesses.begin() + I);
  if (!S.Value)
    return;
  if (S.Value->Target == StmtValue::ArrayTarget && S.Value->TargetAccess > I)
    --S.Value->TargetAccess;
  S.Value->Value.walkMutable([&](ValueExpr &E) {
    if (E.Kind == ValueExpr::Load && E.Access > I)
      --E.Access;
  });
}

namespace {
void collectSites(const Loop &L, std::vector<const Loop *> &Stack,
                  std::vector<StmtSite> &Out) {
  Stack.push_back(&L);
  for (size_t I = 0; I < L.Body.size(); ++I) {
    const Node &N = L.Body[I];
    if (N.isLoop())
      collectSites(N.loop(), Stack, Out);
    else
      Out.push_back({&N.S, Stack, &L, I});
  }
  Stack.pop_back();
}
} // namespace

std::vector<StmtSite> roofline::stmtSites(const Loop &Root) {
  std::vector<StmtSite> Out;
  std::vector<const Loop *> Stack;
  collectSites(Root, Stack, Out);
  return Out;
}

llvm::Expected<MacUpdate>
roofline::findMacUpdate(const LoopNest &N) {
  if (!N.Sem.Complete)
    return transformError("statement values unknown: " + N.Sem.WhyNot);
  std::vector<StmtSite> All = stmtSites(N.Root);
  const StmtSite *Update = nullptr;
  for (const StmtSite &S : All) {
    const StmtValue &V = *S.S->Value;
    if (V.Target != StmtValue::ArrayTarget || V.Op != "+=")
      continue;
    const ValueExpr &E = V.Value;
    if (E.Kind != ValueExpr::Binary || E.Name != "*" ||
        E.Operands[0].Kind != ValueExpr::Load ||
        E.Operands[1].Kind != ValueExpr::Load)
      continue;
    if (Update)
      return transformError("more than one multiply-accumulate statement");
    Update = &S;
  }
  if (!Update)
    return transformError("no `Out[..] += L[..] * R[..]` statement");
  const Stmt &U = *Update->S;
  // A vector's move keeps its elements where they are: Update stays valid.
  MacUpdate M{std::move(All), Update, &U.Accesses[U.Value->TargetAccess],
              &U.Accesses[U.Value->Value.Operands[0].Access],
              &U.Accesses[U.Value->Value.Operands[1].Access]};
  if (M.Out->ArrayName == M.L->ArrayName ||
      M.Out->ArrayName == M.R->ArrayName || M.L->ArrayName == M.R->ArrayName)
    return transformError("operands are not three distinct arrays");
  return std::move(M);
}

llvm::Error
roofline::rectangularExtents(const std::vector<const Loop *> &Loops,
                             std::map<std::string, AffineExpr> &Extent,
                             std::map<std::string, AffineExpr> &First) {
  for (const Loop *L : Loops) {
    if (L->Step != 1 || !L->First.isAffine() || !L->Last.isAffine())
      return transformError("loop '" + L->IV +
                            "' is not a unit-step affine loop");
    for (const Loop *O : Loops)
      if (L->First.uses(O->IV) || L->Last.uses(O->IV))
        return transformError("loop '" + L->IV + "' is not rectangular");
    std::optional<AffineExpr> Ext = L->Last.affine().sub(L->First.affine());
    if (!Ext || !(Ext = Ext->addConstant(1)))
      return transformError("loop extent overflows");
    Extent[L->IV] = *Ext;
    First[L->IV] = L->First.affine();
  }
  return llvm::Error::success();
}

bool roofline::isZeroValue(const ValueExpr &E) {
  if (E.Kind == ValueExpr::IntLit)
    return E.Int == 0;
  if (E.Kind == ValueExpr::FloatLit)
    return E.Float == 0;
  if (E.Kind == ValueExpr::Cast)
    return isZeroValue(E.Operands[0]);
  return false;
}
