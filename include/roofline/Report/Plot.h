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

namespace roofline {

struct PlotOptions {
  unsigned Width = 1000, Height = 620;
  /// A nest with sizes without a value is drawn as a range over
  /// 2^RangeLog2Lo .. 2^RangeLog2Hi of those sizes (all set to the same S).
  unsigned RangeLog2Lo = 4, RangeLog2Hi = 14;
};

/// Fill colours of the nest markers, by verdict (the browser test looks for
/// them in the screenshot).
namespace plotcolors {
constexpr const char *ComputeBound = "#2ca02c";
constexpr const char *MemoryBound = "#d62728";
constexpr const char *DoesNotFit = "#9467bd";
constexpr const char *SizeRange = "#ff7f0e";
constexpr const char *MainMemory = "#1f77b4";
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
