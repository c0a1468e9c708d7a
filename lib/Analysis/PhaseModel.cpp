//===- PhaseModel.cpp - Layer conditions over one loop subtree ------------===//

#include "PhaseModel.h"

#include "IterationSpace.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <set>

using namespace roofline;
using namespace roofline::detail;

namespace {

constexpr double PageBytes = 4096;

std::optional<Polynomial> opt(llvm::Expected<Polynomial> P) {
  if (!P) {
    llvm::consumeError(P.takeError());
    return std::nullopt;
  }
  return std::move(*P);
}

void unite(std::optional<AffineExpr> &Into, const std::optional<AffineExpr> &O,
           bool Min) {
  if (!Into || !O) {
    Into.reset();
    return;
  }
  std::optional<AffineExpr> D = Into->sub(*O);
  if (!D || !D->isConstant()) {
    Into.reset();
    return;
  }
  if (Min ? D->constant() > 0 : D->constant() < 0)
    Into = O;
}

void uniteInto(Group &Into, const Group &G, bool AddMisses) {
  for (size_t D = 0; D < Into.B.size(); ++D) {
    DimBox &A = Into.B[D];
    const DimBox &B = G.B[D];
    int64_t S = 0;
    if (!A.single())
      S = gcd64(S, A.Step);
    if (!B.single())
      S = gcd64(S, B.Step);
    int64_t Diff = std::llround(std::fabs(A.Lo - B.Lo));
    S = gcd64(S, Diff);
    A.Lo = std::min(A.Lo, B.Lo);
    A.Hi = std::max(A.Hi, B.Hi);
    A.Step = S ? S : 1;
    unite(Into.Sym[D].Lo, G.Sym[D].Lo, true);
    unite(Into.Sym[D].Hi, G.Sym[D].Hi, false);
  }
  Into.Exact &= G.Exact;
  Into.Density = std::min(Into.Density, G.Density);
  Into.Read |= G.Read;
  Into.Write |= G.Write;
  Into.Members.insert(Into.Members.end(), G.Members.begin(), G.Members.end());
  if (AddMisses)
    for (size_t L = 0; L < Into.Misses.size(); ++L)
      Into.Misses[L] += G.Misses[L];
}

Group *findGroup(std::vector<Group> &Gs, const Group &K) {
  for (Group &G : Gs)
    if (G.Array == K.Array && G.Coef == K.Coef)
      return &G;
  return nullptr;
}

/// The hull of two boxes.
Box hull(const Box &A, const Box &B) {
  Box Out = A;
  for (size_t D = 0; D < A.size() && D < B.size(); ++D) {
    int64_t S = 0;
    if (!A[D].single())
      S = gcd64(S, A[D].Step);
    if (!B[D].single())
      S = gcd64(S, B[D].Step);
    S = gcd64(S, std::llround(std::fabs(A[D].Lo - B[D].Lo)));
    Out[D].Lo = std::min(A[D].Lo, B[D].Lo);
    Out[D].Hi = std::max(A[D].Hi, B[D].Hi);
    Out[D].Step = S ? S : 1;
  }
  return Out;
}

/// Iteration \p I (0-based) of a loop from \p First by \p Step.
int64_t valueAt(int64_t First, int64_t Step, int64_t I) {
  return First + Step * I;
}

} // namespace

//===----------------------------------------------------------------------===//
// Layout
//===----------------------------------------------------------------------===//

CacheLayout
roofline::detail::layoutArrays(const std::vector<const LoopNest *> &Nests,
                               const std::vector<IVValues> &Sizes) {
  CacheLayout Out;
  double Next = 0;
  for (size_t K = 0; K < Nests.size(); ++K) {
    const LoopNest *N = Nests[K];
    const IVValues &Values = Sizes[K];
    std::map<const Loop *, Interval> Ranges = loopRanges(N->Root, Values);
    for (const Array &A : N->Arrays) {
      if (Out.Geoms.count(A.Name))
        continue;
      ArrayGeom G;
      G.Elem = precisionBytes(A.Elem);
      size_t Dims = A.Extents.size();
      G.Pitch.assign(Dims, 1);
      std::vector<double> Ext(Dims, 1);
      for (size_t D = Dims; D-- > 0;) {
        std::optional<double> E;
        if (A.Extents[D]) {
          Interval R = rangeOf(*A.Extents[D], {}, Values);
          if (R.finite() && R.Lo == R.Hi)
            E = R.Lo;
        }
        if (!E && D > 0) {
          G.PitchKnown = false;
          if (Out.WhyNot.empty())
            Out.WhyNot =
                "the extent of a dimension of '" + A.Name + "' is unknown";
        }
        Ext[D] = E.value_or(1);
        if (D > 0)
          G.Pitch[D - 1] = G.Pitch[D] * Ext[D];
      }
      // An unknown first extent (a pointer): as far as the subscripts go.
      if (Dims > 0 && !(A.Extents[0] && Ext[0] > 1)) {
        double Hi = 0;
        forEachStmt(N->Root, [&](const Stmt &S,
                                 const std::vector<const Loop *> &Loops) {
          std::map<std::string, Interval> Vars;
          for (const Loop *L : Loops)
            if (auto It = Ranges.find(L); It != Ranges.end())
              Vars[L->IV] = It->second;
          for (const Access &X : S.Accesses)
            if (X.ArrayName == A.Name && !X.Subscripts.empty() &&
                X.Subscripts[0]) {
              Interval R = rangeOf(*X.Subscripts[0], Vars, Values);
              if (std::isfinite(R.Hi))
                Hi = std::max(Hi, R.Hi + 1);
            }
        });
        Ext[0] = std::max(Ext[0], Hi);
      }
      double Bytes = G.Elem;
      for (double E : Ext)
        Bytes *= E;
      G.BaseBytes = Next;
      G.Extent = Ext;
      Next += std::ceil(std::max(Bytes, 1.0) / PageBytes) * PageBytes;
      Out.Geoms[A.Name] = std::move(G);
    }
  }
  return Out;
}

