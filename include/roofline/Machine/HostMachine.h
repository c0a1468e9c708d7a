//===- HostMachine.h - Where the measured host machine file lives ---------===//
//
// roofline-probe --save writes the machine it measured to a per-user path;
// --machine=host reads it from there.
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_MACHINE_HOSTMACHINE_H
#define ROOFLINE_MACHINE_HOSTMACHINE_H

#include <string>

namespace roofline {

/// The name that --machine resolves to the measured host file.
constexpr const char *HostMachineName = "host";

/// $XDG_CONFIG_HOME/roofline/host.yaml, else $HOME/.config/roofline/
/// host.yaml; empty when neither variable is set.
std::string defaultHostMachinePath();

} // namespace roofline

#endif // ROOFLINE_MACHINE_HOSTMACHINE_H
