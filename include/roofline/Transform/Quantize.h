//===- Quantize.h - Store and compute a nest in a narrower precision -------===//
//
// The what-ifs' quantization (seed section 8): the same loops with every
// floating array and operation wider than the target stored and done in it
// (bf16: half the bytes of f32; int8: a quarter, the MACs at the machine's
// int8 rate). The rewrite itself is quantize() with
// QuantizeScope::EveryOperand (Transforms.h); this header answers whether
// it changes a nest and what its counts are. Numerics change: the advice
// says so.
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_TRANSFORM_QUANTIZE_H
#define ROOFLINE_TRANSFORM_QUANTIZE_H

#include "roofline/Analysis/Counts.h"
#include "roofline/IR/LoopNest.h"

namespace roofline {

/// Whether quantizing to \p To changes anything in \p N (some floating
/// array is wider than \p To).
bool canQuantize(const LoopNest &N, Precision To);

/// The counts of quantizedNest(N, To) (WhatIf.h) from the counts \p C of N, without
/// analyzing the quantized nest again: quantizing changes element sizes and
/// the precision of operations, never which elements are touched or how
/// often. Bytes and the by-precision maps are re-derived; everything else is
/// \p C's. A byte count \p C could not derive stays underived.
NestCounts quantizeCounts(const NestCounts &C, Precision To);

} // namespace roofline

#endif // ROOFLINE_TRANSFORM_QUANTIZE_H
