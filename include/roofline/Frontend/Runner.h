//===- Runner.h - Parse one translation unit, in any thread ----------------===//
//
// ClangTool prints to llvm::errs() and may change the process's working
// directory, so it cannot run files in parallel with deterministic output.
// runFrontendOnFile gives each file its own file system view (with the
// compile command's working directory), file manager and captured
// diagnostics: calls in different threads do not interact.
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_FRONTEND_RUNNER_H
#define ROOFLINE_FRONTEND_RUNNER_H

#include "roofline/Frontend/Frontend.h"

#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CompilationDatabase.h"

#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace roofline {

/// Where a loop statement starts: the file as Clang names it, line, column
/// (a LoopNest's Loc).
using LoopStart = std::tuple<std::string, unsigned, unsigned>;

struct TUResult {
  /// False when clang reported errors (the nests are then empty).
  bool Compiled = false;
  /// What clang printed (errors, warnings, "N errors generated.").
  std::string Diagnostics;
  FrontendResult Nests;
  /// With LoopExtents: the last line of every loop statement outside
  /// system headers, by where it starts; a nest's lines are [start, end]
  /// (--line-filter, --diff).
  std::map<LoopStart, unsigned> LoopEnds;
};

/// A file the parser sees that is not on disk: {path, contents}.
using VirtualFile = std::pair<std::string, std::string>;

/// Parses \p Cmd's file (syntax only; output and dependency flags dropped,
/// then \p Adjust applied) and lowers its nests with \p Opts; with
/// \p LoopExtents, also records TUResult::LoopEnds.
TUResult runFrontendOnFile(const clang::tooling::CompileCommand &Cmd,
                           const FrontendOptions &Opts,
                           const clang::tooling::ArgumentsAdjuster &Adjust,
                           const std::vector<VirtualFile> &VirtualFiles,
                           bool LoopExtents = false);

/// Parses \p Cmd's file as runFrontendOnFile does and keeps its AST (the
/// cross-TU definitions, CrossTU.h); null when it does not compile, with
/// clang's messages in \p Diagnostics.
std::unique_ptr<clang::ASTUnit>
buildASTUnit(const clang::tooling::CompileCommand &Cmd,
             const clang::tooling::ArgumentsAdjuster &Adjust,
             const std::vector<VirtualFile> &VirtualFiles,
             std::string &Diagnostics);

} // namespace roofline

#endif // ROOFLINE_FRONTEND_RUNNER_H
