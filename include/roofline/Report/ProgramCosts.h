//===- ProgramCosts.h - Launch and host-link costs of a pass ----*- C++ -*-===//
//
// The seed's other costs of small work on a GPU: each kernel launch costs
// the machine's launch latency whatever its work, and data that crosses the
// host link (PCIe) moves at its bandwidth, far below the device memory's.
// Where a machine file gives them (docs/machine-files.md), the pass report
// adds one launch per nest execution to the pass's time and names the nests
// whose time floor is below their launch or transfer time
// (docs/network-report.md, "Launches and the host link").
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_REPORT_PROGRAMCOSTS_H
#define ROOFLINE_REPORT_PROGRAMCOSTS_H

#include "roofline/IR/LoopNest.h"
#include "roofline/Machine/Machine.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace roofline {

struct ProgramSummary;
struct ProgramRow;

/// The executions of one nest along one call chain whose floor per
/// execution is below their launch or transfer time, with one verdict.
/// Executions at different sizes (`pos + 1`) are judged each on its own;
/// the per-run figures are the largest among them.
struct SmallWorkRow {
  std::string Function;
  SourceLoc Loc;
  std::string Path;
  int64_t Executions = 0;
  double FloorPerRun = 0;     ///< max(FLOPs / peak, bytes / bandwidth)
  double MinFloorPerRun = 0;  ///< the smallest, where sizes differ
  double BytesPerRun = 0;     ///< compulsory
  std::optional<double> TransferPerRun; ///< BytesPerRun / host link
  /// "launch-bound" or "transfer-bound": the larger overhead.
  std::string Verdict;
};

struct ProgramCosts {
  /// The machine gives a launch latency or a host link: the rest is set.
  bool Modelled = false;
  std::optional<double> LaunchLatency;  ///< seconds
  std::optional<double> HostLink;       ///< bytes/s
  int64_t Launches = 0;                 ///< one per counted nest execution
  double LaunchTime = 0;                ///< Launches x LaunchLatency
  double TimeWithLaunches = 0;          ///< the pass's floor + LaunchTime
  std::vector<SmallWorkRow> Rows;       ///< by floor, smallest first
};

/// Fills S.Costs from \p Runs (the pass's rows before executions at
/// different sizes were merged) and \p M's host link and launch latency.
void addProgramCosts(ProgramSummary &S, const std::vector<ProgramRow> &Runs,
                     const Machine &M);
/// Lines under the pass's table; nothing where the machine gives neither.
void printProgramCostsText(llvm::raw_ostream &OS, const ProgramSummary &S);
/// `launch_costs` of the program's JSON object (docs/json.md), or null.
llvm::json::Value programCostsJson(const ProgramSummary &S);

} // namespace roofline

#endif // ROOFLINE_REPORT_PROGRAMCOSTS_H
