//===- CacheModel.cpp - Traffic through the cache levels ------------------===//

#include "roofline/Analysis/CacheModel.h"

#include "IterationSpace.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <functional>
#include <numeric>

using namespace roofline;
using namespace roofline::detail;

CacheConfig roofline::cacheConfigFor(const Machine &M) {
  CacheConfig Cfg;
  Cfg.WriteAllocate = M.WriteAllocate;
  for (size_t I = M.Levels.size(); I-- > 1;) {
    const MemoryLevel &L = M.Levels[I];
    if (!L.SizeBytes)
      continue;
    Cfg.Levels.push_back(
        {L.Name, *L.SizeBytes, M.lineBytesFor(L), L.Ways.value_or(0)});
  }
  return Cfg;
}

const char *roofline::reuseKindName(ReuseKind K) {
  switch (K) {
  case ReuseKind::Temporal:
    return "temporal";
  case ReuseKind::Spatial:
    return "spatial";
  case ReuseKind::Group:
    return "group";
  }
  return "temporal";
}

std::optional<std::vector<double>>
roofline::bytesPerMachineLevel(const CacheAnalysis &A, const Machine &M,
                               double RegisterBytes) {
  if (A.Levels.empty() || !A.MainMemoryBytes || M.Levels.empty())
    return std::nullopt;
  // Machine order is main memory first, then caches towards the core; the
  // analysis has the caches innermost first.
  std::vector<double> Out{*A.MainMemoryBytes};
  for (size_t I = 1; I < M.Levels.size(); ++I) {
    // A cache delivers what the cache just inside it misses; the innermost
    // one, every executed reference.
    const std::string &Inner =
        I + 1 < M.Levels.size() ? M.Levels[I + 1].Name : std::string();
    if (Inner.empty()) {
      Out.push_back(RegisterBytes);
      continue;
    }
    auto It = std::find_if(A.Levels.begin(), A.Levels.end(),
                           [&](const CacheLevelTraffic &T) {
                             return T.Name == Inner;
                           });
    if (It == A.Levels.end())
      return std::nullopt;
    Out.push_back(It->bytes());
  }
  return Out;
}

