//===- Program.h - A pass through the call graph, as the Frontend saw it --===//
//
// What `--entry=F` collects (docs/network-report.md): starting at F, the
// Frontend walks F's body with the sizes known so far, follows every call to
// a function defined in the translation unit with its arguments' values
// bound to the callee's parameters, counts loops that only carry calls
// (`for (l = 0; l < L; l++)`) as multiplicity, and builds each loop nest it
// reaches at the sizes of that call. What it cannot follow is named in
// ProgramResult::LeftOut, never dropped: a pass total is a sum of what was
// counted, and says so when something is missing.
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_FRONTEND_PROGRAM_H
#define ROOFLINE_FRONTEND_PROGRAM_H

#include "roofline/IR/LoopNest.h"
#include "roofline/IR/Polynomial.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace roofline {

/// One nest as the pass runs it: built at the sizes of the calls that reach
/// it along Path, executed Executions times.
struct ProgramNest {
  LoopNest Nest;
  /// The call chain from the entry: "forward > matmul_forward".
  std::string Path;
  /// The entry's call site this nest's chain starts at (line of the entry).
  SourceLoc Via;
  int64_t Executions = 0;
  /// The buffers each pointer of the nest's function points into over the
  /// executions merged here, in the entry's terms ("h", "acts+256",
  /// "model->acts.ln1": the root, then "+offset" in elements; "root+?" once
  /// there are too many to list); "" among them when some execution does
  /// not know it. Read by the pass what-ifs (Report/ProgramWhatIf.h).
  std::map<std::string, std::set<std::string>> Buffers;
};

/// Something on the pass that is not counted, and why.
struct ProgramLeftOut {
  std::string Path;
  SourceLoc Loc;
  std::string What;
  int64_t Times = 0; ///< how often the pass reaches it (0: unknown)
};

/// A count as a polynomial in the pass's sizes, or why there is none.
struct SymbolicCount {
  std::optional<Polynomial> Formula;
  std::string WhyNot; ///< when Formula is absent
};

/// What the walk's formulas need of one nest's counts (the Analysis's
/// NestCounts, Counts.h, in the terms of this header). The Frontend comes
/// before the Analysis (docs/design.md, "Layers"): the walk's caller counts
/// the nests, through FrontendOptions::CountNest.
struct NestFormulas {
  SymbolicCount Flops, Macs, Bytes; ///< bytes: compulsory per execution
  bool WorkIsRange = false;         ///< FLOPs are the upper end
  bool BytesIsRange = false;        ///< bytes are the upper end (gathers)
  /// The footprint formulas hold where these are >= 0.
  std::vector<Polynomial> FootprintConditions;
  /// The formulas' atoms: each name is floor(Expr / Divisor).
  std::map<std::string, BoundTerm> Atoms;
};

/// Counts a nest (built without the call's sizes) for the walk's formulas.
using NestCounter =
    std::function<llvm::Expected<NestFormulas>(const LoopNest &)>;

/// One nest along one call chain, all its executions summed, as
/// polynomials (docs/network-report.md, "Symbolic totals").
struct ProgramSymbolicRow {
  std::string Path;
  std::string Function; ///< without its case
  SourceLoc Loc;
  SymbolicCount Flops, Macs, Bytes; ///< bytes: compulsory per execution
  bool WorkIsRange = false;         ///< FLOPs are the upper end
  bool BytesIsRange = false;        ///< bytes are the upper end (gathers)
};

/// A size the formulas use that is no polynomial of the others, named
/// "floor(Num/Den)": Num / Den rounded down (C's '/' on non-negative sizes,
/// a strided loop's trip count).
struct SymbolicAtom {
  Polynomial Num, Den;
};

/// The pass's counts as polynomials in the entry's sizes: its integer
/// parameters and the struct fields it reads (named by field: `dim` for
/// p->dim). The walk binds each callee's sizes to the call's arguments,
/// sums over the loops around calls, and keeps what has no closed form
/// as a reason, never a dropped term.
struct ProgramSymbolic {
  std::vector<ProgramSymbolicRow> Rows;
  std::map<std::string, SymbolicAtom> Atoms;
  /// The free sizes, with the value the walk had for each (if any).
  std::map<std::string, std::optional<int64_t>> Variables;
  /// Conditions on the sizes the formulas rest on (branches the walk took
  /// on a size, footprint formulas' ranges).
  std::vector<std::string> Assumptions;
  /// What the formulas leave out that the numeric walk did not (in loops
  /// only the formulas enter: a bound with no value).
  std::vector<std::string> LeftOut;
};

struct ProgramResult {
  std::string Entry;
  bool Found = false; ///< the entry has a body in this translation unit
  SourceLoc EntryLoc;
  /// The entry's sizes the pass started from (name -> value).
  std::map<std::string, int64_t> EntryValues;
  std::vector<ProgramNest> Nests;
  std::vector<ProgramLeftOut> LeftOut;
  /// Calls followed (for the report's notes).
  int64_t CallsFollowed = 0;
  /// What the walk assumed.
  std::vector<std::string> Notes;
  /// --param and config keys the walk used (not "unused").
  std::set<std::string> UsedParams;
  /// The same pass as polynomials in the sizes.
  ProgramSymbolic Symbolic;
};

} // namespace roofline

#endif // ROOFLINE_FRONTEND_PROGRAM_H
