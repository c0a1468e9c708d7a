//===- CacheModel.h - Traffic through the cache levels (layer conditions) -===//
//
// The `cache` traffic model (docs/design.md): for every access its stride in each
// loop, the bytes of each cache line it uses in the innermost loop, and the
// loops that carry its reuse with the data touched between use and reuse;
// per cache level, whether that reuse fits (the layer condition), giving the
// lines each level fetches and writes back.
//
// Method (docs/cache-model.md). References to one array whose subscripts
// have the same coefficients form a group; its footprint over a set of inner
// loops is a box per array dimension, counted in cache lines. Walking the
// loops from the innermost out, the reuse a loop carries for a group (the
// same box again: temporal; the next bytes of the same lines: spatial;
// overlapping boxes: group) survives in a cache of size S while the data one
// iteration of the loop touches, times the reuse distance in iterations,
// fits in S. Caches are LRU; where the machine gives a level's ways, the
// reuse survives for the lines whose sets receive at most that many lines
// in one iteration (arrays placed on 4 KiB pages one after another, modulo
// set indexing): conflicts between the arrays walked together and the part
// of the data that survives near capacity. Otherwise levels are fully
// associative.
//
// A function's nests run in program order through one set of caches
// (analyzeFunctionCache): data an earlier nest, or an earlier sibling loop
// inside an outer loop, leaves in a level is reused while the bytes touched
// since its last use fit in that level (LRU stack distance over blocks of
// the arrays). `CacheState::Warm` gives the steady state of the function
// run again and again (the nest repeated, as kerncraft and ECM models
// report it) instead of one pass from empty caches.
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_ANALYSIS_CACHEMODEL_H
#define ROOFLINE_ANALYSIS_CACHEMODEL_H

#include "roofline/Analysis/Counts.h"
#include "roofline/Machine/Machine.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace roofline {

struct CacheLevelSpec {
  std::string Name;      ///< "L1"
  double SizeBytes = 0;  ///< one instance: what one core (or SM) can reuse
  unsigned LineBytes = 64;
  unsigned Ways = 0;     ///< lines per set; 0: fully associative
};

struct CacheConfig {
  std::vector<CacheLevelSpec> Levels; ///< innermost (L1) first
  bool WriteAllocate = true;
};

/// What the caches hold when a function starts.
enum class CacheState {
  Cold, ///< empty: one pass (the default)
  Warm  ///< what the previous run of the same function left: steady state
};
/// "cold", "warm".
const char *cacheStateName(CacheState S);
std::optional<CacheState> parseCacheState(const std::string &Name);

/// The caches of \p M, innermost first (levels without a size are skipped).
CacheConfig cacheConfigFor(const Machine &M);

enum class ReuseKind { Temporal, Spatial, Group };
/// "temporal", "spatial", "group".
const char *reuseKindName(ReuseKind K);

/// Reuse one loop carries for an access.
struct ReuseInfo {
  std::string Loop; ///< IV of the loop carrying it
  ReuseKind Kind = ReuseKind::Temporal;
  /// Iterations of Loop between use and reuse (the largest that still
  /// reuses something: 2 for rows i-1..i+1 walked by i).
  unsigned Iterations = 1;
  /// Data the nest touches in those iterations (distinct lines x line size,
  /// at the innermost level's line size): the layer condition is
  /// DistanceBytes <= cache size.
  std::optional<double> DistanceBytes;
  /// DistanceBytes as a formula in the sizes, where the loops are
  /// rectangular ("68*K + 64"); at line granularity for strided walks.
  std::string DistanceFormula;
  /// Per cache level (CacheConfig order): whether the condition holds;
  /// empty when DistanceBytes is unknown.
  std::vector<bool> Fits;
};

