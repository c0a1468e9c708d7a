//===- FuzzConfig.cpp - libFuzzer target: .roofline.yaml parser ------------===//
//
// Any bytes go to parseConfig; it must return a config or an error, never
// crash. A config it accepts is dumped (--dump-config) and must parse again
// to the same dump.
//
//===----------------------------------------------------------------------===//

#include "roofline/Config/Config.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>

using namespace roofline;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  if (Size > 64 * 1024)
    return 0;
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  llvm::Expected<Config> C = parseConfig(Text, "/fuzz/.roofline.yaml");
  if (!C) {
    llvm::consumeError(C.takeError());
    return 0;
  }
  std::string Dump = dumpConfig(*C);
  llvm::Expected<Config> C2 = parseConfig(Dump, "/fuzz/.roofline.yaml");
  if (!C2) {
    std::fprintf(stderr, "accepted config does not round-trip: %s\n%s\n",
                 llvm::toString(C2.takeError()).c_str(), Dump.c_str());
    std::abort();
  }
  std::string Dump2 = dumpConfig(*C2);
  if (Dump2 != Dump) {
    std::fprintf(stderr, "dumpConfig is not stable:\n%s\n---\n%s\n",
                 Dump.c_str(), Dump2.c_str());
    std::abort();
  }
  return 0;
}
