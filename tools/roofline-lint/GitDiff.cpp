//===- GitDiff.cpp - The lines changed since a git revision ---------------===//

#include "GitDiff.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"

using namespace llvm;
using namespace roofline;

namespace {

Error gitError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), "--diff: " + Msg);
}

/// Runs git with \p Args; its stdout, or its stderr as the error.
Expected<std::string> runGit(ArrayRef<StringRef> Args) {
  ErrorOr<std::string> Git = sys::findProgramByName("git");
  if (!Git)
    return gitError("git is not on PATH");
  SmallString<128> Out, Err;
  if (std::error_code EC = sys::fs::createTemporaryFile("roofline-git", "out", Out))
    return gitError("cannot create a temporary file: " + EC.message());
  if (std::error_code EC = sys::fs::createTemporaryFile("roofline-git", "err", Err))
    return gitError("cannot create a temporary file: " + EC.message());
  auto Remove = make_scope_exit([&] {
    sys::fs::remove(Out);
    sys::fs::remove(Err);
  });
  std::vector<StringRef> Argv = {*Git};
  Argv.insert(Argv.end(), Args.begin(), Args.end());
  std::optional<StringRef> Redirects[] = {StringRef(""), StringRef(Out),
                                          StringRef(Err)};
  std::string ExecError;
  int RC = sys::ExecuteAndWait(*Git, Argv, std::nullopt, Redirects, 0, 0,
                               &ExecError);
  auto Read = [](StringRef Path) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> B = MemoryBuffer::getFile(Path);
    return B ? (*B)->getBuffer().str() : std::string();
  };
  if (RC != 0)
    return gitError("git " + join(Args, " ") + " failed: " +
                    StringRef(ExecError.empty() ? Read(Err) : ExecError).trim());
  return Read(Out);
}

} // namespace

Expected<LineFilter> roofline::changedLinesSince(StringRef Ref) {
  Expected<std::string> Root = runGit({"rev-parse", "--show-toplevel"});
  if (!Root)
    return Root.takeError();
  // Fixed prefixes and no external diff or color, whatever the user's
  // git config says; -U0: only the changed lines.
  Expected<std::string> Diff =
      runGit({"diff", "-U0", "--no-color", "--no-ext-diff", "--src-prefix=a/",
              "--dst-prefix=b/", Ref, "--"});
  if (!Diff)
    return Diff.takeError();
  return LineFilter::fromUnifiedDiff(*Diff, StringRef(*Root).trim());
}