namespace {

//===----------------------------------------------------------------------===//
// Footprints in cache lines
//===----------------------------------------------------------------------===//

/// An array's layout: row-major, element size and elements per index of
/// each dimension.
struct Geom {
  unsigned Elem = 0;
  std::vector<double> Pitch;
  bool PitchKnown = true; ///< every extent but the first has a value
};

/// The values one dimension's subscript takes over a set of loops: an
/// arithmetic progression from Lo to Hi with step Step, relative to the
/// loops outside (their terms stay in Group::Coef).
struct DimBox {
  double Lo = 0, Hi = 0;
  int64_t Step = 1;
  bool single() const { return Hi - Lo < 0.5; }
  double values() const {
    if (single())
      return 1;
    return Step > 1 ? std::floor((Hi - Lo) / Step + 1e-9) + 1 : Hi - Lo + 1;
  }
};

int64_t gcd64(int64_t A, int64_t B) {
  return std::gcd(A < 0 ? -A : A, B < 0 ? -B : B);
}

/// Distinct lines of \p B. \p Exact: positions are absolute, so the line
/// boundaries are known (arrays start on a line); otherwise the expected
/// count over alignments.
double linesOf(const std::vector<DimBox> &B, const Geom &G, unsigned Lb,
               bool Exact) {
  size_t N = B.size();
  if (N == 0)
    return 1;
  double E = G.Elem;
  size_t D = N - 1;
  if (!B[D].single() && B[D].Step * E >= Lb) {
    double T = 1;
    for (const DimBox &X : B)
      T *= X.values();
    return T; // every element in a line of its own
  }
  double Run = B[D].Hi - B[D].Lo + 1; // contiguous elements
  double Start = B[D].Lo;
  // A run over whole rows continues into the next row.
  while (D > 0 && Start == 0 && Run >= G.Pitch[D - 1] - 1e-9 &&
         B[D - 1].Step == 1) {
    Run = (B[D - 1].Hi - B[D - 1].Lo + 1) * G.Pitch[D - 1];
    Start = B[D - 1].Lo * G.Pitch[D - 1];
    --D;
  }
  double R = Run * E, StartB = Start * E;
  bool Aligned = Exact;
  for (size_t M = 0; M < D; ++M)
    Aligned &= std::fmod(G.Pitch[M] * E, Lb) == 0;
  double PerRun =
      Aligned ? std::floor((StartB + R - 1) / Lb) - std::floor(StartB / Lb) + 1
              : 1 + (R - E) / Lb;
  if (D > 0) {
    double Gap = B[D - 1].Step * G.Pitch[D - 1] * E;
    if (Gap < Lb) { // rows shorter than a line share lines
      double Region = (B[D - 1].values() - 1) * Gap + R;
      double Outer = 1;
      for (size_t M = 0; M + 1 < D; ++M)
        Outer *= B[M].values();
      return Outer * (1 + (Region - E) / Lb);
    }
  }
  double Runs = 1;
  for (size_t M = 0; M < D; ++M)
    Runs *= B[M].values();
  return Runs * PerRun;
}

/// Whether the lines of \p B can all be resident in a \p Ways-way cache of
/// \p Sets sets with modulo indexing. Only a column walk is judged (one
/// element of the contiguous dimension, one outer dimension stepping):
/// consecutive lines sit LineStride lines apart and reach only
/// Sets / gcd(Sets, LineStride) sets. Other shapes spread over the sets.
bool fitsTheSets(const std::vector<DimBox> &B, const Geom &G, unsigned Lb,
                 unsigned Ways, double Sets) {
  size_t N = B.size();
  if (Ways == 0 || N < 2 || !G.PitchKnown || Sets < 2 ||
      (B[N - 1].Hi - B[N - 1].Lo + 1) * G.Elem > Lb)
    return true;
  size_t Moving = N;
  for (size_t D = 0; D + 1 < N; ++D)
    if (!B[D].single()) {
      if (Moving != N)
        return true; // more than one stepping dimension: not judged
      Moving = D;
    }
  if (Moving == N)
    return true;
  double RowBytes = B[Moving].Step * G.Pitch[Moving] * G.Elem;
  if (RowBytes < Lb || std::fmod(RowBytes, Lb) != 0)
    return true;
  int64_t LineStride = static_cast<int64_t>(RowBytes / Lb);
  int64_t SetCount = static_cast<int64_t>(Sets);
  double Reachable = static_cast<double>(SetCount / gcd64(SetCount, LineStride));
  return B[Moving].values() <= Reachable * Ways;
}

//===----------------------------------------------------------------------===//
// Symbolic footprints (for the layer-condition formulas)
//===----------------------------------------------------------------------===//

std::optional<Polynomial> opt(llvm::Expected<Polynomial> P) {
  if (!P) {
    llvm::consumeError(P.takeError());
    return std::nullopt;
  }
  return std::move(*P);
}

/// One dimension in the sizes: Lo..Hi as affine expressions in the sizes.
struct SymDim {
  std::optional<AffineExpr> Lo, Hi;
};

//===----------------------------------------------------------------------===//
// Groups
//===----------------------------------------------------------------------===//

struct Group {
  std::string Array;
  /// Per dimension: coefficient of each loop variable still outside.
  std::vector<std::map<std::string, int64_t>> Coef;
  std::vector<DimBox> Box;
  std::vector<SymDim> Sym;
  bool Exact = true;
  std::vector<double> Misses; ///< per cache level, one execution
  bool Read = false, Write = false;
  std::vector<unsigned> Members; ///< access ids
};

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
  for (size_t D = 0; D < Into.Box.size(); ++D) {
    DimBox &A = Into.Box[D];
    const DimBox &B = G.Box[D];
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
  Into.Read |= G.Read;
  Into.Write |= G.Write;
  Into.Members.insert(Into.Members.end(), G.Members.begin(), G.Members.end());
  if (AddMisses)
    for (size_t L = 0; L < Into.Misses.size(); ++L)
      Into.Misses[L] += G.Misses[L];
}

/// Whether \p G's box sits at known addresses (line boundaries known): the
/// contiguous dimension has no term of an outer loop but \p Except.
bool absolute(const Group &G, const std::string &Except = "") {
  if (!G.Exact || G.Coef.empty())
    return G.Exact;
  for (const auto &[IV, K] : G.Coef.back())
    if (IV != Except)
      return false;
  return true;
}

Group *findGroup(std::vector<Group> &Gs, const Group &K) {
  for (Group &G : Gs)
    if (G.Array == K.Array && G.Coef == K.Coef)
      return &G;
  return nullptr;
}

struct LoopFacts {
  double Trip = 0;        ///< average iterations per entry
  double First = 0;       ///< first value, outer loops at their first values
  bool FirstConst = true; ///< First uses no loop variable
  std::optional<AffineExpr> SymFirst, SymTrip; ///< rectangular loops only
};

class Model {
public:
  Model(const LoopNest &N, const NestCounts &C, const CacheConfig &Cfg)
      : N(N), C(C), Cfg(Cfg), Values(paramValues(N, C.Values)) {}