//===----------------------------------------------------------------------===//
// The model
//===----------------------------------------------------------------------===//

struct PhaseModel::Ctx {
  /// The phase's loops around the current node, outermost first.
  std::vector<const Loop *> Scope;
  /// Variables of the loops outside the phase: coefficients, not swept.
  std::set<std::string> OuterIVs;
  /// Values of the outer loops' variables and of sampled loops'.
  IVValues Env;
  /// Representative values of every enclosing variable (Env, and the first
  /// value of the phase's other loops): where boxes sit for the set mapping.
  IVValues Rep;
  bool DescribeNow = false;
  /// A run (run, runStmt) whose result carries Numeric: once a size or a
  /// trip count has no value its misses are dropped (FunctionSim::account
  /// takes none of a result that is not Numeric), so they are not computed
  /// (numbersWanted). bodyGroups' groups are used whatever Numeric says.
  bool DropsNumbersIfNotNumeric = false;
};

/// Numeric only turns false within a run; the boxes, coefficients and
/// symbolic bounds (what describes the reuse) do not depend on the keep
/// shares and misses, nor does the group's density outside a run.
bool PhaseModel::numbersWanted(const Ctx &C) const {
  return Numeric || !C.DropsNumbersIfNotNumeric;
}

PhaseModel::PhaseModel(const LoopNest &N, const CacheConfig &Cfg,
                       const CacheLayout &Layout, const IVValues &Sizes,
                       std::vector<AccessCacheInfo> *Describe,
                       const std::map<const Access *, unsigned> *Ids)
    : N(N), Cfg(Cfg), Layout(Layout), Sizes(Sizes), Describe(Describe),
      Ids(Ids) {}

const ArrayGeom &PhaseModel::geom(const std::string &A) const {
  static const ArrayGeom None;
  auto It = Layout.Geoms.find(A);
  return It == Layout.Geoms.end() ? None : It->second;
}

bool PhaseModel::dependent(const Loop &L) const {
  auto It = DependentMemo.find(&L);
  if (It != DependentMemo.end())
    return It->second;
  bool Dep = false;
  std::function<void(const Loop &)> Walk = [&](const Loop &X) {
    for (const Node &Nd : X.Body) {
      if (!Nd.isLoop() || Dep)
        continue;
      const Loop &C = Nd.loop();
      Dep |= C.First.uses(L.IV) || C.Last.uses(L.IV);
      Walk(C);
    }
  };
  Walk(L);
  const_cast<PhaseModel *>(this)->DependentMemo[&L] = Dep;
  return Dep;
}

std::optional<int64_t> PhaseModel::evalBound(const Bound &B,
                                             const IVValues &Env) const {
  std::map<std::string, Interval> Vars;
  for (const auto &[Name, V] : Env)
    Vars[Name] = Interval::point(static_cast<double>(V));
  Interval R = rangeOf(B, Vars, Sizes);
  if (!R.finite() || R.Lo != R.Hi)
    return std::nullopt;
  return static_cast<int64_t>(R.Lo);
}

Box PhaseModel::placed(const Box &In, const std::vector<LoopCoefs> &Coef,
                       const IVValues &Env,
                       const std::pair<const std::string *, int64_t> &AtIV) {
  Box B = In;
  for (size_t D = 0; D < B.size() && D < Coef.size(); ++D)
    for (const auto &[IV, K] : Coef[D]) {
      if (AtIV.first && IV == *AtIV.first) {
        double Off = static_cast<double>(K * AtIV.second);
        B[D].Lo += Off;
        B[D].Hi += Off;
        continue;
      }
      auto It = Env.find(IV);
      double Off = It == Env.end() ? 0 : static_cast<double>(K * It->second);
      B[D].Lo += Off;
      B[D].Hi += Off;
    }
  return B;
}

Box PhaseModel::swept(const Group &G, const std::string &IV, int64_t First,
                      int64_t Last, int64_t Step, const IVValues &Env) const {
  // IV at First, the rest by Env: placed without a copy of Env.
  Box B = placed(G.B, G.Coef, Env, {&IV, First});
  int64_t Iters = Step > 0 ? (Last - First) / Step + 1 : (First - Last) / -Step + 1;
  for (size_t D = 0; D < B.size(); ++D) {
    auto It = G.Coef[D].find(IV);
    if (It == G.Coef[D].end() || Iters <= 1)
      continue;
    int64_t S = It->second * Step;
    B[D].Step = G.B[D].single() ? std::llabs(S) : gcd64(B[D].Step, S);
    double Ext = static_cast<double>(S) * static_cast<double>(Iters - 1);
    (Ext > 0 ? B[D].Hi : B[D].Lo) += Ext;
  }
  return B;
}

