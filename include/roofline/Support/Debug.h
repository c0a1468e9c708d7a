//===- Debug.h - Debug tracing that release builds keep ---------*- C++ -*-===//
//
// ROOFLINE_DEBUG(X) is LLVM_DEBUG(X) for roofline-lint: X runs when
// --debug-only names the file's DEBUG_TYPE. LLVM_DEBUG is compiled out under
// NDEBUG, which our Release build defines, and Debian's LLVM 19 is built
// without its own -debug-only; so the tools register --debug-only themselves
// (addDebugOnlyOption) and this macro tests it in every build: one load and
// a branch while tracing is off. docs/design.md, "Debug tracing".
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_SUPPORT_DEBUG_H
#define ROOFLINE_SUPPORT_DEBUG_H

#include "llvm/Support/Debug.h"
#include "llvm/Support/raw_ostream.h"

namespace roofline {

/// True once a --debug-only was given (or LLVM's own option may be).
extern bool DebugTracing;

/// Whether --debug-only names \p Type.
bool debugTypeEnabled(const char *Type);

/// Registers --debug-only=<type,...> before the command line is parsed,
/// unless LLVM (built with assertions) has registered its own, which then
/// decides.
void addDebugOnlyOption();

} // namespace roofline

#define ROOFLINE_DEBUG(X)                                                      \
  do {                                                                         \
    if (::roofline::DebugTracing &&                                            \
        ::roofline::debugTypeEnabled(DEBUG_TYPE)) {                            \
      X;                                                                       \
    }                                                                          \
  } while (false)

#endif // ROOFLINE_SUPPORT_DEBUG_H
