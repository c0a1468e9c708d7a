//===- CacheModel.cpp - Traffic through the cache levels ------------------===//

#include "roofline/Analysis/CacheModel.h"

#include "CacheSim.h"
#include "IterationSpace.h"
#include "PhaseModel.h"
#include "roofline/IR/PointGather.h"
#include "roofline/Support/Debug.h"

#include <memory>

#include <algorithm>
#include <cassert>
#include <cmath>
#include <functional>
#include <numeric>

using namespace roofline;
using namespace roofline::detail;

// --debug-only=roofline-cache: each nest's bytes per cache level, or why
// the model leaves it out (docs/design.md, "Debug tracing").
#define DEBUG_TYPE "roofline-cache"

/// What the cache model made of \p N.
static void traceCacheAnalysis(const LoopNest &N, const CacheAnalysis &A) {
  llvm::dbgs() << "cache: nest " << N.Function << " at " << N.Loc.File << ":"
               << N.Loc.Line << " (" << cacheStateName(A.State) << "):";
  if (A.Levels.empty())
    llvm::dbgs() << " no levels: " << A.WhyNot;
  for (const CacheLevelTraffic &L : A.Levels)
    llvm::dbgs() << " " << L.Name << " fetch " << L.FetchBytes
                 << " writeback " << L.WritebackBytes << ";";
  if (A.MainMemoryBytes)
    llvm::dbgs() << " memory " << *A.MainMemoryBytes;
  llvm::dbgs() << "\n";
}

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

const char *roofline::cacheStateName(CacheState S) {
  return S == CacheState::Warm ? "warm" : "cold";
}

std::optional<CacheState> roofline::parseCacheState(const std::string &Name) {
  if (Name == "cold")
    return CacheState::Cold;
  if (Name == "warm")
    return CacheState::Warm;
  return std::nullopt;
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

/// The stride of \p A in loop \p L in bytes, as a formula in the sizes.
std::optional<Polynomial> symbolicStride(const LoopNest &N, const Access &A,
                                         const Loop &L) {
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
      std::optional<Polynomial> E = polynomialOrNone(Polynomial::fromAffine(*Arr->Extents[M]));
      Pitch = E ? polynomialOrNone(Pitch->mul(*E)) : std::nullopt;
    }
    std::optional<Polynomial> T =
        Pitch ? polynomialOrNone(Pitch->scale(Rational(K * L.Step * int64_t(
                                              precisionBytes(Arr->Elem)))))
              : std::nullopt;
    Sum = T ? polynomialOrNone(Sum->add(*T)) : std::nullopt;
  }
  return Sum;
}

/// Per access: strides, how the innermost loop walks it, bytes of each
/// line used (the reuse comes from the phase model). \p Ids numbers them.
/// \p Layout places at least every array \p N accesses, each as \p N
/// alone at its sizes would (checkAccesses: each is one of N's arrays).
std::vector<AccessCacheInfo>
describeAccesses(const LoopNest &N, const CacheLayout &Layout,
                 const CacheConfig &Cfg,
                 std::map<const Access *, unsigned> &Ids) {
  std::vector<AccessCacheInfo> Out;
  unsigned Inner = Cfg.Levels.empty() ? 64 : Cfg.Levels.front().LineBytes;
  // Reserved: an AccessCacheInfo is large, and these vectors grew one
  // element at a time (docs/results/speed.txt).
  std::vector<StmtRef> Stmts = collectStmts(N.Root);
  size_t Count = 0;
  for (const StmtRef &R : Stmts)
    Count += R.S->Accesses.size();
  Out.reserve(Count);
  for (const StmtRef &R : Stmts) {
    for (const Access &A : R.S->Accesses) {
      Ids[&A] = static_cast<unsigned>(Out.size());
      AccessCacheInfo I;
      I.Text = A.Text;
      I.Loc = A.Loc;
      I.Array = A.ArrayName;
      I.IsRead = A.IsRead;
      I.IsWrite = A.IsWrite;
      I.LineBytes = Inner;
      auto GeomIt = Layout.Geoms.find(A.ArrayName);
      assert(GeomIt != Layout.Geoms.end() && "an access to no array of N");
      const ArrayGeom &G = GeomIt->second;
      I.ElemBytes = G.Elem;
      I.Loops.reserve(R.Loops.size());
      I.StrideBytes.reserve(R.Loops.size());
      I.Reuse.reserve(R.Loops.size()); // one per loop carrying reuse
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
      } else if (std::optional<Polynomial> P = symbolicStride(N, A, *In)) {
        I.StrideFormula = P->str();
        // A column walk is a line per element once a row is a line long.
        if (I.Walk == "column") {
          I.BytesUsedPerLine = std::min<double>(G.Elem, I.LineBytes);
          I.Condition = I.StrideFormula + " >= " + std::to_string(I.LineBytes);
        }
      }
      Out.push_back(std::move(I));
    }
  }
  return Out;
}

/// Why the model cannot place an access of \p N, if it cannot.
llvm::Error checkAccesses(const LoopNest &N) {
  // The model would run every iteration of a loop that may stop early.
  if (const Loop *L = earlyExitLoop(N.Root))
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "where the loop at line " + std::to_string(L->Loc.Line) +
            " stops depends on the data (an early exit)");
  // The model would place every pick of a row gather at the same row.
  if (const Access *G = firstRowGather(N))
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "the rows '%s' picks are loaded from memory (a gather)",
        G->GatherIndex.c_str());
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
  return llvm::Error::success();
}