bool PhaseModel::absolute(const Group &G, const std::string &Except) const {
  if (!G.Exact || G.Coef.empty())
    return G.Exact;
  for (const auto &[IV, K] : G.Coef.back())
    if (IV != Except)
      return false;
  return true;
}

std::vector<Group> PhaseModel::visitStmt(const Stmt &S, Ctx &C) {
  // Reserved here and below: a Group is a dozen vectors, and these grew
  // one element at a time (docs/results/speed.txt).
  std::vector<Group> Gs;
  Gs.reserve(S.Accesses.size());
  for (const Access &A : S.Accesses) {
    Group G;
    G.Array = A.ArrayName;
    G.Read = A.IsRead;
    G.Write = A.IsWrite;
    if (Ids)
      if (auto It = Ids->find(&A); It != Ids->end())
        G.Members.push_back(It->second);
    G.Coef.reserve(A.Subscripts.size());
    G.B.reserve(A.Subscripts.size());
    G.Sym.reserve(A.Subscripts.size());
    for (const std::optional<AffineExpr> &Sub : A.Subscripts) {
      assert(Sub && "checked before the walk");
      LoopCoefs Coef;
      AffineExpr Rest(Sub->constant());
      double Const = static_cast<double>(Sub->constant());
      for (const auto &[Name, K] : Sub->terms()) {
        bool IsIV = C.OuterIVs.count(Name) ||
                    std::any_of(C.Scope.begin(), C.Scope.end(),
                                [&](const Loop *L) { return L->IV == Name; });
        if (IsIV) {
          Coef[Name] = K;
          continue;
        }
        if (std::optional<AffineExpr> T = Rest.add(AffineExpr::var(Name, K)))
          Rest = *T;
        auto It = Sizes.find(Name);
        if (It == Sizes.end()) {
          Numeric = false;
          if (WhyNot.empty())
            WhyNot = "size '" + Name + "' has no value";
        } else {
          Const += static_cast<double>(K) * static_cast<double>(It->second);
        }
      }
      G.Coef.push_back(std::move(Coef));
      G.B.push_back({Const, Const, 1});
      G.Sym.push_back({Rest, Rest});
    }
    G.Misses.assign(levels(), 0);
    if (Group *Same = findGroup(Gs, G))
      uniteInto(*Same, G, false);
    else
      Gs.push_back(std::move(G));
  }
  for (Group &G : Gs)
    for (size_t L = 0; L < levels(); ++L)
      G.Misses[L] = linesOf(G.B, geom(G.Array), Cfg.Levels[L].LineBytes,
                            absolute(G));
  return Gs;
}

std::vector<Group> PhaseModel::visitBody(const Loop &L, Ctx &C) {
  std::vector<Group> Iter;
  for (const Node &X : L.Body) {
    std::vector<Group> K = X.isLoop() ? visitLoop(X.loop(), C, nullptr, 0)
                                      : visitStmt(X.S, C);
    for (Group &G : K) {
      if (Group *Same = findGroup(Iter, G))
        uniteInto(*Same, G, true);
      else
        Iter.push_back(std::move(G));
    }
  }
  return Iter;
}

std::optional<Polynomial> PhaseModel::symBytes(const Group &G) const {
  const ArrayGeom &Ge = geom(G.Array);
  const int64_t Lb = innerLine();
  std::optional<Polynomial> P = Polynomial(Rational(1));
  size_t Dims = G.Sym.size();
  for (size_t D = 0; D < Dims && P; ++D) {
    if (!G.Sym[D].Lo || !G.Sym[D].Hi)
      return std::nullopt;
    std::optional<AffineExpr> Span = G.Sym[D].Hi->sub(*G.Sym[D].Lo);
    if (Span)
      Span = Span->addConstant(1);
    if (!Span)
      return std::nullopt;
    bool Last = D + 1 == Dims;
    if (Last && Span->isConstant() && Span->constant() == 1) {
      P = opt(P->scale(Rational(Lb))); // one element costs its line
      continue;
    }
    std::optional<Polynomial> S = opt(Polynomial::fromAffine(*Span));
    if (S && G.B[D].Step > 1) {
      std::optional<Rational> Inv = Rational::make(1, G.B[D].Step);
      S = Inv ? opt(S->scale(*Inv)) : std::nullopt;
    }
    if (!S)
      return std::nullopt;
    P = opt(P->mul(*S));
    if (Last && P)
      P = opt(P->scale(
          Rational(G.B[D].Step * Ge.Elem >= Lb ? Lb : int64_t(Ge.Elem))));
  }
  if (Dims == 0 && P)
    P = opt(P->scale(Rational(Lb)));
  return P;
}

