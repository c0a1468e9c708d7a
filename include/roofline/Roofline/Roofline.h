//===- Roofline.h - Roofline verdicts ------------------------------------===//
//
// ridge = peak / bandwidth; attainable = min(peak, AI * bandwidth);
// time floor = max(FLOPs / peak, bytes / bandwidth); does-not-fit when the
// footprint exceeds the memory capacity (the seed's third limit).
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_ROOFLINE_ROOFLINE_H
#define ROOFLINE_ROOFLINE_ROOFLINE_H

#include "roofline/Machine/Machine.h"

#include <functional>
#include <optional>
#include <string>

namespace roofline {

enum class BoundKind { ComputeBound, MemoryBound, DoesNotFit };
/// "compute-bound", "memory-bound", "does-not-fit".
const char *boundKindName(BoundKind B);

struct Verdict {
  std::string MachineName;
  std::string Model;               ///< traffic model the bytes came from
  Precision Prec = Precision::F32; ///< precision whose peak applies
  double Flops = 0, Bytes = 0;
  double Intensity = 0;  ///< FLOP per byte (+inf when Bytes == 0)
  double Peak = 0;       ///< FLOP/s (OP/s for integer precisions)
  double Bandwidth = 0;  ///< bytes/s of main memory
  double Ridge = 0;      ///< Peak / Bandwidth
  double Attainable = 0; ///< min(Peak, Intensity * Bandwidth)
  double TimeCompute = 0, TimeMemory = 0, Time = 0; ///< seconds
  double FootprintBytes = 0;
  BoundKind Bound = BoundKind::ComputeBound;
};

/// The verdict for a nest doing \p Flops of precision \p Prec and moving
/// \p Bytes, whose data occupies \p FootprintBytes.
Verdict computeVerdict(const Machine &M, Precision Prec, double Flops,
                       double Bytes, double FootprintBytes,
                       const std::string &Model);

/// Where a size-dependent intensity crosses the ridge.
struct Crossover {
  std::string Param;
  double Value = 0;          ///< exact real crossing, e.g. 302.4
  bool ComputeBoundAbove = true; ///< verdict for sizes above Value
};

/// Finds the size S >= 1 at which \p Intensity(S) == \p Ridge, scanning then
/// bisecting over [1, 2^40]; nullopt when the verdict never flips there.
std::optional<Crossover>
findCrossover(const std::string &Param,
              const std::function<double(double)> &Intensity, double Ridge);

} // namespace roofline

#endif // ROOFLINE_ROOFLINE_ROOFLINE_H
