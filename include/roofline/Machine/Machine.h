//===- Machine.h - Hardware models read from YAML machine files -----------===//

#ifndef ROOFLINE_MACHINE_MACHINE_H
#define ROOFLINE_MACHINE_MACHINE_H

#include "roofline/IR/LoopNest.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace roofline {

struct MemoryLevel {
  std::string Name;             ///< "DRAM", "HBM", "L2", "L1"
  double BandwidthBytesPerS = 0;
  std::optional<double> SizeBytes; ///< absent for main memory
};

struct Machine {
  std::string Name;         ///< short name, "rtx-a6000"
  std::string Description;  ///< "NVIDIA RTX A6000 (Ampere GA102)"
  std::string Kind;         ///< "gpu" or "cpu"
  /// Peak arithmetic per precision (FLOP/s, or OP/s for integer types).
  std::map<Precision, double> Peak;
  /// Main memory first, then caches towards the processor.
  std::vector<MemoryLevel> Levels;
  double CapacityBytes = 0;  ///< device (or host) memory capacity
  unsigned LineBytes = 64;
  bool WriteAllocate = false;
  std::map<std::string, std::string> Sources; ///< field -> where it came from
  std::string Path;          ///< file it was read from, or "<builtin>"

  const MemoryLevel &mainMemory() const { return Levels.front(); }
  /// Peak for \p P, falling back to f32 for a precision the file omits.
  double peakFor(Precision P) const;
};

/// Names of the machine files compiled into the tool, sorted.
std::vector<std::string> builtinMachineNames();
/// The default machine (the seed's RTX A6000).
const char *defaultMachineName();

/// \p NameOrPath is a builtin name or a path to a YAML file. Errors name the
/// file, the field and the line.
llvm::Expected<Machine> loadMachine(llvm::StringRef NameOrPath);
/// Parses YAML text; \p Path is only used in messages.
llvm::Expected<Machine> parseMachine(llvm::StringRef Yaml,
                                     llvm::StringRef Path);

} // namespace roofline

#endif // ROOFLINE_MACHINE_MACHINE_H
