//===- Inputs.h - Source files from the command line -----------------------===//
//
// Files and directories as a CI job passes them: directories are searched
// recursively for C, C++ and CUDA sources, in a sorted (deterministic)
// order, and every file is analyzed once.
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_FRONTEND_INPUTS_H
#define ROOFLINE_FRONTEND_INPUTS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace roofline {

/// .c, .cc, .cpp, .cxx or .cu: what a directory search picks up.
bool isSourceFile(llvm::StringRef Path);

/// .h, .hh, .hpp, .hxx, .cuh, .inl, .inc: a file meant to be included,
/// which does not compile on its own in general.
bool isHeaderFile(llvm::StringRef Path);

/// A source among \p Candidates whose text includes \p Header directly
/// (an #include whose path the header's path ends with), trying sources
/// with the header's stem first, then in order: the translation unit that
/// analyzes a header a hook hands over alone. None when no source does.
std::optional<std::string>
translationUnitFor(llvm::StringRef Header,
                   llvm::ArrayRef<std::string> Candidates);

/// An absolute path without "." or ".." components.
std::string normalizePath(llvm::StringRef Path);

struct InputList {
  std::vector<std::string> Files;  ///< normalized, in command-line order
  std::vector<std::string> Errors; ///< "no such file or directory: 'x'"
};

/// Expands \p Args (files and directories). Directories recurse, skipping
/// hidden ones (.git); a file named explicitly is kept whatever its suffix.
InputList collectInputs(llvm::ArrayRef<std::string> Args);

} // namespace roofline

#endif // ROOFLINE_FRONTEND_INPUTS_H
