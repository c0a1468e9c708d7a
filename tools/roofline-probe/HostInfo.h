//===- HostInfo.h - What the OS says about this machine -------------------===//
//
// CPU model and clock (/proc/cpuinfo, sysfs cpufreq), the data caches
// (sysfs cache/index*), the CPUs this process may run on, and the physical
// memory. Everything here is read, not measured.
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_PROBE_HOSTINFO_H
#define ROOFLINE_PROBE_HOSTINFO_H

#include <string>
#include <vector>

namespace probe {

struct CacheLevel {
  unsigned Level = 0;     ///< 1, 2, 3
  double SizeBytes = 0;   ///< one instance
  unsigned LineBytes = 64;
  unsigned SharedBy = 1;  ///< CPUs sharing one instance
  unsigned Instances = 1; ///< over the CPUs this process may use
  std::string Source;     ///< "sysfs", or "sysconf", or "default"
};

struct HostInfo {
  std::string ModelName, Vendor;
  int Family = -1, Model = -1;
  /// Clock the OS reports: cpufreq's maximum, else /proc/cpuinfo's
  /// "cpu MHz"; 0 when neither is known.
  double ClockHz = 0;
  std::string ClockSource;
  std::vector<int> Cpus;           ///< CPUs this process may run on
  std::vector<CacheLevel> Caches;  ///< data/unified, L1 first
  double MemoryBytes = 0;          ///< physical memory
};

HostInfo readHostInfo();

} // namespace probe

#endif // ROOFLINE_PROBE_HOSTINFO_H
