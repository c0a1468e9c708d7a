//===- PointGather.h - The gathers of a nest --------------------*- C++ -*-===//
//
// A point gather (Access::GatherIndex) is recorded at element 0 of its row,
// a row gather (Access::GatherLoop too) within its row: Counts checks them,
// Advice predicts no rewrite of a nest that has one, and the cache and
// tiled models, which would place every pick at the same row, refuse a row
// gather (docs/design.md, "Point gathers", "Row gathers").
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_IR_POINTGATHER_H
#define ROOFLINE_IR_POINTGATHER_H

#include "roofline/IR/LoopNest.h"

namespace roofline {

/// The first gather of \p N (point or row), statements and their accesses
/// in program order; null where it has none.
const Access *firstGather(const LoopNest &N);

/// The first row gather of \p N; null where it has none.
const Access *firstRowGather(const LoopNest &N);

} // namespace roofline

#endif // ROOFLINE_IR_POINTGATHER_H
