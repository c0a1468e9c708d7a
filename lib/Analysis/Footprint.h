//===- Footprint.h - Distinct elements an array nest touches ---*- C++ -*-===//
//
// Private to lib/Analysis: the compulsory traffic model. Per array, the
// distinct elements whose first access is a read, and the distinct elements
// written. Within one statement execution reads happen before writes
// (`C[i][j] += ...` reads C[i][j] first).
//
// Methods, in order of preference:
//  1. projection: every access has one subscript tuple, each subscript
//     using at most one IV (distinct ones): the footprint is the count of
//     the chain of those loops, when the other loops always run;
//  2. box union (read-only or write-only arrays, unit-step loops with
//     parameter bounds, subscripts +-iv + c): coordinate compression;
//  3. at concrete sizes, the union of the references' images, walking
//     only the loops each reference depends on (ImageCount.h); where the
//     order of reads and writes matters, each element's earliest write
//     against its reads, ranked in execution order;
//  4. enumeration with a dense bitmap or hash set (sizes known, few
//     iterations of the loops the array depends on), in program order.
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_LIB_ANALYSIS_FOOTPRINT_H
#define ROOFLINE_LIB_ANALYSIS_FOOTPRINT_H

#include "ChainCount.h"

namespace roofline {
namespace detail {

/// A statement of the (IV-unique) nest with its enclosing loops.
struct StmtSite {
  const Stmt *S = nullptr;
  Chain Loops;
};

struct FootprintResult {
  Cnt Read, Written;
};

struct ImageCountOptions {
  /// Walk steps allowed for one array (loop iterations, runs, 16 bitmap
  /// words or bits each; well under a second on one core).
  int64_t StepBudget = int64_t(1) << 24;
  /// Largest element box (bits of one bitmap) allowed for one array.
  int64_t MaxBoxElements = int64_t(1) << 30;
  /// Largest element box of an array counted in the order of its accesses
  /// (a 64-bit rank per element: 64 MiB).
  int64_t MaxOrderedElements = int64_t(1) << 23;
};

struct FootprintOptions {
  /// Loop iterations one enumeration pass over one array may visit (the
  /// loops nothing of the array depends on are visited once).
  Int128 EnumerationLimit = 20000000;
  /// Sum of the body executions of every loop, when known (the sizes have
  /// values: the exact counts apply).
  std::optional<Int128> LoopBodyExecutions;
  /// Limits of the exact count by images (ImageCount.h).
  ImageCountOptions Images;
};

/// Footprints of \p Arrays (distinct names; the results in that order);
/// \p Stmts in program order, \p Root the nest they belong to. Assumptions
/// go to \p Notes; the conditions P >= 0 on the sizes that a formula's
/// order of bounds rests on (also in a note) go to \p Conditions as well.
std::vector<FootprintResult>
computeFootprints(const std::vector<std::string> &Arrays,
                  const std::vector<StmtSite> &Stmts, const Loop &Root,
                  ChainCounter &CC, const FootprintOptions &Opts,
                  std::vector<std::string> &Notes,
                  std::vector<Polynomial> &Conditions);

} // namespace detail
} // namespace roofline

#endif // ROOFLINE_LIB_ANALYSIS_FOOTPRINT_H
