//===- CompileFlags.h - Compile commands made parseable by Clang ----------===//
//
// A compile_commands.json written for GCC carries flags Clang does not
// know (-fno-lifetime-dse, -mno-avx256-split-unaligned-load): Clang's
// driver refuses the whole command. Like clangd, roofline-lint drops such
// flags (and warning options Clang has no group for, which only add
// noise), and applies the `compile-flags: {add, remove}` of .roofline.yaml
// (docs/ci.md#gcc-built-projects).
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_FRONTEND_COMPILEFLAGS_H
#define ROOFLINE_FRONTEND_COMPILEFLAGS_H

#include "llvm/ADT/ArrayRef.h"

#include <string>
#include <vector>

namespace roofline {

/// A compile command with the flags Clang would reject taken out.
struct CleanCommand {
  std::vector<std::string> Args;
  /// The flags dropped, as written in the command.
  std::vector<std::string> Dropped;
};

/// Drops from \p Args (argv[0] first) every flag Clang's driver does not
/// know and every -W option that names no Clang warning group. A command
/// for clang-cl is left alone.
CleanCommand dropUnknownFlags(llvm::ArrayRef<std::string> Args);

/// \p Args without the flags matching \p Patterns, each with its value
/// (`-include x.h` goes whole). A pattern is a flag as written (`-DNDEBUG`),
/// an option's spelling (`-I` removes every include path, `-D` every
/// define), or a prefix ending in `*` (`-fsanitize*`), as clangd's
/// CompileFlags.Remove.
std::vector<std::string> removeFlags(llvm::ArrayRef<std::string> Args,
                                     llvm::ArrayRef<std::string> Patterns);

/// \p Args with \p Extra appended (before a "--" that ends the options).
std::vector<std::string> addFlags(llvm::ArrayRef<std::string> Args,
                                  llvm::ArrayRef<std::string> Extra);

} // namespace roofline

#endif // ROOFLINE_FRONTEND_COMPILEFLAGS_H
