//===- Results.h - The runner's table, JSON and roofline overlay ----------===//
//
// Measured time against the prediction: GFLOP/s from the variant's
// predicted FLOPs, GB/s from its predicted compulsory bytes, and % of the
// roofline bound, the time floor max(FLOPs / peak, bytes / main-memory
// bandwidth) on the chosen machine divided by the measured median.
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_RUNNER_RESULTS_H
#define ROOFLINE_RUNNER_RESULTS_H

#include "roofline/Machine/Machine.h"
#include "roofline/Report/Plot.h"
#include "roofline/Runner/Runner.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace roofline {

/// A variant's numbers, derived from its time and prediction.
struct Derived {
  std::optional<double> BoundS;    ///< the roofline time floor
  std::optional<double> FlopsPerS; ///< predicted FLOPs / median
  std::optional<double> BytesPerS; ///< predicted compulsory bytes / median
  std::optional<double> Percent;   ///< 100 * BoundS / median
  std::optional<double> VsReference, VsBaseline; ///< speedups
  /// Their spread over the timing rounds (roundRatio).
  std::optional<RatioSpread> VsReferenceSpread, VsBaselineSpread;
  double Intensity = 0;            ///< predicted FLOP / compulsory byte
  Precision Prec = Precision::F32; ///< the precision most FLOPs are in
  /// A 1-thread variant judged against the all-core peak (the machine gives
  /// no core_peaks).
  bool AllCorePeak = false;
};

/// The roofline time floor of \p P on \p M for \p Threads threads (0: all
/// cores; 1: one core's peaks where the machine gives them, else the
/// machine's and \p AllCores says so), or nothing when the prediction is
/// unknown.
std::optional<double> boundSeconds(const VariantPrediction &P, const Machine &M,
                                   Precision *Dominant = nullptr,
                                   unsigned Threads = 0, bool *AllCores = nullptr);

Derived derive(const UnitResult &U, const VariantResult &V, const Machine *M);

/// The per-unit table (docs/roofline-run.md).
void printTable(llvm::raw_ostream &OS, const UnitResult &U, const Machine *M);

/// One unit's results, "version 1" keys (docs/roofline-run.md).
llvm::json::Object unitJSON(const UnitResult &U, const Machine *M);

/// The measured points of every timed variant, for the plot overlay.
std::vector<MeasuredPoint> measuredPoints(const std::vector<UnitResult> &Us,
                                          const Machine &M);

} // namespace roofline

#endif // ROOFLINE_RUNNER_RESULTS_H
