//===- LevelVerdict.cpp - The roofline at every memory level --------------===//

#include "roofline/Roofline/LevelVerdict.h"
#include "roofline/Analysis/CacheModel.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace roofline;

const char *roofline::levelRuleName(LevelRule R) {
  switch (R) {
  case LevelRule::Model:
    return "model";
  case LevelRule::CompulsoryFits:
    return "compulsory-fits";
  case LevelRule::NoReuseExceeds:
    return "no-reuse-exceeds";
  case LevelRule::OuterLevel:
    return "outer-level";
  case LevelRule::CacheModel:
    return "cache-model";
  }
  return "unknown";
}

std::vector<LevelBytes> roofline::bytesPerLevel(const NestCounts &C,
                                                const Machine &M,
                                                const Verdict &Main,
                                                const CacheAnalysis *Cache) {
  std::vector<LevelBytes> Out;
  if (M.Levels.empty())
    return Out;
  Out.push_back({M.Levels.front().Name, Main.Bytes, LevelRule::Model});
  // Under the cache model each cache moves what the cache inside it misses.
  if (Main.Model == "cache" && C.BytesNoReuse.Value && Cache) {
    std::optional<std::vector<double>> L = bytesPerMachineLevel(
        *Cache, M, static_cast<double>(*C.BytesNoReuse.Value));
    if (L) {
      for (size_t I = 1; I < M.Levels.size() && I < L->size(); ++I)
        Out.push_back({M.Levels[I].Name, (*L)[I], LevelRule::CacheModel});
      return Out;
    }
  }
  auto Known = [](const Count &K) -> std::optional<double> {
    if (K.Value)
      return static_cast<double>(*K.Value);
    return std::nullopt;
  };
  std::optional<double> Compulsory = Known(C.BytesCompulsory);
  std::optional<double> NoReuse = Known(C.BytesNoReuse);
  for (size_t I = 1; I < M.Levels.size(); ++I) {
    const MemoryLevel &L = M.Levels[I];
    double Outer = Out.back().Bytes;
    bool Fits = L.SizeBytes && Main.FootprintBytes <= *L.SizeBytes;
    std::optional<double> Rule = Fits ? Compulsory : NoReuse;
    LevelBytes B{L.Name, Outer, LevelRule::OuterLevel};
    if (Rule && *Rule > Outer) {
      B.Bytes = *Rule;
      B.Rule = Fits ? LevelRule::CompulsoryFits : LevelRule::NoReuseExceeds;
    } else if (Rule && *Rule == Outer) {
      B.Rule = Fits ? LevelRule::CompulsoryFits : LevelRule::NoReuseExceeds;
    }
    Out.push_back(std::move(B));
  }
  return Out;
}

HierarchicalVerdict roofline::judgeLevels(const NestCounts &C,
                                          const Machine &M, const Verdict &V,
                                          const CacheAnalysis *Cache) {
  HierarchicalVerdict H;
  H.TimeCompute = V.TimeCompute;
  H.Time = V.TimeCompute;
  std::vector<LevelBytes> Bytes = bytesPerLevel(C, M, V, Cache);
  double Worst = -1;
  for (size_t I = 0; I < Bytes.size() && I < M.Levels.size(); ++I) {
    const MemoryLevel &ML = M.Levels[I];
    LevelVerdict L;
    L.Name = Bytes[I].Level;
    L.Bytes = Bytes[I].Bytes;
    L.Rule = Bytes[I].Rule;
    L.Bandwidth = ML.BandwidthBytesPerS;
    L.Intensity = L.Bytes > 0 ? V.Flops / L.Bytes
                              : std::numeric_limits<double>::infinity();
    L.Ridge = L.Bandwidth > 0 ? V.Peak / L.Bandwidth
                              : std::numeric_limits<double>::infinity();
    L.Time = L.Bandwidth > 0 ? L.Bytes / L.Bandwidth : 0;
    // Same tie rule as computeVerdict: at the ridge is compute-bound.
    L.Bound = L.Intensity >= L.Ridge ? BoundKind::ComputeBound
                                     : BoundKind::MemoryBound;
    if (L.Time > Worst) {
      Worst = L.Time;
      H.Bottleneck = H.Levels.size();
    }
    H.Levels.push_back(std::move(L));
  }
  // The arithmetic wins ties: a level exactly as slow as the math does not
  // make the nest memory-bound (the same rule as at the ridge).
  if (Worst <= H.TimeCompute)
    H.Bottleneck.reset();
  H.Time = std::max(H.TimeCompute, Worst);
  return H;
}
