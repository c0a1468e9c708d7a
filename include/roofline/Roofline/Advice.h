//===- Advice.h - What-if fixes for a nest, each checked for legality -----===//
//
// Section 8 of the seed as a pass: for a memory-bound nest, the transforms
// that move fewer bytes (tiling, quantization, batching, fusion with the
// nests beside it, interchange), each predicted on the machine with the
// verdict's traffic model (tiling with tiled(T)) and ordered best first.
// Every transform is checked for legality (Dependence.h) before it is
// offered; an illegal one is listed as rejected with the dependence that
// forbids it. Also found here: accesses walked with a stride that wastes
// most of each cache line (with the loop order that fixes it), and runs of
// elementwise loops whose intermediates could stay on chip.
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_ROOFLINE_ADVICE_H
#define ROOFLINE_ROOFLINE_ADVICE_H

#include "roofline/Analysis/CacheModel.h"
#include "roofline/Roofline/NestVerdict.h"

#include "llvm/Support/JSON.h"

#include <optional>
#include <string>
#include <vector>

namespace roofline {

struct AdviceOptions {
  unsigned Tile = 32;  ///< tile size of the tiling what-if
  int64_t Batch = 64;  ///< inputs of the batching what-if
  /// Offer a transform only when it is predicted at least this much faster.
  double MinSpeedup = 1.05;
};

/// A nest's (or a group of nests') predicted numbers on the machine.
struct Prediction {
  double Flops = 0, Bytes = 0, Intensity = 0;
  double Time = 0; ///< time floor, seconds
  BoundKind Bound = BoundKind::MemoryBound;
  Precision Prec = Precision::F32;
  std::string Model; ///< "compulsory", "cache", "tiled(32)", ...
  /// Under the cache model: bytes at every memory level, main memory first
  /// (bytesPerMachineLevel), and the time of the slowest level.
  std::optional<std::vector<double>> LevelBytes;
  double LevelTime = 0;
};

struct WhatIf {
  std::string Transform;   ///< "tile", "quantize", "batch", "fuse", "interchange"
  std::string Description; ///< "tile loops i, j, k by 32"
  llvm::json::Object Params;
  Prediction Before, After;
  /// Before.Time / After.Time for the same work (per input for batching).
  double Speedup = 1;
  bool Legal = true;
  /// False when the sizes are unknown: Before and After are empty.
  bool Predicted = true;
  std::string Legality; ///< what the legality check established
  std::string Caveat;   ///< what the prediction assumes ("changes numerics")
};

/// A transform considered and not offered.
struct RejectedWhatIf {
  std::string Transform, Description;
  std::string Reason; ///< the dependence that forbids it, or "no faster"
};

/// [roofline-strided-access]: a reference the innermost loop walks with a
/// stride that uses less than half of each cache line.
struct StridedAccess {
  AccessCacheInfo Access;
  std::string InnerLoop;
  /// The loop that uses the rest of each line next (spatial reuse), if any.
  std::optional<ReuseInfo> LineReuse;
  /// Unit-stride references of the same statement ("A[i][k]"), for the
  /// contrast the seed draws.
  std::vector<AccessCacheInfo> UnitNeighbours;
  /// The best legal loop order that makes it unit stride, predicted.
  std::optional<WhatIf> Fix;
  /// The closest loop order that would, when none is legal.
  std::optional<RejectedWhatIf> Blocked;
};

/// [roofline-fusion-opportunity], on the first nest of the run.
struct FusionOpportunity {
  std::vector<size_t> Nests;   ///< indices into the advised nests
  std::vector<unsigned> Lines; ///< their first lines
  std::vector<std::string> Intermediates;
  double BytesBefore = 0;      ///< sum over the nests, the verdict's model
  double BytesFused = 0;       ///< fused, intermediates kept on chip
  double BytesFusedStored = 0; ///< fused, intermediates still stored
  std::string Model;
  std::string Legality;
  /// Intermediates that are not local arrays: contraction assumes nothing
  /// reads them after the loops.
  std::vector<std::string> MaybeLive;
};

struct NestAdvice {
  bool MemoryBound = false;
  /// Why no transform was considered for this memory-bound nest (a point
  /// gather); empty where they were.
  std::string WhatIfWhyNot;
  std::vector<WhatIf> Advice; ///< legal, faster, best first
  std::vector<RejectedWhatIf> Rejected;
  std::vector<StridedAccess> Strided;
  std::optional<FusionOpportunity> Fusion;
};

/// One nest as the advice sees it.
struct AdvisedNest {
  const LoopNest *Nest = nullptr;
  const NestCounts *Counts = nullptr;
  const NestVerdict *Verdict = nullptr;
};

/// Every subscript is a distinct loop variable of the nest, unshifted
/// (fusion groups here; the pass's fusion what-if, Report/ProgramWhatIf.h).
bool isElementwise(const LoopNest &N);

/// Advice for each of \p Nests (program order: fusion looks at the nests
/// next to each other in the same function; a nest that was not analyzed,
/// at a location in \p Skipped, separates them).
std::vector<NestAdvice> adviseNests(const std::vector<AdvisedNest> &Nests,
                                    const Machine &M, TrafficModel Model,
                                    const ModelOptions &MOpts,
                                    const AdviceOptions &Opts = {},
                                    const std::vector<SourceLoc> &Skipped = {});

/// Counts and judges the nests \p Nests would run as (a transform's
/// result) as one unit: FLOPs and bytes summed.
std::optional<Prediction> predictNests(const std::vector<LoopNest> &Nests,
                                       const Machine &M, TrafficModel Model,
                                       const ModelOptions &MOpts);

} // namespace roofline

#endif // ROOFLINE_ROOFLINE_ADVICE_H
