//===- Runner.h - Build, check and time the variants of an emitted unit ---===//
//
// One unit at a time:
//   1. build: every variant's file compiled on its own (a file that does
//      not compile costs only its variant), then the unit's driver linked
//      from the objects that built; CUDA files with nvcc into their own
//      driver; the OpenBLAS baseline into another;
//   2. check: `driver check` (roofline_harness.h) on fresh seeded random
//      inputs against the double-precision reference; a crash or a hang
//      is pinned on its variant by checking the unreported ones one by one;
//   3. time: `driver time V` per variant that passed, in its own process
//      with a time limit, rotating input buffers when the working set
//      fits in the last-level cache; in rounds (one block of each variant
//      and baseline per round, the order rotating), so that a burst of
//      other work on a shared machine hits every variant alike and ratios
//      are taken within a round (docs/roofline-run.md, "Timing").
// Nothing here judges the numbers; Results.h turns them into the table.
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_RUNNER_RUNNER_H
#define ROOFLINE_RUNNER_RUNNER_H

#include "roofline/Runner/Manifest.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace roofline {

struct RunOptions {
  std::set<std::string> Variants; ///< only these (empty: all)
  unsigned Reps = 5;              ///< at least this many timed runs
  double MinTime = 0.2;           ///< and at least this many seconds
  /// Timing rounds: each round times every variant once, with its share
  /// of Reps and MinTime.
  unsigned Rounds = 5;
  unsigned TimeoutS = 60;         ///< per variant and phase
  unsigned BuildTimeoutS = 600;   ///< per compile or link
  uint64_t Seed = 1;
  bool Baselines = true;
  std::string Cxx;  ///< compiler override (else $CXX, else the manifest's)
  std::string Nvcc; ///< nvcc path; empty: search; "none": no CUDA
  unsigned Jobs = 2;              ///< parallel compiles
  double LLCBytes = 0;            ///< rotate buffers below this working set
  /// Progress: unit, variant index (1-based) and count, phase.
  std::function<void(const std::string &, unsigned, unsigned,
                     const std::string &)>
      Progress;
};

enum class VariantStatus { Ok, Wrong, Crashed, TimedOut, BuildFailed, Skipped };

const char *statusName(VariantStatus S);

struct CheckResult {
  uint64_t Checked = 0, Bad = 0;
  double MaxRatio = 0; ///< worst error / bound among passing elements
  std::string First;   ///< the first bad element
  /// A library baseline's kernel for this CPU ("Cooperlake", "skx").
  std::string Library;
};

struct TimeResult {
  uint64_t Reps = 0;
  double Median = 0, Min = 0, Max = 0, Q1 = 0, Q3 = 0;
  unsigned Buffers = 1;
  std::string Clock = "host"; ///< "device": cudaEvents, data resident
  /// Each round's median, in round order (empty: one block, no rounds).
  std::vector<double> Rounds;
};

struct VariantResult {
  std::string Name;
  bool Baseline = false;    ///< a library baseline, not an emitted variant
  std::string Description;  ///< path or the BLAS call
  std::string Threads = "1";
  bool Cuda = false;
  std::string File; ///< its source, relative to the unit
  VariantStatus Status = VariantStatus::Ok;
  std::string Reason; ///< why it is not Ok
  std::optional<CheckResult> Check;
  std::optional<TimeResult> Time;
  VariantPrediction Predicted;
};

struct UnitResult {
  UnitManifest Manifest;
  uint64_t Seed = 0;
  std::vector<VariantResult> Variants; ///< manifest order, baselines last
  /// Variants the emitter did not emit: (name, why).
  std::vector<std::pair<std::string, std::string>> NotEmitted;
  std::string BaselineNote; ///< why there is no baseline, if there is none
  bool failed() const;
};

/// Builds, checks and times \p M's variants.
UnitResult runUnit(const UnitManifest &M, const RunOptions &O);

/// How many copies of the arguments to rotate among so that the timed
/// runs do not find a working set of \p WorkingSetBytes in a cache of
/// \p LLCBytes: 1 when it does not fit anyway, else enough copies to
/// cover twice the cache, at most 256 and 1 GiB in all.
unsigned rotationBuffers(double WorkingSetBytes, double LLCBytes);

/// The order in which round \p Round (0-based) times \p N variants:
/// rotated by one per round, so each variant takes each place in turn
/// (after and before every other one), and none always runs first, right
/// after the build, or last.
std::vector<unsigned> roundOrder(unsigned Round, unsigned N);

/// One variant's time over its rounds (\p PerRound, each a `driver time`
/// block): the median of the rounds' medians, the min and max over all
/// repetitions, the rounds' quartiles' medians, the repetitions summed and
/// Rounds the rounds' medians.
TimeResult combineRounds(const std::vector<TimeResult> &PerRound);

/// A speedup and its spread over the rounds.
struct RatioSpread {
  double Median = 0, Min = 0, Max = 0;
};

/// \p Base's time over \p V's: the median (min, max) of the ratios within
/// each round both were timed in, so that a slow stretch of the machine
/// cancels out; without rounds the ratio of the medians.
std::optional<RatioSpread> roundRatio(const TimeResult &Base, const TimeResult &V);

/// Parses one `driver check` JSON line into \p R; returns the variant
/// name, or empty when the line is not a check result.
std::string parseCheckLine(llvm::StringRef Line, bool &Ok, CheckResult &R);
/// Parses the `driver time` JSON line.
std::optional<TimeResult> parseTimeLine(llvm::StringRef Line);

} // namespace roofline

#endif // ROOFLINE_RUNNER_RUNNER_H
