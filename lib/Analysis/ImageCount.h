//===- ImageCount.h - Exact footprints by projected enumeration -*- C++ -*-===//
//
// Private to lib/Analysis: the compulsory footprint of one array at concrete
// sizes, whatever the nest's iteration count (issue 21; docs/cache-model.md,
// "Compulsory bytes"). Per reference, only the loops its subscripts or the
// bounds below them use are walked (the projection of the iteration space on
// the reference's image); a loop used only by the bounds of the loops inside
// it, whose inner iteration space grows monotonically with it, is taken at
// its extreme value; the innermost loop the reference walks is marked as one
// run of elements. The images of all references of the array are united in a
// bitmap over the array's element box, so the count is exact.
//
// When every write is covered by a read of the same element in the same
// statement (`C[i][j] += ...`, `A[i][j] /= A[j][j]`), or the array is
// read-only or write-only, the order of the accesses does not matter. When
// it does (`W[i + j] = ...` in one statement, `... = W[j + k]` in another),
// each reference is walked in execution order, the loops nothing below uses
// at their first value, and each statement instance is ranked by its 2d+1
// schedule (loop values and body positions, lexicographic): an element is
// first read when a read of it ranks no later than its earliest write (a
// tie is one statement instance, whose reads come first). That keeps a
// 64-bit rank per element of the box (at most MaxOrderedElements).
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_LIB_ANALYSIS_IMAGECOUNT_H
#define ROOFLINE_LIB_ANALYSIS_IMAGECOUNT_H

#include "Footprint.h"

namespace roofline {
namespace detail {

struct ImageCountResult {
  /// Distinct elements whose first access is a read, and distinct elements
  /// written (Footprint.h's FootprintResult at these sizes).
  Int128 Read = 0, Written = 0;
};

/// Exact footprint of array \p Name over \p Stmts (the statements of one
/// nest with their loops) at the sizes in \p Known; nullopt with \p Why when
/// the method does not apply or is too costly (then \p OverBudget: walking
/// the loops the references depend on takes more than Opts.StepBudget).
std::optional<ImageCountResult>
countArrayImages(const std::string &Name, const std::vector<StmtSite> &Stmts,
                 const Env &Known, const ImageCountOptions &Opts,
                 std::string &Why, bool &OverBudget);

} // namespace detail
} // namespace roofline

#endif // ROOFLINE_LIB_ANALYSIS_IMAGECOUNT_H
