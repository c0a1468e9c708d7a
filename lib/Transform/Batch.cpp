//===- Batch.cpp - Run B independent inputs through one nest ---------------===//

#include "roofline/Transform/Batch.h"

#include <algorithm>
#include <set>

using namespace roofline;

namespace {

struct Use {
  bool Read = false, Written = false;
  bool EveryLoop = true; ///< each access uses every loop around it
};

void collect(const Loop &L, std::vector<std::string> &IVs,
             std::map<std::string, Use> &Uses) {
  IVs.push_back(L.IV);
  for (const Node &N : L.Body) {
    if (N.isLoop()) {
      collect(N.loop(), IVs, Uses);
      continue;
    }
    for (const Access &A : N.S.Accesses) {
      Use &U = Uses[A.ArrayName];
      U.Read |= A.IsRead;
      U.Written |= A.IsWrite;
      for (const std::string &IV : IVs) {
        bool Uses_ = false;
        for (const auto &S : A.Subscripts)
          Uses_ |= !S || S->uses(IV);
        U.EveryLoop &= Uses_;
      }
    }
  }
  IVs.pop_back();
}

void prependDim(std::vector<Node> &Body, const std::set<std::string> &Arrays,
                const std::string &IV) {
  for (Node &N : Body) {
    if (N.isLoop()) {
      prependDim(N.loop().Body, Arrays, IV);
      continue;
    }
    for (Access &A : N.S.Accesses)
      if (Arrays.count(A.ArrayName)) {
        A.Subscripts.insert(A.Subscripts.begin(), AffineExpr::var(IV));
        A.Text = A.ArrayName + "[" + IV + "]" +
                 A.Text.substr(std::min(A.Text.size(), A.ArrayName.size()));
      }
  }
}

/// Largest value of \p E over the loops' ranges (\p Hi: largest value of
/// each IV and size), or nullopt when a name has no bound.
std::optional<int64_t> maxOf(const AffineExpr &E,
                             const std::map<std::string, std::pair<int64_t, int64_t>> &R) {
  int64_t V = E.constant();
  for (const auto &[Name, C] : E.terms()) {
    auto It = R.find(Name);
    if (It == R.end())
      return std::nullopt;
    V += C * (C > 0 ? It->second.second : It->second.first);
  }
  return V;
}

std::optional<int64_t> minOf(const AffineExpr &E,
                             const std::map<std::string, std::pair<int64_t, int64_t>> &R) {
  std::optional<AffineExpr> Neg = E.scale(-1);
  if (!Neg)
    return std::nullopt;
  std::optional<int64_t> M = maxOf(*Neg, R);
  return M ? std::optional<int64_t>(-*M) : std::nullopt;
}

/// Ranges of the sizes and of every IV (a hull over the outer loops).
void ranges(const Loop &L, std::map<std::string, std::pair<int64_t, int64_t>> &R,
            std::map<std::string, std::pair<int64_t, int64_t>> &All) {
  std::optional<int64_t> Lo, Hi;
  if (L.First.isAffine() && L.Last.isAffine()) {
    const AffineExpr &A = L.Step > 0 ? L.First.affine() : L.Last.affine();
    const AffineExpr &B = L.Step > 0 ? L.Last.affine() : L.First.affine();
    Lo = minOf(A, R);
    Hi = maxOf(B, R);
  }
  if (Lo && Hi)
    R[L.IV] = All[L.IV] = {*Lo, *Hi};
  for (const Node &N : L.Body)
    if (N.isLoop())
      ranges(N.loop(), R, All);
  R.erase(L.IV);
}

/// The largest index + 1 the nest uses in dimension 0 of \p Array.
std::optional<int64_t> leadingExtent(const LoopNest &N, const std::string &Array) {
  std::map<std::string, std::pair<int64_t, int64_t>> R, All;
  for (const Param &P : N.Params)
    if (P.Value)
      R[P.Name] = All[P.Name] = {*P.Value, *P.Value};
  ranges(N.Root, R, All);
  std::optional<int64_t> Max;
  std::vector<const Loop *> Stack{&N.Root};
  bool Ok = true;
  while (!Stack.empty()) {
    const Loop *L = Stack.back();
    Stack.pop_back();
    for (const Node &X : L->Body) {
      if (X.isLoop()) {
        Stack.push_back(&X.loop());
        continue;
      }
      for (const Access &A : X.S.Accesses) {
        if (A.ArrayName != Array || A.Subscripts.empty())
          continue;
        std::optional<int64_t> M =
            A.Subscripts[0] ? maxOf(*A.Subscripts[0], All) : std::nullopt;
        Ok &= M.has_value();
        if (M)
          Max = std::max(Max.value_or(*M), *M);
      }
    }
  }
  if (!Ok || !Max)
    return std::nullopt;
  return *Max + 1;
}

} // namespace

std::optional<BatchPlan> roofline::batchPlan(const LoopNest &N) {
  std::map<std::string, Use> Uses;
  std::vector<std::string> IVs;
  collect(N.Root, IVs, Uses);
  BatchPlan P;
  bool OtherRead = false;
  for (const auto &[Name, U] : Uses) {
    if (P.Weights.empty() && U.Read && !U.Written && U.EveryLoop) {
      P.Weights = Name;
      continue;
    }
    P.Batched.push_back(Name);
  }
  // Batching shares the weights among inputs that differ: some batched
  // array must be an input (read, never written). An accumulator read by
  // `+=` alone (a bias gradient summing the rows of a read-only delta) is
  // no input: its copies would all compute the same sums.
  for (const std::string &B : P.Batched)
    OtherRead |= Uses[B].Read && !Uses[B].Written;
  if (P.Weights.empty() || !OtherRead)
    return std::nullopt;
  return P;
}

LoopNest roofline::batchNest(const LoopNest &N, const BatchPlan &P,
                             int64_t Size) {
  std::string IV = "b";
  auto Taken = [&](const std::string &Name) {
    if (N.findParam(Name))
      return true;
    bool Used = false;
    std::vector<const Loop *> Stack{&N.Root};
    while (!Stack.empty()) {
      const Loop *L = Stack.back();
      Stack.pop_back();
      Used |= L->IV == Name;
      for (const Node &X : L->Body)
        if (X.isLoop())
          Stack.push_back(&X.loop());
    }
    return Used;
  };
  while (Taken(IV))
    IV += "b";
  LoopNest B = N;
  std::set<std::string> Batched(P.Batched.begin(), P.Batched.end());
  std::vector<Node> Body{Node::loop(B.Root)};
  prependDim(Body, Batched, IV);
  for (Array &A : B.Arrays)
    if (Batched.count(A.Name)) {
      // The old leading extent now sets a pitch: give it a value.
      if (!A.Extents.empty() && !A.Extents.front())
        if (std::optional<int64_t> E = leadingExtent(N, A.Name))
          A.Extents.front() = AffineExpr(*E);
      A.Extents.insert(A.Extents.begin(), AffineExpr(Size));
    }
  Loop Outer;
  Outer.IV = IV;
  Outer.First = Bound::single(AffineExpr(0));
  Outer.Last = Bound::single(AffineExpr(Size - 1));
  Outer.Loc = N.Root.Loc;
  Outer.Body = std::move(Body);
  B.Root = std::move(Outer);
  return B;
}
