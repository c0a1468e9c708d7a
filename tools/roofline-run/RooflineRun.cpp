//===- RooflineRun.cpp - Build, check and time emitted kernel variants ----===//
//
//   roofline-run DIR          a directory written by roofline-lint --emit
//   roofline-run file.cpp     emit (roofline-lint --emit) and run
//
// Per unit: every variant built, checked against the double-precision
// reference and timed, with the OpenBLAS baseline for contractions; a
// table per unit, --json results, --plot the measurements over the
// roofline. docs/roofline-run.md.
//
//===----------------------------------------------------------------------===//

#include "roofline/Machine/HostMachine.h"
#include "roofline/Machine/Machine.h"
#include "roofline/Report/Plot.h"
#include "roofline/Runner/Manifest.h"
#include "roofline/Runner/Process.h"
#include "roofline/Runner/Results.h"
#include "roofline/Runner/Runner.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

#include <random>
#include <set>
#include <unistd.h>

using namespace llvm;
using namespace roofline;
namespace fs = llvm::sys::fs;

namespace {

cl::OptionCategory Category("roofline-run options");

cl::list<std::string> Inputs(cl::Positional, cl::OneOrMore,
                             cl::desc("<emitted DIR | source file> ..."),
                             cl::cat(Category));
cl::opt<std::string> MachineOpt(
    "machine", cl::init(HostMachineName),
    cl::desc("Machine whose roofline the measurements are judged against: "
             "a builtin name, a YAML file, or host (default; the file "
             "roofline-probe --save writes)"),
    cl::cat(Category));
cl::opt<std::string> JsonOut("json", cl::desc("Write the results as JSON ('-': "
                                              "stdout, instead of the tables)"),
                             cl::value_desc("FILE"), cl::cat(Category));
cl::opt<std::string> PlotOut(
    "plot",
    cl::desc("Draw the measured points over the roofline (.svg or .html)"),
    cl::value_desc("FILE"), cl::cat(Category));
cl::list<std::string> SizesOpt(
    "sizes",
    cl::desc("Sweep a size: N=256,1024 (N=M=K=256,1024 sets several "
             "together); repeatable (all combinations). Re-emits the source"),
    cl::value_desc("NAME=V1,V2"), cl::cat(Category));
cl::list<std::string> ParamOpt(
    "param", cl::desc("Give a size a value when emitting (as roofline-lint)"),
    cl::value_desc("NAME=VALUE"), cl::cat(Category));
cl::list<std::string> VariantsOpt(
    "variants",
    cl::desc("Only these variants (naive, the reference, is always run)"),
    cl::CommaSeparated, cl::value_desc("list"), cl::cat(Category));
cl::opt<unsigned> Reps("reps", cl::init(5),
                       cl::desc("At least this many timed runs (default 5)"),
                       cl::cat(Category));
cl::opt<double> MinTime(
    "min-time", cl::init(0.2),
    cl::desc("And at least this many seconds of timed runs (default 0.2)"),
    cl::cat(Category));
cl::opt<unsigned> RoundsOpt(
    "rounds", cl::init(5),
    cl::desc("Timing rounds: each times every variant and baseline once, the "
             "order rotating, with 1/rounds of --reps and --min-time; "
             "speedups are the median of the per-round ratios (default 5)"),
    cl::cat(Category));
cl::opt<unsigned> Timeout(
    "timeout", cl::init(60),
    cl::desc("Seconds a variant may take to check or to time (default 60)"),
    cl::cat(Category));
cl::opt<unsigned> BuildTimeout(
    "build-timeout", cl::init(600),
    cl::desc("Seconds one compile or link may take (default 600)"),
    cl::cat(Category));
cl::opt<unsigned> Jobs("j", cl::init(2), cl::desc("Parallel compiles (default 2)"),
                       cl::cat(Category));
cl::opt<uint64_t> SeedOpt(
    "seed", cl::desc("Seed of the random inputs (default: a fresh one, printed)"),
    cl::cat(Category));
cl::opt<bool> NoBaseline("no-baseline",
                         cl::desc("Do not time the OpenBLAS baseline"),
                         cl::cat(Category));
cl::opt<std::string> CxxOpt("cxx",
                            cl::desc("C++ compiler (default $CXX, else c++)"),
                            cl::cat(Category));
cl::opt<std::string>
    NvccOpt("nvcc", cl::desc("nvcc for .cu variants (default: PATH, then "
                             "/usr/local/cuda/bin; 'none': do not build them)"),
            cl::cat(Category));
cl::opt<std::string> TargetOpt(
    "target",
    cl::desc("What a source file is emitted for: cpu, cuda or all "
             "(default: all where nvcc is found, else cpu)"),
    cl::value_desc("cpu|cuda|all"), cl::cat(Category));
cl::opt<std::string> EmitDirOpt(
    "emit-dir",
    cl::desc("Where a source file's units are emitted (default: a new "
             "temporary directory)"),
    cl::value_desc("DIR"), cl::cat(Category));
cl::opt<std::string> LintOpt(
    "roofline-lint",
    cl::desc("The roofline-lint to emit with (default: beside this tool)"),
    cl::cat(Category));
cl::opt<bool> ProgressOpt(
    "progress",
    cl::desc("Show progress on stderr (default: when stderr is a terminal)"),
    cl::cat(Category));
cl::opt<bool> NoProgress("no-progress", cl::desc("No progress on stderr"),
                         cl::cat(Category));

int usageError(const Twine &Msg) {
  WithColor::error(errs(), "roofline-run") << Msg << "\n";
  return 2;
}

/// One point of a --sizes sweep: NAME -> value.
using SizePoint = std::vector<std::pair<std::string, int64_t>>;

Expected<std::vector<SizePoint>> sweepPoints() {
  std::vector<SizePoint> Points = {{}};
  for (const std::string &S : SizesOpt) {
    size_t Eq = S.rfind('=');
    if (Eq == std::string::npos || Eq == 0)
      return createStringError(inconvertibleErrorCode(),
                               "--sizes '" + S + "': want NAME=V1,V2");
    SmallVector<StringRef, 4> Names, Values;
    StringRef(S).substr(0, Eq).split(Names, '=');
    StringRef(S).substr(Eq + 1).split(Values, ',', -1, false);
    if (Values.empty())
      return createStringError(inconvertibleErrorCode(),
                               "--sizes '" + S + "': no values");
    std::vector<SizePoint> Next;
    for (const SizePoint &P : Points)
      for (StringRef V : Values) {
        int64_t X;
        if (V.trim().getAsInteger(10, X) || X <= 0)
          return createStringError(inconvertibleErrorCode(),
                                   "--sizes '" + S + "': '" + V +
                                       "' is not a positive integer");
        SizePoint Q = P;
        for (StringRef N : Names)
          Q.push_back({N.trim().str(), X});
        Next.push_back(std::move(Q));
      }
    Points = std::move(Next);
  }
  return Points;
}

std::string pointName(const SizePoint &P) {
  std::string S;
  for (const auto &[N, V] : P)
    S += (S.empty() ? "" : "_") + N + std::to_string(V);
  return S.empty() ? "default" : S;
}

std::string lintPath(const char *Argv0) {
  if (!LintOpt.empty())
    return LintOpt;
  std::string Self = fs::getMainExecutable(Argv0, (void *)&usageError);
  SmallString<256> P(sys::path::parent_path(Self));
  sys::path::append(P, "roofline-lint");
  if (fs::can_execute(P))
    return P.str().str();
  if (ErrorOr<std::string> Found = sys::findProgramByName("roofline-lint"))
    return *Found;
  return "";
}

/// roofline-lint --emit=Dir for \p Source at \p Point.
Error emit(const std::string &Lint, const std::string &Source,
           const std::string &Dir, const SizePoint &Point,
           const std::set<std::string> &Variants) {
  std::vector<std::string> Cmd = {Lint, "--emit=" + Dir};
  std::string Target = TargetOpt;
  if (Target.empty()) {
    // CUDA too where nvcc is found and this roofline-lint emits CUDA.
    bool Nvcc = NvccOpt != "none" &&
                (sys::findProgramByName(NvccOpt.empty() ? std::string("nvcc")
                                                        : NvccOpt.getValue()) ||
                 sys::findProgramByName("nvcc", {"/usr/local/cuda/bin"}));
    if (Nvcc) {
      ProcessResult H = runProcess(Lint, {Lint, "--help"}, 30);
      Nvcc = StringRef(H.Out).contains("--target");
    }
    Target = Nvcc ? "all" : "cpu";
  }
  // cpu is roofline-lint's default: not passing it keeps older ones working.
  if (Target != "cpu")
    Cmd.push_back("--target=" + Target);
  if (!Variants.empty())
    Cmd.push_back("--variants=" +
                  join(std::vector<std::string>(Variants.begin(), Variants.end()),
                       ","));
  for (const std::string &P : ParamOpt)
    Cmd.push_back("--param=" + P);
  for (const auto &[N, V] : Point)
    Cmd.push_back("--param=" + N + "=" + std::to_string(V));
  Cmd.push_back(Source);
  ProcessResult R = runProcess(Lint, Cmd, BuildTimeout);
  if (!R.ok())
    return createStringError(inconvertibleErrorCode(),
                             "emitting '" + Source + "' failed (" +
                                 R.describe(BuildTimeout) + "):\n" + R.Err);
  return Error::success();
}

/// The last-level cache of the CPU the variants run on (not of --machine,
/// which is only the roofline they are judged against).
double lastLevelCache(const Machine *M) {
  long S = sysconf(_SC_LEVEL3_CACHE_SIZE);
  if (S <= 0)
    S = sysconf(_SC_LEVEL2_CACHE_SIZE);
  if (S > 0)
    return static_cast<double>(S);
  double Best = 0;
  if (M && M->Name == HostMachineName)
    for (const MemoryLevel &L : M->Levels)
      if (L.SizeBytes)
        Best = std::max(Best, *L.SizeBytes * L.Instances);
  return Best > 0 ? Best : 32.0 * 1024 * 1024;
}

/// usageError's message for every error the helpers below return.
Error usage(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

/// The machine the measurements are judged against: host by default;
/// without a host file the table has no % column rather than a guessed
/// machine (\p Note says why).
Expected<std::optional<Machine>> runMachine(std::string &Note) {
  Expected<Machine> L = loadMachine(MachineOpt);
  if (L)
    return std::optional<Machine>(std::move(*L));
  std::string Why = toString(L.takeError());
  if (MachineOpt.getNumOccurrences())
    return usage(Why);
  Note = "no roofline to compare with: " + Why +
         " (run roofline-probe --save, or pass --machine=NAME)";
  return std::nullopt;
}

// Inputs: emitted directories, or sources to emit (a sweep re-emits the
// sources of a directory's units).
Error sortInputs(bool Sweep, std::vector<std::string> &Dirs,
                 std::vector<std::string> &Sources) {
  for (const std::string &In : Inputs) {
    if (fs::is_directory(In)) {
      if (!Sweep) {
        Dirs.push_back(In);
        continue;
      }
      Expected<std::vector<std::string>> Units = loadUnitIndex(In);
      if (!Units)
        return Units.takeError();
      for (const std::string &Name : *Units) {
        Expected<UnitManifest> Man = loadManifest(In + "/" + Name);
        if (!Man)
          return Man.takeError();
        if (Man->File.empty() || !fs::exists(Man->File))
          return usage("--sizes re-emits the source, and unit '" + Name +
                       "' names no readable file ('" + Man->File + "')");
        if (std::find(Sources.begin(), Sources.end(), Man->File) == Sources.end())
          Sources.push_back(Man->File);
      }
      continue;
    }
    if (!fs::exists(In))
      return usage("no such file or directory: '" + In + "'");
    Sources.push_back(In);
  }
  return Error::success();
}

// A size the source fixes (constexpr, macro) also sizes its arrays: giving
// it another value would run past them.
Error checkFixedSizes(const std::string &Dir, const SizePoint &P,
                      const std::string &Src) {
  Expected<std::vector<std::string>> Units = loadUnitIndex(Dir);
  // Files that do not load are reported by the run that reads them next;
  // this check only refuses a size it can see is fixed.
  if (!Units) {
    consumeError(Units.takeError());
    return Error::success();
  }
  for (const std::string &Name : *Units) {
    Expected<UnitManifest> Man = loadManifest(Dir + "/" + Name);
    if (!Man) {
      consumeError(Man.takeError());
      continue;
    }
    for (const ManifestSize &Z : Man->Sizes)
      for (const auto &[N, V] : P)
        if (Z.Fixed && Z.Name == N)
          return usage("--sizes " + N + ": '" + N + "' is a constant in " +
                       Src + " (unit " + Name +
                       "); sweep a kernel that takes its size as a parameter");
  }
  return Error::success();
}

/// Emits \p Sources at every point of \p Points; adds their directories to
/// \p Dirs.
Error emitSources(const char *Argv0, const std::vector<std::string> &Sources,
                  const std::vector<SizePoint> &Points, bool Sweep,
                  const std::set<std::string> &Filter,
                  std::vector<std::string> &Dirs) {
  std::string Lint = lintPath(Argv0);
  if (Lint.empty())
    return usage("roofline-lint not found (give --roofline-lint=PATH)");
  std::string Base = EmitDirOpt;
  if (Base.empty()) {
    SmallString<128> T;
    if (std::error_code EC = fs::createUniqueDirectory("roofline-run", T))
      return usage("cannot create a temporary directory: " + EC.message());
    Base = T.str().str();
  }
  for (const std::string &Src : Sources)
    for (const SizePoint &P : Points) {
      std::string D = Base + "/" + sys::path::stem(Src).str();
      if (Sweep)
        D += "/" + pointName(P);
      if (Error E = emit(Lint, Src, D, P, Filter))
        return E;
      if (Error E = checkFixedSizes(D, P, Src))
        return E;
      Dirs.push_back(D);
    }
  return Error::success();
}

RunOptions runOptions(const std::set<std::string> &Filter, const Machine *M,
                      bool ShowProgress) {
  RunOptions O;
  O.Variants = Filter;
  O.Reps = Reps;
  O.MinTime = MinTime;
  O.Rounds = std::max(1u, RoundsOpt.getValue());
  O.TimeoutS = Timeout;
  O.BuildTimeoutS = BuildTimeout;
  O.Baselines = !NoBaseline;
  O.Cxx = CxxOpt;
  O.Nvcc = NvccOpt;
  O.Jobs = Jobs;
  O.LLCBytes = lastLevelCache(M);
  O.Seed = SeedOpt.getNumOccurrences() ? SeedOpt.getValue()
                                       : std::random_device()() % 1000000;
  if (ShowProgress)
    O.Progress = [](const std::string &Unit, unsigned I, unsigned N,
                    const std::string &Phase) {
      errs() << "\r\033[K[" << Unit << "] variant " << I << " of " << N << ": "
             << Phase;
      errs().flush();
    };
  return O;
}

/// --json's report of \p Results.
Error writeRunJson(const std::vector<UnitResult> &Results, const Machine *M,
                   const RunOptions &O, bool AnyFailed,
                   const std::string &MachineNote, raw_ostream &OS) {
  json::Array Runs;
  for (const UnitResult &R : Results)
    Runs.push_back(unitJSON(R, M));
  json::Value MJ = nullptr;
  if (M)
    MJ = json::Object{
        {"name", M->Name}, {"description", M->Description}, {"path", M->Path}};
  json::Object Top{
      {"version", 1},
      {"tool", "roofline-run"},
      {"machine", std::move(MJ)},
      {"seed", static_cast<int64_t>(O.Seed)},
      {"timing", json::Object{{"reps", static_cast<int64_t>(O.Reps)},
                              {"min_time_s", O.MinTime},
                              {"rounds", static_cast<int64_t>(O.Rounds)},
                              {"timeout_s", static_cast<int64_t>(O.TimeoutS)}}},
      {"runs", std::move(Runs)},
      {"failed", AnyFailed}};
  if (!MachineNote.empty())
    Top["machine_note"] = MachineNote;
  if (JsonOut == "-") {
    OS << formatv("{0:2}", json::Value(std::move(Top))) << "\n";
    return Error::success();
  }
  std::error_code EC;
  raw_fd_ostream F(JsonOut, EC);
  if (EC)
    return usage("cannot write '" + JsonOut + "': " + EC.message());
  F << formatv("{0:2}", json::Value(std::move(Top))) << "\n";
  return Error::success();
}

} // namespace

int main(int argc, char **argv) {
  cl::HideUnrelatedOptions(Category);
  cl::SetVersionPrinter([](raw_ostream &OS) { OS << "roofline-run 1\n"; });
  cl::ParseCommandLineOptions(
      argc, argv,
      "roofline-run: build, check and time kernel variants, and put the "
      "measurements on the roofline\n\n"
      "  roofline-run DIR        a directory written by roofline-lint --emit\n"
      "  roofline-run file.cpp   emit it first, then run\n");

  std::string MachineNote;
  Expected<std::optional<Machine>> LoadedM = runMachine(MachineNote);
  if (!LoadedM)
    return usageError(toString(LoadedM.takeError()));
  std::optional<Machine> &M = *LoadedM;
  if (!PlotOut.empty() && !M)
    return usageError("--plot needs a machine: " + MachineNote);
  if (!PlotOut.empty() && !isPlotPath(PlotOut))
    return usageError("--plot file '" + PlotOut +
                      "' must end in .svg or .html");

  Expected<std::vector<SizePoint>> Points = sweepPoints();
  if (!Points)
    return usageError(toString(Points.takeError()));
  bool Sweep = !SizesOpt.empty();

  std::set<std::string> Filter(VariantsOpt.begin(), VariantsOpt.end());
  if (!Filter.empty())
    Filter.insert("naive");

  std::vector<std::string> Dirs, Sources;
  if (Error E = sortInputs(Sweep, Dirs, Sources))
    return usageError(toString(std::move(E)));
  if (!Sources.empty())
    if (Error E = emitSources(argv[0], Sources, *Points, Sweep, Filter, Dirs))
      return usageError(toString(std::move(E)));

  bool ShowProgress =
      !NoProgress && (ProgressOpt || sys::Process::StandardErrIsDisplayed());
  RunOptions O = runOptions(Filter, M ? &*M : nullptr, ShowProgress);

  bool JsonToStdout = JsonOut == "-";
  raw_ostream &OS = outs();
  if (!MachineNote.empty())
    WithColor::warning(errs(), "roofline-run") << MachineNote << "\n";
  if (M && !JsonToStdout)
    OS << "roofline: " << M->Name << " (" << M->Description << "), main memory "
       << formatv("{0:f1}", M->mainMemory().BandwidthBytesPerS / 1e9)
       << " GB/s; GB/s and % roof use each variant's predicted compulsory "
          "bytes\n";
  std::vector<UnitResult> Results;
  bool AnyFailed = false;
  for (const std::string &Dir : Dirs) {
    Expected<std::vector<std::string>> Units = loadUnitIndex(Dir);
    if (!Units)
      return usageError(toString(Units.takeError()));
    for (const std::string &Name : *Units) {
      Expected<UnitManifest> Man = loadManifest(Dir + "/" + Name);
      if (!Man)
        return usageError(toString(Man.takeError()));
      UnitResult R = runUnit(*Man, O);
      if (ShowProgress)
        errs() << "\r\033[K";
      AnyFailed |= R.failed();
      if (!JsonToStdout) {
        OS << "\n";
        printTable(OS, R, M ? &*M : nullptr);
        OS.flush();
      }
      Results.push_back(std::move(R));
    }
  }

  if (!JsonOut.empty())
    if (Error E = writeRunJson(Results, M ? &*M : nullptr, O, AnyFailed,
                               MachineNote, OS))
      return usageError(toString(std::move(E)));
  if (!PlotOut.empty()) {
    Report R;
    R.M = &*M;
    PlotOptions PO;
    PO.Measured = measuredPoints(Results, *M);
    if (Error E = writeRooflinePlot(R, PlotOut, PO))
      return usageError(toString(std::move(E)));
    if (!JsonToStdout)
      OS << "\nplot: " << PlotOut << " (" << PO.Measured.size()
         << " measured points; hollow = predicted, filled = measured)\n";
  }
  return AnyFailed ? 1 : 0;
}
