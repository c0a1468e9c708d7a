//===- RooflineProbe.cpp - Measure this machine's roofline ----------------===//
//
// Measures what the roofline of this CPU is, the way the Empirical Roofline
// Toolkit and STREAM do: peak FLOP/s per precision from independent FMA
// chains on the widest vector unit, on one core and on all, and the
// bandwidth of every cache level and of DRAM from streaming loops over
// arrays sized for that level. Prints a table and writes a machine file
// that roofline-lint --machine=FILE (or --machine=host, with --save) reads.
//
//===----------------------------------------------------------------------===//

#include "HostInfo.h"
#include "Kernels.h"
#include "Measure.h"

#include "roofline/Machine/HostMachine.h"
#include "roofline/Machine/MachineYAML.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <sys/mman.h>

using namespace llvm;
using namespace probe;

namespace {

cl::OptionCategory Category("roofline-probe options");
cl::opt<std::string> OutputFile("o",
                                cl::desc("Write the measured machine file to "
                                         "<file> (for --machine=<file>)"),
                                cl::value_desc("file"), cl::cat(Category));
cl::opt<bool> Save("save",
                   cl::desc("Write the machine file to the default host path "
                            "that --machine=host reads"),
                   cl::cat(Category));
cl::opt<bool> Quick("quick",
                    cl::desc("Short rounds and few samples (seconds; for "
                             "tests, not for numbers)"),
                    cl::cat(Category));
cl::opt<unsigned> ThreadsOpt("cpus",
                             cl::desc("CPUs (one thread each) for the "
                                      "all-cores runs (default: every CPU "
                                      "this process may use)"),
                             cl::init(0), cl::cat(Category));
cl::opt<unsigned> SamplesOpt("samples",
                             cl::desc("Rounds kept per measurement (default "
                                      "7, 3 with --quick)"),
                             cl::init(0), cl::cat(Category));
cl::opt<std::string> NameOpt("name", cl::desc("Machine name in the file"),
                             cl::init(roofline::HostMachineName),
                             cl::cat(Category));
cl::opt<std::string> JsonFile("json",
                              cl::desc("Also write every sample as JSON to "
                                       "<file> (scripts/bench-probe.py)"),
                              cl::value_desc("file"), cl::cat(Category));
cl::opt<bool> NoProgress("no-progress",
                         cl::desc("Do not report progress on stderr"),
                         cl::cat(Category));

void progress(const Twine &What) {
  if (!NoProgress)
    errs() << "roofline-probe: " << What << "\n";
}

std::string today() {
  std::time_t T = std::time(nullptr);
  char Buf[32];
  std::strftime(Buf, sizeof(Buf), "%Y-%m-%d", std::localtime(&T));
  return Buf;
}

std::string rate(double V, const char *Unit) {
  static const std::pair<double, const char *> P[] = {
      {1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}};
  for (const auto &[S, N] : P)
    if (V >= S)
      return formatv("{0:f1} {1}{2}", V / S, N, Unit).str();
  return formatv("{0:f1} {1}", V, Unit).str();
}

std::string bytesStr(double B) {
  if (B >= 1024.0 * 1024 * 1024)
    return formatv("{0:f1} GiB", B / (1024.0 * 1024 * 1024)).str();
  if (B >= 1024.0 * 1024)
    return formatv("{0:f1} MiB", B / (1024.0 * 1024)).str();
  return formatv("{0:f0} KiB", B / 1024).str();
}

struct Result {
  std::string What, Isa, Detail;
  std::string Key; ///< machine-file key: "f64", "L2", "DRAM"
  std::string Kernel; ///< "fma", "read", "triad"
  Stats One, All;
  unsigned AllThreads = 1;
  double Bytes = 0; ///< working set per thread (bandwidth)
};

/// Aligned, first-touched in the calling thread; huge pages where the
/// kernel offers them (fewer TLB misses on DRAM-sized arrays).
double *allocArray(size_t N) {
  size_t Bytes = N * sizeof(double);
  size_t Align = Bytes >= (size_t(8) << 20) ? size_t(2) << 20 : 4096;
  void *P = nullptr;
  if (posix_memalign(&P, Align, (Bytes + Align - 1) / Align * Align))
    return nullptr;
#ifdef MADV_HUGEPAGE
  if (Align > 4096)
    madvise(P, Bytes, MADV_HUGEPAGE);
#endif
  double *D = static_cast<double *>(P);
  for (size_t I = 0; I < N; ++I)
    D[I] = 1.0 + static_cast<double>(I % 7) * 0.25;
  return D;
}

Stats runCompute(const ComputeKernel &K, const std::vector<int> &Cpus,
                 const MeasureOptions &O) {
  std::vector<double> Sink(Cpus.size());
  return measureTeam(
      Cpus, O, K.OpsPerIter, [](unsigned) {},
      [&](unsigned T, uint64_t Reps) { Sink[T] += K.Run(Reps); });
}

Stats runBandwidth(const BandwidthKernel &K, const std::vector<int> &Cpus,
                   const MeasureOptions &O, size_t N) {
  std::vector<std::vector<double *>> Arrays(Cpus.size());
  std::vector<double> Sink(Cpus.size());
  Stats S = measureTeam(
      Cpus, O, static_cast<double>(N) * K.BytesPerElem,
      [&](unsigned T) {
        for (unsigned A = 0; A < K.Arrays; ++A)
          Arrays[T].push_back(allocArray(N));
      },
      [&](unsigned T, uint64_t Reps) {
        Sink[T] += K.Run(Arrays[T].data(), N, Reps);
      });
  for (auto &V : Arrays)
    for (double *P : V)
      free(P);
  return S;
}

/// Elements per array so that \p Arrays arrays take \p Bytes, a multiple of
/// 64 (the kernels' step), at least 64.
size_t elementsFor(double Bytes, unsigned Arrays) {
  size_t N = static_cast<size_t>(Bytes / Arrays / sizeof(double));
  return std::max<size_t>(64, N / 64 * 64);
}

std::string statStr(const Stats &S, const char *Unit) {
  return formatv("{0,-14} {1,5:f1}%", rate(S.median(), Unit),
                 100 * S.spread())
      .str();
}

json::Value statsJSON(const Stats &S) {
  json::Array A;
  for (double V : S.Samples)
    A.push_back(V);
  return json::Object{{"median", S.median()},
                      {"min", S.min()},
                      {"max", S.max()},
                      {"spread", S.spread()},
                      {"samples", std::move(A)}};
}

/// The CPUs the measurements run on: the first alone, and all at once.
struct Team {
  std::vector<int> One, All;
  bool multi() const { return All.size() > 1; }
};

/// A level whose bandwidth is measured: a cache, or DRAM.
struct Level {
  std::string Name;
  const CacheLevel *Cache; // null for DRAM
};

std::vector<Result> measurePeaks(const CpuFeatures &F, const Team &T,
                                 const MeasureOptions &O) {
  std::vector<Result> Results;
  for (const ComputeKernel &K : computeKernels(F)) {
    Result R;
    R.What = "peak " + K.Precision;
    R.Key = K.Precision;
    R.Kernel = "fma";
    R.Isa = K.Isa;
    R.Detail = K.VectorBits
                   ? formatv("{0} x {1}-bit chains", K.Chains, K.VectorBits).str()
                   : formatv("{0} x 16x16 tiles", K.Chains).str();
    progress(R.What + " (" + K.Isa + "), 1 thread");
    R.One = runCompute(K, T.One, O);
    R.All = R.One;
    R.AllThreads = 1;
    if (T.multi()) {
      progress(R.What + " (" + K.Isa + "), " + Twine(T.All.size()) +
               " threads");
      R.All = runCompute(K, T.All, O);
      R.AllThreads = T.All.size();
    }
    Results.push_back(std::move(R));
  }
  return Results;
}

/// Every cache level, then DRAM.
std::vector<Level> bandwidthLevels(const HostInfo &H) {
  std::vector<Level> Levels;
  for (const CacheLevel &C : H.Caches)
    Levels.push_back({"L" + std::to_string(C.Level), &C});
  Levels.push_back({"DRAM", nullptr});
  return Levels;
}

// Working sets: half of a private cache per thread, half of a shared one
// split among its threads; for DRAM every array is at least 4x the
// last-level cache (STREAM's rule), split among the threads.
std::vector<Result> measureBandwidths(const HostInfo &H,
                                      const std::vector<Level> &Levels,
                                      const CpuFeatures &F, const Team &T,
                                      const MeasureOptions &O) {
  double LLC = 0;
  for (const CacheLevel &C : H.Caches)
    LLC = std::max(LLC, C.SizeBytes * C.Instances);
  std::vector<Result> Results;
  for (const Level &L : Levels) {
    for (const BandwidthKernel &K : bandwidthKernels(F)) {
      auto PerThread = [&](unsigned Threads) {
        if (!L.Cache) // every array at least 4x the LLC, over all threads
          return std::max(4 * LLC, 64.0 * 1024 * 1024) * K.Arrays / Threads;
        unsigned Sharing = std::min(L.Cache->SharedBy, Threads);
        return L.Cache->SizeBytes / 2 / std::max(1u, Sharing);
      };
      Result R;
      R.What = L.Name + " " + K.Name;
      R.Key = L.Name;
      R.Kernel = K.Name;
      R.Isa = K.Isa;
      size_t N1 = elementsFor(PerThread(1), K.Arrays);
      R.Bytes = static_cast<double>(N1) * 8 * K.Arrays;
      R.Detail = K.Arrays == 1 ? bytesStr(R.Bytes)
                               : formatv("{0} x {1}", K.Arrays,
                                         bytesStr(R.Bytes / K.Arrays))
                                     .str();
      progress(R.What + " (" + R.Detail + "), 1 thread");
      R.One = runBandwidth(K, T.One, O, N1);
      R.All = R.One;
      if (T.multi()) {
        size_t NA = elementsFor(PerThread(T.All.size()), K.Arrays);
        progress(R.What + " (" + bytesStr(NA * 8.0 * K.Arrays) +
                 " per thread), " + Twine(T.All.size()) + " threads");
        R.All = runBandwidth(K, T.All, O, NA);
        R.AllThreads = T.All.size();
      }
      Results.push_back(std::move(R));
    }
  }
  return Results;
}

void printTable(raw_ostream &OS, const HostInfo &H, const CpuFeatures &F,
                const Team &T, double MeasuredHz,
                const std::vector<Result> &Results, const MeasureOptions &O,
                double Elapsed) {
  bool Multi = T.multi();
  OS << "roofline-probe: " << H.ModelName << ", " << T.All.size() << " CPUs; "
     << F.list() << "\n";
  OS << "clock: ";
  if (H.ClockHz > 0)
    OS << formatv("{0:f3} GHz ({1})", H.ClockHz / 1e9, H.ClockSource);
  else
    OS << "unknown to the OS";
  OS << formatv("; measured {0:f3} GHz (dependent adds)\n", MeasuredHz / 1e9);
  OS << formatv("{0,-12} {1,-20} {2,-20} {3,-21} {4}\n", "", "kernel", "size",
                "1 core (spread)",
                Multi ? formatv("{0} cores (spread)", T.All.size()).str() : "");
  for (const Result &R : Results) {
    bool Bw = R.Kernel != "fma";
    const char *Unit = Bw ? "B/s" : (R.Key == "i8" ? "OP/s" : "FLOP/s");
    OS << formatv("{0,-12} {1,-20} {2,-20} {3,-21} {4}\n", R.What, R.Isa,
                  R.Detail, statStr(R.One, Unit),
                  Multi ? statStr(R.All, Unit) : "");
  }
  OS << formatv("{0} samples per figure, medians; spread = (max - min) / "
                "median; {1:f1} s in all\n",
                O.Samples, Elapsed);
}

/// The machine file: all-cores medians; a level's bandwidth is the best
/// of its kernels (a roof is what the best code reaches).
roofline::Machine machineFrom(const HostInfo &H, const Team &T,
                              const std::vector<Level> &Levels,
                              const std::vector<Result> &Results,
                              const MeasureOptions &O) {
  roofline::Machine M;
  M.Name = NameOpt;
  M.Description = H.ModelName + ", " + std::to_string(T.All.size()) +
                  " CPUs (measured by roofline-probe)";
  M.Kind = "cpu";
  M.CapacityBytes = std::floor(H.MemoryBytes);
  M.LineBytes = H.Caches.empty() ? 64 : H.Caches.front().LineBytes;
  M.WriteAllocate = true;
  std::string Stamp = "measured by roofline-probe on " + today();
  for (const Result &R : Results) {
    if (R.Kernel != "fma")
      continue;
    std::optional<roofline::Precision> P = roofline::parsePrecision(R.Key);
    if (!P)
      continue;
    M.Peak[*P] = R.All.median();
    M.CorePeak[*P] = R.One.median();
    M.Sources[R.Key] =
        formatv("{0}: {1}, {2}, {3} thread(s), median of {4} (spread {5:f1}%)",
                Stamp, R.Isa, R.Detail, R.AllThreads, O.Samples,
                100 * R.All.spread())
            .str();
  }
  // f32 is required; a CPU without a measured f32 kernel has none to offer.
  if (!M.Peak.count(roofline::Precision::F32) &&
      M.Peak.count(roofline::Precision::F64)) {
    M.Peak[roofline::Precision::F32] = M.Peak[roofline::Precision::F64];
    M.CorePeak[roofline::Precision::F32] = M.CorePeak[roofline::Precision::F64];
    M.Sources["f32"] = Stamp + ": no f32 kernel for this CPU; the f64 figure";
  }
  // Main memory first, then the caches towards the core.
  for (auto It = Levels.rbegin(); It != Levels.rend(); ++It) {
    const Result *Best = nullptr;
    for (const Result &R : Results)
      if (R.Key == It->Name && R.Kernel != "fma" &&
          (!Best || R.All.median() > Best->All.median()))
        Best = &R;
    if (!Best)
      continue;
    roofline::MemoryLevel L;
    L.Name = It->Name;
    L.BandwidthBytesPerS = Best->All.median();
    if (It->Cache) {
      L.SizeBytes = It->Cache->SizeBytes;
      L.Instances = It->Cache->Instances;
      if (It->Cache->LineBytes != M.LineBytes)
        L.LineBytes = It->Cache->LineBytes;
    }
    M.Sources[L.Name] =
        formatv("{0}: {1} {2} ({3} per thread), {4} thread(s), median of {5} "
                "(spread {6:f1}%){7}",
                Stamp, Best->Isa, Best->Kernel, Best->Detail,
                Best->AllThreads, O.Samples, 100 * Best->All.spread(),
                It->Cache ? "; size from " + It->Cache->Source : "")
            .str();
    M.Levels.push_back(std::move(L));
  }
  M.Sources["capacity_bytes"] =
      Stamp + ": physical memory (sysconf _SC_PHYS_PAGES x page size)";
  return M;
}

/// The machine file's header comment: what was measured, where, and how.
std::string machineComment(const HostInfo &H, const CpuFeatures &F,
                           const Team &T, double MeasuredHz) {
  return "Measured by roofline-probe on " + today() + ": " + H.ModelName +
         ", " + std::to_string(T.All.size()) + " CPUs (" + F.list() + ").\n" +
         "Clock: " +
         (H.ClockHz > 0
              ? formatv("{0:f3} GHz from {1}", H.ClockHz / 1e9, H.ClockSource)
                    .str()
              : std::string("unknown to the OS")) +
         formatv("; {0:f3} GHz measured.\n", MeasuredHz / 1e9).str() +
         "Peaks: all CPUs, independent FMA chains. Bandwidths: all CPUs, the\n"
         "best of a read kernel and STREAM triad (24 B per element counted).\n"
         "write_allocate: x86 write-back caches allocate on store (not "
         "measured)." +
         (Quick ? std::string("\n--quick run: too short for trustworthy "
                              "numbers.")
                : std::string());
}

/// Writes \p Yaml to -o and --save's paths; the exit code (0: written).
int writeMachineFiles(const std::string &Yaml, raw_ostream &OS) {
  // (path, what --machine= says to use it)
  std::vector<std::pair<std::string, std::string>> Targets;
  if (!OutputFile.empty())
    Targets.push_back({OutputFile, OutputFile});
  if (Save) {
    std::string P = roofline::defaultHostMachinePath();
    if (P.empty()) {
      WithColor::error(errs(), "roofline-probe")
          << "--save: neither XDG_CONFIG_HOME nor HOME is set; use -o FILE\n";
      return 2;
    }
    Targets.push_back({P, roofline::HostMachineName});
  }
  for (const auto &[Path, Use] : Targets) {
    // What is written must load: check it as roofline-lint will.
    Expected<roofline::Machine> Back = roofline::parseMachine(Yaml, Path);
    if (!Back) {
      WithColor::error(errs(), "roofline-probe")
          << "internal error, the machine file does not load: "
          << toString(Back.takeError()) << "\n";
      return 1;
    }
    if (std::error_code EC =
            sys::fs::create_directories(sys::path::parent_path(Path));
        EC && !sys::path::parent_path(Path).empty()) {
      WithColor::error(errs(), "roofline-probe")
          << "cannot create the folder of '" << Path << "': " << EC.message()
          << "\n";
      return 2;
    }
    std::error_code EC;
    raw_fd_ostream File(Path, EC, sys::fs::OF_Text);
    if (EC) {
      WithColor::error(errs(), "roofline-probe")
          << "cannot write '" << Path << "': " << EC.message() << "\n";
      return 2;
    }
    File << Yaml;
    OS << "wrote " << Path << " (use it: roofline-lint --machine=" << Use
       << ")\n";
  }
  return 0;
}

/// Every sample as JSON to --json's file (scripts/bench-probe.py); the
/// exit code (0: written).
int writeSamplesJson(const HostInfo &H, const CpuFeatures &F, const Team &T,
                     double MeasuredHz, const std::vector<Result> &Results,
                     const MeasureOptions &O, double Elapsed) {
  json::Array Rs;
  for (const Result &R : Results)
    Rs.push_back(json::Object{{"what", R.What},
                              {"key", R.Key},
                              {"kernel", R.Kernel},
                              {"isa", R.Isa},
                              {"detail", R.Detail},
                              {"bytes_per_thread", R.Bytes},
                              {"one", statsJSON(R.One)},
                              {"all", statsJSON(R.All)},
                              {"all_threads", int64_t(R.AllThreads)}});
  json::Array Caches;
  for (const CacheLevel &C : H.Caches)
    Caches.push_back(json::Object{{"level", int64_t(C.Level)},
                                  {"size", C.SizeBytes},
                                  {"shared_by", int64_t(C.SharedBy)},
                                  {"instances", int64_t(C.Instances)}});
  std::vector<std::string> Features;
  std::string List = F.list(); // split() points into it
  for (StringRef W : split(List, ' '))
    Features.push_back(W.str());
  json::Object Root{{"cpu", H.ModelName},
                    {"vendor", H.Vendor},
                    {"family", H.Family},
                    {"model", H.Model},
                    {"cpus", int64_t(T.All.size())},
                    {"features", json::Array(Features)},
                    {"clock_hz", H.ClockHz},
                    {"clock_source", H.ClockSource},
                    {"measured_clock_hz", MeasuredHz},
                    {"caches", std::move(Caches)},
                    {"samples_per_figure", int64_t(O.Samples)},
                    {"elapsed_s", Elapsed},
                    {"results", std::move(Rs)}};
  std::error_code EC;
  raw_fd_ostream File(JsonFile, EC, sys::fs::OF_Text);
  if (EC) {
    WithColor::error(errs(), "roofline-probe")
        << "cannot write '" << JsonFile << "': " << EC.message() << "\n";
    return 2;
  }
  File << formatv("{0:2}", json::Value(std::move(Root))) << "\n";
  return 0;
}

} // namespace