std::vector<std::vector<double>>
PhaseModel::keptShares(const std::vector<Group> &Iter, const Loop &L, Ctx &C,
                       const std::vector<int64_t> &At) {
  std::vector<std::vector<double>> Out(Iter.size(),
                                       std::vector<double>(levels(), 0));
  for (size_t Lv = 0; Lv < levels(); ++Lv) {
    const CacheLevelSpec &S = Cfg.Levels[Lv];
    // A fully associative level is one set of all its lines.
    unsigned Ways = S.Ways ? S.Ways
                           : static_cast<unsigned>(std::max(
                                 1.0, std::floor(S.SizeBytes / S.LineBytes)));
    unsigned Sets = S.Ways ? static_cast<unsigned>(std::max(
                                 1.0, std::floor(S.SizeBytes /
                                                 (double(S.LineBytes) * Ways))))
                           : 1;
    double Lines = 0;
    for (const Group &G : Iter)
      Lines += linesOf(G.B, geom(G.Array), S.LineBytes, false);
    if (Lines <= Ways) { // even one set holds it all
      for (auto &Row : Out)
        Row[Lv] = 1;
      continue;
    }
    if (Sets == 1) { // fully associative: the union against the size
      if (Lines * S.LineBytes <= S.SizeBytes) {
        for (auto &Row : Out)
          Row[Lv] = 1;
        continue;
      }
    }
    for (int64_t V : At) {
      IVValues Where = C.Rep;
      Where[L.IV] = V;
      SetOccupancy O(Sets, Ways, S.LineBytes);
      for (size_t I = 0; I < Iter.size(); ++I)
        O.add(static_cast<unsigned>(I), Iter[I].Array,
              placed(Iter[I], Where), geom(Iter[I].Array));
      std::vector<double> K = O.keptShares();
      for (size_t I = 0; I < Iter.size(); ++I)
        Out[I][Lv] += K[I] / static_cast<double>(At.size());
    }
  }
  return Out;
}

//===----------------------------------------------------------------------===//
// One loop swept: its bounds, strata, keep shares, steps, then each group
// over the whole loop (visitLoop, from the innermost loop out).
//===----------------------------------------------------------------------===//

namespace {

/// A range of a swept loop's iterations, evaluated at one of them.
struct Stratum {
  int64_t A, Z; ///< first and last iteration index
  int64_t At;   ///< sample iteration index
};

} // namespace

/// What visitLoop knows of one entry of a loop while it sweeps it.
struct PhaseModel::Sweep {
  /// Iterations First + Step*i for i in 0 .. Trip-1.
  int64_t First = 0, Trip = 1;
  /// Symbolic bounds of a rectangular loop (for the distance formulas).
  std::optional<AffineExpr> SymFirst, SymTrip;
  /// Whether the body's shape depends on the loop's variable (sampled).
  bool Dep = false;
  std::vector<Stratum> Strata;
  /// The body's groups: one per stratum when sampled, else one.
  std::vector<std::vector<Group>> Iters;
  /// Keep shares per Iters entry, group and level.
  std::vector<std::vector<std::vector<double>>> Keep;
  /// The entry of Iters the reuse report shows (the middle stratum's).
  size_t Shown = 0;
  /// The data one iteration touches, numerically and as a formula.
  double VInner = 0;
  std::optional<Polynomial> VSym;

  std::vector<Group> &iterOf(size_t S) { return Iters[Dep ? S : 0]; }
  int64_t valueOf(const Loop &L, int64_t I) const {
    return valueAt(First, L.Step, I);
  }
};

bool PhaseModel::sweepBounds(const Loop &L, const Ctx &C, Sweep &W) {
  // This entry's bounds: the variables they use have values (sampled loops
  // and the loops outside the phase).
  std::optional<int64_t> F = evalBound(L.First, C.Rep),
                         Z = evalBound(L.Last, C.Rep);
  if (F && Z) {
    W.First = *F;
    int64_t Span = L.Step > 0 ? *Z - *F : *F - *Z;
    int64_t S = L.Step > 0 ? L.Step : -L.Step;
    W.Trip = Span < 0 ? 0 : Span / S + 1;
  } else {
    Numeric = false;
    if (WhyNot.empty())
      WhyNot = "the trip count of loop '" + L.IV + "' is unknown";
  }
  if (W.Trip <= 0)
    return false;
  // Symbolic bounds of rectangular loops (for the distance formulas).
  bool UsesIV = false;
  for (const Loop *O : C.Scope)
    UsesIV |= L.First.uses(O->IV) || L.Last.uses(O->IV);
  for (const std::string &O : C.OuterIVs)
    UsesIV |= L.First.uses(O) || L.Last.uses(O);
  if (!UsesIV && L.First.isAffine() && L.Last.isAffine() &&
      (L.Step == 1 || L.Step == -1)) {
    W.SymFirst = L.First.affine();
    std::optional<AffineExpr> D =
        L.Step == 1 ? L.Last.affine().sub(L.First.affine())
                    : L.First.affine().sub(L.Last.affine());
    if (D)
      W.SymTrip = D->addConstant(1);
  }
  return true;
}

namespace {

/// Strata of \p Trip iterations: the first alone where the body's shape
/// depends on the variable (\p Dep: its own misses are the cold ones), then
/// ranges, each evaluated at its middle.
std::vector<Stratum> strataOf(int64_t Trip, bool Dep) {
  std::vector<Stratum> Strata;
  unsigned K = Dep ? 16u : 1u;
  int64_t Begin = 0;
  if (Dep && Trip > 1) {
    Strata.push_back({0, 0, 0});
    Begin = 1;
  }
  int64_t Left = Trip - Begin;
  int64_t Parts = std::min<int64_t>(Left, K);
  for (int64_t P = 0; P < Parts; ++P) {
    int64_t A = Begin + Left * P / Parts, Z = Begin + Left * (P + 1) / Parts - 1;
    Strata.push_back({A, Z, Dep ? (A + Z) / 2 : A});
  }
  return Strata;
}

} // namespace

