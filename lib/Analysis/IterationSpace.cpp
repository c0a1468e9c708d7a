//===- IterationSpace.cpp - Loop ranges and statement sites ---------------===//

#include "IterationSpace.h"

#include "roofline/IR/RenameIVs.h"

#include <cmath>
#include <set>

using namespace roofline;
using namespace roofline::detail;

bool Interval::finite() const { return std::isfinite(Lo) && std::isfinite(Hi); }

std::map<std::string, int64_t>
roofline::detail::paramValues(const LoopNest &N, const ParamValues &Overrides) {
  std::map<std::string, int64_t> Out;
  for (const Param &P : N.Params)
    if (P.Value)
      Out[P.Name] = *P.Value;
  for (const auto &[Name, V] : Overrides)
    Out[Name] = V;
  return Out;
}

namespace {

/// K * [Lo, Hi] without 0 * inf = NaN.
Interval scaled(const Interval &I, double K) {
  if (K == 0)
    return Interval::point(0);
  double A = I.Lo * K, B = I.Hi * K;
  return K > 0 ? Interval{A, B} : Interval{B, A};
}

} // namespace

Interval roofline::detail::rangeOf(const AffineExpr &E,
                                   const std::map<std::string, Interval> &Vars,
                                   const std::map<std::string, int64_t> &Values) {
  Interval R = Interval::point(static_cast<double>(E.constant()));
  for (const auto &[Name, C] : E.terms()) {
    Interval V;
    if (auto It = Vars.find(Name); It != Vars.end())
      V = It->second;
    else if (auto It = Values.find(Name); It != Values.end())
      V = Interval::point(static_cast<double>(It->second));
    Interval T = scaled(V, static_cast<double>(C));
    R.Lo += T.Lo;
    R.Hi += T.Hi;
  }
  return R;
}

Interval roofline::detail::rangeOf(const Bound &B,
                                   const std::map<std::string, Interval> &Vars,
                                   const std::map<std::string, int64_t> &Values) {
  Interval Out;
  bool First = true;
  for (const BoundTerm &T : B.Terms) {
    Interval R = rangeOf(T.Expr, Vars, Values);
    if (T.Divisor > 1) {
      R.Lo = std::floor(R.Lo / T.Divisor);
      R.Hi = std::floor(R.Hi / T.Divisor);
    }
    if (First) {
      Out = R;
      First = false;
    } else if (B.Kind == Bound::Min) {
      Out.Lo = std::min(Out.Lo, R.Lo);
      Out.Hi = std::min(Out.Hi, R.Hi);
    } else {
      Out.Lo = std::max(Out.Lo, R.Lo);
      Out.Hi = std::max(Out.Hi, R.Hi);
    }
  }
  return Out;
}

namespace {

void rangesIn(const Loop &L, std::map<std::string, Interval> &Vars,
              const std::map<std::string, int64_t> &Values,
              std::map<const Loop *, Interval> &Out) {
  Interval F = rangeOf(L.First, Vars, Values);
  Interval T = rangeOf(L.Last, Vars, Values);
  // Counting up the IV runs from First to at most Last; down, the reverse.
  Interval R = L.Step > 0 ? Interval{F.Lo, T.Hi} : Interval{T.Lo, F.Hi};
  Out[&L] = R;
  auto Saved = Vars.find(L.IV) != Vars.end()
                   ? std::optional<Interval>(Vars[L.IV])
                   : std::nullopt;
  Vars[L.IV] = R;
  for (const Node &N : L.Body)
    if (N.isLoop())
      rangesIn(N.loop(), Vars, Values, Out);
  if (Saved)
    Vars[L.IV] = *Saved;
  else
    Vars.erase(L.IV);
}

void collectIn(const Loop &L, std::vector<const Loop *> &Stack,
               std::vector<unsigned> &Pos, std::vector<StmtRef> &Out) {
  Stack.push_back(&L);
  for (unsigned I = 0; I < L.Body.size(); ++I) {
    Pos.push_back(I);
    const Node &N = L.Body[I];
    if (N.isLoop())
      collectIn(N.loop(), Stack, Pos, Out);
    else
      Out.push_back({&N.S, Stack, Pos});
    Pos.pop_back();
  }
  Stack.pop_back();
}

void preorderIn(const Loop &L, std::vector<const Loop *> &Out) {
  Out.push_back(&L);
  for (const Node &N : L.Body)
    if (N.isLoop())
      preorderIn(N.loop(), Out);
}

bool shadows(const Loop &L, std::set<std::string> &Scope) {
  if (!Scope.insert(L.IV).second)
    return true;
  for (const Node &N : L.Body)
    if (N.isLoop() && shadows(N.loop(), Scope))
      return true;
  Scope.erase(L.IV);
  return false;
}

} // namespace

std::map<const Loop *, Interval>
roofline::detail::loopRanges(const Loop &Root,
                             const std::map<std::string, int64_t> &Values) {
  std::map<const Loop *, Interval> Out;
  std::map<std::string, Interval> Vars;
  rangesIn(Root, Vars, Values, Out);
  return Out;
}

std::vector<StmtRef> roofline::detail::collectStmts(const Loop &Root) {
  std::vector<StmtRef> Out;
  std::vector<const Loop *> Stack;
  std::vector<unsigned> Pos{0};
  collectIn(Root, Stack, Pos, Out);
  return Out;
}

std::vector<const Loop *> roofline::detail::preorderLoops(const Loop &Root) {
  std::vector<const Loop *> Out;
  preorderIn(Root, Out);
  return Out;
}

bool roofline::detail::hasShadowing(const LoopNest &N) {
  std::set<std::string> Scope;
  for (const Param &P : N.Params)
    Scope.insert(P.Name);
  return shadows(N.Root, Scope);
}

LoopNest roofline::detail::withUniqueIVs(const LoopNest &N) {
  LoopNest Out = N;
  std::set<std::string> Scope;
  for (const Param &P : N.Params)
    Scope.insert(P.Name);
  unsigned Counter = 0;
  uniquifyIVs(Out.Root, Scope, Counter);
  return Out;
}

std::string roofline::detail::joinIVs(const std::vector<const Loop *> &Loops) {
  std::string S;
  for (const Loop *L : Loops)
    S += (S.empty() ? "" : ", ") + L->IV;
  return S;
}

std::optional<Polynomial>
roofline::detail::polynomialOrNone(llvm::Expected<Polynomial> P) {
  if (!P) {
    llvm::consumeError(P.takeError());
    return std::nullopt;
  }
  return std::move(*P);
}
