//===- Delinearize.h - Linear indices split into rows, provably ----------===//
//
// A pointer indexed as `inp[b*T*C + t*C + i]` (or through row pointers that
// add up to it) is one address per element. The analyses count distinct
// elements as tuples of subscripts, so the linear index is split into rows
// ([b][t][i] with rows of C and planes of T*C) — which is only the same
// count while every inner subscript stays inside its row: `x[t*S + k]` with
// k up to K > S is a sliding window whose rows overlap. delinearize() splits
// all accesses of one array alike, proves that each inner subscript stays
// in [0, extent) over the loops around it, and where it cannot prove it,
// either states the condition on the sizes (unknown sizes) or refuses
// (known sizes that break it). docs/design.md, "Linearized indices".
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_IR_DELINEARIZE_H
#define ROOFLINE_IR_DELINEARIZE_H

#include "roofline/IR/IndexPoly.h"
#include "roofline/IR/LoopNest.h"

#include "llvm/Support/Error.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace roofline {

/// One loop around an access, with a link to the loop around it.
struct LoopRange {
  std::string IV;
  Bound First, Last;
  int64_t Step = 1;
  const LoopRange *Outer = nullptr;
};

/// Values of sizes by name, where known. Names of products ("B*T") are
/// evaluated from their factors.
using SizeValues = std::map<std::string, int64_t>;
std::optional<int64_t> sizeValue(const std::string &Name,
                                 const SizeValues &Values);
/// \p E at \p Values; nullopt when a size has no value or on overflow.
std::optional<__int128> evalSizes(const AffineExpr &E, const SizeValues &Values);

/// Bounds of \p E over the loops of \p Chain (innermost first): each result
/// is an upper bound (or, for !Upper, a lower bound) of E at every point the
/// loops visit, in the sizes alone. Several where a min/max loop bound
/// offers a choice; none where no affine bound follows.
/// With \p Values, a strided loop's bounds known there give its exact last
/// value (i += 2 below 4 ends at 2, not 3).
std::vector<AffineExpr> boundsOver(const AffineExpr &E, const LoopRange *Chain,
                                   bool Upper,
                                   const SizeValues *Values = nullptr);

/// Whole = Parts, where Whole is known to be a multiple: `hs = C / NH`
/// gives C = NH*hs when NH divides C.
struct SizeRelation {
  SizeMonomial Whole;
  SizeMonomial Parts;
  std::string Note; ///< "C = NH*hs (hs = C / NH, NH divides C)"
  /// What the relation rests on ("NH divides C"): a split that uses it
  /// assumes them; one that does not (h / kv_mul of a valued h) does not.
  std::vector<SizeCondition> Conditions;
};

/// A size named for a sum of sizes that a loop variable multiplies: the row
/// stride `j*(inputs + 1)` of rows that hold a bias and then inputs weights
/// is j rows of "(inputs+1)", not j rows of inputs plus j.
struct SizeSum {
  std::string Name;  ///< "(inputs+1)"
  IndexPoly Value;   ///< inputs + 1, no loop variables
};

struct DelinearizeAccess {
  IndexPoly Index;
  const LoopRange *Loops = nullptr; ///< innermost loop around the access
};

struct Delinearized {
  /// Outermost first; the outermost is unknown (nullopt).
  std::vector<std::optional<AffineExpr>> Extents;
  /// Per access (in input order), one subscript per dimension.
  std::vector<std::vector<AffineExpr>> Subscripts;
  /// Conditions on sizes without values that the split rests on.
  std::vector<SizeCondition> Conditions;
  /// Products of sizes used as variables (extents, flat subscripts).
  std::vector<SizeMonomial> Products;
  /// Relations used, for the notes.
  std::vector<std::string> Notes;
};

/// Splits the accesses of array \p Array (all of them, alike). A single
/// dimension when every access is affine with products of sizes as
/// variables. Fails with the reason when the strides do not nest or the
/// rows overlap at the sizes in \p Values. A size of \p Sums is a row
/// length of its own; where the strides do not nest with it, it is expanded
/// into its parts and the split tried again.
llvm::Expected<Delinearized>
delinearize(const std::string &Array,
            const std::vector<DelinearizeAccess> &Accesses,
            const std::vector<SizeRelation> &Relations,
            const SizeValues &Values,
            const std::vector<SizeSum> &Sums = {});

} // namespace roofline

#endif // ROOFLINE_IR_DELINEARIZE_H