  llvm::Expected<CacheAnalysis> run();

private:
  const LoopNest &N;
  const NestCounts &C;
  const CacheConfig &Cfg;
  std::map<std::string, int64_t> Values;
  std::map<std::string, Geom> Geoms;
  std::map<const Loop *, LoopFacts> Facts;
  std::map<const Access *, unsigned> Ids;
  CacheAnalysis Out;
  bool Numeric = true;
  std::string WhyNot;

  size_t levels() const { return Cfg.Levels.size(); }
  unsigned innerLine() const {
    return Cfg.Levels.empty() ? 64 : Cfg.Levels.front().LineBytes;
  }

  llvm::Error prepare();
  void describeAccesses();
  std::vector<Group> visitStmt(const Stmt &S,
                               const std::vector<const Loop *> &Scope);
  std::vector<Group> visitLoop(const Loop &L, std::vector<const Loop *> &Scope);
  std::optional<Polynomial> symBytes(const Group &G) const;
  std::optional<Polynomial> symbolicStride(const Access &A,
                                           const Loop &L) const;
};

llvm::Error Model::prepare() {
  assert(!hasShadowing(N) && "analyzeCache renames shadowing IVs first");
  for (const Array &A : N.Arrays) {
    Geom G;
    G.Elem = precisionBytes(A.Elem);
    size_t Dims = A.Extents.size();
    G.Pitch.assign(Dims, 1);
    for (size_t D = Dims; D-- > 1;) {
      std::optional<double> Ext;
      if (A.Extents[D]) {
        Interval R = rangeOf(*A.Extents[D], {}, Values);
        if (R.finite() && R.Lo == R.Hi)
          Ext = R.Lo;
      }
      if (!Ext) {
        Numeric = false;
        G.PitchKnown = false;
        WhyNot = "the extent of a dimension of '" + A.Name + "' is unknown";
        Ext = 1;
      }
      G.Pitch[D - 1] = G.Pitch[D] * *Ext;
    }
    Geoms[A.Name] = std::move(G);
  }
  std::vector<const Loop *> Pre = preorderLoops(N.Root);
  if (Pre.size() != C.Loops.size())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "loop list does not match the counts");
  std::map<const Loop *, double> Total;
  for (size_t I = 0; I < Pre.size(); ++I) {
    if (!C.Loops[I].Total.Value) {
      Numeric = false;
      if (WhyNot.empty())
        WhyNot = C.Loops[I].Total.WhyNot.empty()
                     ? "the trip count of loop '" + Pre[I]->IV + "' is unknown"
                     : C.Loops[I].Total.WhyNot;
      continue;
    }
    Total[Pre[I]] = static_cast<double>(*C.Loops[I].Total.Value);
  }
  // Entries of a loop = executions of its parent's body.
  std::function<void(const Loop &, double, std::map<std::string, Interval> &)>
      Walk = [&](const Loop &L, double Entries,
                 std::map<std::string, Interval> &Firsts) {
        LoopFacts F;
        double T = Total.count(&L) ? Total[&L] : 0;
        F.Trip = Entries > 0 ? T / Entries : 0;
        F.First = rangeOf(L.First, Firsts, Values).Lo;
        bool UsesIV = false;
        for (const auto &[Name, I] : Firsts)
          UsesIV |= L.First.uses(Name) || L.Last.uses(Name);
        F.FirstConst = !UsesIV;
        if (!UsesIV && L.First.isAffine() && L.Last.isAffine() &&
            (L.Step == 1 || L.Step == -1)) {
          F.SymFirst = L.First.affine();
          std::optional<AffineExpr> D =
              L.Step == 1 ? L.Last.affine().sub(L.First.affine())
                          : L.First.affine().sub(L.Last.affine());
          if (D)
            F.SymTrip = D->addConstant(1);
        }
        if (!std::isfinite(F.First))
          F.First = 0;
        Facts[&L] = F;
        Firsts[L.IV] = Interval::point(F.First);
        for (const Node &X : L.Body)
          if (X.isLoop())
            Walk(X.loop(), T, Firsts);
        Firsts.erase(L.IV);
      };
  std::map<std::string, Interval> Firsts;
  Walk(N.Root, 1, Firsts);
  return llvm::Error::success();
}

