//===- ProgramReport.h - A whole pass on the roofline -----------*- C++ -*-===//
//
// Turns the Frontend's walk of a pass (Frontend/Program.h) into the report
// `--entry` prints: every nest the pass runs, counted at the sizes of its
// calls and judged on the machine, times how often it runs; rows per nest
// and call chain, sums per callee, totals for the pass, and what was left
// out (docs/network-report.md).
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_REPORT_PROGRAMREPORT_H
#define ROOFLINE_REPORT_PROGRAMREPORT_H

#include "roofline/Frontend/Program.h"
#include "roofline/Machine/Machine.h"
#include "roofline/Report/ProgramFormulas.h"
#include "roofline/Report/ProgramWhatIf.h"
#include "roofline/Report/ProgramCosts.h"
#include "roofline/Roofline/Roofline.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace roofline {

/// One nest of the pass along one call chain, all its executions.
struct ProgramRow {
  std::string Function; ///< with its case: "matmul_forward [bias != NULL]"
  SourceLoc Loc;
  std::string Path;
  SourceLoc Via;
  int64_t Executions = 0;
  /// Totals over the executions; Known is false when a count had no value.
  bool Known = false;
  std::string WhyNot;
  double Flops = 0, Macs = 0, Bytes = 0, Time = 0;
  bool WorkIsRange = false;
  bool BytesIsRange = false; ///< Bytes are the upper end (row gathers)
  BoundKind Bound = BoundKind::ComputeBound; ///< of one execution
};

/// The rows of one function, summed.
struct ProgramCallee {
  std::string Function;
  int64_t Executions = 0;
  double Flops = 0, Bytes = 0, Time = 0;
};

struct ProgramSummary {
  std::string Entry;
  bool Found = false;
  SourceLoc EntryLoc;
  std::string MachineName;
  std::map<std::string, int64_t> EntryValues;
  std::vector<ProgramRow> Rows;       ///< by time, largest first
  std::vector<ProgramCallee> Callees; ///< by time, largest first
  std::vector<ProgramLeftOut> LeftOut;
  std::vector<std::string> Notes;
  double Flops = 0, Macs = 0, Bytes = 0, Time = 0;
  double MemoryTime = 0; ///< time of the memory-bound rows
  /// Every nest reached had values and nothing was left out.
  bool Complete = true;
  /// Batching, quantizing, fusing the whole pass (set by the caller:
  /// predictProgramWhatIfs).
  ProgramWhatIfs WhatIf;
  /// Launch latency and host-link costs (ProgramCosts.h).
  ProgramCosts Costs;
  /// The totals as polynomials in the sizes (ProgramFormulas.h).
  ProgramFormulas Formulas;
};

/// Counts every nest of \p P and judges it on \p M with compulsory bytes
/// (each nest from a cold start: the roofline's own reading).
ProgramSummary summarizeProgram(const ProgramResult &P, const Machine &M);

/// A remark for the pass and its tables, clang-style.
void printProgramText(llvm::raw_ostream &OS, const ProgramSummary &S);
/// The `programs` element of the JSON report (docs/json.md).
llvm::json::Value programJson(const ProgramSummary &S);

} // namespace roofline

#endif // ROOFLINE_REPORT_PROGRAMREPORT_H
