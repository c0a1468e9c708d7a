//===- ProgramReport.cpp - A whole pass on the roofline -------------------===//

#include "roofline/Report/ProgramReport.h"
#include "roofline/Analysis/Counts.h"
#include "roofline/Report/AdviceReport.h"
#include "roofline/Report/Finding.h"
#include "roofline/Report/Report.h"
#include "roofline/Roofline/NestVerdict.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <map>
#include <tuple>

using namespace llvm;
using namespace roofline;

namespace {

/// A row for one ProgramNest: one execution counted and judged, then
/// multiplied.
ProgramRow rowOf(const ProgramNest &PN, const Machine &M) {
  ProgramRow R;
  R.Function = PN.Nest.Function;
  R.Loc = PN.Nest.Loc;
  R.Path = PN.Path;
  R.Via = PN.Via;
  R.Executions = PN.Executions;
  Expected<NestCounts> C = analyzeNest(PN.Nest);
  if (!C) {
    R.WhyNot = toString(C.takeError());
    return R;
  }
  const Count *Missing = nullptr;
  for (const Count *X : {&C->Flops, &C->Macs, &C->BytesCompulsory})
    if (!X->Value && !Missing)
      Missing = X;
  if (Missing) {
    R.WhyNot = Missing->WhyNot.empty() ? "a count has no value at these sizes"
                                       : Missing->WhyNot;
    return R;
  }
  NestVerdict V = judgeNest(PN.Nest, *C, M, TrafficModel::Compulsory, {},
                            JudgeDetail::VerdictOnly);
  if (!V.V) {
    R.WhyNot = V.WhyNot;
    return R;
  }
  double N = double(PN.Executions);
  R.Known = true;
  R.Flops = double(*C->Flops.Value) * N;
  R.Macs = double(*C->Macs.Value) * N;
  R.Bytes = double(*C->BytesCompulsory.Value) * N;
  R.Time = V.V->Time * N;
  R.Bound = V.V->Bound;
  R.WorkIsRange = C->WorkIsRange;
  R.BytesIsRange = C->BytesIsRange;
  return R;
}

void sumCallees(ProgramSummary &S) {
  std::map<std::string, size_t> Index;
  for (const ProgramRow &R : S.Rows) {
    if (!R.Known)
      continue;
    // The function without its case: one line per callee.
    std::string F = R.Function.substr(0, R.Function.find(" ["));
    auto [It, New] = Index.try_emplace(F, S.Callees.size());
    if (New)
      S.Callees.push_back({F});
    ProgramCallee &C = S.Callees[It->second];
    C.Executions += R.Executions;
    C.Flops += R.Flops;
    C.Bytes += R.Bytes;
    C.Time += R.Time;
  }
  llvm::stable_sort(S.Callees, [](const ProgramCallee &A,
                                  const ProgramCallee &B) {
    return A.Time > B.Time;
  });
}

std::string share(double Part, double Whole) {
  return Whole > 0 ? formatG(100 * Part / Whole, 3) + "%" : "-";
}

std::string where(const SourceLoc &L) {
  return relativeToCwd(L.File) + ":" + std::to_string(L.Line);
}

std::string num(double V) { return formatRate(V, ""); }

/// "flops_formula" next to "flops": the polynomial's text, or null and
/// "flops_formula_why_not" (docs/json.md).
void putFormula(json::Object &J, const char *Key, const SymbolicCount &C) {
  std::string K = std::string(Key) + "_formula";
  J[K] = formulaJson(C);
  if (!C.Formula)
    J[K + "_why_not"] = C.WhyNot;
}

void addFormulasJson(json::Object &Totals, const ProgramFormulas &F) {
  if (!F.Computed)
    return;
  putFormula(Totals, "flops", F.Flops);
  putFormula(Totals, "macs", F.Macs);
  putFormula(Totals, "bytes", F.Bytes);
}

void addFunctionFormulasJson(json::Object &J, const std::string &Function,
                             const ProgramFormulas &F) {
  for (const ProgramFormulaFunction &Fn : F.Functions)
    if (Fn.Function == Function) {
      putFormula(J, "flops", Fn.Flops);
      putFormula(J, "bytes", Fn.Bytes);
      return;
    }
  SymbolicCount None{std::nullopt, "no formula row for this function"};
  putFormula(J, "flops", None);
  putFormula(J, "bytes", None);
}

/// A row's formulas where the row is its nest's only one on its chain
/// (a nest's cases share one formula: programs[].symbolic.rows).
void addNestFormulasJson(json::Object &J, const ProgramRow &R,
                         const ProgramSummary &S) {
  if (!S.Formulas.Computed)
    return;
  auto Same = [&](const SourceLoc &A) {
    return A.File == R.Loc.File && A.Line == R.Loc.Line &&
           A.Column == R.Loc.Column;
  };
  size_t Numeric = llvm::count_if(S.Rows, [&](const ProgramRow &O) {
    return O.Path == R.Path && Same(O.Loc);
  });
  for (const ProgramSymbolicRow &Sy : S.Formulas.Walk.Rows)
    if (Sy.Path == R.Path && Same(Sy.Loc)) {
      SymbolicCount Shared{std::nullopt,
                           "one formula for the nest's cases together: "
                           "programs[].symbolic.rows"};
      putFormula(J, "flops", Numeric == 1 ? Sy.Flops : Shared);
      putFormula(J, "macs", Numeric == 1 ? Sy.Macs : Shared);
      putFormula(J, "bytes", Numeric == 1 ? Sy.Bytes : Shared);
      return;
    }
}

} // namespace

