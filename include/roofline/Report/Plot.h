//===- Plot.h - The roofline chart as SVG and as a self-contained page ----===//
//
// The seed's chart: arithmetic intensity (FLOP/byte) on X, attainable
// GFLOP/s on Y, both logarithmic; a roof per memory level and per precision
// in use, the ridge points, and each loop nest as a point coloured by its
// verdict (a nest whose sizes have no value as a range of sizes). Pure
// functions of the Report; no external dependencies.
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_REPORT_PLOT_H
#define ROOFLINE_REPORT_PLOT_H

#include "roofline/Report/Report.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace roofline {

/// A kernel roofline-run measured: a hollow point where the roofline
/// predicts it (its predicted intensity, attainable FLOP/s), a filled one
/// where it ran, and an arrow from the first to the second.
struct MeasuredPoint {
  std::string Label;       ///< "gemm_L9 tiled (N=256)"
  double Intensity = 0;    ///< predicted FLOP/byte: X of both points
  double Predicted = 0;    ///< attainable FLOP/s on the machine
  double Measured = 0;     ///< measured FLOP/s
  Precision Prec = Precision::F32; ///< the roof it is judged against
};

struct PlotOptions {
  unsigned Width = 1000, Height = 620;
  /// A nest with sizes without a value is drawn as a range over
  /// 2^RangeLog2Lo .. 2^RangeLog2Hi of those sizes (all set to the same S).
  unsigned RangeLog2Lo = 4, RangeLog2Hi = 14;
  /// Measured kernels drawn over the roofline (roofline-run --plot).
  std::vector<MeasuredPoint> Measured;
  /// More of the HTML page, after the nests' table (the `--entry` passes'
  /// breakdowns, Report/ProgramPlot.h); not part of the SVG.
  std::vector<std::string> HtmlSections;
};

/// Fill colours of the nest markers, by verdict (the browser test looks for
/// them in the screenshot).
namespace plotcolors {
constexpr const char *ComputeBound = "#2ca02c";
constexpr const char *MemoryBound = "#d62728";
constexpr const char *DoesNotFit = "#9467bd";
constexpr const char *SizeRange = "#ff7f0e";
constexpr const char *MainMemory = "#1f77b4";
constexpr const char *Measured = "#c2188a"; ///< roofline-run's kernels
} // namespace plotcolors

/// The chart as a standalone SVG document.
std::string renderRooflineSVG(const Report &R, const PlotOptions &O = {});

/// A self-contained HTML page: the SVG inline, hover tooltips on roofs and
/// points, and a table of the nests.
std::string renderRooflineHTML(const Report &R, const PlotOptions &O = {});

/// Writes SVG or HTML by the extension of \p Path (.svg, .html, .htm);
/// any other extension is an error.
llvm::Error writeRooflinePlot(const Report &R, llvm::StringRef Path,
                              const PlotOptions &O = {});

/// Whether writeRooflinePlot accepts \p Path's extension.
bool isPlotPath(llvm::StringRef Path);

} // namespace roofline

#endif // ROOFLINE_REPORT_PLOT_H
