//===- ProgramFormulas.h - A pass's totals as polynomials -------*- C++ -*-===//
//
// The `--entry` report's "pass totals (symbolic)": the walk's formulas
// (Frontend/Program.h, ProgramSymbolic) summed per function and for the
// pass, evaluated at the sizes the walk had, and checked there against the
// numeric rows: a formula that disagrees is withdrawn, with the two numbers
// (docs/network-report.md, "Symbolic totals").
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_REPORT_PROGRAMFORMULAS_H
#define ROOFLINE_REPORT_PROGRAMFORMULAS_H

#include "roofline/Analysis/Counts.h"
#include "roofline/Frontend/Program.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace roofline {

struct ProgramSummary;

struct ProgramFormulaFunction {
  std::string Function;
  SymbolicCount Flops, Bytes;
};

struct ProgramFormulas {
  bool Computed = false;
  ProgramSymbolic Walk; ///< rows, sizes, atoms, assumptions, left out
  std::vector<ProgramFormulaFunction> Functions; ///< by name
  SymbolicCount Flops, Macs, Bytes;
  /// The totals' formulas at the walk's sizes, where every size has one.
  std::optional<Rational> FlopsAt, MacsAt, BytesAt;
  /// Rows whose formula disagreed with the numeric walk (withdrawn).
  std::vector<std::string> Disagreements;
};

/// What the walk's formulas take of \p C (Frontend/Program.h).
NestFormulas nestFormulas(const NestCounts &C);
/// The walk's NestCounter (FrontendOptions::CountNest): analyzeNest.
llvm::Expected<NestFormulas> countProgramNest(const LoopNest &N);

/// Sums \p P per function and for the pass, and checks each row against
/// \p S's numeric rows of the same nest and call chain.
ProgramFormulas summarizeProgramFormulas(const ProgramSymbolic &P,
                                         const ProgramSummary &S);

/// \p F at the sizes' values (atoms computed from them, C's '/').
llvm::Expected<Rational>
evaluateProgramFormula(const Polynomial &F, const ProgramSymbolic &P);

void printProgramFormulasText(llvm::raw_ostream &OS, const ProgramFormulas &F);
/// The `symbolic` object of a `programs` element (docs/json.md).
llvm::json::Value programFormulasJson(const ProgramFormulas &F);
/// A formula's text, or null.
llvm::json::Value formulaJson(const SymbolicCount &C);

} // namespace roofline

#endif // ROOFLINE_REPORT_PROGRAMFORMULAS_H
