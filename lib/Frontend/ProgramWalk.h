//===- ProgramWalk.h - Follow a pass from an entry function -----*- C++ -*-===//
//
// Private to the Frontend. Executes the integer part of a function body
// (sizes, loop counters, locals computed from them) from an entry, follows
// calls into functions defined in the translation unit with the values their
// arguments have, and builds every loop nest it reaches at those values
// (docs/network-report.md, docs/design.md "The program walk").
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_LIB_FRONTEND_PROGRAMWALK_H
#define ROOFLINE_LIB_FRONTEND_PROGRAMWALK_H

#include "roofline/Frontend/Frontend.h"

#include "clang/AST/ASTContext.h"

namespace roofline {
namespace frontend {

class CallSiteCollector;

/// Fills \p Out for the entry named Out.Entry.
void walkProgram(clang::ASTContext &Ctx, const CallSiteCollector &Calls,
                 const FrontendOptions &Opts, ProgramResult &Out);

} // namespace frontend
} // namespace roofline

#endif // ROOFLINE_LIB_FRONTEND_PROGRAMWALK_H