std::optional<Polynomial> Model::symbolicStride(const Access &A,
                                                const Loop &L) const {
  const Array *Arr = N.findArray(A.ArrayName);
  if (!Arr)
    return std::nullopt;
  std::optional<Polynomial> Sum = Polynomial(Rational(0));
  size_t Dims = A.Subscripts.size();
  for (size_t D = 0; D < Dims && Sum; ++D) {
    int64_t K = A.Subscripts[D] ? A.Subscripts[D]->coeff(L.IV) : 0;
    if (!K)
      continue;
    std::optional<Polynomial> Pitch = Polynomial(Rational(1));
    for (size_t M = D + 1; M < Dims && Pitch; ++M) {
      if (M >= Arr->Extents.size() || !Arr->Extents[M])
        return std::nullopt;
      std::optional<Polynomial> E = opt(Polynomial::fromAffine(*Arr->Extents[M]));
      Pitch = E ? opt(Pitch->mul(*E)) : std::nullopt;
    }
    std::optional<Polynomial> T =
        Pitch ? opt(Pitch->scale(Rational(K * L.Step * int64_t(
                                              precisionBytes(Arr->Elem)))))
              : std::nullopt;
    Sum = T ? opt(Sum->add(*T)) : std::nullopt;
  }
  return Sum;
}

