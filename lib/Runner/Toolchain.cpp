//===- Toolchain.cpp - Finding compilers and the CUDA runtime to link -----===//

#include "roofline/Runner/Toolchain.h"
#include "roofline/Runner/Process.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

using namespace roofline;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

std::string roofline::findTool(const std::string &Want,
                               llvm::ArrayRef<llvm::StringRef> Extra) {
  if (Want.empty())
    return "";
  if (path::has_parent_path(Want))
    return fs::can_execute(Want) ? Want : "";
  if (llvm::ErrorOr<std::string> P = llvm::sys::findProgramByName(Want))
    return *P;
  if (!Extra.empty())
    if (llvm::ErrorOr<std::string> P =
            llvm::sys::findProgramByName(Want, Extra))
      return *P;
  return "";
}

std::vector<std::string>
roofline::parseNvccLibraryDirs(llvm::StringRef DryRun) {
  std::vector<std::string> Dirs;
  llvm::SmallVector<llvm::StringRef, 64> Lines;
  DryRun.split(Lines, '\n', -1, false);
  for (llvm::StringRef L : Lines) {
    L = L.trim();
    if (!L.consume_front("#$ LIBRARIES="))
      continue;
    // Entries look like "-L/x/lib" or -L/x/lib, separated by blanks.
    llvm::SmallVector<llvm::StringRef, 8> Words;
    L.split(Words, ' ', -1, false);
    for (llvm::StringRef W : Words) {
      W = W.trim().trim('"');
      if (!W.consume_front("-L") || W.empty())
        continue;
      llvm::SmallString<256> D(W);
      path::remove_dots(D, /*remove_dot_dot=*/true);
      if (path::filename(D) == "stubs")
        continue;
      Dirs.push_back(D.str().str());
    }
  }
  return Dirs;
}

std::vector<std::string> roofline::cudaLinkFlags(const std::string &Nvcc,
                                                 unsigned TimeoutS) {
  std::vector<std::string> Dirs;
  ProcessResult R = runProcess(
      Nvcc, {Nvcc, "--dryrun", "-x", "cu", "-c", "/dev/null", "-o", "/dev/null"},
      TimeoutS);
  if (R.ok())
    Dirs = parseNvccLibraryDirs(R.Err + "\n" + R.Out);
  if (Dirs.empty()) {
    // An nvcc that will not say: guess the toolkit from its real location.
    llvm::SmallString<256> Real;
    if (fs::real_path(Nvcc, Real))
      Real = Nvcc;
    Dirs.push_back((path::parent_path(path::parent_path(Real)) + "/lib64").str());
  }
  std::vector<std::string> Flags;
  for (const std::string &D : Dirs) {
    Flags.push_back("-L" + D);
    Flags.push_back("-Wl,-rpath," + D);
  }
  Flags.push_back("-lcudart");
  return Flags;
}
