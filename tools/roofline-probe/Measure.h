//===- Measure.h - Timing loops on one core or on all of them -------------===//
//
// A measurement runs the same work on T pinned threads at once, between two
// barriers, grows the repetition count until one round takes the target
// time, then keeps Samples rounds: rate = work done / wall time of a round.
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_PROBE_MEASURE_H
#define ROOFLINE_PROBE_MEASURE_H

#include <cstdint>
#include <functional>
#include <vector>

namespace probe {

struct Stats {
  std::vector<double> Samples; ///< rates, in measurement order
  double median() const;
  double min() const;
  double max() const;
  /// (max - min) / median.
  double spread() const;
};

struct MeasureOptions {
  unsigned Samples = 7;
  double TargetSeconds = 0.08; ///< length of one round
};

/// Runs \p Work(Thread, Reps) on each of \p Cpus (one pinned thread each);
/// \p Setup(Thread) runs first, in that thread (first-touch allocation).
/// \p UnitsPerRep is the work one Reps unit does in one thread (FLOPs,
/// bytes); the returned rates are units per second over all threads.
Stats measureTeam(const std::vector<int> &Cpus, const MeasureOptions &O,
                  double UnitsPerRep,
                  const std::function<void(unsigned)> &Setup,
                  const std::function<void(unsigned, uint64_t)> &Work);

} // namespace probe

#endif // ROOFLINE_PROBE_MEASURE_H