struct AccessCacheInfo {
  std::string Text; ///< "B[k][j]"
  SourceLoc Loc;
  std::string Array;
  unsigned ElemBytes = 0;
  bool IsRead = false, IsWrite = false;
  /// Enclosing loops, outermost first, and the access's stride in bytes per
  /// iteration of each (nullopt where a size has no value).
  std::vector<std::string> Loops;
  std::vector<std::optional<int64_t>> StrideBytes;
  /// How the innermost loop walks it: "invariant" (kept in a register),
  /// "unit" (along a row), "column" (the innermost IV indexes an outer
  /// dimension), "strided" (a step over the contiguous dimension).
  std::string Walk;
  /// Bytes of each line fetched that the innermost loop uses, at the
  /// innermost cache's line size (4 of 64 for a float walked down a column).
  std::optional<double> BytesUsedPerLine;
  unsigned LineBytes = 64;
  /// Where the innermost stride depends on a size without a value: the
  /// stride in bytes as a formula ("4*N") and, for a column walk, the
  /// condition under which BytesUsedPerLine (one element) holds
  /// ("4*N >= 64").
  std::string StrideFormula, Condition;
  std::vector<ReuseInfo> Reuse; ///< innermost loop first
};

/// Traffic at one cache's outer boundary (between it and the level outside).
struct CacheLevelTraffic {
  std::string Name;
  double SizeBytes = 0;
  unsigned LineBytes = 64;
  double FetchBytes = 0;     ///< lines fetched: read misses and write-allocates
  double WritebackBytes = 0; ///< dirty lines written back
  double bytes() const { return FetchBytes + WritebackBytes; }
};

struct CacheAnalysis {
  std::vector<AccessCacheInfo> Accesses; ///< in statement order
  /// CacheConfig order (innermost first); empty when a size has no value.
  std::vector<CacheLevelTraffic> Levels;
  /// Bytes between the last-level cache and main memory (its fetches and
  /// write-backs): the `cache` model's bytes.
  std::optional<double> MainMemoryBytes;
  /// Why Levels is empty.
  std::string WhyNot;
  /// Assumptions the numbers rest on.
  std::vector<std::string> Notes;
  CacheState State = CacheState::Cold;
  /// Per level (Levels order): fetch bytes the nest did not pay because
  /// an earlier nest of its function (or, warm, the previous run) left the
  /// data in that level.
  std::vector<double> CarriedInBytes;
};

/// Runs the cache model on \p N alone (trip counts from \p C). Fails only
/// on an access the model cannot place (a subscript that is not affine, an
/// array of unknown element type); missing sizes leave the numbers out
/// (WhyNot).
llvm::Expected<CacheAnalysis>
analyzeCache(const LoopNest &N, const NestCounts &C, const CacheConfig &Cfg,
             CacheState State = CacheState::Cold);

/// One nest of a function, for analyzeFunctionCache.
struct FunctionNest {
  const LoopNest *N = nullptr;
  const NestCounts *C = nullptr;
  /// Code the model does not see runs just before it (a nest that was not
  /// analyzed): nothing is assumed to survive into it.
  bool AfterUnknown = false;
};

/// The cache model over the nests of one function, in program order: each
/// nest's result, with what earlier nests left in the caches reused.
std::vector<llvm::Expected<CacheAnalysis>>
analyzeFunctionCache(llvm::ArrayRef<FunctionNest> Nests, const CacheConfig &Cfg,
                     CacheState State = CacheState::Cold);

/// Bytes at every memory level of \p M (main memory first, as
/// Machine::Levels) under the cache model: main memory moves the last-level
/// cache's traffic, each cache the traffic of the cache inside it, and the
/// innermost cache every executed reference (\p RegisterBytes, the no-reuse
/// bytes). nullopt when the cache numbers are missing.
std::optional<std::vector<double>>
bytesPerMachineLevel(const CacheAnalysis &A, const Machine &M,
                     double RegisterBytes);

} // namespace roofline

#endif // ROOFLINE_ANALYSIS_CACHEMODEL_H
