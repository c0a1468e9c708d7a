//===- GitDiff.h - The lines changed since a git revision -----------------===//
//
// --diff=REF runs `git diff -U0 REF` in the current directory's repository
// and turns its hunks into a LineFilter: a pull request's check reports
// only the nests whose lines it changed (docs/ci.md#pull-requests).
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_TOOLS_GITDIFF_H
#define ROOFLINE_TOOLS_GITDIFF_H

#include "roofline/Config/LineFilter.h"

namespace roofline {

/// The lines changed in the working tree since \p Ref (anything `git diff`
/// takes: a branch, a commit, `origin/main...HEAD`).
llvm::Expected<LineFilter> changedLinesSince(llvm::StringRef Ref);

} // namespace roofline

#endif // ROOFLINE_TOOLS_GITDIFF_H
