//===- PlotAxis.h - Logarithmic axes and their ticks for the roofline plot -===//
//
// Pure functions, unit-tested: a decade-aligned range covering the data, the
// mapping from data to pixels, and the ticks with readable labels.
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_REPORT_PLOTAXIS_H
#define ROOFLINE_REPORT_PLOTAXIS_H

#include <string>
#include <utility>
#include <vector>

namespace roofline {

/// A logarithmic axis: data [Lo, Hi] (both > 0) onto pixels [PixLo, PixHi].
/// PixHi < PixLo is fine (SVG's y grows downwards).
struct LogAxis {
  double Lo = 1, Hi = 10;
  double PixLo = 0, PixHi = 100;

  double toPixel(double V) const;
  /// Inverse of toPixel.
  double fromPixel(double P) const;
  /// Lo <= V <= Hi, with a relative tolerance for values at the edges.
  bool contains(double V) const;
};

/// The smallest range of whole decades [10^a, 10^b] holding [Min, Max]
/// (both > 0 and finite; swapped if given the wrong way round), at least one
/// decade wide. Non-positive or non-finite input gives [1, 10].
std::pair<double, double> decadeRange(double Min, double Max);

/// The smallest range [a, b] with ends on the 1-2-5 sequence (0.02, 0.05,
/// 0.1, 0.2, ...) holding [Min, Max], at least one decade wide: tighter
/// than decadeRange, so a plot does not waste most of a decade.
std::pair<double, double> niceLogRange(double Min, double Max);

struct Tick {
  double Value = 0;
  bool Major = false; ///< decades (and labelled 2s and 5s on short axes)
  std::string Label;  ///< empty for unlabelled minor ticks
};

/// Ticks in [Lo, Hi]: a labelled major tick at every decade, unlabelled
/// minor ticks at 2..9 x each decade; when the axis spans fewer than 2.5
/// decades, 2x and 5x are labelled (majors) too, so short axes stay readable.
/// More than 12 decades keep every other decade labelled.
std::vector<Tick> logTicks(double Lo, double Hi);

/// Tick text: "0.001", "0.5", "1", "20", "1,000", "10k", "200k", "1M",
/// "1e-05" below 0.001, "1e+15" from 1e15 on.
std::string tickLabel(double V);

} // namespace roofline

#endif // ROOFLINE_REPORT_PLOTAXIS_H
