//===- NestVerdict.cpp - A nest's counts judged against a machine ---------===//

#include "roofline/Roofline/NestVerdict.h"

#include "roofline/Analysis/Univariate.h"
#include "roofline/Support/Parallel.h"

#include <algorithm>
#include <tuple>

#include <cmath>
#include <set>

using namespace roofline;

const char *roofline::trafficModelName(TrafficModel M) {
  switch (M) {
  case TrafficModel::NoReuse:
    return "no-reuse";
  case TrafficModel::Compulsory:
    return "compulsory";
  case TrafficModel::Cache:
    return "cache";
  case TrafficModel::Tiled:
    return "tiled";
  }
  return "compulsory";
}

std::optional<TrafficModel> roofline::parseTrafficModel(const std::string &Name) {
  for (TrafficModel M : {TrafficModel::NoReuse, TrafficModel::Compulsory,
                         TrafficModel::Cache, TrafficModel::Tiled})
    if (Name == trafficModelName(M))
      return M;
  return std::nullopt;
}

TrafficModel roofline::defaultTrafficModel(const Machine &M) {
  // The cache model needs the cache sizes.
  return M.Kind == "cpu" && !cacheConfigFor(M).Levels.empty()
             ? TrafficModel::Cache
             : TrafficModel::Compulsory;
}

const Count &roofline::bytesOf(const NestCounts &C, TrafficModel M) {
  static const Count PerNest{std::nullopt, std::nullopt,
                             "the cache and tiled models' bytes are per "
                             "verdict (NestVerdict::Bytes)"};
  switch (M) {
  case TrafficModel::NoReuse:
    return C.BytesNoReuse;
  case TrafficModel::Compulsory:
    return C.BytesCompulsory;
  default:
    return PerNest;
  }
}

std::optional<double> roofline::footprintBytes(const NestCounts &C) {
  double Total = 0;
  for (const ArrayTraffic &A : C.Arrays) {
    if (!A.ElementsRead.Value || !A.ElementsWritten.Value)
      return std::nullopt;
    Int128 Max = std::max(*A.ElementsRead.Value, *A.ElementsWritten.Value);
    Total += static_cast<double>(Max) * A.ElemBytes;
  }
  return Total;
}

namespace {

/// The precision doing the most FLOPs (by value, else by formula presence).
Precision dominantPrecision(const NestCounts &C) {
  Precision Best = Precision::F32;
  Int128 BestVal = -1;
  bool Any = false;
  for (const auto &[P, Cnt] : C.FlopsByType) {
    if (Cnt.Value && *Cnt.Value > BestVal) {
      Best = P;
      BestVal = *Cnt.Value;
      Any = true;
    }
  }
  if (Any)
    return Best;
  for (const auto &[P, Cnt] : C.FlopsByType)
    if (Cnt.Formula && !Cnt.Formula->isZero())
      return P;
  return Best;
}

std::map<std::string, double> boundValues(const LoopNest &N) {
  std::map<std::string, double> Vals;
  for (const Param &P : N.Params)
    if (P.Value)
      Vals[P.Name] = static_cast<double>(*P.Value);
  return Vals;
}

/// The one size the crossover varies: the only unbound parameter, or the
/// only parameter at all.
std::optional<std::string> crossoverParam(const LoopNest &N,
                                          const std::vector<std::string> &Unbound,
                                          const Polynomial &Flops,
                                          const Polynomial &Bytes) {
  if (Unbound.size() == 1)
    return Unbound.front();
  if (!Unbound.empty())
    return std::nullopt;
  std::vector<std::string> Used;
  for (const Param &P : N.Params)
    if (Flops.uses(P.Name) || Bytes.uses(P.Name))
      Used.push_back(P.Name);
  if (Used.size() == 1)
    return Used.front();
  return std::nullopt;
}

/// The bytes of \p Model for the nest, filling R.Cache / R.Tiled.
Count modelBytes(const LoopNest &N, const NestCounts &C, const Machine &M,
                 TrafficModel Model, const ModelOptions &Opts,
                 JudgeDetail Detail, const GivenCache *Given, NestVerdict &R) {
  if (Given) {
    R.Cache = Given->Analysis;
    R.CacheWhyNot = Given->WhyNot;
  } else if ((Detail == JudgeDetail::Full && Opts.CacheAlways) ||
             Model == TrafficModel::Cache) {
    llvm::Expected<CacheAnalysis> A =
        analyzeCache(N, C, cacheConfigFor(M), Opts.State);
    if (A)
      R.Cache = std::move(*A);
    else
      R.CacheWhyNot = llvm::toString(A.takeError());
  }
  Count B;
  switch (Model) {
  case TrafficModel::NoReuse:
  case TrafficModel::Compulsory:
    return bytesOf(C, Model);
  case TrafficModel::Cache:
    if (R.Cache && R.Cache->MainMemoryBytes)
      B.Value = static_cast<Int128>(std::llround(*R.Cache->MainMemoryBytes));
    else
      B.WhyNot = "cache model: " + (R.Cache ? R.Cache->WhyNot : R.CacheWhyNot);
    return B;
  case TrafficModel::Tiled:
    R.Tiled = tiledTraffic(N, C, Opts.Tile);
    if (!R.Tiled->Legal) {
      B.WhyNot = "tiled model: tiling is not legal: " + R.Tiled->LegalityReason;
      return B;
    }
    B.Formula = R.Tiled->Formula;
    if (R.Tiled->Bytes)
      B.Value = static_cast<Int128>(std::llround(*R.Tiled->Bytes));
    else
      B.WhyNot = "tiled model: " + R.Tiled->WhyNot;
    return B;
  }
  return B;
}

} // namespace

