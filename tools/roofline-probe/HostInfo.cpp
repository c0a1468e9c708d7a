//===- HostInfo.cpp - What the OS says about this machine -----------------===//

#include "HostInfo.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <map>
#include <sched.h>
#include <unistd.h>

using namespace probe;
using llvm::StringRef;

namespace {

std::string readFile(const std::string &Path) {
  auto B = llvm::MemoryBuffer::getFileAsStream(Path);
  if (!B)
    return "";
  return (*B)->getBuffer().trim().str();
}

/// "48K", "1024K", "32M" -> bytes.
double parseSize(StringRef S) {
  S = S.trim();
  double Mult = 1;
  if (S.consume_back("K"))
    Mult = 1024;
  else if (S.consume_back("M"))
    Mult = 1024 * 1024;
  else if (S.consume_back("G"))
    Mult = 1024.0 * 1024 * 1024;
  unsigned long long V = 0;
  if (S.getAsInteger(10, V))
    return 0;
  return static_cast<double>(V) * Mult;
}

/// "0-3,8" -> 5.
unsigned countCpuList(StringRef S) {
  unsigned N = 0;
  llvm::SmallVector<StringRef, 8> Parts;
  S.trim().split(Parts, ',', -1, false);
  for (StringRef P : Parts) {
    auto [A, B] = P.split('-');
    unsigned Lo = 0, Hi = 0;
    if (A.getAsInteger(10, Lo))
      continue;
    Hi = Lo;
    if (!B.empty() && B.getAsInteger(10, Hi))
      continue;
    N += Hi >= Lo ? Hi - Lo + 1 : 0;
  }
  return N;
}

} // namespace

HostInfo probe::readHostInfo() {
  HostInfo H;
  cpu_set_t Set;
  CPU_ZERO(&Set);
  if (sched_getaffinity(0, sizeof(Set), &Set) == 0) {
    for (int C = 0; C < CPU_SETSIZE; ++C)
      if (CPU_ISSET(C, &Set))
        H.Cpus.push_back(C);
  }
  if (H.Cpus.empty())
    for (long C = 0, N = sysconf(_SC_NPROCESSORS_ONLN); C < N; ++C)
      H.Cpus.push_back(static_cast<int>(C));

  // /proc/cpuinfo: the first processor's block is enough.
  std::string Info = readFile("/proc/cpuinfo");
  double CpuinfoMHz = 0;
  for (StringRef Line : llvm::split(StringRef(Info), '\n')) {
    if (Line.trim().empty())
      break;
    auto [K, V] = Line.split(':');
    K = K.trim();
    V = V.trim();
    if (K == "model name")
      H.ModelName = V.str();
    else if (K == "vendor_id")
      H.Vendor = V.str();
    else if (K == "cpu family")
      V.getAsInteger(10, H.Family);
    else if (K == "model")
      V.getAsInteger(10, H.Model);
    else if (K == "cpu MHz")
      V.getAsDouble(CpuinfoMHz);
  }
  std::string Cpu0 = "/sys/devices/system/cpu/cpu" +
                     std::to_string(H.Cpus.empty() ? 0 : H.Cpus.front());
  unsigned long long MaxKHz = 0;
  if (!StringRef(readFile(Cpu0 + "/cpufreq/cpuinfo_max_freq"))
           .getAsInteger(10, MaxKHz) &&
      MaxKHz > 0) {
    H.ClockHz = MaxKHz * 1e3;
    H.ClockSource = "sysfs cpufreq cpuinfo_max_freq";
  } else if (CpuinfoMHz > 0) {
    H.ClockHz = CpuinfoMHz * 1e6;
    H.ClockSource = "/proc/cpuinfo 'cpu MHz'";
  }

  // Data and unified caches, one entry per level.
  std::map<unsigned, CacheLevel> ByLevel;
  for (unsigned I = 0; I < 16; ++I) {
    std::string Dir = Cpu0 + "/cache/index" + std::to_string(I);
    std::string Type = readFile(Dir + "/type");
    if (Type.empty())
      break;
    if (Type == "Instruction")
      continue;
    CacheLevel C;
    if (StringRef(readFile(Dir + "/level")).getAsInteger(10, C.Level))
      continue;
    C.SizeBytes = parseSize(readFile(Dir + "/size"));
    unsigned Line = 0;
    if (!StringRef(readFile(Dir + "/coherency_line_size"))
             .getAsInteger(10, Line) &&
        Line > 0)
      C.LineBytes = Line;
    C.SharedBy =
        std::max(1u, countCpuList(readFile(Dir + "/shared_cpu_list")));
    C.Source = "sysfs";
    if (C.SizeBytes > 0)
      ByLevel[C.Level] = C;
  }
  if (ByLevel.empty()) {
    // No sysfs (containers may hide it): glibc's view, else typical sizes.
    long L1 = sysconf(_SC_LEVEL1_DCACHE_SIZE), L2 = sysconf(_SC_LEVEL2_CACHE_SIZE),
         L3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
    bool Sys = L1 > 0 && L2 > 0;
    ByLevel[1] = {1, Sys ? double(L1) : 32768.0, 64, 1, 1,
                  Sys ? "sysconf" : "default"};
    ByLevel[2] = {2, Sys ? double(L2) : 1048576.0, 64, 1, 1,
                  Sys ? "sysconf" : "default"};
    if (!Sys || L3 > 0)
      ByLevel[3] = {3, Sys ? double(L3) : 8388608.0, 64,
                    static_cast<unsigned>(H.Cpus.size()), 1,
                    Sys ? "sysconf" : "default"};
  }
  for (auto &[Level, C] : ByLevel) {
    unsigned N = static_cast<unsigned>(H.Cpus.size());
    C.Instances = std::max(1u, (N + C.SharedBy - 1) / C.SharedBy);
    H.Caches.push_back(C);
  }
  long Pages = sysconf(_SC_PHYS_PAGES), Page = sysconf(_SC_PAGESIZE);
  if (Pages > 0 && Page > 0)
    H.MemoryBytes = static_cast<double>(Pages) * static_cast<double>(Page);
  return H;
}
