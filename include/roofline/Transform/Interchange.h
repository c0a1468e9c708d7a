//===- Interchange.h - Reorder the loop band of a nest ---------------------===//
//
// Builds the nest a loop interchange gives: the band (permutableBand) run in
// a new order, with the statements beside it (an initialization before the
// innermost loop) distributed into loops of their own, in program order.
// Legality is the caller's question (isInterchangeLegal); this only builds.
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_TRANSFORM_INTERCHANGE_H
#define ROOFLINE_TRANSFORM_INTERCHANGE_H

#include "roofline/IR/LoopNest.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace roofline {

/// The nests \p N becomes with its band in the loop order \p Order (IV
/// names, outermost first). Several nests when distribution splits the
/// outermost loop (the initialization gets its own i, j loops).
llvm::Expected<std::vector<LoopNest>>
interchangeNest(const LoopNest &N, const std::vector<std::string> &Order);

} // namespace roofline

#endif // ROOFLINE_TRANSFORM_INTERCHANGE_H