void Model::describeAccesses() {
  for (const StmtRef &R : collectStmts(N.Root)) {
    for (const Access &A : R.S->Accesses) {
      Ids[&A] = static_cast<unsigned>(Out.Accesses.size());
      AccessCacheInfo I;
      I.Text = A.Text;
      I.Loc = A.Loc;
      I.Array = A.ArrayName;
      I.IsRead = A.IsRead;
      I.IsWrite = A.IsWrite;
      I.LineBytes = innerLine();
      const Geom &G = Geoms[A.ArrayName];
      I.ElemBytes = G.Elem;
      for (const Loop *L : R.Loops) {
        I.Loops.push_back(L->IV);
        double S = 0;
        bool Known = true; // an outer dimension's pitch needs the extents
        for (size_t D = 0; D < A.Subscripts.size() && D < G.Pitch.size(); ++D)
          if (A.Subscripts[D] && A.Subscripts[D]->uses(L->IV)) {
            S += static_cast<double>(A.Subscripts[D]->coeff(L->IV)) * L->Step *
                 G.Pitch[D] * G.Elem;
            Known &= D + 1 == G.Pitch.size() || G.PitchKnown;
          }
        I.StrideBytes.push_back(Known ? std::optional<int64_t>(std::llround(S))
                                      : std::nullopt);
      }
      // How the innermost loop walks it.
      const Loop *In = R.Loops.back();
      int Dims = static_cast<int>(A.Subscripts.size());
      int UsedDim = -1, Uses = 0;
      int64_t LastCoef = 0;
      for (int D = 0; D < Dims; ++D)
        if (A.Subscripts[D] && A.Subscripts[D]->uses(In->IV)) {
          ++Uses;
          UsedDim = D;
          if (D == Dims - 1)
            LastCoef = A.Subscripts[D]->coeff(In->IV) * In->Step;
        }
      if (Uses == 0)
        I.Walk = "invariant";
      else if (Uses == 1 && UsedDim == Dims - 1 && (LastCoef == 1 || LastCoef == -1))
        I.Walk = "unit";
      else if (Uses == 1 && UsedDim < Dims - 1)
        I.Walk = "column";
      else
        I.Walk = "strided";
      if (std::optional<int64_t> S = I.StrideBytes.back()) {
        double Abs = std::fabs(static_cast<double>(*S));
        double Lb = I.LineBytes;
        if (Abs == 0)
          ; // kept in a register across the innermost loop: no line walk
        else if (Abs >= Lb)
          I.BytesUsedPerLine = std::min<double>(G.Elem, Lb);
        else
          I.BytesUsedPerLine = std::min(Lb, Lb * G.Elem / Abs);
      } else if (std::optional<Polynomial> P = symbolicStride(A, *In)) {
        I.StrideFormula = P->str();
        // A column walk is a line per element once a row is a line long.
        if (I.Walk == "column") {
          I.BytesUsedPerLine = std::min<double>(G.Elem, I.LineBytes);
          I.Condition = I.StrideFormula + " >= " + std::to_string(I.LineBytes);
        }
      }
      Out.Accesses.push_back(std::move(I));
    }
  }
}