NestVerdict roofline::judgeNest(const LoopNest &N, const NestCounts &C,
                                const Machine &M, TrafficModel Model,
                                const ModelOptions &Opts, JudgeDetail Detail,
                                const GivenCache *Given) {
  NestVerdict R;
  R.Prec = dominantPrecision(C);
  R.Bytes = modelBytes(N, C, M, Model, Opts, Detail, Given, R);
  const Count &Bytes = R.Bytes;
  // Sizes the formulas use: directly, inside an atom (floor((B*T - 1)/8)),
  // or as a factor of a product such a one uses.
  std::set<std::string> Used;
  for (const Count *F : {&C.Flops, &Bytes})
    if (F->Formula)
      for (const Param &P : N.Params)
        if (F->Formula->uses(P.Name))
          Used.insert(P.Name);
  for (const auto &[Atom, T] : C.Atoms)
    if ((C.Flops.Formula && C.Flops.Formula->uses(Atom)) ||
        (Bytes.Formula && Bytes.Formula->uses(Atom)))
      for (const auto &[Name, K] : T.Expr.terms())
        Used.insert(Name);
  for (const Param &P : N.Params)
    if (P.Derived && Used.count(P.Name))
      for (const auto *Terms : {&P.Derived->Numerator, &P.Derived->Denominator})
        for (const SizeTerm &T : *Terms)
          Used.insert(T.Factors.begin(), T.Factors.end());
  for (const Param &P : N.Params)
    if (!P.Value && Used.count(P.Name) && !P.Derived)
      R.Unbound.push_back(P.Name);

  if (Detail == JudgeDetail::Full && C.Flops.Formula && Bytes.Formula) {
    R.IntensityFormula =
        "(" + C.Flops.Formula->str() + ") / (" + Bytes.Formula->str() + ")";
    if (std::optional<std::string> Param =
            crossoverParam(N, R.Unbound, *C.Flops.Formula, *Bytes.Formula)) {
      std::map<std::string, double> Vals = boundValues(N);
      Vals.erase(*Param);
      double Ridge = M.peakFor(R.Prec) / M.mainMemory().BandwidthBytesPerS;
      std::optional<UnivariateApprox> F =
          UnivariateApprox::of(*C.Flops.Formula, {*Param}, Vals);
      std::optional<UnivariateApprox> B =
          UnivariateApprox::of(*Bytes.Formula, {*Param}, Vals);
      auto AI = [&](double S) {
        if (!F || !B)
          return 0.0;
        double BytesAt = (*B)(S);
        return BytesAt > 0 ? (*F)(S) / BytesAt : 0.0;
      };
      R.Cross = findCrossover(*Param, AI, Ridge);
    }
  }

  if (!C.Flops.Value) {
    R.WhyNot = C.Flops.WhyNot.empty() ? "FLOP count unknown" : C.Flops.WhyNot;
  } else if (!Bytes.Value) {
    R.WhyNot = Bytes.WhyNot.empty() ? "byte count unknown" : Bytes.WhyNot;
  }
  if (!R.Unbound.empty()) {
    std::string Names;
    for (const std::string &U : R.Unbound)
      Names += (Names.empty() ? "" : ", ") + U;
    R.WhyNot = "sizes without a value: " + Names + " (give --param " +
               R.Unbound.front() + "=VALUE)";
  }
  if (!R.WhyNot.empty())
    return R;
  double Foot = footprintBytes(C).value_or(0);
  R.V = computeVerdict(M, R.Prec, static_cast<double>(*C.Flops.Value),
                       static_cast<double>(*Bytes.Value), Foot,
                       trafficModelName(Model));
  if (Detail == JudgeDetail::Full)
    R.Levels = judgeLevels(C, M, *R.V, R.Cache ? &*R.Cache : nullptr);
  return R;
}

