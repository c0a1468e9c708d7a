//===- NestVerdict.h - A nest's counts judged against a machine -----------===//
//
// Picks the bytes of the requested traffic model, the precision whose peak
// applies (the one doing most of the FLOPs), and, where sizes are symbolic,
// the intensity formula and the size at which the verdict flips.
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_ROOFLINE_NESTVERDICT_H
#define ROOFLINE_ROOFLINE_NESTVERDICT_H

#include "roofline/Analysis/CacheModel.h"
#include "roofline/Analysis/Counts.h"
#include "roofline/Analysis/TiledModel.h"
#include "roofline/Roofline/LevelVerdict.h"
#include "roofline/Roofline/Roofline.h"

#include <optional>
#include <string>

namespace roofline {

enum class TrafficModel { NoReuse, Compulsory, Cache, Tiled };
/// "no-reuse", "compulsory", "cache", "tiled".
const char *trafficModelName(TrafficModel M);
/// The inverse of trafficModelName.
std::optional<TrafficModel> parseTrafficModel(const std::string &Name);
/// The model a verdict uses unless told: `cache` on a CPU (its caches are
/// what the loops run through), `compulsory` elsewhere (a GPU runs these
/// loops as threads: the host loop order says little about its caches).
TrafficModel defaultTrafficModel(const Machine &M);

/// Parameters of the traffic models.
struct ModelOptions {
  unsigned Tile = 32; ///< T of tiled(T)
  /// Run the cache model in a full verdict even when another model judges
  /// (JSON's bytes.cache reads it). Text output does not show it, and it is
  /// the costliest part of judging a nest, so the lint driver turns it off.
  bool CacheAlways = true;
  /// What the caches hold when the nest starts (--cache-state).
  CacheState State = CacheState::Cold;
};

struct NestVerdict {
  /// Absent when a count it needs is unknown; WhyNot says which.
  std::optional<Verdict> V;
  std::string WhyNot;
  Precision Prec = Precision::F32;
  /// "FLOPs / bytes" of the model as a formula, when both are symbolic.
  std::string IntensityFormula;
  std::optional<Crossover> Cross;
  /// Parameters without a value (the verdict needs them).
  std::vector<std::string> Unbound;
  /// The roofline at every memory level; present with V.
  std::optional<HierarchicalVerdict> Levels;
  /// The bytes of the verdict's model (for `cache` and `tiled`, which
  /// NestCounts does not hold).
  Count Bytes;
  /// The cache model on the machine's caches (run when it is the verdict's
  /// model, and in a full verdict unless ModelOptions::CacheAlways is off:
  /// JSON bytes.cache reads it); CacheWhyNot when it failed.
  std::optional<CacheAnalysis> Cache;
  std::string CacheWhyNot;
  /// The tiled(T) model, when it is the verdict's model.
  std::optional<TiledTraffic> Tiled;
};

/// The count of bytes a model moves: no-reuse and compulsory from the
/// counts; for `cache` and `tiled` an empty count (they depend on the nest
/// and the machine: read NestVerdict::Bytes).
const Count &bytesOf(const NestCounts &C, TrafficModel M);

/// How much of a NestVerdict to fill: the what-if predictions judge many
/// transformed nests and read only the verdict's numbers.
enum class JudgeDetail {
  Full,       ///< everything NestVerdict holds
  VerdictOnly ///< no crossover search, no levels, the cache model only
              ///< when it is the verdict's model
};

/// The cache model's result for a nest computed beforehand, with the other
/// nests of its function (analyzeFunctionCache): judgeNest uses it instead
/// of running the model on the nest alone.
struct GivenCache {
  std::optional<CacheAnalysis> Analysis;
  std::string WhyNot; ///< when Analysis is absent
};

NestVerdict judgeNest(const LoopNest &N, const NestCounts &C,
                      const Machine &M, TrafficModel Model,
                      const ModelOptions &Opts = {},
                      JudgeDetail Detail = JudgeDetail::Full,
                      const GivenCache *Given = nullptr);

/// The cache model of each of \p Nests (one file's, with \p Counts; a null
/// count is a nest that was not counted), run per function over its nests
/// in source order so that data one nest leaves in the caches is reused by
/// the next (analyzeFunctionCache). A nest not analyzed (\p Skipped, or
/// uncounted) between two nests of a function stops that reuse.
std::vector<GivenCache> functionCaches(llvm::ArrayRef<const LoopNest *> Nests,
                                       llvm::ArrayRef<const NestCounts *> Counts,
                                       llvm::ArrayRef<SkippedNest> Skipped,
                                       const Machine &M, CacheState State);

/// The nest's footprint in bytes: per array the larger of its read and
/// written element sets (a lower bound of the distinct elements touched).
std::optional<double> footprintBytes(const NestCounts &C);

} // namespace roofline

#endif // ROOFLINE_ROOFLINE_NESTVERDICT_H