ProgramSummary roofline::summarizeProgram(const ProgramResult &P,
                                          const Machine &M) {
  ProgramSummary S;
  S.Entry = P.Entry;
  S.Found = P.Found;
  S.EntryLoc = P.EntryLoc;
  S.MachineName = M.Name;
  S.EntryValues = P.EntryValues;
  S.LeftOut = P.LeftOut;
  S.Notes = P.Notes;
  S.Complete = P.LeftOut.empty();
  // One row per nest and call chain: the executions at different sizes
  // (a loop over positions passing pos + 1) add up.
  std::map<std::tuple<std::string, std::string, std::string, unsigned,
                      unsigned>,
           size_t>
      RowOf;
  std::vector<ProgramRow> Runs; // unmerged: each at its own sizes
  for (const ProgramNest &PN : P.Nests) {
    ProgramRow R = rowOf(PN, M);
    Runs.push_back(R);
    auto [It, New] = RowOf.try_emplace(
        {R.Path, R.Function, R.Loc.File, R.Loc.Line, R.Loc.Column},
        S.Rows.size());
    bool Merge = !New && R.Known && S.Rows[It->second].Known;
    if (Merge) {
      ProgramRow &Into = S.Rows[It->second];
      if (R.Time > Into.Time / double(Into.Executions) * double(R.Executions))
        Into.Bound = R.Bound; // the bound of the costlier executions
      Into.Executions += R.Executions;
      Into.Flops += R.Flops;
      Into.Macs += R.Macs;
      Into.Bytes += R.Bytes;
      Into.Time += R.Time;
      Into.WorkIsRange |= R.WorkIsRange;
      Into.BytesIsRange |= R.BytesIsRange;
    }
    if (R.Known) {
      S.Flops += R.Flops;
      S.Macs += R.Macs;
      S.Bytes += R.Bytes;
      S.Time += R.Time;
      if (R.Bound != BoundKind::ComputeBound)
        S.MemoryTime += R.Time;
    } else {
      S.Complete = false;
    }
    if (!Merge)
      S.Rows.push_back(std::move(R)); // unknowns each on a line of their own
  }
  llvm::stable_sort(S.Rows, [](const ProgramRow &A, const ProgramRow &B) {
    return A.Known != B.Known ? A.Known : A.Time > B.Time;
  });
  sumCallees(S);
  addProgramCosts(S, Runs, M);
  S.Formulas = summarizeProgramFormulas(P.Symbolic, S);
  return S;
}

void roofline::printProgramText(raw_ostream &OS, const ProgramSummary &S) {
  if (!S.Found) {
    OS << "roofline-lint: error: --entry=" << S.Entry
       << ": no function of that name with a body in this file\n";
    return;
  }
  const char *Bound = S.MemoryTime * 2 >= S.Time ? "memory-bound"
                                                 : "compute-bound";
  bool Counted = llvm::any_of(S.Rows, [](const ProgramRow &R) { return R.Known; });
  if (!Counted) {
    OS << where(S.EntryLoc) << ":" << S.EntryLoc.Column << ": remark: pass '"
       << S.Entry << "' on " << S.MachineName
       << ": nothing counted, see 'left out' [roofline-program]\n";
  } else {
  OS << where(S.EntryLoc) << ":" << S.EntryLoc.Column << ": remark: pass '"
     << S.Entry << "' on " << S.MachineName << ": time floor "
     << formatSeconds(S.Time) << ", " << num(S.Flops) << "FLOP, "
     << bytesText(S.Bytes) << ", " << formatG(S.Bytes > 0 ? S.Flops / S.Bytes : 0)
     << " FLOP/B: " << Bound << " (" << share(S.MemoryTime, S.Time)
     << " of the time in memory-bound nests)"
     << (S.Complete ? "" : "; incomplete, see 'left out'")
     << " [roofline-program]\n";
  }
  if (!S.EntryValues.empty()) {
    OS << "  sizes:";
    for (const auto &[K, V] : S.EntryValues)
      OS << " " << K << "=" << V;
    OS << "\n";
  }
  for (const std::string &N : S.Notes)
    OS << "  note: " << N << "\n";
  if (Counted)
    OS << "  (compulsory bytes per nest execution; time floor = max(FLOPs / "
        "peak, bytes / bandwidth) per execution, summed)\n";
  if (Counted)
    OS << formatv("  {0,7} {1,10} {2,8} {3,10} {4,10} {5,8}  {6,-13} {7}\n",
                  "share", "time", "runs", "FLOPs", "bytes", "FLOP/B",
                  "verdict", "nest");
  for (const ProgramRow &R : S.Rows) {
    if (!R.Known)
      continue;
    OS << formatv("  {0,7} {1,10} {2,8} {3,10} {4,10} {5,8}  {6,-13} ",
                  share(R.Time, S.Time), formatSeconds(R.Time), R.Executions,
                  num(R.Flops), bytesText(R.Bytes),
                  formatG(R.Bytes > 0 ? R.Flops / R.Bytes : 0),
                  boundKindName(R.Bound))
       << R.Function << " (" << where(R.Loc) << ") via " << R.Path
       << (R.BytesIsRange ? " (bytes: the upper end, rows picked by loaded "
                            "indices)"
                          : "")
       << "\n";
  }
  if (S.Callees.size() > 1) {
    OS << "  per function:\n";
    for (const ProgramCallee &C : S.Callees)
      OS << formatv("  {0,7} {1,10} {2,8} {3,10} {4,10}  ",
                    share(C.Time, S.Time), formatSeconds(C.Time), C.Executions,
                    num(C.Flops), bytesText(C.Bytes))
         << C.Function << "\n";
  }
  printProgramFormulasText(OS, S.Formulas);
  printProgramCostsText(OS, S);
  bool Header = false;
  auto LeftHeader = [&] {
    if (!Header)
      OS << "  left out (not in the totals):\n";
    Header = true;
  };
  for (const ProgramRow &R : S.Rows)
    if (!R.Known) {
      LeftHeader();
      OS << "    " << where(R.Loc) << ": " << R.Function << " via " << R.Path
         << ": no count: " << R.WhyNot << "\n";
    }
  for (const ProgramLeftOut &L : S.LeftOut) {
    LeftHeader();
    OS << "    " << where(L.Loc) << ": " << L.Path << ": " << L.What;
    if (L.Times > 1)
      OS << " (" << L.Times << " times)";
    OS << "\n";
  }
  printProgramWhatIfs(OS, S.WhatIf);
}

