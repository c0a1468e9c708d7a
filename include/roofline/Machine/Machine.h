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
  // Added after the first cut (appended so aggregate initializers still work):
  /// Copies of this level (one L1 per SM or core). SizeBytes is the size of
  /// one copy, what a single SM/core can reuse; the bandwidth is aggregate.
  unsigned Instances = 1;
  /// Line size of this level where it differs from Machine::LineBytes.
  std::optional<unsigned> LineBytes;
  /// Associativity (lines per set); absent: the cache model treats the
  /// level as fully associative (no conflict misses).
  std::optional<unsigned> Ways;
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

  // Added after the first cut:
  /// Dense matrix-unit (tensor core, AMX) peaks by their file key:
  /// "tf32-tensor", "f16-tensor", "bf16-tensor", "fp8-tensor", "i8-tensor",
  /// "i4-tensor", "f64-tensor". Not used by plain-loop verdicts.
  std::map<std::string, double> TensorPeak;
  /// The matrix-unit peak a precision maps to (F32 -> "tf32-tensor").
  std::optional<double> tensorPeakFor(Precision P) const;
  /// Peak of one core per precision (`core_peaks`, roofline-probe's
  /// 1-core medians); empty when the file does not give them.
  std::map<Precision, double> CorePeak;
  /// The peak a variant on \p Threads threads can reach: one core's for a
  /// single thread where the file gives it (else the whole machine's, and
  /// \p Assumed says so), the whole machine's otherwise.
  double peakFor(Precision P, unsigned Threads, bool *Assumed = nullptr) const;
  /// peakFor(P) / main-memory bandwidth, FLOP per byte.
  double ridge(Precision P = Precision::F32) const;
  /// The level named \p Name ("L2"), or null.
  const MemoryLevel *findLevel(llvm::StringRef Name) const;
  /// The link between host and device (PCIe, NVLink-C2C), bytes/s one way;
  /// absent: not modelled (CPUs, or a file that does not give it).
  std::optional<double> HostLinkBytesPerS;
  /// What starting one kernel costs beyond its work, seconds (a GPU's
  /// launch latency); absent: not modelled. docs/network-report.md.
  std::optional<double> LaunchLatencyS;
  /// Level's own line size, else the machine's.
  unsigned lineBytesFor(const MemoryLevel &L) const {
    return L.LineBytes ? *L.LineBytes : LineBytes;
  }
};

/// File key of the matrix-unit peak for \p P ("tf32-tensor" for F32), or
/// null when no tensor key corresponds.
const char *tensorPeakKey(Precision P);

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
/// The YAML text of a builtin machine file, or nullopt.
std::optional<llvm::StringRef> builtinMachineText(llvm::StringRef Name);
/// The first control character of \p S (below 0x20, or DEL) not in
/// \p Allowed: the machine and config files refuse them in values.
std::optional<char> firstControlChar(llvm::StringRef S,
                                     llvm::StringRef Allowed = "\t");

} // namespace roofline

#endif // ROOFLINE_MACHINE_MACHINE_H
