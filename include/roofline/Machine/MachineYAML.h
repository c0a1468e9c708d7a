//===- MachineYAML.h - Machine files written back as YAML -----------------===//
//
// The inverse of parseMachine: roofline-probe writes what it measured in the
// machine-file format (docs/machine-files.md).
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_MACHINE_MACHINEYAML_H
#define ROOFLINE_MACHINE_MACHINEYAML_H

#include "roofline/Machine/Machine.h"

#include <string>

namespace roofline {

/// YAML text that parseMachine reads back as \p M (numbers to 10
/// significant digits). \p Comment, if given, heads the file as '#' lines.
std::string machineToYAML(const Machine &M, const std::string &Comment = "");

} // namespace roofline

#endif // ROOFLINE_MACHINE_MACHINEYAML_H
