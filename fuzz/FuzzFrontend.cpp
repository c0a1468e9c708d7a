//===- FuzzFrontend.cpp - libFuzzer target: the Clang front end -----------===//
//
// The input is a C++ source file (in memory, at most 4 KiB): it is parsed
// as the tool parses a file (runFrontendOnFile, -std=c++17, syntax only),
// every nest the front end lowers is counted (analyzeNest), and the counts
// are printed into a string (printNest), so that each step runs on whatever
// the mutated source makes of the AST. Nothing may crash; a compile error
// is a normal outcome. Run with -timeout (scripts/fuzz.sh) to catch hangs.
// Only our code is instrumented: Debian's libclang-cpp and libLLVM are not.
//
//===----------------------------------------------------------------------===//

#include "roofline/Analysis/Counts.h"
#include "roofline/Frontend/Runner.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

using namespace roofline;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  if (Size > 4096)
    return 0;
  std::string Code(reinterpret_cast<const char *>(Data), Size);
  // The directory must exist: runFrontendOnFile enters it on the real file
  // system (the in-memory layer only adds the file).
  const std::string Path = "/tmp/roofline-fuzz-input.cpp";
  clang::tooling::CompileCommand Cmd(
      "/tmp", Path,
      {"clang++", "-std=c++17", "-fsyntax-only",
       std::string("-resource-dir=") + ROOFLINE_CLANG_RESOURCE_DIR,
       // Bounded work per input: no deep template recursion or long error
       // cascades.
       "-ftemplate-depth=64", "-fconstexpr-steps=100000", "-ferror-limit=5",
       "-w", Path},
      "");
  FrontendOptions Opts;
  Opts.MaxNests = 64;
  std::vector<VirtualFile> Files = {{Path, Code}};
  TUResult R = runFrontendOnFile(Cmd, Opts, nullptr, Files);
  for (const LoopNest &N : R.Nests.Nests) {
    std::string Text = printNest(N);
    (void)Text;
    llvm::Expected<NestCounts> C = analyzeNest(N);
    if (!C)
      llvm::consumeError(C.takeError());
  }
  return 0;
}