int main(int Argc, const char **Argv) {
  InitLLVM X(Argc, Argv);
  cl::HideUnrelatedOptions(Category);
  if (!cl::ParseCommandLineOptions(
          Argc, Argv,
          "roofline-probe: measure this machine's roofline\n\n"
          "Peak FLOP/s (f64, f32, int8) on one core and on all cores, and the "
          "bandwidth\nof every cache level and of DRAM; prints a table and "
          "writes a machine file.\n\n"
          "  roofline-probe -o host.yaml && roofline-lint "
          "--machine=host.yaml file.cpp\n"
          "  roofline-probe --save && roofline-lint --machine=host file.cpp\n",
          &errs()))
    return 2;

  auto Started = std::chrono::steady_clock::now();
  HostInfo H = readHostInfo();
  CpuFeatures F = detectCpuFeatures();
  Team T;
  T.All = H.Cpus;
  if (ThreadsOpt > 0 && ThreadsOpt < T.All.size())
    T.All.resize(ThreadsOpt);
  T.One = {T.All.front()};
  MeasureOptions O;
  O.Samples = SamplesOpt ? SamplesOpt : (Quick ? 3 : 7);
  O.TargetSeconds = Quick ? 0.01 : 0.08;

  progress("measuring " + H.ModelName + ", " + Twine(T.All.size()) +
           " CPUs; features: " + F.list());
  progress("clock (dependent integer adds)");
  // The median of five short samples: a sample the OS preempted is slow.
  Stats Clock;
  for (int I = 0; I < 5; ++I)
    Clock.Samples.push_back(measureClockHz(Quick ? 0.005 : 0.04));
  double MeasuredHz = Clock.median();

  std::vector<Result> Results = measurePeaks(F, T, O);
  std::vector<Level> Levels = bandwidthLevels(H);
  std::vector<Result> Bandwidths = measureBandwidths(H, Levels, F, T, O);
  Results.insert(Results.end(), std::make_move_iterator(Bandwidths.begin()),
                 std::make_move_iterator(Bandwidths.end()));
  double Elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Started)
          .count();

  raw_ostream &OS = outs();
  printTable(OS, H, F, T, MeasuredHz, Results, O, Elapsed);
  roofline::Machine M = machineFrom(H, T, Levels, Results, O);
  std::string Yaml =
      roofline::machineToYAML(M, machineComment(H, F, T, MeasuredHz));
  if (int RC = writeMachineFiles(Yaml, OS))
    return RC;
  if (!JsonFile.empty())
    if (int RC = writeSamplesJson(H, F, T, MeasuredHz, Results, O, Elapsed))
      return RC;
  return 0;
}
