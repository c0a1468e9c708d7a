//===- MachineYAML.cpp - Machine files written back as YAML ---------------===//

#include "roofline/Machine/MachineYAML.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstdlib>
#include <cstdio>

using namespace roofline;

namespace {

std::string number(double V) {
  char Buf[64];
  if (V == std::floor(V) && std::fabs(V) < 1e18)
    snprintf(Buf, sizeof(Buf), "%.0f", V);
  else
    // The fewest digits that read back as the same double: a written file
    // must parse to the machine it came from (fuzz-machine found '%.10g'
    // turning 3.8555555555555556e13 into another number on each rewrite).
    for (int Digits = 10; Digits <= 17; ++Digits) {
      snprintf(Buf, sizeof(Buf), "%.*g", Digits, V);
      if (std::strtod(Buf, nullptr) == V)
        break;
    }
  return Buf;
}

/// Double-quoted YAML scalar: always safe, whatever the text holds.
std::string quoted(llvm::StringRef S) {
  std::string Out = "\"";
  for (char C : S) {
    if (C == '"' || C == '\\')
      Out += '\\';
    if (C == '\n') {
      Out += "\\n";
      continue;
    }
    Out += C;
  }
  return Out + "\"";
}

} // namespace

std::string roofline::machineToYAML(const Machine &M,
                                    const std::string &Comment) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  if (!Comment.empty()) {
    llvm::StringRef Rest = Comment;
    while (!Rest.empty()) {
      auto [Line, Tail] = Rest.split('\n');
      OS << "# " << Line << "\n";
      Rest = Tail;
    }
  }
  OS << "name: " << M.Name << "\n";
  OS << "description: " << quoted(M.Description) << "\n";
  OS << "kind: " << M.Kind << "\n";
  OS << "capacity_bytes: " << number(M.CapacityBytes) << "\n";
  OS << "line_bytes: " << M.LineBytes << "\n";
  OS << "write_allocate: " << (M.WriteAllocate ? "true" : "false") << "\n";
  if (M.HostLinkBytesPerS)
    OS << "host_link_bandwidth: " << number(*M.HostLinkBytesPerS) << "\n";
  if (M.LaunchLatencyS)
    OS << "launch_latency: " << number(*M.LaunchLatencyS) << "\n";
  OS << "peaks:\n";
  for (const auto &[P, V] : M.Peak)
    OS << "  " << precisionName(P) << ": " << number(V) << "\n";
  for (const auto &[K, V] : M.TensorPeak)
    OS << "  " << K << ": " << number(V) << "\n";
  if (!M.CorePeak.empty()) {
    OS << "core_peaks:\n";
    for (const auto &[P, V] : M.CorePeak)
      OS << "  " << precisionName(P) << ": " << number(V) << "\n";
  }
  OS << "memory:\n";
  for (size_t I = 0; I < M.Levels.size(); ++I) {
    const MemoryLevel &L = M.Levels[I];
    OS << "  - {name: " << quoted(L.Name) << ", bandwidth: "
       << number(L.BandwidthBytesPerS);
    if (I > 0 && L.SizeBytes)
      OS << ", size: " << number(*L.SizeBytes);
    if (L.Instances != 1)
      OS << ", instances: " << L.Instances;
    if (L.LineBytes)
      OS << ", line_bytes: " << *L.LineBytes;
    if (L.Ways)
      OS << ", ways: " << *L.Ways;
    OS << "}\n";
  }
  if (!M.Sources.empty()) {
    OS << "sources:\n";
    for (const auto &[K, V] : M.Sources)
      OS << "  " << K << ": " << quoted(V) << "\n";
  }
  return S;
}
