//===- Process.cpp - Running a child with a time limit, capturing output --===//

#include "roofline/Runner/Process.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"

#include <algorithm>
#include <chrono>
#include <optional>

extern char **environ;

using namespace roofline;

namespace {

std::string readAndRemove(const llvm::SmallString<128> &Path) {
  std::string S;
  if (llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> B =
          llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                      /*RequiresNullTerminator=*/false))
    S = (*B)->getBuffer().str();
  llvm::sys::fs::remove(Path);
  return S;
}

} // namespace

std::string ProcessResult::describe(unsigned TimeoutS) const {
  if (NotRun)
    return "could not run: " + Message;
  if (TimedOut)
    return "timed out after " + std::to_string(TimeoutS) + " s";
  if (Crashed)
    return "crashed (" + Message + ")";
  return "exit code " + std::to_string(ExitCode);
}

ProcessResult roofline::runProcess(llvm::StringRef Program,
                                   llvm::ArrayRef<std::string> Args,
                                   unsigned TimeoutS,
                                   llvm::ArrayRef<std::string> ExtraEnv) {
  ProcessResult R;
  llvm::SmallString<128> OutPath, ErrPath;
  if (llvm::sys::fs::createTemporaryFile("roofline-run", "out", OutPath) ||
      llvm::sys::fs::createTemporaryFile("roofline-run", "err", ErrPath)) {
    R.NotRun = true;
    R.Message = "cannot create a temporary file";
    return R;
  }
  std::vector<llvm::StringRef> ArgRefs(Args.begin(), Args.end());
  std::vector<std::string> EnvStore;
  std::vector<llvm::StringRef> EnvRefs;
  std::optional<llvm::ArrayRef<llvm::StringRef>> Env;
  if (!ExtraEnv.empty()) {
    // "K=V" replaces K (getenv finds the first K of the block), "-K"
    // removes it.
    auto Named = [&](llvm::StringRef Entry) {
      llvm::StringRef Name = Entry.split('=').first;
      return std::any_of(ExtraEnv.begin(), ExtraEnv.end(), [&](const std::string &X) {
        llvm::StringRef N = llvm::StringRef(X).starts_with("-")
                                ? llvm::StringRef(X).drop_front()
                                : llvm::StringRef(X).split('=').first;
        return N == Name;
      });
    };
    for (char **E = environ; *E; ++E)
      if (!Named(*E))
        EnvStore.push_back(*E);
    for (const std::string &X : ExtraEnv)
      if (!llvm::StringRef(X).starts_with("-"))
        EnvStore.push_back(X);
    EnvRefs.assign(EnvStore.begin(), EnvStore.end());
    Env = EnvRefs;
  }
  std::optional<llvm::StringRef> Redirects[] = {
      llvm::StringRef(""), llvm::StringRef(OutPath), llvm::StringRef(ErrPath)};
  std::string ErrMsg;
  bool Failed = false;
  auto T0 = std::chrono::steady_clock::now();
  int RC = llvm::sys::ExecuteAndWait(Program, ArgRefs, Env, Redirects, TimeoutS,
                                     0, &ErrMsg, &Failed);
  R.Seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                            T0)
                  .count();
  R.Out = readAndRemove(OutPath);
  R.Err = readAndRemove(ErrPath);
  R.Message = ErrMsg;
  if (Failed || RC == -1) {
    R.NotRun = true;
  } else if (RC == -2) {
    // LLVM reports both a signal and the time limit as -2; its message for
    // the latter is "Child timed out".
    if (llvm::StringRef(ErrMsg).contains("timed out"))
      R.TimedOut = true;
    else
      R.Crashed = true;
  } else {
    R.ExitCode = RC;
  }
  return R;
}

std::string roofline::firstErrorLine(llvm::StringRef Text, size_t Max) {
  llvm::SmallVector<llvm::StringRef, 32> Lines;
  Text.split(Lines, '\n', -1, false);
  auto IsSummary = [](llvm::StringRef L) {
    return L.contains("ld returned") || L.contains("linker command failed");
  };
  // The linker's own complaint ("cannot find -lcudart", "undefined
  // reference to ...") says more than the driver's summary of it.
  auto Says = [](llvm::StringRef L) {
    return L.contains("error") || L.contains("undefined reference") ||
           L.contains("cannot find");
  };
  llvm::StringRef Pick;
  for (llvm::StringRef L : Lines)
    if (Says(L) && !IsSummary(L)) {
      Pick = L;
      break;
    }
  if (Pick.empty())
    for (llvm::StringRef L : Lines)
      if (!L.trim().empty()) {
        Pick = L;
        break;
      }
  std::string S = Pick.trim().str();
  if (S.size() > Max)
    S = S.substr(0, Max - 3) + "...";
  return S;
}
