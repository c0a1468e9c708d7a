//===- LevelVerdict.h - The roofline at every memory level ----------------===//
//
// A hierarchical roofline: the bytes that cross each memory level of the
// machine, the intensity and time at that level, and which level (or the
// arithmetic) takes longest. The bytes per level come from bytesPerLevel:
// the cache model's where the verdict used it, else a simple rule
// (docs/design.md, section 5).
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_ROOFLINE_LEVELVERDICT_H
#define ROOFLINE_ROOFLINE_LEVELVERDICT_H

#include "roofline/Analysis/CacheModel.h"
#include "roofline/Analysis/Counts.h"
#include "roofline/Roofline/Roofline.h"

#include <optional>
#include <string>
#include <vector>

namespace roofline {

/// How the bytes of one level were obtained (JSON `rule`).
enum class LevelRule {
  Model,          ///< main memory: the verdict's traffic model
  CompulsoryFits, ///< the footprint fits in one instance of the level
  NoReuseExceeds, ///< it does not: every executed reference crosses it
  OuterLevel,     ///< raised to the bytes of the level outside it
  CacheModel,     ///< the cache model: what the cache inside it misses
};
/// "model", "compulsory-fits", "no-reuse-exceeds", "outer-level",
/// "cache-model".
const char *levelRuleName(LevelRule R);

/// Bytes crossing one memory level.
struct LevelBytes {
  std::string Level;
  double Bytes = 0;
  LevelRule Rule = LevelRule::Model;
};

/// The bytes crossing each level of \p M, in M.Levels order (main memory
/// first). Main memory moves \p Main.Bytes (the verdict's model). A cache
/// moves the compulsory bytes when the footprint fits in one instance of it
/// (what a single core or SM can reuse), else the no-reuse bytes, and never
/// fewer than the level outside it (every byte from memory passes through).
///
/// Under the cache model the caches' bytes are \p Cache's: the nest's
/// analysis, computed once per nest with its function (judgeNest). Without
/// it the rule above applies; this function never runs the model itself.
std::vector<LevelBytes> bytesPerLevel(const NestCounts &C, const Machine &M,
                                      const Verdict &Main,
                                      const CacheAnalysis *Cache = nullptr);

/// The roofline at one level.
struct LevelVerdict {
  std::string Name;
  double Bytes = 0;
  double Bandwidth = 0;  ///< bytes/s, aggregate over the level's instances
  double Intensity = 0;  ///< FLOPs / Bytes (+inf when Bytes == 0)
  double Ridge = 0;      ///< peak / Bandwidth
  double Time = 0;       ///< Bytes / Bandwidth, seconds
  BoundKind Bound = BoundKind::ComputeBound; ///< at this level's ridge
  LevelRule Rule = LevelRule::Model;
};

struct HierarchicalVerdict {
  std::vector<LevelVerdict> Levels; ///< main memory first
  double TimeCompute = 0;
  /// Index into Levels of the level with the largest time, or nullopt when
  /// the arithmetic takes at least as long as every level.
  std::optional<size_t> Bottleneck;
  double Time = 0; ///< max(TimeCompute, every level's time)

  /// "DRAM", "L1", or "compute".
  std::string bottleneckName() const {
    return Bottleneck ? Levels[*Bottleneck].Name : "compute";
  }
};

/// Judges every level of \p M for a nest whose main-memory verdict is \p V.
HierarchicalVerdict judgeLevels(const NestCounts &C, const Machine &M,
                                const Verdict &V,
                                const CacheAnalysis *Cache = nullptr);

} // namespace roofline

#endif // ROOFLINE_ROOFLINE_LEVELVERDICT_H
