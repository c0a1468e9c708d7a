//===- CrossTU.h - Callees defined in other translation units ---*- C++ -*-===//
//
// `--entry` with `-p build_dir` follows a call into a function that the
// entry's translation unit only declares (`matmul` called in model.c,
// defined in matmul.c) when exactly one other translation unit of the
// compile database defines it: that definition is imported into the
// entry's AST (clang's ASTImporter) and walked like a local one. A callee
// defined in several (an ODR clash) or in none is left out and named
// (docs/network-report.md, "Across translation units").
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_FRONTEND_CROSSTU_H
#define ROOFLINE_FRONTEND_CROSSTU_H

#include "roofline/Frontend/Runner.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CompilationDatabase.h"

#include <memory>
#include <string>
#include <vector>

namespace roofline {

/// Every external function definition of a compile database's translation
/// units, parsed on first use and kept alive; safe to use from several
/// threads (one at a time).
class CrossTUDefinitions {
public:
  CrossTUDefinitions(std::vector<clang::tooling::CompileCommand> Commands,
                     clang::tooling::ArgumentsAdjuster Adjust,
                     std::vector<VirtualFile> VirtualFiles);
  ~CrossTUDefinitions();

  /// The one definition of \p Callee (same USR: a C function's name, a C++
  /// function's qualified name and signature) with external linkage in the
  /// database's other translation units, imported into \p Ctx. Null, with
  /// \p Why ("defined in 2 translation units of the database (a.c:3,
  /// b.c:5)"), when there is none, more than one, or it cannot be imported.
  const clang::FunctionDecl *importDefinition(clang::ASTContext &Ctx,
                                              const clang::FunctionDecl *Callee,
                                              std::string &Why);

  /// Drops the importers into \p Ctx, which is about to be destroyed.
  void forget(clang::ASTContext &Ctx);

private:
  struct Impl;
  std::unique_ptr<Impl> P;
};

/// The definition a call to \p Callee runs when this translation unit has
/// none: with \p CrossTU (null: no lookup), its one definition elsewhere in
/// the compile database, imported into \p Ctx. Null where \p Callee has a
/// definition here, is declared in a system header, or the database has no
/// single importable definition; \p Why is set (by importDefinition) only
/// in the last case. The --entry walk and --cross-tu nests share it.
const clang::FunctionDecl *bodyFromElsewhere(CrossTUDefinitions *CrossTU,
                                             clang::ASTContext &Ctx,
                                             const clang::FunctionDecl *Callee,
                                             std::string &Why);

} // namespace roofline

#endif // ROOFLINE_FRONTEND_CROSSTU_H
