//===- NestVerdict.h - A nest's counts judged against a machine -----------===//
//
// Picks the bytes of the requested traffic model, the precision whose peak
// applies (the one doing most of the FLOPs), and, where sizes are symbolic,
// the intensity formula and the size at which the verdict flips.
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_ROOFLINE_NESTVERDICT_H
#define ROOFLINE_ROOFLINE_NESTVERDICT_H

#include "roofline/Analysis/Counts.h"
#include "roofline/Roofline/Roofline.h"

#include <optional>
#include <string>

namespace roofline {

enum class TrafficModel { NoReuse, Compulsory };
const char *trafficModelName(TrafficModel M); ///< "no-reuse", "compulsory"

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
};

/// The count of bytes a model moves.
const Count &bytesOf(const NestCounts &C, TrafficModel M);

NestVerdict judgeNest(const LoopNest &N, const NestCounts &C,
                      const Machine &M, TrafficModel Model);

/// Evaluates \p P in doubles (for plotting and crossover search); unbound
/// variables make it return nullopt.
std::optional<double>
evaluateApprox(const Polynomial &P, const std::map<std::string, double> &Vals);

/// The nest's footprint in bytes: per array the larger of its read and
/// written element sets (a lower bound of the distinct elements touched).
std::optional<double> footprintBytes(const NestCounts &C);

} // namespace roofline

#endif // ROOFLINE_ROOFLINE_NESTVERDICT_H
