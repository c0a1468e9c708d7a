//===- ProgramPlot.h - A pass's time breakdown beside its roofline -*- C++ -*-===//
//
// The HTML plot's part for `--entry` (docs/network-report.md, "The plot"):
// per pass, a roofline of the machine with each function of the pass as a
// point (its FLOPs over its bytes, its FLOPs over its time floor) whose
// area is its share of the pass's time, beside a stacked bar of the pass's
// time by function. Deterministic SVG, no external dependencies.
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_REPORT_PROGRAMPLOT_H
#define ROOFLINE_REPORT_PROGRAMPLOT_H

#include "roofline/Machine/Machine.h"
#include "roofline/Report/ProgramReport.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace roofline {

/// The SVG of \p S on \p M; empty when nothing of the pass was counted.
std::string renderProgramSVG(const ProgramSummary &S, const Machine &M);
/// A heading and renderProgramSVG, for the HTML page's sections.
std::string programPlotSection(const ProgramSummary &S, const Machine &M);

/// Where `--plot=FILE.svg` puts the pass \p Entry's chart: FILE.pass-ENTRY.svg
/// beside it (a character of ENTRY that is not [A-Za-z0-9_.-], as in
/// `ns::forward`, becomes '_'). docs/network-report.md, "The plot".
std::string programSVGPath(llvm::StringRef PlotFile, llvm::StringRef Entry);
/// Writes renderProgramSVG of \p S as a standalone SVG file at
/// programSVGPath; writes nothing, and returns "", when nothing of the pass
/// was counted. Returns the path written.
llvm::Expected<std::string> writeProgramSVG(const ProgramSummary &S,
                                            const Machine &M,
                                            llvm::StringRef PlotFile);

} // namespace roofline

#endif // ROOFLINE_REPORT_PROGRAMPLOT_H