std::vector<Group> Model::visitStmt(const Stmt &S,
                                    const std::vector<const Loop *> &Scope) {
  std::vector<Group> Gs;
  for (const Access &A : S.Accesses) {
    Group G;
    G.Array = A.ArrayName;
    G.Read = A.IsRead;
    G.Write = A.IsWrite;
    G.Members.push_back(Ids[&A]);
    for (const std::optional<AffineExpr> &Sub : A.Subscripts) {
      assert(Sub && "checked before the walk");
      std::map<std::string, int64_t> Coef;
      AffineExpr Rest(Sub->constant());
      double Const = static_cast<double>(Sub->constant());
      for (const auto &[Name, K] : Sub->terms()) {
        bool IsIV = std::any_of(Scope.begin(), Scope.end(),
                                [&](const Loop *L) { return L->IV == Name; });
        if (IsIV) {
          Coef[Name] = K;
          continue;
        }
        if (std::optional<AffineExpr> T = Rest.add(AffineExpr::var(Name, K)))
          Rest = *T;
        auto It = Values.find(Name);
        if (It == Values.end())
          Numeric = false; // the symbolic side still has it
        else
          Const += static_cast<double>(K) * static_cast<double>(It->second);
      }
      G.Coef.push_back(std::move(Coef));
      G.Box.push_back({Const, Const, 1});
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
      G.Misses[L] = linesOf(G.Box, Geoms[G.Array], Cfg.Levels[L].LineBytes,
                            absolute(G));
  return Gs;
}

std::optional<Polynomial> Model::symBytes(const Group &G) const {
  const Geom &Ge = Geoms.at(G.Array);
  const int64_t Lb = innerLine();
  std::optional<Polynomial> P = Polynomial(Rational(1));
  size_t N = G.Sym.size();
  for (size_t D = 0; D < N && P; ++D) {
    if (!G.Sym[D].Lo || !G.Sym[D].Hi)
      return std::nullopt;
    std::optional<AffineExpr> Span = G.Sym[D].Hi->sub(*G.Sym[D].Lo);
    if (Span)
      Span = Span->addConstant(1);
    if (!Span)
      return std::nullopt;
    bool Last = D + 1 == N;
    if (Last && Span->isConstant() && Span->constant() == 1) {
      P = opt(P->scale(Rational(Lb))); // one element costs its line
      continue;
    }
    std::optional<Polynomial> S = opt(Polynomial::fromAffine(*Span));
    if (S && G.Box[D].Step > 1) {
      std::optional<Rational> Inv = Rational::make(1, G.Box[D].Step);
      S = Inv ? opt(S->scale(*Inv)) : std::nullopt;
    }
    if (!S)
      return std::nullopt;
    P = opt(P->mul(*S));
    if (Last && P)
      P = opt(P->scale(
          Rational(G.Box[D].Step * Ge.Elem >= Lb ? Lb : int64_t(Ge.Elem))));
  }
  if (N == 0 && P)
    P = opt(P->scale(Rational(Lb)));
  return P;
}

std::vector<Group> Model::visitLoop(const Loop &L,
                                    std::vector<const Loop *> &Scope) {
  Scope.push_back(&L);
  // One iteration: the children, united by group.
  std::vector<std::vector<Group>> Kids;
  for (const Node &X : L.Body)
    Kids.push_back(X.isLoop() ? visitLoop(X.loop(), Scope)
                              : visitStmt(X.S, Scope));
  Scope.pop_back();
  std::vector<Group> Iter;
  for (std::vector<Group> &K : Kids)
    for (Group &G : K) {
      if (Group *Same = findGroup(Iter, G))
        uniteInto(*Same, G, true);
      else
        Iter.push_back(G);
    }
  // Data one iteration touches, per level (and at L1's line size for the
  // layer-condition report).
  std::vector<double> V(levels(), 0);
  for (const Group &G : Iter)
    for (size_t Lv = 0; Lv < levels(); ++Lv)
      V[Lv] += linesOf(G.Box, Geoms[G.Array], Cfg.Levels[Lv].LineBytes,
                       absolute(G)) *
               Cfg.Levels[Lv].LineBytes;
  // The layer condition per level: one iteration's data fits, and no
  // column walk among it is confined to too few sets.
  std::vector<bool> Fit(levels());
  for (size_t Lv = 0; Lv < levels(); ++Lv) {
    const CacheLevelSpec &S = Cfg.Levels[Lv];
    bool Ok = V[Lv] <= S.SizeBytes;
    double Sets = S.Ways ? std::floor(S.SizeBytes / (S.LineBytes * S.Ways)) : 0;
    for (const Group &G : Iter)
      Ok = Ok && fitsTheSets(G.Box, Geoms[G.Array], S.LineBytes, S.Ways, Sets);
    Fit[Lv] = Ok;
  }
  double VInner = 0;
  std::optional<Polynomial> VSym = Polynomial(Rational(0));
  for (const Group &G : Iter) {
    VInner +=
        linesOf(G.Box, Geoms[G.Array], innerLine(), absolute(G)) * innerLine();
    std::optional<Polynomial> B = symBytes(G);
    VSym = VSym && B ? opt(VSym->add(*B)) : std::nullopt;
  }
  // Reuse within one iteration survives when the iteration fits.
  for (Group &G : Iter)
    for (size_t Lv = 0; Lv < levels(); ++Lv)
      if (Fit[Lv])
        G.Misses[Lv] = std::min(
            G.Misses[Lv], linesOf(G.Box, Geoms[G.Array],
                                  Cfg.Levels[Lv].LineBytes, absolute(G)));

  const LoopFacts &F = Facts[&L];
  double T = F.Trip;
  std::vector<Group> Outv;
  for (Group &G : Iter) {
    const Geom &Ge = Geoms[G.Array];
    size_t Dims = G.Box.size();
    std::vector<double> Shift(Dims, 0), Base(Dims, 0);
    bool Moves = false;
    for (size_t D = 0; D < Dims; ++D) {
      auto It = G.Coef[D].find(L.IV);
      if (It == G.Coef[D].end())
        continue;
      Shift[D] = static_cast<double>(It->second) * L.Step;
      Base[D] = static_cast<double>(It->second) * F.First;
      Moves = true;
    }
    auto Sweep = [&](double Iters) {
      std::vector<DimBox> B = G.Box;
      for (size_t D = 0; D < Dims; ++D) {
        B[D].Lo += Base[D];
        B[D].Hi += Base[D];
        if (Iters > 1 && Shift[D] != 0) {
          int64_t S = std::llabs(static_cast<int64_t>(Shift[D]));
          B[D].Step = G.Box[D].single() ? S : gcd64(B[D].Step, S);
          double Ext = Shift[D] * (Iters - 1);
          (Ext > 0 ? B[D].Hi : B[D].Lo) += Ext;
        }
      }
      return B;
    };
    // After the sweep the box is absolute when only this loop moved its
    // contiguous dimension and the loop starts at a known place.
    bool Exact = absolute(G, L.IV) &&
                 (F.FirstConst || Dims == 0 || Shift[Dims - 1] == 0);
    // Reuse distance in iterations: the furthest iteration whose footprint
    // still shares a line with this one's.
    double Delta = 0;
    ReuseKind Kind = ReuseKind::Temporal;
    if (!Moves) {
      Delta = 1;
    } else {
      Delta = std::numeric_limits<double>::infinity();
      bool ElementOverlap = true;
      for (size_t D = 0; D < Dims; ++D) {
        if (Shift[D] == 0)
          continue;
        double W = G.Box[D].Hi - G.Box[D].Lo + 1, S = std::fabs(Shift[D]);
        double Dd;
        if (D + 1 == Dims) {
          double E = Ge.Elem, Lb = innerLine();
          Dd = std::floor((W * E + Lb - E - 1) / (S * E));
          ElementOverlap &= S < W;
        } else {
          Dd = std::floor((W - 1) / S);
          ElementOverlap &= S < W;
        }
        Delta = std::min(Delta, Dd);
      }
      if (!ElementOverlap)
        Kind = ReuseKind::Spatial;
      else {
        bool Offsets = G.Members.size() > 1;
        Kind = Offsets ? ReuseKind::Group : ReuseKind::Temporal;
      }
    }
    if (Delta >= 1)
      Delta = std::min(Delta, std::max(1.0, std::ceil(T) - 1));
    std::vector<DimBox> One = Sweep(1), All = Sweep(T);
    for (size_t Lv = 0; Lv < levels(); ++Lv) {
      unsigned Lb = Cfg.Levels[Lv].LineBytes;
      double M = G.Misses[Lv];
      // Boxes are hulls: a line reused at all is touched again in the very
      // next iteration, so LRU keeps it while one iteration's data fits.
      bool Keeps = Fit[Lv];
      if (T <= 1 || Delta < 1 || !Keeps)
        G.Misses[Lv] = M * std::max(T, 0.0);
      else
        G.Misses[Lv] = M + std::max(0.0, linesOf(All, Ge, Lb, Exact) -
                                             linesOf(One, Ge, Lb, Exact));
    }
    if (Delta >= 1) {
      ReuseInfo R;
      R.Loop = L.IV;
      R.Kind = Kind;
      R.Iterations = static_cast<unsigned>(Delta);
      if (Numeric) {
        R.DistanceBytes = VInner;
        for (size_t Lv = 0; Lv < levels(); ++Lv)
          R.Fits.push_back(Fit[Lv]);
      }
      if (VSym)
        R.DistanceFormula = VSym->str();
      for (unsigned Id : G.Members)
        Out.Accesses[Id].Reuse.push_back(R);
    }
    // The group over the whole loop, relative to the loops outside.
    Group Up = G;
    Up.Box = All;
    Up.Exact = G.Exact && (F.FirstConst || Dims == 0 || Shift[Dims - 1] == 0);
    for (size_t D = 0; D < Dims; ++D) {
      Up.Coef[D].erase(L.IV);
      auto It = G.Coef[D].find(L.IV);
      if (It == G.Coef[D].end())
        continue;
      int64_t K = It->second;
      SymDim &S = Up.Sym[D];
      if (!F.SymFirst || !F.SymTrip || !S.Lo || !S.Hi) {
        S.Lo.reset();
        S.Hi.reset();
        continue;
      }
      // IV runs over First .. First + Step*(Trip-1).
      std::optional<AffineExpr> At0 = F.SymFirst->scale(K);
      std::optional<AffineExpr> Span =
          F.SymTrip->addConstant(-1);
      if (Span)
        Span = Span->scale(K * L.Step);
      if (!At0 || !Span) {
        S.Lo.reset();
        S.Hi.reset();
        continue;
      }
      std::optional<AffineExpr> Lo = S.Lo->add(*At0), Hi = S.Hi->add(*At0);
      bool Up_ = K * L.Step > 0;
      if (Lo && Hi) {
        if (Up_)
          Hi = Hi->add(*Span);
        else
          Lo = Lo->add(*Span);
      }
      S.Lo = Lo;
      S.Hi = Hi;
    }
    if (Group *Same = findGroup(Outv, Up))
      uniteInto(*Same, Up, true);
    else
      Outv.push_back(std::move(Up));
  }
  return Outv;
}

llvm::Expected<CacheAnalysis> Model::run() {
  for (const StmtRef &R : collectStmts(N.Root))
    for (const Access &A : R.S->Accesses) {
      for (const auto &Sub : A.Subscripts)
        if (!Sub)
          return llvm::createStringError(
              llvm::inconvertibleErrorCode(),
              "subscript of '%s' is not affine", A.Text.c_str());
      const Array *Arr = N.findArray(A.ArrayName);
      if (!Arr || precisionBytes(Arr->Elem) == 0)
        return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                       "element type of '%s' is unknown",
                                       A.ArrayName.c_str());
      if (Arr->Extents.size() != A.Subscripts.size())
        return llvm::createStringError(
            llvm::inconvertibleErrorCode(),
            "'%s' has %zu subscripts for %zu dimensions", A.Text.c_str(),
            A.Subscripts.size(), Arr->Extents.size());
    }
  if (Cfg.Levels.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "the machine file gives no cache sizes");
  if (llvm::Error E = prepare())
    return std::move(E);
  describeAccesses();
  std::vector<const Loop *> Scope;
  std::vector<Group> Top = visitLoop(N.Root, Scope);
  if (!Numeric) {
    Out.WhyNot = WhyNot.empty() ? "a size has no value" : WhyNot;
    for (AccessCacheInfo &A : Out.Accesses)
      for (ReuseInfo &R : A.Reuse) {
        R.DistanceBytes.reset();
        R.Fits.clear();
      }
    return std::move(Out);
  }
  for (size_t Lv = 0; Lv < levels(); ++Lv) {
    CacheLevelTraffic T;
    T.Name = Cfg.Levels[Lv].Name;
    T.SizeBytes = Cfg.Levels[Lv].SizeBytes;
    T.LineBytes = Cfg.Levels[Lv].LineBytes;
    for (const Group &G : Top) {
      double Bytes = G.Misses[Lv] * T.LineBytes;
      if (G.Read || Cfg.WriteAllocate)
        T.FetchBytes += Bytes;
      if (G.Write)
        T.WritebackBytes += Bytes;
    }
    Out.Levels.push_back(T);
  }
  if (!Out.Levels.empty())
    Out.MainMemoryBytes = Out.Levels.back().bytes();
  Out.Notes.push_back("cache model: arrays start on a cache line, caches are "
                      "fully associative LRU (no conflict misses)");
  return std::move(Out);
}

} // namespace

llvm::Expected<CacheAnalysis> roofline::analyzeCache(const LoopNest &N,
                                                     const NestCounts &C,
                                                     const CacheConfig &Cfg) {
  // Scratch arrays are registers and L1, not traffic.
  if (hasScratch(N))
    return analyzeCache(withoutScratch(N), C, Cfg);
  // The walk identifies loop variables by name along each chain.
  if (hasShadowing(N)) {
    LoopNest U = withUniqueIVs(N);
    Model M(U, C, Cfg);
    return M.run();
  }
  Model M(N, C, Cfg);
  return M.run();
}