void PhaseModel::visitStrata(const Loop &L, Ctx &C, Sweep &W) {
  C.Scope.push_back(&L);
  bool WasDescribing = C.DescribeNow;
  if (W.Dep) {
    size_t Mid = W.Strata.size() / 2;
    for (size_t I = 0; I < W.Strata.size(); ++I) {
      int64_t V = W.valueOf(L, W.Strata[I].At);
      C.Env[L.IV] = V;
      C.Rep[L.IV] = V;
      C.DescribeNow = WasDescribing && I == Mid;
      W.Iters.push_back(visitBody(L, C));
    }
    C.Env.erase(L.IV);
  } else {
    C.Rep[L.IV] = W.First;
    W.Iters.push_back(visitBody(L, C));
  }
  C.DescribeNow = WasDescribing;
  C.Rep.erase(L.IV);
  C.Scope.pop_back();
}

void PhaseModel::keepAcrossIterations(const Loop &L, Ctx &C, Sweep &W) {
  // Keep shares per stratum (one evaluation when uniform: positions spread
  // over the loop, so that groups the loop moves past each other are seen at
  // several relative offsets).
  W.Keep.resize(W.Iters.size());
  for (size_t S = 0; S < W.Iters.size(); ++S) {
    if (!numbersWanted(C)) {
      // Zero shares keep the indexing; nothing reads them (see Ctx).
      W.Keep[S].assign(W.Iters[S].size(), std::vector<double>(levels(), 0));
      continue;
    }
    std::vector<int64_t> At;
    // Groups the loop moves by different amounts meet different sets at
    // different iterations: the share kept is averaged over iterations
    // spread without a power-of-two pattern (a golden-ratio sequence), so
    // that set strides do not alias with the samples.
    bool Relative = false;
    std::optional<double> Shift;
    for (const Group &G : W.Iters[S]) {
      const ArrayGeom &Ge = geom(G.Array);
      double Bytes = 0;
      for (size_t D = 0; D < G.Coef.size() && D < Ge.Pitch.size(); ++D)
        if (auto It = G.Coef[D].find(L.IV); It != G.Coef[D].end())
          Bytes += static_cast<double>(It->second) * Ge.Pitch[D] * Ge.Elem;
      if (Shift && *Shift != Bytes)
        Relative = true;
      Shift = Bytes;
    }
    if (W.Dep || !Relative || W.Trip <= 1) {
      At.push_back(W.valueOf(L, W.Dep ? W.Strata[S].At : 0));
    } else {
      int64_t P = std::min<int64_t>(W.Trip, 8);
      for (int64_t I = 0; I < P; ++I) {
        double F = std::fmod(0.5 + static_cast<double>(I) * 0.6180339887498949, 1.0);
        At.push_back(W.valueOf(
            L, static_cast<int64_t>(F * static_cast<double>(W.Trip))));
      }
    }
    W.Keep[S] = keptShares(W.Iters[S], L, C, At);
    // Reuse within one iteration survives for the share kept.
    for (size_t G = 0; G < W.Iters[S].size(); ++G) {
      Group &Gr = W.Iters[S][G];
      for (size_t Lv = 0; Lv < levels(); ++Lv) {
        double Lines = Gr.Density * linesOf(Gr.B, geom(Gr.Array),
                                            Cfg.Levels[Lv].LineBytes,
                                            absolute(Gr));
        double M = Gr.Misses[Lv], Kp = W.Keep[S][G][Lv];
        Gr.Misses[Lv] = Kp * std::min(M, Lines) + (1 - Kp) * M;
      }
    }
  }
}

void PhaseModel::recordSteps(const Loop &L, Sweep &W,
                             std::vector<std::vector<PhaseTouch>> &Steps,
                             unsigned MaxSteps) const {
  // Steps of the phase's outermost loop: what each range of iterations
  // touches, relative to the loops outside. A sampled loop's strata are
  // cut further, each piece with its stratum's groups.
  int64_t Per = std::max<int64_t>(1, static_cast<int64_t>(MaxSteps) /
                                         static_cast<int64_t>(W.Strata.size()));
  std::vector<const Group *> Seen;
  auto GroupId = [&](const Group &G) {
    for (size_t I = 0; I < Seen.size(); ++I)
      if (Seen[I]->Array == G.Array && Seen[I]->Coef == G.Coef)
        return static_cast<unsigned>(I);
    Seen.push_back(&G);
    return static_cast<unsigned>(Seen.size() - 1);
  };
  for (size_t S = 0; S < W.Strata.size(); ++S) {
    int64_t Len = W.Strata[S].Z - W.Strata[S].A + 1;
    int64_t Pieces = std::min(Per, Len);
    for (int64_t P = 0; P < Pieces; ++P) {
      int64_t A = W.Strata[S].A + Len * P / Pieces,
              Z = W.Strata[S].A + Len * (P + 1) / Pieces - 1;
      std::vector<PhaseTouch> T;
      T.reserve(W.iterOf(S).size());
      IVValues None;
      for (const Group &G : W.iterOf(S)) {
        PhaseTouch X{G.Array,
                     swept(G, L.IV, W.valueOf(L, A), W.valueOf(L, Z), L.Step,
                           None),
                     G.Coef, G.Density, GroupId(G), G.Write};
        for (auto &M : X.Coef)
          M.erase(L.IV);
        T.push_back(std::move(X));
      }
      Steps.push_back(std::move(T));
    }
  }
}

