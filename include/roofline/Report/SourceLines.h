//===- SourceLines.h - Source lines echoed under a diagnostic --------------===//
//
// The "  12 | for (...)" echo and caret under a diagnostic, shared by the
// plain report and the CI findings; each file is read once.
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_REPORT_SOURCELINES_H
#define ROOFLINE_REPORT_SOURCELINES_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace roofline {

/// Source lines for the "  12 | for (...)" echo, each file read once.
/// Thread-safe: the text report renders nests in parallel.
class SourceLines {
public:
  /// The line, valid as long as this object.
  llvm::StringRef line(const std::string &File, unsigned Line);

private:
  std::mutex Lock;
  struct File {
    std::unique_ptr<llvm::MemoryBuffer> Buf;
    std::vector<size_t> Starts;
  };
  std::map<std::string, File> Files;
};

/// Prints \p Code, line \p Line of a file, as "   12 | for (...)" and a
/// caret under column \p Column (tabs kept so that it lines up).
void printSourceEcho(llvm::raw_ostream &OS, llvm::StringRef Code,
                     unsigned Line, unsigned Column);

} // namespace roofline

#endif // ROOFLINE_REPORT_SOURCELINES_H
