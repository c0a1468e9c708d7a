//===- Finding.h - One diagnostic of a CI run ------------------------------===//
//
// Every diagnostic roofline-lint emits for a nest (verdict remark,
// unanalyzable note, threshold warning, policy or baseline error), in one
// form the text, JSON and SARIF writers share. Which nest it belongs to is
// kept as an index into the file's Report and as the nest's stable key
// (file, function, ordinal) that the baseline matches on.
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_REPORT_FINDING_H
#define ROOFLINE_REPORT_FINDING_H

#include "roofline/Config/Checks.h"
#include "roofline/IR/LoopNest.h"
#include "roofline/Report/Report.h"
#include "roofline/Report/SourceLines.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace roofline {

struct Report;

enum class BaselineState { None, New, Unchanged, Updated };
/// SARIF's names: "new", "unchanged", "updated" ("" for None).
const char *baselineStateName(BaselineState S);

struct Finding {
  std::string Check; ///< "roofline-min-intensity"
  Severity Level = Severity::Note;
  SourceLoc Loc;
  std::string Function;
  unsigned Ordinal = 0; ///< the nest's place among its function's nests
  std::string Message;  ///< without the " [check]" suffix
  std::vector<std::string> Notes;
  /// The one note --verbosity=brief prints (empty: the first of Notes).
  std::string BriefNote;
  int NestIndex = -1;    ///< into Report::Nests, or
  int SkippedIndex = -1; ///< into Report::Skipped
  bool Suppressed = false; ///< by a NOLINT comment
  bool Fails = false;      ///< a policy hit: the run exits 1
  /// A warning made an error by --warnings-as-errors (printed as clang-tidy
  /// does: "[check,-warnings-as-errors]").
  bool Promoted = false;
  BaselineState Baseline = BaselineState::None;
  /// A policy hit forgiven because the nest is in the baseline, no worse.
  bool AcceptedByBaseline = false;
};

/// A file that could not be analyzed at all (does not compile, unreadable).
struct FileError {
  std::string File;
  std::string Message;
};

/// Each nest's ordinal within its function, counting analyzed and skipped
/// nests together in source order: stable when code above the function
/// changes, unlike a line number.
struct NestOrdinals {
  std::vector<unsigned> Nests, Skipped;
};
NestOrdinals nestOrdinals(const Report &R);

/// \p File relative to the current directory when it lies inside it (how
/// CI systems and baselines name files), else absolute and normalized.
std::string relativeToCwd(llvm::StringRef File);

/// "file:line:col: warning: message [check]", the source line and caret
/// (when \p Src is given), then the notes; brief: the line and one note. A
/// policy hit the baseline accepts prints as a note: it fails nothing, and
/// problem matchers should not flag it.
void printFinding(llvm::raw_ostream &OS, const Finding &F, SourceLines *Src,
                  Verbosity Level = Verbosity::Normal);

} // namespace roofline

#endif // ROOFLINE_REPORT_FINDING_H
