//===- WhatIf.h - The what-ifs' entry to the transform stack --------------===//
//
// The what-if advice (Roofline/Advice.h, Report/ProgramWhatIf.cpp) predicts
// a rewrite by applying the schedule records code generation applies, with
// the same functions (applySchedule), so advice never predicts a nest that
// --emit would build differently. Two options differ, both for a reason
// (docs/design.md, "Transforms"): accumulators are not promoted (the
// prediction compares with the nest as analyzed), and quantize narrows
// every operand of any nest (QuantizeScope::EveryOperand).
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_TRANSFORM_WHATIF_H
#define ROOFLINE_TRANSFORM_WHATIF_H

#include "roofline/Transform/Transforms.h"

#include <optional>
#include <vector>

namespace roofline {

/// The program a what-if rewrites: \p Sources as written, in order.
Program whatIfProgram(const std::vector<LoopNest> &Sources);

/// The nests of \p P, in order: what a what-if counts.
std::vector<LoopNest> nestsOf(const Program &P);

/// \p Sources rewritten by \p S; the error says which record does not
/// apply and why.
llvm::Expected<std::vector<LoopNest>>
whatIfNests(const std::vector<LoopNest> &Sources, const Schedule &S);

/// \p N with every floating array and operation wider than \p To in \p To
/// (quantize(int8|bf16) in the what-ifs' scope); std::nullopt where that
/// changes nothing (canQuantize).
std::optional<LoopNest> quantizedNest(const LoopNest &N, Precision To);

} // namespace roofline

#endif // ROOFLINE_TRANSFORM_WHATIF_H
