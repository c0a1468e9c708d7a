//===- GenRun.h - roofline-lint's code-generation mode --------------------===//
//
// --schedule (with --dump-ir: IR' of each nest) and --emit=DIR (kernel
// directories, docs/codegen.md) take over the run when given: the files
// are parsed as for the analysis, then transformed and emitted instead of
// judged.
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_TOOLS_GENRUN_H
#define ROOFLINE_TOOLS_GENRUN_H

#include "roofline/Frontend/Runner.h"
#include "roofline/Machine/Machine.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace roofline {

/// The code-generation options' --help category.
llvm::cl::OptionCategory &codegenOptionCategory();

/// The --nest selectors (NAME or NAME:LINE), as given (no copy); empty:
/// every nest.
llvm::ArrayRef<std::string> nestSelectors();

/// Whether a --nest selector selects the nest of \p Function at \p Line;
/// those that do are added to \p Matched.
bool nestSelected(llvm::StringRef Function, unsigned Line,
                  std::set<std::string> *Matched = nullptr);

/// --emit or --schedule was given (or --ir-values with --dump-ir).
bool codegenRequested();

struct CodegenRequest {
  std::vector<std::string> Sources;
  const clang::tooling::CompilationDatabase *DB = nullptr;
  std::map<std::string, int64_t> Params; ///< --param
  clang::tooling::ArgumentsAdjuster Adjust;
  std::vector<VirtualFile> VirtualFiles;
  const Machine *M = nullptr; ///< predicted bounds in the manifest
  bool DumpIR = false;
};

/// Exit code: 0 done, 1 a schedule was refused (illegal or inapplicable),
/// 2 usage or compile error.
int runCodegen(const CodegenRequest &R, llvm::raw_ostream &OS);

} // namespace roofline

#endif // ROOFLINE_TOOLS_GENRUN_H
