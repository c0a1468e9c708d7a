//===- HostMachine.cpp - Where the measured host machine file lives -------===//

#include "roofline/Machine/HostMachine.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"

#include <cstdlib>

std::string roofline::defaultHostMachinePath() {
  // The XDG base-directory rule: $XDG_CONFIG_HOME, defaulting to ~/.config.
  llvm::SmallString<256> P;
  if (const char *X = std::getenv("XDG_CONFIG_HOME"); X && *X)
    P = X;
  else if (const char *H = std::getenv("HOME"); H && *H)
    llvm::sys::path::append(P, H, ".config");
  else
    return "";
  llvm::sys::path::append(P, "roofline", "host.yaml");
  return std::string(P);
}
