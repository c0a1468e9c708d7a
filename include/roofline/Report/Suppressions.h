//===- Suppressions.h - NOLINT comments ------------------------------------===//
//
// clang-tidy's comment syntax, applied to roofline-lint's checks:
//   // NOLINT                 every check, on this line
//   // NOLINT(roofline-verdict,roofline-min-*)   those checks (globs)
//   // NOLINTNEXTLINE(...)    the next line
//   // NOLINTBEGIN(...) ... // NOLINTEND(...)   the lines between
// A nest's diagnostics sit on its first line (the outermost `for`).
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_REPORT_SUPPRESSIONS_H
#define ROOFLINE_REPORT_SUPPRESSIONS_H

#include "llvm/ADT/StringRef.h"

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace roofline {

class Suppressions {
public:
  /// Reads the NOLINT comments of one file's text.
  static Suppressions parse(llvm::StringRef Text);
  /// Whether a diagnostic of \p Check on line \p Line is suppressed.
  bool suppresses(unsigned Line, llvm::StringRef Check) const;
  /// Unmatched NOLINTBEGIN / NOLINTEND comments, {line, message}: like
  /// clang-tidy, an unmatched one suppresses nothing.
  const std::vector<std::pair<unsigned, std::string>> &problems() const {
    return Problems;
  }

private:
  struct Range {
    unsigned First, Last;
    std::string Checks; ///< a glob list; "*" for a bare NOLINT
  };
  std::vector<Range> Ranges;
  std::vector<std::pair<unsigned, std::string>> Problems;
};

/// Suppressions of files read from disk, each file read once.
class SuppressionCache {
public:
  bool suppresses(const std::string &File, unsigned Line,
                  llvm::StringRef Check);
  /// "file:line:col: warning: unmatched ..." for every file read so far.
  std::vector<std::string> problems() const;

private:
  std::map<std::string, std::unique_ptr<Suppressions>> Files;
};

} // namespace roofline

#endif // ROOFLINE_REPORT_SUPPRESSIONS_H
