//===- LevelReport.cpp - Per-level roofline and capacity in the reports ---===//

#include "roofline/Report/LevelReport.h"
#include "roofline/Report/Report.h"

#include <cmath>

using namespace roofline;

namespace {

std::string bytesStr(double B) { return formatRate(B, "B"); }

} // namespace

std::string roofline::levelsNote(const HierarchicalVerdict &H,
                                 const Machine &M) {
  std::string S = "per level: ";
  for (size_t I = 0; I < H.Levels.size(); ++I) {
    const LevelVerdict &L = H.Levels[I];
    if (I)
      S += "; ";
    S += L.Name + " " + bytesStr(L.Bytes);
    const MemoryLevel *ML = M.findLevel(L.Name);
    std::string Size =
        ML && ML->SizeBytes ? bytesStr(*ML->SizeBytes) : std::string("?");
    // Say which simple rule gave a cache its bytes: they are estimates
    // until the cache model exists.
    switch (L.Rule) {
    case LevelRule::Model:
      break;
    case LevelRule::CompulsoryFits:
      S += " compulsory (fits in " + Size + ")";
      break;
    case LevelRule::NoReuseExceeds:
      S += " no-reuse (exceeds " + Size + ")";
      break;
    case LevelRule::OuterLevel:
      S += " (as the level outside)";
      break;
    case LevelRule::CacheModel:
      S += " (cache model)";
      break;
    }
    S += ", AI " +
         (std::isfinite(L.Intensity) ? formatG(L.Intensity, 4) : "inf") + " " +
         boundKindName(L.Bound) + ", " + formatSeconds(L.Time);
  }
  S += "; bottleneck " + H.bottleneckName();
  if (H.Bottleneck)
    S += " (" + formatSeconds(H.Time) + " against math " +
         formatSeconds(H.TimeCompute) + ")";
  return S;
}

llvm::json::Value roofline::levelsJSON(const HierarchicalVerdict &H) {
  llvm::json::Array Out;
  Out.reserve(H.Levels.size()); // a growing json::Array copies
  for (const LevelVerdict &L : H.Levels)
    Out.push_back(llvm::json::Object{
        {"name", L.Name},
        {"bytes", L.Bytes},
        {"bandwidth", L.Bandwidth},
        {"intensity", std::isfinite(L.Intensity)
                          ? llvm::json::Value(L.Intensity)
                          : llvm::json::Value(nullptr)},
        {"ridge", L.Ridge},
        {"time_s", L.Time},
        {"bound", boundKindName(L.Bound)},
        {"rule", levelRuleName(L.Rule)}});
  return Out;
}

std::string roofline::capacityMessage(const std::string &Function,
                                      const Verdict &V, const Machine &M) {
  return Function + ": footprint " + bytesStr(V.FootprintBytes) +
         " does not fit in the " + bytesStr(M.CapacityBytes) + " memory of " +
         M.Name;
}
