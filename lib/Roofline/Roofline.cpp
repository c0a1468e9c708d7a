//===- Roofline.cpp - Roofline verdicts -----------------------------------===//

#include "roofline/Roofline/Roofline.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <vector>

namespace roofline {

const char *boundKindName(BoundKind B) {
  switch (B) {
  case BoundKind::ComputeBound:
    return "compute-bound";
  case BoundKind::MemoryBound:
    return "memory-bound";
  case BoundKind::DoesNotFit:
    return "does-not-fit";
  }
  return "unknown";
}

Verdict computeVerdict(const Machine &M, Precision Prec, double Flops,
                       double Bytes, double FootprintBytes,
                       const std::string &Model) {
  assert(!M.Levels.empty() && "machine without main memory");
  Verdict V;
  V.MachineName = M.Name;
  V.Model = Model;
  V.Prec = Prec;
  V.Flops = Flops;
  V.Bytes = Bytes;
  V.FootprintBytes = FootprintBytes;
  V.Peak = M.peakFor(Prec);
  V.Bandwidth = M.Levels.empty() ? 0 : M.mainMemory().BandwidthBytesPerS;
  V.Ridge = V.Bandwidth > 0 ? V.Peak / V.Bandwidth
                            : std::numeric_limits<double>::infinity();
  // Moving no bytes means nothing can wait on memory: infinite intensity.
  V.Intensity =
      Bytes > 0 ? Flops / Bytes : std::numeric_limits<double>::infinity();
  V.Attainable = Bytes > 0 ? std::min(V.Peak, V.Intensity * V.Bandwidth)
                           : V.Peak;
  V.TimeCompute = V.Peak > 0 ? Flops / V.Peak : 0;
  V.TimeMemory = V.Bandwidth > 0 ? Bytes / V.Bandwidth : 0;
  V.Time = std::max(V.TimeCompute, V.TimeMemory);
  // Capacity is checked first: a nest that cannot be resident does not run
  // at either roof (the seed's third limit).
  if (FootprintBytes > M.CapacityBytes)
    V.Bound = BoundKind::DoesNotFit;
  else if (V.Intensity < V.Ridge)
    V.Bound = BoundKind::MemoryBound;
  else
    V.Bound = BoundKind::ComputeBound;
  return V;
}

std::optional<Crossover>
findCrossover(const std::string &Param,
              const std::function<double(double)> &Intensity, double Ridge) {
  if (!std::isfinite(Ridge) || !(Ridge > 0))
    return std::nullopt;
  // Same rule as computeVerdict: intensity at the ridge is compute-bound.
  // NaN (intensity undefined at that size) gives no verdict.
  auto verdictAt = [&](double S) -> std::optional<bool> {
    double I = Intensity(S);
    if (std::isnan(I))
      return std::nullopt;
    return I >= Ridge;
  };
  // Bisects a verdict flip between Lo and Hi to ~1e-12 relative, well below
  // the 1e-9 the reports need.
  auto bisect = [&](double Lo, double Hi, bool LoVerdict) {
    for (int Iter = 0; Iter < 200 && Hi - Lo > 1e-12 * Hi; ++Iter) {
      double Mid = 0.5 * (Lo + Hi);
      std::optional<bool> V = verdictAt(Mid);
      if (!V)
        break;
      (*V == LoVerdict ? Lo : Hi) = Mid;
    }
    Crossover C;
    C.Param = Param;
    C.Value = 0.5 * (Lo + Hi);
    C.ComputeBoundAbove = !LoVerdict;
    return C;
  };

  // Geometric scan over [1, 2^40], 8 points per octave (the sizes computed
  // once: every nest with one free size scans them).
  constexpr int PerOctave = 8, Octaves = 40;
  static const std::vector<double> ScanSizes = [] {
    std::vector<double> Out;
    for (int K = 0; K <= PerOctave * Octaves; ++K)
      Out.push_back(std::exp2(static_cast<double>(K) / PerOctave));
    return Out;
  }();
  std::vector<double> Sizes;
  std::vector<double> Values;
  Sizes.reserve(ScanSizes.size());
  Values.reserve(ScanSizes.size());
  std::optional<bool> Prev;
  double PrevS = 0;
  for (double S : ScanSizes) {
    double I = Intensity(S);
    if (std::isnan(I))
      continue;
    bool V = I >= Ridge;
    if (Prev && *Prev != V)
      return bisect(PrevS, S, *Prev);
    Prev = V;
    PrevS = S;
    Sizes.push_back(S);
    Values.push_back(I);
  }
  if (Sizes.size() < 3)
    return std::nullopt;

  // No flip at the samples. A unimodal intensity may still poke through the
  // ridge between two samples: refine the extremum nearest the ridge with a
  // golden-section search in log(size), and bisect towards it if it crosses.
  bool AllCompute = *Prev;
  size_t Best = 0;
  for (size_t I = 1; I < Values.size(); ++I)
    if (AllCompute ? Values[I] < Values[Best] : Values[I] > Values[Best])
      Best = I;
  if (Best == 0 || Best + 1 == Values.size())
    return std::nullopt; // Extremum at an end: monotone over the range.
  double A = std::log(Sizes[Best - 1]), B = std::log(Sizes[Best + 1]);
  // Objective oriented so that we always minimize.
  auto F = [&](double LogS) {
    double I = Intensity(std::exp(LogS));
    return AllCompute ? I : -I;
  };
  const double InvPhi = (std::sqrt(5.0) - 1) / 2;
  double X1 = B - InvPhi * (B - A), X2 = A + InvPhi * (B - A);
  double F1 = F(X1), F2 = F(X2);
  for (int Iter = 0; Iter < 200 && B - A > 1e-13; ++Iter) {
    if (F1 < F2) {
      B = X2;
      X2 = X1;
      F2 = F1;
      X1 = B - InvPhi * (B - A);
      F1 = F(X1);
    } else {
      A = X1;
      X1 = X2;
      F1 = F2;
      X2 = A + InvPhi * (B - A);
      F2 = F(X2);
    }
  }
  double Extremum = std::exp(F1 < F2 ? X1 : X2);
  std::optional<bool> AtExtremum = verdictAt(Extremum);
  if (!AtExtremum || *AtExtremum == AllCompute)
    return std::nullopt;
  return bisect(Sizes[Best - 1], Extremum, AllCompute);
}

} // namespace roofline
