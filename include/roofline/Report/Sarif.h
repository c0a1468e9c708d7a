//===- Sarif.h - SARIF 2.1.0 for code scanning -----------------------------===//
//
// One run of tool "roofline-lint": a rule per check (id "roofline-verdict",
// helpUri to its docs page), a result per finding with its region, level
// note/warning/error, NOLINT'd results as inSource suppressions, and the
// baseline state when --baseline is given. Paths are relative to
// %SRCROOT% (the working directory), as GitHub code scanning expects.
// Written with llvm::json (clang's SarifDocumentWriter needs a live
// SourceManager, gone by the time a run's results are collected).
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_REPORT_SARIF_H
#define ROOFLINE_REPORT_SARIF_H

#include "roofline/Report/Finding.h"

#include "llvm/Support/JSON.h"

#include <string>
#include <vector>

namespace roofline {

struct SarifOptions {
  std::string ToolVersion;
  /// Prefix of each rule's helpUri: DocsBaseUri + "roofline-verdict.md";
  /// empty: no helpUri, the help text names the docs page.
  std::string DocsBaseUri;
  std::string InformationUri; ///< the tool's documentation
  /// Absolute directory relative paths are resolved against (%SRCROOT%).
  std::string SourceRoot;
  bool WithBaseline = false;
  std::vector<FileError> Errors;
};

/// "a b/c.cpp" -> "a%20b/c.cpp": a path as a URI reference.
std::string uriEncodePath(llvm::StringRef Path);

llvm::json::Value toSarif(const std::vector<Finding> &Findings,
                          const SarifOptions &O);
/// jsonText(toSarif(Findings, O)), written a result at a time.
std::string toSarifText(const std::vector<Finding> &Findings,
                        const SarifOptions &O);

} // namespace roofline

#endif // ROOFLINE_REPORT_SARIF_H
