//===- JsonStream.h - One --format=json report for many files, streamed ---===//
//
// The nests of a large run do not fit comfortably in memory as JSON (a nest
// with its cache model and what-if table is tens of kilobytes), so each
// file's nests are serialized as they come and spooled to a temporary
// file; the report is assembled at the end. The text is exactly what
// formatv("{0:2}") prints for the whole object: keys sorted, two-space
// indentation.
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_REPORT_JSONSTREAM_H
#define ROOFLINE_REPORT_JSONSTREAM_H

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace roofline {

/// One element of the top-level "nests" array, serialized at its depth.
std::string serializeNestElement(const llvm::json::Value &Nest);

class JsonReportWriter {
public:
  JsonReportWriter();
  ~JsonReportWriter();

  /// A nest, from serializeNestElement, in output order.
  llvm::Error addNest(llvm::StringRef Serialized);
  /// The rest of one file's report: its top-level arrays are appended to
  /// the run's, any other value is taken from the first file.
  void addFile(llvm::json::Object Rest);
  /// Top-level values of the run itself ("diagnostics", "summary", ...).
  void set(llvm::StringRef Key, llvm::json::Value V);
  /// A top-level value already written, as JsonWriter(Text, 2, 2) writes
  /// it (it sits one level deep).
  void setText(llvm::StringRef Key, std::string Text);

  /// Writes the whole report (and a newline).
  llvm::Error write(llvm::raw_ostream &OS);

private:
  llvm::Error openSpool();
  std::map<std::string, llvm::json::Value> Top;
  std::map<std::string, std::string> TopText; ///< setText's
  std::string SpoolPath;
  std::unique_ptr<llvm::raw_fd_ostream> Spool;
  std::vector<uint64_t> Sizes;
};

} // namespace roofline

#endif // ROOFLINE_REPORT_JSONSTREAM_H
