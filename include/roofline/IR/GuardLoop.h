//===- GuardLoop.h - The loops the Frontend makes of affine ifs -*- C++ -*-===//
//
// An affine `if` around part of a loop body becomes a loop of at most one
// iteration, `for (__ifN = ...)` (docs/design.md §4.4, docs/user-guide.md
// "Conditions"). It is no source loop: its runs are no iterations, and no
// footprint formula rests on it running. Its name, reserved in C and C++,
// is what marks it; this header is the one place that knows the name.
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_IR_GUARDLOOP_H
#define ROOFLINE_IR_GUARDLOOP_H

#include "roofline/IR/LoopNest.h"

#include "llvm/ADT/StringRef.h"

#include <string>

namespace roofline {

/// The variable of the \p N-th guard loop of a nest: "__ifN".
inline std::string guardLoopIV(unsigned N) {
  return "__if" + std::to_string(N);
}

/// Whether \p L is a guard loop (transforms that copy a loop keep its name,
/// renaming only appends to it).
inline bool isGuardLoop(const Loop &L) {
  return llvm::StringRef(L.IV).starts_with("__if");
}

} // namespace roofline

#endif // ROOFLINE_IR_GUARDLOOP_H
