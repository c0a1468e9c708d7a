//===- SizesFile.h - --sizes=model.yaml: the sizes of a whole model -------===//
//
// A flat YAML mapping from size names to integers, for a model's sizes in
// one place instead of a dozen --param flags:
//
//   n_layers: 12          # a name, as --param n_layers=12
//   p->dim: 768           # a field path, or a field by its own name (dim)
//   forward:pos: 63       # a size of one function, as --param forward:pos=63
//
// Its values sit just below --param (docs/roofline-lint.md, "Sizes").
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_CONFIG_SIZESFILE_H
#define ROOFLINE_CONFIG_SIZESFILE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <map>
#include <string>

namespace roofline {

/// Reads the sizes file at \p Path. Errors (a missing file, bad YAML, a key
/// that is no size name, a value that is no integer) name the file and,
/// where there is one, the line.
llvm::Expected<std::map<std::string, int64_t>>
loadSizesFile(llvm::StringRef Path);
/// Parses \p Yaml; \p Path is used in messages only.
llvm::Expected<std::map<std::string, int64_t>>
parseSizesFile(llvm::StringRef Yaml, llvm::StringRef Path);
/// Whether \p Key is a size name a sizes file or --param may give: an
/// identifier, a field path (`p->dim`, `cfg.dim`), either after `fn:`.
bool isSizeKey(llvm::StringRef Key);

} // namespace roofline

#endif // ROOFLINE_CONFIG_SIZESFILE_H