namespace {

/// How a group's data moves from one iteration of a loop to the next.
struct LoopReuse {
  bool Moves = false;
  /// Iterations until an element or line is touched again (>= 1: reuse).
  double Delta = 0;
  ReuseKind Kind = ReuseKind::Temporal;
};

/// The shift per iteration of \p L, reuse distance and kind of \p Ref
/// (\p Dims dimensions, its array laid out as \p Ge; \p LineBytes: the
/// innermost level's line).
LoopReuse reuseAcross(const Group &Ref, size_t Dims, const ArrayGeom &Ge,
                      const Loop &L, int64_t Trip, unsigned LineBytes) {
  std::vector<double> Shift(Dims, 0);
  LoopReuse R;
  for (size_t D = 0; D < Dims; ++D) {
    auto It = Ref.Coef[D].find(L.IV);
    if (It == Ref.Coef[D].end())
      continue;
    Shift[D] = static_cast<double>(It->second) * L.Step;
    R.Moves = true;
  }
  if (!R.Moves) {
    R.Delta = 1;
  } else {
    R.Delta = std::numeric_limits<double>::infinity();
    bool ElementOverlap = true;
    for (size_t D = 0; D < Dims; ++D) {
      if (Shift[D] == 0)
        continue;
      double W = Ref.B[D].Hi - Ref.B[D].Lo + 1, S = std::fabs(Shift[D]);
      double Dd;
      double E = Ge.Elem, Lb = LineBytes;
      // Whole rows below D make the box one run in memory: the next
      // iteration's run shares a line with this one's while it starts
      // within a line of its end (rows that do not end on a line).
      bool WholeRows = D + 1 < Dims && Ge.PitchKnown;
      for (size_t M = D + 1; M < Dims && WholeRows; ++M)
        WholeRows = Ref.B[M].Step == 1 && Ref.B[M].Lo == 0 &&
                    M < Ge.Extent.size() &&
                    Ref.B[M].Hi + 1 >= Ge.Extent[M] - 1e-9;
      if (D + 1 == Dims)
        Dd = std::floor((W * E + Lb - E - 1) / (S * E));
      else if (WholeRows) {
        // A run of whole rows that ends on a line shares none with a
        // run that starts after it.
        double Row = Ge.Pitch[D] * E;
        double Slack = std::fmod(Row, Lb) == 0 ? 0 : Lb - E;
        Dd = std::floor((W * Row + Slack - 1) / (S * Row));
      }
      else
        Dd = std::floor((W - 1) / S);
      ElementOverlap &= S < W;
      R.Delta = std::min(R.Delta, Dd);
    }
    if (!ElementOverlap)
      R.Kind = ReuseKind::Spatial;
    else
      R.Kind = Ref.Members.size() > 1 ? ReuseKind::Group : ReuseKind::Temporal;
  }
  if (R.Delta >= 1)
    R.Delta = std::min(R.Delta, std::max(1.0, static_cast<double>(Trip) - 1));
  return R;
}

/// \p Up's symbolic bounds swept over the loop \p L (rectangular: First
/// \p SymFirst, \p SymTrip iterations); unknown where L is not.
void sweepSymbolic(Group &Up, const Group &Ref, size_t Dims, const Loop &L,
                   const std::optional<AffineExpr> &SymFirst,
                   const std::optional<AffineExpr> &SymTrip) {
  for (size_t D = 0; D < Dims; ++D) {
    Up.Coef[D].erase(L.IV);
    auto It = Ref.Coef[D].find(L.IV);
    if (It == Ref.Coef[D].end())
      continue;
    int64_t Kc = It->second;
    SymDim &S = Up.Sym[D];
    if (!SymFirst || !SymTrip || !S.Lo || !S.Hi) {
      S.Lo.reset();
      S.Hi.reset();
      continue;
    }
    // IV runs over First .. First + Step*(Trip-1).
    std::optional<AffineExpr> At0 = SymFirst->scale(Kc);
    std::optional<AffineExpr> Span = SymTrip->addConstant(-1);
    if (Span)
      Span = Span->scale(Kc * L.Step);
    if (!At0 || !Span) {
      S.Lo.reset();
      S.Hi.reset();
      continue;
    }
    std::optional<AffineExpr> Lo = S.Lo->add(*At0), Hi = S.Hi->add(*At0);
    if (Lo && Hi) {
      if (Kc * L.Step > 0)
        Hi = Hi->add(*Span);
      else
        Lo = Lo->add(*Span);
    }
    S.Lo = Lo;
    S.Hi = Hi;
  }
}

} // namespace

