//===- GlobList.h - clang-tidy style check globs ---------------------------===//
//
// "-*,roofline-verdict": comma-separated globs, '*' matching any run of
// characters, a leading '-' removing what it matches; the last glob that
// matches a name decides. The same syntax serves `checks`,
// `warnings-as-errors` and the lists inside NOLINT(...).
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_CONFIG_GLOBLIST_H
#define ROOFLINE_CONFIG_GLOBLIST_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace roofline {

/// True when \p Glob ('*' wildcards only) matches all of \p Name.
bool globMatches(llvm::StringRef Glob, llvm::StringRef Name);

class GlobList {
public:
  GlobList() = default;
  explicit GlobList(llvm::StringRef Spec);

  /// Whether \p Name is selected; false when no glob matches.
  bool contains(llvm::StringRef Name) const;
  /// The spec as given, for --dump-config.
  const std::string &spec() const { return Spec; }
  /// Positive globs that select none of \p Known (likely typos).
  std::vector<std::string>
  unmatchedGlobs(llvm::ArrayRef<llvm::StringRef> Known) const;

private:
  struct Item {
    bool Positive;
    std::string Glob;
  };
  std::string Spec;
  std::vector<Item> Items;
};

} // namespace roofline

#endif // ROOFLINE_CONFIG_GLOBLIST_H