/// Describes the accesses of \p Placed and simulates them. The function's
/// layout is made once: a nest that declares each array it accesses first
/// (every nest alone in its function) is described with it, as its
/// geometry there is the one the nest alone gives (layoutArrays keeps an
/// array's first declaration); another nest gets a layout of its own.
void describeFunction(llvm::ArrayRef<FunctionNest> Placed,
                      const CacheConfig &Cfg, CacheState State,
                      std::vector<CacheAnalysis> &Out,
                      std::vector<std::map<const Access *, unsigned>> &Ids) {
  if (Placed.empty())
    return;
  std::vector<const LoopNest *> All;
  std::vector<IVValues> Sizes;
  std::map<std::string, size_t> FirstDeclaring;
  for (size_t K = 0; K < Placed.size(); ++K) {
    All.push_back(Placed[K].N);
    Sizes.push_back(paramValues(*Placed[K].N, Placed[K].C->Values));
    for (const Array &A : Placed[K].N->Arrays)
      FirstDeclaring.emplace(A.Name, K);
  }
  CacheLayout Layout = layoutArrays(All, Sizes);
  for (size_t K = 0; K < Placed.size(); ++K) {
    const LoopNest &N = *Placed[K].N;
    bool Shared = llvm::all_of(
        N.Arrays, [&](const Array &A) { return FirstDeclaring[A.Name] == K; });
    if (Shared) {
      Out[K].Accesses = describeAccesses(N, Layout, Cfg, Ids[K]);
      continue;
    }
    CacheLayout Own = layoutArrays({&N}, {Sizes[K]});
    Out[K].Accesses = describeAccesses(N, Own, Cfg, Ids[K]);
  }
  simulateFunction(Placed, Layout, Cfg, State, Out, Ids);
}

} // namespace

std::vector<llvm::Expected<CacheAnalysis>>
roofline::analyzeFunctionCache(llvm::ArrayRef<FunctionNest> Nests,
                               const CacheConfig &Cfg, CacheState State) {
  std::vector<std::optional<llvm::Error>> Errors(Nests.size());
  // The walk identifies loop variables by name along each chain.
  std::vector<std::unique_ptr<LoopNest>> Renamed(Nests.size());
  std::vector<FunctionNest> Placed;
  std::vector<size_t> Index;
  bool Unknown = false;
  for (size_t I = 0; I < Nests.size(); ++I) {
    const FunctionNest &F = Nests[I];
    Unknown |= F.AfterUnknown;
    const LoopNest *N = F.N;
    // Scratch arrays are registers and L1, not traffic.
    if (hasScratch(*N)) {
      Renamed[I] = std::make_unique<LoopNest>(withoutScratch(*N));
      N = Renamed[I].get();
    }
    llvm::Error E = Cfg.Levels.empty()
                        ? llvm::createStringError(
                              llvm::inconvertibleErrorCode(),
                              "the machine file gives no cache sizes")
                        : checkAccesses(*N);
    if (E) {
      ROOFLINE_DEBUG(llvm::dbgs()
                     << "cache: nest " << N->Function << " at " << N->Loc.File
                     << ":" << N->Loc.Line << ": not modelled: "
                     << (Cfg.Levels.empty() ? "no cache sizes"
                                            : "an access it cannot place")
                     << "\n");
      Errors[I] = std::move(E);
      Unknown = true; // its traffic is not modelled
      continue;
    }
    consumeError(std::move(E));
    FunctionNest P = F;
    P.N = N;
    P.AfterUnknown = Unknown;
    Unknown = false;
    if (hasShadowing(*N)) {
      auto U = std::make_unique<LoopNest>(withUniqueIVs(*N));
      Renamed[I] = std::move(U);
      P.N = Renamed[I].get();
    }
    Placed.push_back(P);
    Index.push_back(I);
  }
  std::vector<CacheAnalysis> Out(Placed.size());
  std::vector<std::map<const Access *, unsigned>> Ids(Placed.size());
  describeFunction(Placed, Cfg, State, Out, Ids);
  for (size_t K = 0; K < Placed.size(); ++K)
    ROOFLINE_DEBUG(traceCacheAnalysis(*Placed[K].N, Out[K]));
  std::vector<llvm::Expected<CacheAnalysis>> Result;
  size_t K = 0;
  for (size_t I = 0; I < Nests.size(); ++I) {
    if (Errors[I]) {
      Result.push_back(std::move(*Errors[I]));
      continue;
    }
    Result.push_back(std::move(Out[K++]));
  }
  return Result;
}

llvm::Expected<CacheAnalysis> roofline::analyzeCache(const LoopNest &N,
                                                     const NestCounts &C,
                                                     const CacheConfig &Cfg,
                                                     CacheState State) {
  FunctionNest F{&N, &C, false};
  std::vector<llvm::Expected<CacheAnalysis>> R =
      analyzeFunctionCache(F, Cfg, State);
  return std::move(R.front());
}