bool PhaseModel::sweepMisses(const Loop &L, const Ctx &C, Sweep &W,
                             const Group &Key, const Group &Ref, bool Reuse,
                             Group &Up, double &FreshInner) {
  // Misses over the loop, stratum by stratum: the first iteration pays
  // its own; after it, the share a level keeps fetches only the lines
  // the stratum adds to what the previous iterations touched, the rest
  // fetches every iteration's again.
  const ArrayGeom &Ge = geom(Key.Array);
  bool Exact = absolute(Ref, L.IV);
  std::vector<double> Total(levels(), 0);
  std::optional<Box> Prev, Hull;
  // A sampled loop's strata: the lines each adds to the union of the
  // ones before (a triangle as its staircase, rows that do not start on
  // a line counted where they lie).
  std::vector<LineSet> Union;
  for (size_t Lv = 0; Lv < levels() && W.Dep; ++Lv)
    Union.emplace_back(Cfg.Levels[Lv].LineBytes);
  const bool Wanted = numbersWanted(C);
  Up = Ref;
  Up.Members.clear();
  Up.Read = Up.Write = false;
  Up.Exact = true;
  for (size_t S = 0; S < W.Strata.size(); ++S) {
    const Group *G = findGroup(W.iterOf(S), Key);
    if (!G) {
      Prev.reset();
      continue;
    }
    if (W.Dep || S == 0) {
      Up.Read |= G->Read;
      Up.Write |= G->Write;
      Up.Exact &= G->Exact;
      Up.Density = std::min(Up.Density, G->Density);
      for (unsigned M : G->Members)
        if (std::find(Up.Members.begin(), Up.Members.end(), M) ==
            Up.Members.end())
          Up.Members.push_back(M);
    }
    size_t KS = W.Dep ? S : 0;
    size_t GI = static_cast<size_t>(G - W.iterOf(S).data());
    int64_t A = W.valueOf(L, W.Strata[S].A), Zv = W.valueOf(L, W.Strata[S].Z);
    int64_t Wd = W.Strata[S].Z - W.Strata[S].A + 1;
    IVValues None;
    Box H = swept(*G, L.IV, A, Zv, L.Step, None);
    Box One = swept(*G, L.IV, A, A, L.Step, None);
    Box Placed;
    if (W.Dep)
      Placed = swept(*G, L.IV, A, Zv, L.Step, C.Rep);
    // The misses, and the fresh lines the density is made of, are numbers
    // (see Ctx::DropsNumbersIfNotNumeric).
    for (size_t Lv = 0; Lv < levels() && Wanted; ++Lv) {
      unsigned Lb = Cfg.Levels[Lv].LineBytes;
      double M = G->Misses[Lv], Kp = W.Keep[KS][GI][Lv];
      if (Lv < G->Throughout.size())
        Kp = std::max(Kp, G->Throughout[Lv]);
      double LH = G->Density * linesOf(H, Ge, Lb, Exact);
      double Fresh = LH;
      std::optional<double> Added;
      if (W.Dep)
        Added = Union[Lv].add(Placed, Ge);
      if (Added)
        Fresh = G->Density * *Added;
      else if (Prev)
        Fresh -= G->Density * sharedLines(H, *Prev, Ge, Lb, Exact);
      Fresh = std::max(0.0, Fresh);
      if (S == 0 && W.Strata[S].A == 0) {
        // The first iteration's own misses, then (uniform loops) the
        // sweep over the others.
        double LOne = G->Density * linesOf(One, Ge, Lb, Exact);
        double Rest = std::max(0.0, LH - LOne);
        Total[Lv] += Wd <= 1 || !Reuse
                         ? M * static_cast<double>(Wd)
                         : Kp * (M + Rest) +
                               (1 - Kp) * M * static_cast<double>(Wd);
      } else {
        Total[Lv] += Reuse ? Kp * Fresh +
                                 (1 - Kp) * M * static_cast<double>(Wd)
                           : M * static_cast<double>(Wd);
      }
      if (Lv == 0)
        FreshInner += Fresh;
    }
    Hull = Hull ? hull(*Hull, H) : H;
    Prev = H;
  }
  if (!Hull)
    return false;
  Up.B = *Hull;
  Up.Misses = Total;
  return true;
}

void PhaseModel::describeReuse(const Loop &L, Sweep &W, const Group &Key,
                               ReuseKind Kind, double Delta,
                               const Group &Up) {
  ReuseInfo Info;
  Info.Loop = L.IV;
  Info.Kind = Kind;
  Info.Iterations = static_cast<unsigned>(Delta);
  if (Numeric) {
    Info.DistanceBytes = W.VInner;
    const Group *G = findGroup(W.Iters[W.Shown], Key);
    size_t GI = G ? static_cast<size_t>(G - W.Iters[W.Shown].data()) : 0;
    for (size_t Lv = 0; Lv < levels(); ++Lv)
      Info.Fits.push_back(!G || W.Keep[W.Shown][GI][Lv] >= 0.5);
  }
  if (W.VSym)
    Info.DistanceFormula = W.VSym->str();
  for (unsigned Id : Up.Members)
    (*Describe)[Id].Reuse.push_back(Info);
}

