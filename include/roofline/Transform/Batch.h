//===- Batch.h - Run B independent inputs through one nest -----------------===//
//
// The seed's batching (section 8): a layer applied to one input at a time is
// a gemv; B inputs side by side make it a gemm. A nest qualifies when one
// read-only array is indexed by every loop around it (the weights, each
// element used once) and some other array is read (an input): batching adds
// an outer loop b over B inputs and a leading dimension [b] to every array
// but the weights, which are then reused B times.
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_TRANSFORM_BATCH_H
#define ROOFLINE_TRANSFORM_BATCH_H

#include "roofline/IR/LoopNest.h"

#include <optional>
#include <string>
#include <vector>

namespace roofline {

struct BatchPlan {
  std::string Weights;              ///< read once for all inputs
  std::vector<std::string> Batched; ///< one copy per input
};

/// The plan for \p N, or nullopt when batching would reuse nothing.
std::optional<BatchPlan> batchPlan(const LoopNest &N);

/// \p N over \p Size inputs: for (b = 0; b < Size; ++b) <N with X[b]...>.
LoopNest batchNest(const LoopNest &N, const BatchPlan &P, int64_t Size);

} // namespace roofline

#endif // ROOFLINE_TRANSFORM_BATCH_H
