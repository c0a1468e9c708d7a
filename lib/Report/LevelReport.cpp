//===- LevelReport.cpp - Per-level roofline and capacity in the reports ---===//

#include "roofline/Report/LevelReport.h"
#include "roofline/Report/Report.h"
#include "roofline/Support/JsonText.h"

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

void roofline::writeLevelsJSON(JsonWriter &W, const HierarchicalVerdict &H) {
  // Keys in byte order, as llvm::json::OStream writes them.
  W.arrayBegin();
  for (const LevelVerdict &L : H.Levels) {
    W.objectBegin();
    W.key("bandwidth");
    W.number(L.Bandwidth);
    W.key("bound");
    W.string(boundKindName(L.Bound));
    W.key("bytes");
    W.number(L.Bytes);
    W.key("intensity");
    if (std::isfinite(L.Intensity))
      W.number(L.Intensity);
    else
      W.null();
    W.key("name");
    W.string(L.Name);
    W.key("ridge");
    W.number(L.Ridge);
    W.key("rule");
    W.string(levelRuleName(L.Rule));
    W.key("time_s");
    W.number(L.Time);
    W.objectEnd();
  }
  W.arrayEnd();
}

std::string roofline::capacityMessage(const std::string &Function,
                                      const Verdict &V, const Machine &M) {
  return Function + ": footprint " + bytesStr(V.FootprintBytes) +
         " does not fit in the " + bytesStr(M.CapacityBytes) + " memory of " +
         M.Name;
}