std::optional<Group> PhaseModel::sweepGroup(const Loop &L, const Ctx &C,
                                            Sweep &W, const Group &Key) {
  // Shift per iteration, reuse distance and kind (from the shown stratum,
  // else the first that has the group).
  const Group *Ref = findGroup(W.Iters[W.Shown], Key);
  if (!Ref)
    for (size_t S = 0; S < W.Iters.size() && !Ref; ++S)
      Ref = findGroup(W.Iters[S], Key);
  size_t Dims = Key.B.size();
  LoopReuse R =
      reuseAcross(*Ref, Dims, geom(Key.Array), L, W.Trip, innerLine());

  Group Up;
  double FreshInner = 0;
  bool Reuse = R.Delta >= 1 || (W.Dep && !R.Moves);
  if (!sweepMisses(L, C, W, Key, *Ref, Reuse, Up, FreshInner))
    return std::nullopt;
  if (R.Delta >= 1 && C.DescribeNow && Describe)
    describeReuse(L, W, Key, R.Kind, R.Delta, Up);

  // The group over the whole loop, relative to the loops outside.
  Up.Throughout.clear();
  if (!R.Moves && W.Trip > 1) {
    const Group *G = findGroup(W.Iters[W.Shown], Key);
    if (G) {
      size_t GI = static_cast<size_t>(G - W.Iters[W.Shown].data());
      Up.Throughout = W.Keep[W.Shown][GI];
    }
  }
  if (W.Dep) {
    double HullLines = linesOf(Up.B, geom(Key.Array), innerLine(), Up.Exact);
    if (HullLines > 0)
      Up.Density = std::min(1.0, std::max(FreshInner, 1.0) / HullLines);
  }
  sweepSymbolic(Up, *Ref, Dims, L, W.SymFirst, W.SymTrip);
  return Up;
}

std::vector<Group>
PhaseModel::visitLoop(const Loop &L, Ctx &C,
                      std::vector<std::vector<PhaseTouch>> *Steps,
                      unsigned MaxSteps) {
  Sweep W;
  if (!sweepBounds(L, C, W))
    return {};
  W.Dep = dependent(L) && Numeric;
  W.Strata = strataOf(W.Trip, W.Dep);
  visitStrata(L, C, W);
  keepAcrossIterations(L, C, W);
  if (Steps)
    recordSteps(L, W, *Steps, MaxSteps);

  // The data one iteration touches, for the reuse report (the middle
  // stratum's when sampled).
  W.Shown = W.Dep ? W.Strata.size() / 2 : 0;
  W.VSym = Polynomial(Rational(0));
  for (const Group &G : W.Iters[W.Shown]) {
    W.VInner += G.Density *
                linesOf(G.B, geom(G.Array), innerLine(), absolute(G)) *
                innerLine();
    std::optional<Polynomial> B = symBytes(G);
    W.VSym = W.VSym && B ? opt(W.VSym->add(*B)) : std::nullopt;
  }

  // Group keys in order of first appearance over the strata.
  std::vector<const Group *> Keys;
  Keys.reserve(W.Iters.front().size());
  for (const std::vector<Group> &It : W.Iters)
    for (const Group &G : It)
      if (std::none_of(Keys.begin(), Keys.end(), [&](const Group *K) {
            return K->Array == G.Array && K->Coef == G.Coef;
          }))
        Keys.push_back(&G);

  std::vector<Group> Outv;
  Outv.reserve(Keys.size());
  for (const Group *Key : Keys) {
    std::optional<Group> Up = sweepGroup(L, C, W, *Key);
    if (!Up)
      continue;
    if (Group *Same = findGroup(Outv, *Up))
      uniteInto(*Same, *Up, true);
    else
      Outv.push_back(std::move(*Up));
  }
  return Outv;
}

PhaseResult PhaseModel::collect(const std::vector<Group> &Top,
                                std::vector<std::vector<PhaseTouch>> Steps) {
  PhaseResult R;
  for (const Group &G : Top)
    R.Groups.push_back({G.Array, G.Read, G.Write, G.Misses});
  R.Steps = std::move(Steps);
  R.Numeric = Numeric;
  R.WhyNot = WhyNot;
  return R;
}

PhaseModel::Ctx PhaseModel::startRun(const std::vector<const Loop *> &Outer,
                                     const IVValues &Env) {
  Numeric = Layout.WhyNot.empty();
  WhyNot = Layout.WhyNot;
  Ctx C;
  for (const Loop *O : Outer)
    C.OuterIVs.insert(O->IV);
  C.Env = Env;
  C.Rep = Env;
  return C;
}

PhaseResult PhaseModel::run(const Loop &P,
                            const std::vector<const Loop *> &Outer,
                            const IVValues &Env, unsigned MaxSteps) {
  Ctx C = startRun(Outer, Env);
  C.DropsNumbersIfNotNumeric = true;
  C.DescribeNow = Describe != nullptr;
  std::vector<std::vector<PhaseTouch>> Steps;
  std::vector<Group> Top = visitLoop(P, C, &Steps, MaxSteps);
  return collect(Top, std::move(Steps));
}

PhaseResult PhaseModel::runStmt(const Stmt &S,
                                const std::vector<const Loop *> &Outer,
                                const IVValues &Env) {
  Ctx C = startRun(Outer, Env);
  std::vector<Group> Top = visitStmt(S, C);
  std::vector<PhaseTouch> Step;
  for (const Group &G : Top)
    Step.push_back({G.Array, G.B, G.Coef, 1,
                    static_cast<unsigned>(Step.size()), G.Write});
  return collect(Top, {std::move(Step)});
}

std::vector<Group>
PhaseModel::bodyGroups(const Loop &L, const std::vector<const Loop *> &Outer,
                       const IVValues &Env) {
  Numeric = Layout.WhyNot.empty();
  Ctx C;
  for (const Loop *O : Outer)
    C.OuterIVs.insert(O->IV);
  C.Env = Env;
  C.Rep = Env;
  std::optional<int64_t> F = evalBound(L.First, C.Rep);
  C.Scope.push_back(&L);
  C.Rep[L.IV] = F.value_or(0);
  return visitBody(L, C);
}
