//===- Process.h - Running a child with a time limit, capturing output ----===//

#ifndef ROOFLINE_RUNNER_PROCESS_H
#define ROOFLINE_RUNNER_PROCESS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace roofline {

struct ProcessResult {
  int ExitCode = -1;     ///< the child's status when it exited normally
  bool NotRun = false;   ///< could not be started
  bool Crashed = false;  ///< killed by a signal
  bool TimedOut = false; ///< killed after the time limit
  std::string Message;   ///< "Segmentation fault", why it did not run, ...
  std::string Out, Err;  ///< its stdout and stderr
  double Seconds = 0;    ///< wall time

  bool ok() const { return !NotRun && !Crashed && !TimedOut && ExitCode == 0; }
  /// "exit code 2", "crashed (Segmentation fault)", "timed out after 5 s".
  std::string describe(unsigned TimeoutS) const;
};

/// Runs \p Program with \p Args (Args[0] is the program's name) and stdin
/// from /dev/null; \p TimeoutS 0 means no limit. \p ExtraEnv changes this
/// process's environment for the child: "K=V" sets K (replacing it), "-K"
/// removes it.
ProcessResult runProcess(llvm::StringRef Program,
                         llvm::ArrayRef<std::string> Args, unsigned TimeoutS,
                         llvm::ArrayRef<std::string> ExtraEnv = {});

/// The first line of \p Text saying what went wrong (compiler or linker
/// output; not the driver's "ld returned 1" summary), else
/// its first non-empty line, trimmed to \p Max characters.
std::string firstErrorLine(llvm::StringRef Text, size_t Max = 160);

} // namespace roofline

#endif // ROOFLINE_RUNNER_PROCESS_H
