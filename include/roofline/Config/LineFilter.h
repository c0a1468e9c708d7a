//===- LineFilter.h - Which lines of which files a run reports ------------===//
//
// clang-tidy's --line-filter (a JSON list of files and line ranges), and
// the changed lines of a `git diff -U0` for --diff: a pull request's run
// reports only the nests whose lines it touched (docs/ci.md#pull-requests).
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_CONFIG_LINEFILTER_H
#define ROOFLINE_CONFIG_LINEFILTER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <utility>
#include <vector>

namespace roofline {

class LineFilter {
public:
  /// clang-tidy's syntax: [{"name": "a.cpp", "lines": [[1, 3], [5, 7]]},
  /// {"name": "b.h"}]; a file without "lines" passes whole. A name matches
  /// a path it ends with, and the first entry that matches decides.
  static llvm::Expected<LineFilter> fromJSON(llvm::StringRef Json);
  /// The lines `git diff -U0` output adds or changes, per file (its paths
  /// resolved against \p Root); a deletion marks the line before it.
  static llvm::Expected<LineFilter> fromUnifiedDiff(llvm::StringRef Diff,
                                                    llvm::StringRef Root);

  /// Whether a line of [First, Last] of \p File passes.
  bool passes(llvm::StringRef File, unsigned First, unsigned Last) const;
  /// Whether some line of \p File passes.
  bool mentions(llvm::StringRef File) const;
  /// The number of files named.
  size_t size() const { return Entries.size(); }

private:
  struct Entry {
    std::string Name;
    bool Suffix = true; ///< a name the path ends with; else the whole path
    bool AllLines = false;
    std::vector<std::pair<unsigned, unsigned>> Ranges;
  };
  const Entry *find(llvm::StringRef File) const;
  std::vector<Entry> Entries;
};

} // namespace roofline

#endif // ROOFLINE_CONFIG_LINEFILTER_H
