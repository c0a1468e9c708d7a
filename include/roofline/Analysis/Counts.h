//===- Counts.h - Exact operation, access and byte counts of a nest -------===//
//
// The analysis core: from a LoopNest to MACs, FLOPs by precision, INTOPs,
// loads/stores (no-reuse model) and bytes under the no-reuse and compulsory
// traffic models, each symbolic in the parameters and exact where the
// parameters have values. A count that cannot be derived exactly carries
// the reason instead of a number (docs/design.md: never guessed).
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_ANALYSIS_COUNTS_H
#define ROOFLINE_ANALYSIS_COUNTS_H

#include "roofline/IR/Polynomial.h"
#include "roofline/IR/LoopNest.h"

#include "llvm/Support/Error.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace roofline {

/// One count, both ways.
struct Count {
  /// Polynomial in the parameters (all of them: a gemm with N = 1024 still
  /// reads 2*K*M*N; a formula over valued sizes is kept only where it
  /// provably holds at those sizes); absent when the nest is
  /// not polynomial-summable (min/max bounds, strided loops whose trip count
  /// depends on an outer variable, ...).
  std::optional<Polynomial> Formula;
  /// Exact value; present when every parameter the count uses has a value.
  std::optional<Int128> Value;
  /// Why Value (or Formula) is missing, for the report.
  std::string WhyNot;
};

struct LoopTrip {
  std::string IV;
  std::string First, Last; ///< bound text
  int64_t Step = 1;
  /// Iterations per entry of the loop, C-like ("N", "i + 1", "(N - 1)/2 + 1").
  std::string TripPerEntry;
  /// Executions of the loop body over the whole nest.
  Count Total;
};

struct ArrayTraffic {
  std::string Name;
  Precision Elem = Precision::Unknown;
  unsigned ElemBytes = 0;
  Count Loads, Stores;          ///< executed element moves, no-reuse model
  Count ElementsRead;           ///< distinct elements whose first access reads
  Count ElementsWritten;        ///< distinct elements written
  /// Rows picked by a loaded index (Access::GatherLoop) make the distinct
  /// elements a range: ElementsRead/ElementsWritten are then its upper end
  /// (every pick a new row) and these the lower end (every pick the same).
  /// So does a loop that stops early on the data (Loop::ExitsEarly).
  bool ElementsAreRange = false;
  Count ElementsReadMin, ElementsWrittenMin;
};

/// FLOP weight charged for one call of a special function (docs/counting.md).
unsigned specialFunctionFlops(const std::string &Name);

struct NestCounts {
  /// Executions of the bodies of the innermost loops (loops holding no
  /// loop), summed: N*M*K for gemm.
  Count Iterations;
  Count Macs, Flops, IntOps, Loads, Stores;
  /// Data-dependent branches (Stmt::MaybeOps) make the work a range:
  /// Macs, Flops, FlopsByType, Calls and IntOps are then its upper end and
  /// these the lower end (docs/design.md, "Conditions").
  bool WorkIsRange = false;
  Count MacsMin, FlopsMin;
  std::map<Precision, Count> MacsByType;
  std::map<Precision, Count> FlopsByType;
  std::map<std::string, Count> Calls; ///< special functions by name
  std::vector<LoopTrip> Loops;        ///< pre-order, outermost first
  std::vector<ArrayTraffic> Arrays;   ///< in LoopNest::Arrays order
  Count BytesNoReuse, BytesCompulsory;
  /// Row gathers and early exits make the compulsory bytes a range:
  /// BytesCompulsory is its upper end, this the lower (docs/design.md, "Row
  /// gathers", "Early exits"). An early exit also makes the work a range,
  /// and withdraws Loads, Stores, BytesNoReuse and Iterations.
  bool BytesIsRange = false;
  Count BytesCompulsoryMin;
  /// Assumptions the counts rest on ("arrays A and B are assumed not to
  /// alias", "formula valid while every trip count is >= 0").
  std::vector<std::string> Notes;
  /// Conditions P >= 0 on the sizes that the footprint formulas (and so
  /// BytesCompulsory's) rest on, stated in Notes as "the footprint formula
  /// of A assumes N >= 5": at sizes where one fails the formula may be
  /// wrong. Evaluate with evaluateFormula.
  std::vector<Polynomial> FootprintConditions;
  /// Parameter values the numeric counts used (the nest's, overridden).
  /// Formulas are in every parameter, including those with values.
  std::map<std::string, int64_t> Values;
  /// Atom variables formulas may use besides parameters, by name:
  /// "floor((N - 1)/2)" -> floor((N - 1) / 2). See evaluateFormula.
  std::map<std::string, BoundTerm> Atoms;
};

/// Parameter values that override (or supply) the nest's own, by name.
using ParamValues = std::map<std::string, int64_t>;

/// Evaluates a formula of \p C at \p Values, computing its atoms from them;
/// fails naming a parameter without a value, or on overflow.
llvm::Expected<Rational> evaluateFormula(const NestCounts &C,
                                         const Polynomial &F,
                                         const std::map<std::string, int64_t> &Values);

/// Fails (with a one-line reason) only when nothing exact can be said about
/// the nest at all; partial results carry Count::WhyNot.
llvm::Expected<NestCounts> analyzeNest(const LoopNest &N,
                                       const ParamValues &Overrides = {});

} // namespace roofline

#endif // ROOFLINE_ANALYSIS_COUNTS_H
