//===- Checks.h - The diagnostics roofline-lint can emit -------------------===//
//
// One entry per check name: what `checks`, NOLINT(...) and
// --warnings-as-errors select, what SARIF lists as rules, and the docs page
// each links (docs/diagnostics/<name>.md).
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_CONFIG_CHECKS_H
#define ROOFLINE_CONFIG_CHECKS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace roofline {

enum class Severity { Remark, Note, Warning, Error };
/// "remark", "note", "warning", "error" (as clang prints them).
const char *severityName(Severity S);

struct CheckInfo {
  llvm::StringRef Name;    ///< "roofline-verdict"
  Severity Default;        ///< severity without policies
  llvm::StringRef Summary; ///< one line, for SARIF rules and --help
  /// False for names reserved for a check that does not exist yet
  /// (accepted in config and NOLINT, never emitted).
  bool Implemented = true;
};

llvm::ArrayRef<CheckInfo> allChecks();
/// All check names, implemented or reserved.
llvm::ArrayRef<llvm::StringRef> allCheckNames();
const CheckInfo *findCheck(llvm::StringRef Name);

} // namespace roofline

#endif // ROOFLINE_CONFIG_CHECKS_H
