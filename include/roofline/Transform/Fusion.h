//===- Fusion.h - Fuse adjacent nests, contract their intermediates --------===//
//
// Builds the nest loop fusion gives: the bodies of consecutive nests over
// the same domain run in one loop (fusableDepth levels deep, the later
// nests' IVs renamed to the first's), and the arrays named for contraction
// (intermediates that one step writes and the next reads in the same
// iteration) stay in registers: their accesses disappear. Legality is the
// caller's question (isFusionLegal); this only builds.
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_TRANSFORM_FUSION_H
#define ROOFLINE_TRANSFORM_FUSION_H

#include "roofline/IR/LoopNest.h"

#include "llvm/Support/Error.h"

#include <set>
#include <string>
#include <vector>

namespace roofline {

/// Fuses \p Nests (in program order) into the first; accesses to arrays in
/// \p Contract are dropped.
llvm::Expected<LoopNest> fuseNests(const std::vector<const LoopNest *> &Nests,
                                   const std::set<std::string> &Contract);

} // namespace roofline

#endif // ROOFLINE_TRANSFORM_FUSION_H
