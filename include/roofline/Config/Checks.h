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

/// Every check roofline-lint emits, registered once in Checks.cpp's table
/// (the way clang-tidy's modules call registerCheck<>): code that emits or
/// tests for a check names it by id, never by a string literal.
enum class CheckId {
  Verdict,
  Unanalyzable,
  Capacity,
  MemoryBound,
  MinIntensity,
  MaxTime,
  Baseline,
  Annotation,
  StridedAccess,
  Aliasing,
  FusionOpportunity,
  NoLint,
};

struct CheckInfo {
  CheckId Id;
  llvm::StringRef Name;    ///< "roofline-verdict"
  Severity Default;        ///< severity without policies
  llvm::StringRef DocPage; ///< "docs/diagnostics/roofline-verdict.md"
  llvm::StringRef Summary; ///< one line, for SARIF rules and --help
  /// False for names reserved for a check that does not exist yet
  /// (accepted in config and NOLINT, never emitted).
  bool Implemented = true;
};

llvm::ArrayRef<CheckInfo> allChecks();
/// All check names, implemented or reserved.
llvm::ArrayRef<llvm::StringRef> allCheckNames();
const CheckInfo *findCheck(llvm::StringRef Name);
/// The registered check \p Id.
const CheckInfo &check(CheckId Id);
inline llvm::StringRef checkName(CheckId Id) { return check(Id).Name; }

} // namespace roofline

#endif // ROOFLINE_CONFIG_CHECKS_H
