//===- IterationSpace.h - Loop ranges and statement sites ------*- C++ -*-===//
//
// Private to lib/Analysis: what the dependence analysis, the cache model and
// the tiled model share about a nest's iteration space. Ranges are rectangular
// hulls in doubles (an unknown size makes a side infinite): they bound, they
// do not count; exact counts stay in Counts.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_LIB_ANALYSIS_ITERATIONSPACE_H
#define ROOFLINE_LIB_ANALYSIS_ITERATIONSPACE_H

#include "roofline/Analysis/Counts.h"
#include "roofline/IR/LoopNest.h"

#include <limits>
#include <map>
#include <string>
#include <vector>

namespace roofline {
namespace detail {

struct Interval {
  double Lo = -std::numeric_limits<double>::infinity();
  double Hi = std::numeric_limits<double>::infinity();

  static Interval point(double V) { return {V, V}; }
  bool empty() const { return Lo > Hi; }
  bool finite() const;
};

/// Sizes by name: the nest's own values, overridden by \p Overrides.
std::map<std::string, int64_t> paramValues(const LoopNest &N,
                                           const ParamValues &Overrides = {});

/// Hull of \p E where each variable lies in \p Vars or has a value in
/// \p Values; any other variable makes the result unbounded.
Interval rangeOf(const AffineExpr &E, const std::map<std::string, Interval> &Vars,
                 const std::map<std::string, int64_t> &Values);
Interval rangeOf(const Bound &B, const std::map<std::string, Interval> &Vars,
                 const std::map<std::string, int64_t> &Values);

/// Value range of every IV of the tree at \p Root (a hull over the outer
/// loops' ranges; step ignored).
std::map<const Loop *, Interval>
loopRanges(const Loop &Root, const std::map<std::string, int64_t> &Values);

/// One statement with its enclosing loops, outermost first.
struct StmtRef {
  const Stmt *S = nullptr;
  std::vector<const Loop *> Loops;
  /// For each enclosing loop, the position in its parent's body of the node
  /// leading to the statement (last: the statement's own position), with
  /// the root's position (0) first: the statement's 2d+1 schedule.
  std::vector<unsigned> Positions;
};

/// The statements of \p Root in program (pre-)order.
std::vector<StmtRef> collectStmts(const Loop &Root);

/// The loops of \p Root in pre-order (the order of NestCounts::Loops).
std::vector<const Loop *> preorderLoops(const Loop &Root);

/// True when a loop variable shadows an enclosing one or a size.
bool hasShadowing(const LoopNest &N);

/// \p N with every shadowing loop variable renamed ("i" -> "i.1") in its
/// loop's bounds and body, so that names identify variables on every chain.
LoopNest withUniqueIVs(const LoopNest &N);

/// "i, k, j".
std::string joinIVs(const std::vector<const Loop *> &Loops);

/// \p P, or none where it is an error (consumed): the cache models' symbolic
/// formulas leave out what cannot be formed.
std::optional<Polynomial> polynomialOrNone(llvm::Expected<Polynomial> P);

} // namespace detail
} // namespace roofline

#endif // ROOFLINE_LIB_ANALYSIS_ITERATIONSPACE_H
