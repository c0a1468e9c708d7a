//===- ProgramCosts.cpp - Launch and host-link costs of a pass ------------===//
//
// A pass keeps its buffers on the device, so only launches add to its time:
// one per nest execution (each nest a kernel, as the per-nest report and
// roofline-run's CUDA variants build them). The host-link time of a nest is
// what it would cost if its compulsory bytes crossed the link at each run,
// the case of a nest offloaded on its own (docs/network-report.md).
//
//===----------------------------------------------------------------------===//

#include "roofline/Report/ProgramCosts.h"
#include "roofline/Report/AdviceReport.h"
#include "roofline/Report/Finding.h"
#include "roofline/Report/ProgramReport.h"
#include "roofline/Report/Report.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <map>
#include <tuple>

using namespace llvm;
using namespace roofline;

namespace {

std::string where(const SourceLoc &L) {
  return relativeToCwd(L.File) + ":" + std::to_string(L.Line);
}

/// The overhead that exceeds a run's floor, if any.
std::optional<SmallWorkRow> smallWork(const ProgramRow &R,
                                      const ProgramCosts &C) {
  if (!R.Known || R.Executions <= 0)
    return std::nullopt;
  SmallWorkRow W;
  W.Function = R.Function;
  W.Loc = R.Loc;
  W.Path = R.Path;
  W.Executions = R.Executions;
  W.FloorPerRun = W.MinFloorPerRun = R.Time / double(R.Executions);
  W.BytesPerRun = R.Bytes / double(R.Executions);
  if (C.HostLink)
    W.TransferPerRun = W.BytesPerRun / *C.HostLink;
  double Launch = C.LaunchLatency.value_or(0);
  double Transfer = W.TransferPerRun.value_or(0);
  if (std::max(Launch, Transfer) <= W.FloorPerRun)
    return std::nullopt;
  W.Verdict = Launch >= Transfer ? "launch-bound" : "transfer-bound";
  return W;
}

const char *passBound(const ProgramSummary &S) {
  if (S.Costs.LaunchTime * 2 >= S.Costs.TimeWithLaunches)
    return "launch-bound";
  return S.MemoryTime * 2 >= S.Time ? "memory-bound" : "compute-bound";
}

} // namespace

void roofline::addProgramCosts(ProgramSummary &S,
                               const std::vector<ProgramRow> &Runs,
                               const Machine &M) {
  ProgramCosts &C = S.Costs;
  C = ProgramCosts();
  C.LaunchLatency = M.LaunchLatencyS;
  C.HostLink = M.HostLinkBytesPerS;
  C.Modelled = C.LaunchLatency || C.HostLink;
  if (!C.Modelled)
    return;
  std::map<std::tuple<std::string, std::string, unsigned, unsigned,
                      std::string>,
           size_t>
      Group;
  for (const ProgramRow &R : Runs) {
    if (!R.Known)
      continue;
    C.Launches += R.Executions;
    std::optional<SmallWorkRow> W = smallWork(R, C);
    if (!W)
      continue;
    auto [It, New] = Group.try_emplace(
        {W->Path, W->Loc.File, W->Loc.Line, W->Loc.Column, W->Verdict},
        C.Rows.size());
    if (New) {
      C.Rows.push_back(std::move(*W));
      continue;
    }
    SmallWorkRow &Into = C.Rows[It->second];
    Into.Executions += W->Executions;
    Into.MinFloorPerRun = std::min(Into.MinFloorPerRun, W->MinFloorPerRun);
    Into.FloorPerRun = std::max(Into.FloorPerRun, W->FloorPerRun);
    Into.BytesPerRun = std::max(Into.BytesPerRun, W->BytesPerRun);
    if (W->TransferPerRun)
      Into.TransferPerRun =
          std::max(Into.TransferPerRun.value_or(0), *W->TransferPerRun);
  }
  C.LaunchTime = double(C.Launches) * C.LaunchLatency.value_or(0);
  C.TimeWithLaunches = S.Time + C.LaunchTime;
  llvm::stable_sort(C.Rows, [](const SmallWorkRow &A, const SmallWorkRow &B) {
    return A.FloorPerRun < B.FloorPerRun;
  });
}

void roofline::printProgramCostsText(raw_ostream &OS, const ProgramSummary &S) {
  const ProgramCosts &C = S.Costs;
  if (!C.Modelled || C.Launches == 0)
    return;
  if (C.LaunchLatency)
    OS << "  launches: " << C.Launches << " (one per nest execution) x "
       << formatSeconds(*C.LaunchLatency) << " launch latency = "
       << formatSeconds(C.LaunchTime) << "; the pass with them: "
       << formatSeconds(C.TimeWithLaunches) << ", " << passBound(S) << " ("
       << formatG(C.TimeWithLaunches > 0
                      ? 100 * C.LaunchTime / C.TimeWithLaunches
                      : 0,
                  3)
       << "% of it in launches)\n";
  if (C.Rows.empty())
    return;
  OS << "  small work on " << S.MachineName
     << " (a run's time floor below its launch latency, or below moving its "
        "bytes over the host link"
     << (C.HostLink ? " at " + formatRate(*C.HostLink, "B/s") : std::string())
     << " as a nest offloaded alone would):\n";
  OS << formatv("    {0,-15} {1,10} {2,10} {3,10} {4,10} {5,8}  {6}\n", "verdict",
                "floor/run", "launch", "bytes/run", "transfer", "runs",
                "nest");
  for (const SmallWorkRow &W : C.Rows)
    OS << formatv("    {0,-15} {1,10} {2,10} {3,10} {4,10} {5,8}  ", W.Verdict,
                  (W.MinFloorPerRun < W.FloorPerRun ? "<= " : "") +
                      formatSeconds(W.FloorPerRun),
                  C.LaunchLatency ? formatSeconds(*C.LaunchLatency) : "-",
                  bytesText(W.BytesPerRun),
                  W.TransferPerRun ? formatSeconds(*W.TransferPerRun) : "-",
                  W.Executions)
       << W.Function << " (" << where(W.Loc) << ") via " << W.Path << "\n";
}

json::Value roofline::programCostsJson(const ProgramSummary &S) {
  const ProgramCosts &C = S.Costs;
  if (!C.Modelled)
    return nullptr;
  auto Opt = [](std::optional<double> V) -> json::Value {
    return V ? json::Value(*V) : json::Value(nullptr);
  };
  json::Array Rows;
  for (const SmallWorkRow &W : C.Rows)
    Rows.push_back(json::Object{{"function", W.Function},
                                {"file", W.Loc.File},
                                {"line", W.Loc.Line},
                                {"path", W.Path},
                                {"executions", W.Executions},
                                {"floor_per_run_s", W.FloorPerRun},
                                {"floor_per_run_min_s", W.MinFloorPerRun},
                                {"bytes_per_run", W.BytesPerRun},
                                {"transfer_per_run_s", Opt(W.TransferPerRun)},
                                {"verdict", W.Verdict}});
  return json::Object{{"launch_latency_s", Opt(C.LaunchLatency)},
                      {"host_link_bytes_per_s", Opt(C.HostLink)},
                      {"launches", C.Launches},
                      {"launch_time_s", C.LaunchTime},
                      {"time_with_launches_s", C.TimeWithLaunches},
                      {"bound", C.Launches ? passBound(S) : "none"},
                      {"small_work", std::move(Rows)}};
}
