//===- GuardLoop.h - The loops the Frontend makes of affine ifs -*- C++ -*-===//
//
// An affine `if` around part of a loop body becomes a loop of at most one
// iteration, `for (__ifN = ...)` (docs/design.md §4.4, docs/user-guide.md
// "Conditions"). It is no source loop: its runs are no iterations, and no
// footprint formula rests on it running. Loop::IsGuard marks it, set where
// the Frontend makes it; its name, reserved in C and C++, keeps it apart
// from source variables, and this header is the one place that knows it.
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_IR_GUARDLOOP_H
#define ROOFLINE_IR_GUARDLOOP_H

#include "roofline/IR/LoopNest.h"

#include <string>

namespace roofline {

/// The variable of the \p N-th guard loop of a nest: "__ifN".
inline std::string guardLoopIV(unsigned N) {
  return "__if" + std::to_string(N);
}

/// Whether \p L is a guard loop (transforms that copy a loop, or rebuild
/// its header, keep the flag).
inline bool isGuardLoop(const Loop &L) { return L.IsGuard; }

/// Whether \p L's runs count as iterations: a source loop, or a guard loop
/// that narrows its parent (Loop::Narrows).
inline bool countsIterations(const Loop &L) {
  return !L.IsGuard || L.Narrows;
}

} // namespace roofline

#endif // ROOFLINE_IR_GUARDLOOP_H