json::Value roofline::programJson(const ProgramSummary &S) {
  json::Object O{{"entry", S.Entry}, {"found", S.Found}};
  if (!S.Found)
    return O;
  json::Object Sizes;
  for (const auto &[K, V] : S.EntryValues)
    Sizes[K] = V;
  O["file"] = S.EntryLoc.File;
  O["line"] = S.EntryLoc.Line;
  O["machine"] = S.MachineName;
  O["traffic_model"] = "compulsory";
  O["sizes"] = std::move(Sizes);
  O["totals"] = json::Object{
      {"flops", S.Flops},
      {"macs", S.Macs},
      {"bytes", S.Bytes},
      {"intensity", S.Bytes > 0 ? S.Flops / S.Bytes : 0.0},
      {"time_floor_s", S.Time},
      {"memory_bound_time_s", S.MemoryTime},
      {"bound", S.MemoryTime * 2 >= S.Time ? "memory-bound" : "compute-bound"},
      {"complete", S.Complete}};
  addFormulasJson(*O["totals"].getAsObject(), S.Formulas);
  json::Array Rows;
  for (const ProgramRow &R : S.Rows) {
    json::Object J{{"function", R.Function},
                   {"file", R.Loc.File},
                   {"line", R.Loc.Line},
                   {"path", R.Path},
                   {"via_line", R.Via.Line},
                   {"executions", R.Executions}};
    if (R.Known) {
      J["flops"] = R.Flops;
      J["macs"] = R.Macs;
      J["bytes"] = R.Bytes;
      J["time_floor_s"] = R.Time;
      J["share"] = S.Time > 0 ? R.Time / S.Time : 0.0;
      J["verdict"] = boundKindName(R.Bound);
      J["work_is_range"] = R.WorkIsRange;
      J["bytes_is_range"] = R.BytesIsRange;
      addNestFormulasJson(J, R, S);
    } else {
      J["why_not"] = R.WhyNot;
    }
    Rows.push_back(std::move(J));
  }
  O["nests"] = std::move(Rows);
  json::Array Callees;
  for (const ProgramCallee &C : S.Callees) {
    json::Object J{{"function", C.Function},
                   {"executions", C.Executions},
                   {"flops", C.Flops},
                   {"bytes", C.Bytes},
                   {"time_floor_s", C.Time},
                   {"share", S.Time > 0 ? C.Time / S.Time : 0.0}};
    addFunctionFormulasJson(J, C.Function, S.Formulas);
    Callees.push_back(std::move(J));
  }
  O["functions"] = std::move(Callees);
  json::Array Left;
  for (const ProgramLeftOut &L : S.LeftOut)
    Left.push_back(json::Object{{"path", L.Path},
                                {"file", L.Loc.File},
                                {"line", L.Loc.Line},
                                {"what", L.What},
                                {"times", L.Times}});
  O["left_out"] = std::move(Left);
  json::Array Notes;
  for (const std::string &N : S.Notes)
    Notes.push_back(N);
  O["notes"] = std::move(Notes);
  if (S.WhatIf.Computed)
    O["what_if"] = programWhatIfJson(S.WhatIf);
  O["launch_costs"] = programCostsJson(S);
  O["symbolic"] = programFormulasJson(S.Formulas);
  return O;
}
