//===- CIJson.h - The CI fields of --format=json ---------------------------===//
//
// Extends the version-1 JSON contract (docs/design.md) without changing a field:
// the top level gets "diagnostics" (every finding with its nest's ordinal,
// the baseline key; suppressed ones marked), "errors" (files that could
// not be analyzed) and "summary".
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_REPORT_CIJSON_H
#define ROOFLINE_REPORT_CIJSON_H

#include "roofline/Report/Finding.h"

#include "llvm/Support/JSON.h"

#include <vector>

namespace roofline {

class JsonWriter;

struct RunSummary {
  unsigned Files = 0;
  size_t Nests = 0, Skipped = 0; ///< analyzed and unanalyzable nests
  unsigned Errors = 0, Warnings = 0, Failures = 0, Suppressed = 0;
  unsigned AcceptedByBaseline = 0;
  /// Files not analyzed: they do not compile, or cannot be found.
  unsigned FileErrors = 0;
};

RunSummary summarize(const std::vector<Finding> &Findings, unsigned Files);

/// {"errors", "summary"} for the top level of a report.
llvm::json::Object ciFields(const std::vector<Finding> &Findings,
                            const std::vector<FileError> &Errors,
                            const RunSummary &S);

/// The top level's "diagnostics" array, written (keys in byte order)
/// without building a json::Value: one element per finding.
void writeDiagnosticsJSON(JsonWriter &W, const std::vector<Finding> &Findings);

} // namespace roofline

#endif // ROOFLINE_REPORT_CIJSON_H
