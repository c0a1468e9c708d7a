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
