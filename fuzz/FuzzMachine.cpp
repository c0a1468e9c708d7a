//===- FuzzMachine.cpp - libFuzzer target: machine-file YAML parser -------===//
//
// Any bytes go to parseMachine; it must return a machine or an error, never
// crash. A machine it accepts is written back with machineToYAML, which must
// parse again to the same peaks and levels (the file roofline-probe --save
// writes is read by the same parser).
//
//===----------------------------------------------------------------------===//

#include "roofline/Machine/Machine.h"
#include "roofline/Machine/MachineYAML.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>

using namespace roofline;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  if (Size > 64 * 1024)
    return 0; // machine files are small; big inputs only slow the search
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  llvm::Expected<Machine> M = parseMachine(Text, "fuzz.yaml");
  if (!M) {
    llvm::consumeError(M.takeError());
    return 0;
  }
  std::string Again = machineToYAML(*M);
  llvm::Expected<Machine> M2 = parseMachine(Again, "roundtrip.yaml");
  if (!M2) {
    std::fprintf(stderr, "accepted machine does not round-trip: %s\n%s\n",
                 llvm::toString(M2.takeError()).c_str(), Again.c_str());
    std::abort();
  }
  // The written file is a fixed point: writing it again changes nothing.
  std::string Third = machineToYAML(*M2);
  if (Third != Again) {
    std::fprintf(stderr, "machineToYAML is not stable:\n%s\n---\n%s\n",
                 Again.c_str(), Third.c_str());
    std::abort();
  }
  return 0;
}