std::vector<GivenCache>
roofline::functionCaches(llvm::ArrayRef<const LoopNest *> Nests,
                         llvm::ArrayRef<const NestCounts *> Counts,
                         llvm::ArrayRef<SkippedNest> Skipped, const Machine &M,
                         CacheState State) {
  std::vector<GivenCache> Out(Nests.size());
  auto Before = [](const SourceLoc &A, const SourceLoc &B) {
    return std::tie(A.Line, A.Column) < std::tie(B.Line, B.Column);
  };
  // Functions in order of first nest; each one's nests in source order.
  std::vector<std::vector<size_t>> Functions;
  std::map<std::pair<std::string, std::string>, size_t> Index;
  for (size_t I = 0; I < Nests.size(); ++I) {
    auto Key = std::make_pair(Nests[I]->Loc.File, Nests[I]->Function);
    auto [It, New] = Index.emplace(Key, Functions.size());
    if (New)
      Functions.emplace_back();
    Functions[It->second].push_back(I);
  }
  CacheConfig Cfg = cacheConfigFor(M);
  parallelForChunks(Functions.size(), [&](size_t F) {
    std::vector<size_t> &Ids = Functions[F];
    std::stable_sort(Ids.begin(), Ids.end(), [&](size_t A, size_t B) {
      return Before(Nests[A]->Loc, Nests[B]->Loc);
    });
    std::vector<FunctionNest> Seq;
    std::vector<size_t> Where;
    bool Unknown = false;
    const SourceLoc *Prev = nullptr;
    for (size_t I : Ids) {
      const LoopNest &N = *Nests[I];
      // A nest not analyzed between the previous one and this one.
      for (const SkippedNest &S : Skipped)
        if (S.Function == N.Function && S.Loc.File == N.Loc.File &&
            Before(S.Loc, N.Loc) && (!Prev || Before(*Prev, S.Loc)))
          Unknown = true;
      Prev = &N.Loc;
      if (!Counts[I]) {
        Unknown = true;
        continue;
      }
      Seq.push_back({&N, Counts[I], Unknown});
      Where.push_back(I);
      Unknown = false;
    }
    std::vector<llvm::Expected<CacheAnalysis>> R =
        analyzeFunctionCache(Seq, Cfg, State);
    for (size_t K = 0; K < R.size(); ++K) {
      if (R[K])
        Out[Where[K]].Analysis = std::move(*R[K]);
      else
        Out[Where[K]].WhyNot = llvm::toString(R[K].takeError());
    }
  });
  return Out;
}
