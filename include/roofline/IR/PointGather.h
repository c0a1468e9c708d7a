//===- PointGather.h - The point gathers of a nest --------------*- C++ -*-===//
//
// A point gather (Access::GatherIndex) is recorded at element 0 of its row:
// Counts checks it, and Advice predicts no rewrite of a nest that has one
// (docs/design.md, "Point gathers").
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_IR_POINTGATHER_H
#define ROOFLINE_IR_POINTGATHER_H

#include "roofline/IR/LoopNest.h"

namespace roofline {

/// The first point gather of \p N, statements and their accesses in program
/// order; null where it has none.
const Access *firstPointGather(const LoopNest &N);

} // namespace roofline

#endif // ROOFLINE_IR_POINTGATHER_H
