//===- Runner.cpp - Build, check and time the variants of an emitted unit -===//

#include "roofline/Runner/Runner.h"
#include "roofline/Runner/Baseline.h"
#include "roofline/Runner/Process.h"
#include "roofline/Runner/Toolchain.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdlib>
#include <map>

using namespace roofline;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

namespace {

bool writeText(const std::string &Path, const std::string &Text) {
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC);
  if (EC)
    return false;
  OS << Text;
  return true;
}

std::string absolute(const std::string &P, const std::string &Base) {
  llvm::SmallString<256> S(P);
  if (!path::is_absolute(S)) {
    S = Base;
    path::append(S, P);
  }
  fs::make_absolute(S);
  path::remove_dots(S, /*remove_dot_dot=*/true);
  return S.str().str();
}

/// What one compile or link did.
struct Step {
  std::string Name; ///< variant, "driver", "reference", "openblas"
  std::vector<std::string> Cmd;
  std::string Output;
  ProcessResult R;
};

void runSteps(std::vector<Step> &Steps, unsigned Jobs, unsigned TimeoutS) {
  llvm::DefaultThreadPool Pool(llvm::hardware_concurrency(std::max(1u, Jobs)));
  for (Step &S : Steps)
    Pool.async([&S, TimeoutS] { S.R = runProcess(S.Cmd.front(), S.Cmd, TimeoutS); });
  Pool.wait();
}

std::string buildFailure(const Step &S, unsigned TimeoutS) {
  if (!S.R.NotRun && !S.R.TimedOut && !S.R.Crashed) {
    std::string L = firstErrorLine(S.R.Err);
    return L.empty() ? S.R.describe(TimeoutS) : L;
  }
  return S.R.describe(TimeoutS);
}

/// One driver binary and the variants it runs.
struct Driver {
  std::string Path;
  std::vector<VariantResult *> Variants;
  std::vector<std::string> Env;
};

/// A CPU library baseline: its source, how it builds, and its process's
/// environment.
struct LibraryBaseline {
  BaselineSource Src;
  std::string Label, Header, Package, Link;
  std::vector<std::string> Env;
  std::optional<size_t> Step;
};

/// OpenBLAS and BLIS, each single-threaded and at its best: OpenBLAS picks
/// its kernel for this CPU unless OPENBLAS_CORETYPE forces one (machines
/// with an older core set there, OPENBLAS_L2_SIZE with it): both are unset
/// for its process only; BLIS picks its own sub-configuration.
std::vector<LibraryBaseline> cpuLibraries(const UnitManifest &M) {
  return {{blasBaseline(M), "OpenBLAS", "cblas.h", "libopenblas-dev", "-lopenblas",
           {"OPENBLAS_NUM_THREADS=1", "OMP_NUM_THREADS=1", "-OPENBLAS_CORETYPE",
            "-OPENBLAS_L2_SIZE"},
           std::nullopt},
          {blisBaseline(M), "BLIS", "blis.h", "libblis-dev", "-lblis",
           {"BLIS_NUM_THREADS=1", "OMP_NUM_THREADS=1", "-BLIS_ARCH_TYPE", "-RL_BLIS_ARCH"},
           std::nullopt}};
}

/// The BLIS sub-configuration to run where BLIS says "generic" (a CPU it
/// does not know) for the instruction sets this CPU has, or none.
std::optional<std::string> blisArchFor(const std::string &Name,
                                       const std::string &Library) {
  if (Name != "blis" || Library != "generic")
    return std::nullopt;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
      __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl"))
    return std::string("skx");
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
    return std::string("haswell");
#endif
  return std::nullopt;
}

VariantResult *findResult(std::vector<VariantResult *> &Vs,
                          const std::string &Name) {
  for (VariantResult *V : Vs)
    if (V->Name == Name)
      return V;
  return nullptr;
}

} // namespace

const char *roofline::statusName(VariantStatus S) {
  switch (S) {
  case VariantStatus::Ok: return "ok";
  case VariantStatus::Wrong: return "wrong";
  case VariantStatus::Crashed: return "crashed";
  case VariantStatus::TimedOut: return "timed-out";
  case VariantStatus::BuildFailed: return "build-failed";
  case VariantStatus::Skipped: return "skipped";
  }
  return "?";
}

bool UnitResult::failed() const {
  return std::any_of(Variants.begin(), Variants.end(), [](const VariantResult &V) {
    return V.Status != VariantStatus::Ok && V.Status != VariantStatus::Skipped;
  });
}

unsigned roofline::rotationBuffers(double WorkingSetBytes, double LLCBytes) {
  if (!(WorkingSetBytes > 0) || !(LLCBytes > 0) || WorkingSetBytes >= LLCBytes)
    return 1;
  double B = std::ceil(2 * LLCBytes / WorkingSetBytes) + 1;
  B = std::min(B, 256.0);
  B = std::min(B, std::max(1.0, std::floor(1073741824.0 / WorkingSetBytes)));
  return static_cast<unsigned>(std::max(1.0, B));
}

std::string roofline::parseCheckLine(llvm::StringRef Line, bool &Ok,
                                     CheckResult &R) {
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(Line);
  if (!V) {
    // Not a check line (the driver's other output): the caller reads on.
    llvm::consumeError(V.takeError());
    return "";
  }
  const llvm::json::Object *O = V->getAsObject();
  if (!O || !O->getString("variant") || !O->getBoolean("ok"))
    return "";
  Ok = *O->getBoolean("ok");
  R.Checked = static_cast<uint64_t>(O->getInteger("checked").value_or(0));
  R.Bad = static_cast<uint64_t>(O->getInteger("bad").value_or(0));
  R.MaxRatio = O->getNumber("max_ratio").value_or(0);
  if (std::optional<llvm::StringRef> F = O->getString("first"))
    R.First = F->str();
  if (std::optional<llvm::StringRef> E = O->getString("error"))
    R.First = E->str();
  if (std::optional<llvm::StringRef> L = O->getString("library"))
    R.Library = L->str();
  return O->getString("variant")->str();
}

std::vector<unsigned> roofline::roundOrder(unsigned Round, unsigned N) {
  std::vector<unsigned> Order(N);
  for (unsigned I = 0; I < N; ++I)
    Order[I] = (I + Round) % N;
  return Order;
}

static double medianOf(std::vector<double> X) {
  assert(!X.empty() && "median of nothing");
  std::sort(X.begin(), X.end());
  size_t H = X.size() / 2;
  return X.size() % 2 ? X[H] : 0.5 * (X[H - 1] + X[H]);
}

TimeResult roofline::combineRounds(const std::vector<TimeResult> &PerRound) {
  assert(!PerRound.empty() && "no rounds to combine");
  TimeResult T = PerRound.front();
  std::vector<double> Q1, Q3;
  T.Reps = 0;
  T.Rounds.clear();
  for (const TimeResult &R : PerRound) {
    T.Reps += R.Reps;
    T.Min = std::min(T.Min, R.Min);
    T.Max = std::max(T.Max, R.Max);
    T.Rounds.push_back(R.Median);
    Q1.push_back(R.Q1);
    Q3.push_back(R.Q3);
  }
  T.Median = medianOf(T.Rounds);
  T.Q1 = medianOf(Q1);
  T.Q3 = medianOf(Q3);
  return T;
}

std::optional<RatioSpread> roofline::roundRatio(const TimeResult &Base,
                                          const TimeResult &V) {
  if (!(V.Median > 0))
    return std::nullopt;
  if (Base.Rounds.empty() || Base.Rounds.size() != V.Rounds.size()) {
    double X = Base.Median / V.Median;
    return RatioSpread{X, X, X};
  }
  std::vector<double> Rs;
  for (size_t I = 0; I < V.Rounds.size(); ++I)
    if (V.Rounds[I] > 0)
      Rs.push_back(Base.Rounds[I] / V.Rounds[I]);
  if (Rs.empty())
    return std::nullopt;
  auto [Lo, Hi] = std::minmax_element(Rs.begin(), Rs.end());
  return RatioSpread{medianOf(Rs), *Lo, *Hi};
}

std::optional<TimeResult> roofline::parseTimeLine(llvm::StringRef Line) {
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(Line.trim());
  if (!V) {
    // Not a timing line (the driver's other output): the caller reads on.
    llvm::consumeError(V.takeError());
    return std::nullopt;
  }
  const llvm::json::Object *O = V->getAsObject();
  if (!O || !O->getNumber("median_s"))
    return std::nullopt;
  TimeResult T;
  T.Reps = static_cast<uint64_t>(O->getInteger("reps").value_or(0));
  T.Median = *O->getNumber("median_s");
  T.Min = O->getNumber("min_s").value_or(T.Median);
  T.Max = O->getNumber("max_s").value_or(T.Median);
  T.Q1 = O->getNumber("q1_s").value_or(T.Min);
  T.Q3 = O->getNumber("q3_s").value_or(T.Max);
  if (std::optional<int64_t> B = O->getInteger("buffers"))
    T.Buffers = static_cast<unsigned>(std::max<int64_t>(1, *B));
  if (std::optional<llvm::StringRef> C = O->getString("clock"))
    T.Clock = C->str();
  return T;
}

namespace {

/// One runUnit: the unit's variants through build, check and time.
class UnitRun {
public:
  UnitRun(const UnitManifest &M, const RunOptions &O) : M(M), O(O) {}
  UnitResult run();

private:
  const UnitManifest &M;
  const RunOptions &O;
  UnitResult U;
  const ManifestVariant *Naive = nullptr;
  std::vector<LibraryBaseline> Libs;
  BaselineSource Cublas; ///< cuBLAS beside the CUDA variants
  bool WantCuda = false;
  unsigned Count = 0; ///< what the progress counts: variants and baselines
  std::string Work, CxxPath;
  std::vector<std::string> Flags, Includes, NvccFlags;
  std::string Nvcc, NoCuda, NoDevice, Arch;
  std::vector<Step> Steps;
  std::map<std::string, size_t> StepOf;
  std::optional<size_t> CudaDriverStep, CublasStep;
  VariantResult CublasResult;
  std::vector<Driver> Drivers;

  void note(const std::string &S) {
    U.BaselineNote += (U.BaselineNote.empty() ? "" : "; ") + S;
  }
  void progress(unsigned I, const std::string &Phase) const {
    if (O.Progress)
      O.Progress(M.Unit, I, Count, Phase);
  }
  void failAll(VariantStatus S, const std::string &Why);
  unsigned indexOf(const VariantResult *V) const {
    return static_cast<unsigned>(V - U.Variants.data()) + 1;
  }
  std::string seedArg() const { return "--seed=" + std::to_string(O.Seed); }

  void selectVariants();
  void findBaselines();
  bool findCompiler();
  // 1. Build.
  void findCuda();
  void probeCudaDevice();
  Step compile(const std::string &Name, const std::string &Src) const;
  Step nvccCompile(const std::string &Name, const std::string &Src,
                   const std::string &Output) const;
  void addCompileSteps();
  void addCublasStep();
  Step link(const std::string &Out, const std::vector<std::string> &Objs,
            const std::vector<std::string> &LinkLibs,
            size_t DriverStep = 0) const;
  std::vector<std::string> objectsOf(const std::vector<VariantResult *> &Vs);
  void linkVariants(bool Cuda);
  void dropCudaDriversWithoutDevice();
  void linkLibraryBaselines();
  void linkCublas();
  // 2. Check.
  void checkDriver(Driver &D);
  void useBlisArchs();
  // 3. Time.
  std::optional<TimeResult> timeBlock(const Driver &D, VariantResult &V,
                                      unsigned Round);
  void timeAll();
};

void UnitRun::failAll(VariantStatus S, const std::string &Why) {
  for (VariantResult &V : U.Variants)
    if (V.Status == VariantStatus::Ok) {
      V.Status = S;
      V.Reason = Why;
    }
}

void UnitRun::selectVariants() {
  for (const ManifestVariant &V : M.Variants) {
    if (!O.Variants.empty() && !O.Variants.count(V.Name) &&
        !O.Variants.count(V.DriverName))
      continue;
    if (!V.Skipped.empty()) {
      U.NotEmitted.push_back({V.Name, V.Skipped});
      continue;
    }
    VariantResult R;
    R.Name = V.DriverName.empty() ? V.Name : V.DriverName;
    R.Description = V.Path;
    R.Threads = V.Threads;
    R.Cuda = V.isCuda();
    // With a timer the driver times the device entry on device-resident
    // data; else the host entry, copies to and from the device included.
    if (R.Cuda)
      R.Description += V.Timer.empty() ? "; host-timed, copies included"
                                       : "; cudaEvents, data on the device";
    R.File = V.File;
    R.Predicted = V.Predicted;
    U.Variants.push_back(std::move(R));
  }
}

void UnitRun::findBaselines() {
  if (O.Baselines) {
    Libs = cpuLibraries(M);
    for (const LibraryBaseline &L : Libs)
      if (L.Src.Code.empty())
        note("no " + L.Label + " baseline: " + L.Src.WhyNot);
  }
  WantCuda = std::any_of(U.Variants.begin(), U.Variants.end(),
                         [&](const VariantResult &V) { return V.Cuda; });
  // cuBLAS beside the CUDA variants, as OpenBLAS beside the CPU ones.
  if (O.Baselines && WantCuda) {
    Cublas = cublasBaseline(M);
    if (Cublas.Code.empty())
      note("no cuBLAS baseline: " + Cublas.WhyNot);
  }
}

/// The work directory, the C++ compiler and its flags; false (every
/// variant failed) without them.
bool UnitRun::findCompiler() {
  Work = absolute("roofline-run", M.Dir);
  if (std::error_code EC = fs::create_directories(Work)) {
    failAll(VariantStatus::BuildFailed,
            "cannot create " + Work + ": " + EC.message());
    return false;
  }
  std::string Cxx = O.Cxx;
  if (Cxx.empty())
    if (const char *E = std::getenv("CXX"))
      Cxx = E;
  if (Cxx.empty())
    Cxx = M.Cxx;
  CxxPath = findTool(Cxx);
  if (CxxPath.empty()) {
    failAll(VariantStatus::BuildFailed, "no C++ compiler '" + Cxx + "'");
    return false;
  }
  // The manifest's flags are relative to the unit directory.
  for (const std::string &F : M.Flags) {
    if (llvm::StringRef(F).starts_with("-I") && F.size() > 2) {
      Flags.push_back("-I" + absolute(F.substr(2), M.Dir));
      Includes.push_back(Flags.back());
    } else {
      Flags.push_back(F);
    }
  }
  return true;
}

void UnitRun::findCuda() {
  if (!WantCuda)
    return;
  if (O.Nvcc == "none")
    NoCuda = "no CUDA toolchain (--nvcc=none)";
  else if ((Nvcc = findTool(O.Nvcc.empty() ? "nvcc" : O.Nvcc,
                            {"/usr/local/cuda/bin"}))
               .empty())
    NoCuda = "no CUDA toolchain (nvcc not found)";
  if (NoCuda.empty())
    probeCudaDevice();
}

// Ask the device first: its compute capability picks -arch; without one
// the variants are still built (default arch), then skipped.
void UnitRun::probeCudaDevice() {
  progress(1, "probing the CUDA device");
  std::string Probe = Work + "/cuda-probe";
  std::string Src = Probe + ".cu";
  writeText(Src, "#include <cstdio>\n#include <cuda_runtime.h>\n"
                 "int main() {\n  int N = 0;\n"
                 "  cudaError_t E = cudaGetDeviceCount(&N);\n"
                 "  if (E != cudaSuccess) {\n"
                 "    std::printf(\"%s\\n\", cudaGetErrorString(E));\n"
                 "    return 1;\n  }\n"
                 "  if (N == 0) {\n    std::printf(\"no device\\n\");\n"
                 "    return 1;\n  }\n"
                 "  cudaDeviceProp P;\n  cudaGetDeviceProperties(&P, 0);\n"
                 "  std::printf(\"sm_%d%d\\n\", P.major, P.minor);\n"
                 "  return 0;\n}\n");
  std::vector<std::string> Cmd = {Nvcc, Src, "-o", Probe};
  ProcessResult B = runProcess(Nvcc, Cmd, O.BuildTimeoutS);
  if (!B.ok()) {
    NoDevice = "the device probe did not build: " + firstErrorLine(B.Err);
    return;
  }
  ProcessResult R = runProcess(Probe, {Probe}, O.TimeoutS);
  std::string Said = llvm::StringRef(R.Out).trim().str();
  if (R.ok() && llvm::StringRef(Said).starts_with("sm_"))
    Arch = "-arch=" + Said;
  else
    NoDevice = Said.empty() ? R.describe(O.TimeoutS) : Said;
}

Step UnitRun::compile(const std::string &Name, const std::string &Src) const {
  Step S;
  S.Name = Name;
  S.Output = Work + "/" + Name + ".o";
  S.Cmd = {CxxPath};
  S.Cmd.insert(S.Cmd.end(), Flags.begin(), Flags.end());
  S.Cmd.insert(S.Cmd.end(), {"-c", Src, "-o", S.Output});
  return S;
}

Step UnitRun::nvccCompile(const std::string &Name, const std::string &Src,
                          const std::string &Output) const {
  Step S;
  S.Name = Name;
  S.Output = Output;
  S.Cmd = {Nvcc};
  S.Cmd.insert(S.Cmd.end(), NvccFlags.begin(), NvccFlags.end());
  S.Cmd.insert(S.Cmd.end(), {"-c", Src, "-o", S.Output});
  return S;
}

/// The unit's driver and reference (steps 0 and 1), the CUDA driver, the
/// variants and the CPU library baselines.
void UnitRun::addCompileSteps() {
  Steps.push_back(compile("driver", absolute(M.DriverFile, M.Dir)));
  Steps.push_back(compile("reference", absolute(M.ReferenceFile, M.Dir)));
  if (WantCuda && NoCuda.empty() && !M.CudaDriverFile.empty()) {
    CudaDriverStep = Steps.size();
    Steps.push_back(compile("cuda_driver", absolute(M.CudaDriverFile, M.Dir)));
  }
  for (const std::string &F : M.CudaFlags.empty()
                                  ? std::vector<std::string>{"-std=c++17", "-O3"}
                                  : M.CudaFlags)
    if (!llvm::StringRef(F).starts_with("-I"))
      NvccFlags.push_back(F);
  NvccFlags.insert(NvccFlags.end(), Includes.begin(), Includes.end());
  if (!Arch.empty())
    NvccFlags.push_back(Arch);
  for (VariantResult &V : U.Variants) {
    std::string Src = absolute(V.File, M.Dir);
    if (V.Cuda) {
      if (!NoCuda.empty()) {
        V.Status = VariantStatus::Skipped;
        V.Reason = NoCuda;
        continue;
      }
      StepOf[V.Name] = Steps.size();
      Steps.push_back(nvccCompile(V.Name, Src, Work + "/" + V.Name + ".cu.o"));
      continue;
    }
    StepOf[V.Name] = Steps.size();
    Steps.push_back(compile(V.Name, Src));
  }
  for (LibraryBaseline &L : Libs) {
    if (L.Src.Code.empty())
      continue;
    std::string Src = Work + "/" + L.Src.Name + ".cpp";
    if (writeText(Src, L.Src.Code)) {
      L.Step = Steps.size();
      Steps.push_back(compile(L.Src.Name, Src));
    } else {
      note("no " + L.Label + " baseline: cannot write " + Src);
    }
  }
}

// The cuBLAS baseline is host C++ (library calls, the host side of
// roofline_cuda_host.h): nvcc compiles it, with the CUDA headers.
void UnitRun::addCublasStep() {
  if (Cublas.Code.empty())
    return;
  CublasResult.Name = "cublas";
  CublasResult.Baseline = true;
  CublasResult.Cuda = true;
  CublasResult.Threads = "GPU";
  CublasResult.Description = Cublas.Call + "; cudaEvents, data on the device";
  if (Naive)
    CublasResult.Predicted = Naive->Predicted;
  std::string Src = Work + "/cublas.cpp";
  if (!NoCuda.empty()) {
    CublasResult.Status = VariantStatus::Skipped;
    CublasResult.Reason = NoCuda;
  } else if (!writeText(Src, Cublas.Code)) {
    CublasResult.Status = VariantStatus::BuildFailed;
    CublasResult.Reason = "cannot write " + Src;
  } else {
    CublasStep = Steps.size();
    Steps.push_back(nvccCompile("cublas", Src, Work + "/cublas.o"));
  }
}

Step UnitRun::link(const std::string &Out, const std::vector<std::string> &Objs,
                   const std::vector<std::string> &LinkLibs,
                   size_t DriverStep) const {
  Step S;
  S.Name = "link";
  S.Output = Out;
  S.Cmd = {CxxPath, Steps[DriverStep].Output, Steps[1].Output};
  S.Cmd.insert(S.Cmd.end(), Objs.begin(), Objs.end());
  S.Cmd.insert(S.Cmd.end(), M.LdFlags.begin(), M.LdFlags.end());
  S.Cmd.insert(S.Cmd.end(), LinkLibs.begin(), LinkLibs.end());
  S.Cmd.insert(S.Cmd.end(), {"-o", Out});
  S.R = runProcess(S.Cmd.front(), S.Cmd, O.BuildTimeoutS);
  return S;
}

std::vector<std::string>
UnitRun::objectsOf(const std::vector<VariantResult *> &Vs) {
  std::vector<std::string> Os;
  for (VariantResult *V : Vs)
    Os.push_back(Steps[StepOf[V->Name]].Output);
  return Os;
}

// CPU and CUDA variants link into separate drivers, so that a CUDA runtime
// that is missing costs only the CUDA variants.
void UnitRun::linkVariants(bool Cuda) {
  std::vector<VariantResult *> Built;
  for (VariantResult &V : U.Variants) {
    if (V.Status != VariantStatus::Ok || V.Cuda != Cuda)
      continue;
    const Step &S = Steps[StepOf[V.Name]];
    if (!S.R.ok()) {
      V.Status = VariantStatus::BuildFailed;
      V.Reason = buildFailure(S, O.BuildTimeoutS);
      continue;
    }
    Built.push_back(&V);
  }
  if (Built.empty())
    return;
  std::vector<std::string> LinkLibs;
  size_t DriverStep = 0;
  if (Cuda) {
    LinkLibs = cudaLinkFlags(Nvcc, O.BuildTimeoutS);
    if (CudaDriverStep) {
      DriverStep = *CudaDriverStep;
      if (!Steps[DriverStep].R.ok()) {
        for (VariantResult *V : Built) {
          V->Status = VariantStatus::BuildFailed;
          V->Reason = "the unit's CUDA driver did not build: " +
                      buildFailure(Steps[DriverStep], O.BuildTimeoutS);
        }
        return;
      }
    }
  }
  std::string Out = Work + (Cuda ? "/driver-cuda" : "/driver");
  Step L = link(Out, objectsOf(Built), LinkLibs, DriverStep);
  if (!L.R.ok()) {
    // Find the objects that do not link on their own.
    std::vector<VariantResult *> Good;
    for (VariantResult *V : Built) {
      Step One =
          link(Work + "/link-test", objectsOf({V}), LinkLibs, DriverStep);
      if (One.R.ok()) {
        Good.push_back(V);
      } else {
        V->Status = VariantStatus::BuildFailed;
        V->Reason = "link: " + buildFailure(One, O.BuildTimeoutS);
      }
    }
    fs::remove(Work + "/link-test");
    Built = Good;
    if (Built.empty())
      return;
    L = link(Out, objectsOf(Built), LinkLibs, DriverStep);
    if (!L.R.ok()) {
      for (VariantResult *V : Built) {
        V->Status = VariantStatus::BuildFailed;
        V->Reason = "link: " + buildFailure(L, O.BuildTimeoutS);
      }
      return;
    }
  }
  Driver D;
  D.Path = Out;
  D.Variants = Built;
  Drivers.push_back(std::move(D));
}

// A CUDA driver runs only where a device answers.
void UnitRun::dropCudaDriversWithoutDevice() {
  for (auto It = Drivers.begin(); It != Drivers.end();) {
    if (NoDevice.empty() || !llvm::StringRef(It->Path).ends_with("driver-cuda")) {
      ++It;
      continue;
    }
    for (VariantResult *V : It->Variants) {
      V->Status = VariantStatus::Skipped;
      V->Reason = "no CUDA device (" + NoDevice + "); built, not run";
    }
    It = Drivers.erase(It);
  }
}

void UnitRun::linkLibraryBaselines() {
  for (const LibraryBaseline &Lib : Libs) {
    if (!Lib.Step)
      continue;
    VariantResult R;
    R.Name = Lib.Src.Name;
    R.Baseline = true;
    R.Description = Lib.Src.Call + ", 1 thread";
    R.Threads = "1";
    if (Naive)
      R.Predicted = Naive->Predicted;
    const Step &S = Steps[*Lib.Step];
    if (!S.R.ok()) {
      note("no " + Lib.Label + " baseline: " +
           (llvm::StringRef(S.R.Err).contains(Lib.Header)
                ? Lib.Header + " not found (install " + Lib.Package + ")"
                : buildFailure(S, O.BuildTimeoutS)));
      continue;
    }
    Step L = link(Work + "/driver-" + Lib.Src.Name, {S.Output}, {Lib.Link});
    if (!L.R.ok()) {
      note("no " + Lib.Label +
           " baseline: link: " + buildFailure(L, O.BuildTimeoutS));
      continue;
    }
    U.Variants.push_back(std::move(R));
    Driver D;
    D.Path = L.Output;
    D.Variants = {&U.Variants.back()};
    D.Env = Lib.Env;
    Drivers.push_back(std::move(D));
  }
}

void UnitRun::linkCublas() {
  std::optional<Step> L;
  if (CublasStep && !Steps[*CublasStep].R.ok()) {
    CublasResult.Status = VariantStatus::BuildFailed;
    CublasResult.Reason = buildFailure(Steps[*CublasStep], O.BuildTimeoutS);
  } else if (CublasStep) {
    std::vector<std::string> LinkLibs = cudaLinkFlags(Nvcc, O.BuildTimeoutS);
    LinkLibs.insert(LinkLibs.end() - 1, "-lcublas");
    L = link(Work + "/driver-cublas", {Steps[*CublasStep].Output}, LinkLibs);
    if (!L->R.ok()) {
      CublasResult.Status = VariantStatus::BuildFailed;
      CublasResult.Reason = "link: " + buildFailure(*L, O.BuildTimeoutS);
    } else if (!NoDevice.empty()) {
      CublasResult.Status = VariantStatus::Skipped;
      CublasResult.Reason = "no CUDA device (" + NoDevice + "); built, not run";
    }
  }
  U.Variants.push_back(std::move(CublasResult));
  if (U.Variants.back().Status == VariantStatus::Ok && L) {
    Driver D;
    D.Path = L->Output;
    D.Variants = {&U.Variants.back()};
    Drivers.push_back(std::move(D));
  }
}

void UnitRun::checkDriver(Driver &D) {
  std::string Seed = seedArg();
  progress(indexOf(D.Variants.front()), "checking");
  std::vector<std::string> Names;
  for (VariantResult *V : D.Variants)
    Names.push_back(V->Name);
  std::vector<std::string> Cmd = {D.Path, "check", Seed,
                                  "--only=" + llvm::join(Names, ",")};
  // One limit for the batch: a hang costs it once, then the variants that
  // did not report are checked one by one, each with the limit.
  ProcessResult All = runProcess(D.Path, Cmd, O.TimeoutS, D.Env);
  std::set<std::string> Seen;
  auto Take = [&](const std::string &Out) {
    llvm::SmallVector<llvm::StringRef, 16> Lines;
    llvm::StringRef(Out).split(Lines, '\n', -1, false);
    for (llvm::StringRef Line : Lines) {
      bool Ok = false;
      CheckResult C;
      std::string Name = parseCheckLine(Line, Ok, C);
      VariantResult *V = findResult(D.Variants, Name);
      if (!V)
        continue;
      Seen.insert(Name);
      V->Check = C;
      if (!Ok) {
        V->Status = C.First == "not built" ? VariantStatus::BuildFailed
                                           : VariantStatus::Wrong;
        V->Reason = C.First.empty() ? "wrong results" : C.First;
        if (V->Status == VariantStatus::Wrong && C.Bad)
          V->Reason = std::to_string(C.Bad) + " of " +
                      std::to_string(C.Checked) + " wrong; first " + C.First;
      }
    }
  };
  Take(All.Out);
  // A crash or hang loses the lines of the variants after it: check those
  // one at a time to find which.
  for (VariantResult *V : D.Variants) {
    if (Seen.count(V->Name))
      continue;
    progress(indexOf(V), "checking");
    std::vector<std::string> One = {D.Path, "check", Seed, "--only=" + V->Name};
    ProcessResult R = runProcess(D.Path, One, O.TimeoutS, D.Env);
    Take(R.Out);
    if (Seen.count(V->Name))
      continue;
    V->Status = R.TimedOut ? VariantStatus::TimedOut : VariantStatus::Crashed;
    V->Reason = R.describe(O.TimeoutS) + " in the check";
    std::string E = firstErrorLine(R.Err);
    if (!E.empty() && !R.TimedOut)
      V->Reason += ": " + E;
  }
}

// A library that runs reference kernels on a CPU it does not know (BLIS
// 0.9 on AMD Zen 5: "generic") is run with the sub-configuration for the
// instruction sets the CPU has, if that checks too: a baseline at its
// best, and the table says so.
void UnitRun::useBlisArchs() {
  std::string Seed = seedArg();
  for (Driver &D : Drivers)
    for (VariantResult *V : D.Variants) {
      if (!V->Baseline || V->Status != VariantStatus::Ok || !V->Check)
        continue;
      std::optional<std::string> Arch = blisArchFor(V->Name, V->Check->Library);
      if (!Arch)
        continue;
      std::vector<std::string> Env = D.Env;
      Env.push_back("RL_BLIS_ARCH=" + *Arch);
      ProcessResult R = runProcess(
          D.Path, {D.Path, "check", Seed, "--only=" + V->Name}, O.TimeoutS, Env);
      llvm::SmallVector<llvm::StringRef, 4> Lines;
      llvm::StringRef(R.Out).split(Lines, '\n', -1, false);
      for (llvm::StringRef Line : Lines) {
        bool Ok = false;
        CheckResult C;
        if (parseCheckLine(Line, Ok, C) == V->Name && Ok && C.Library == *Arch) {
          note(V->Name + ": BLIS takes this CPU for '" + V->Check->Library +
               "' (its reference kernels); run with its '" + *Arch +
               "' kernels (BLIS_ARCH_TYPE), which this CPU's instruction sets "
               "run");
          V->Check = C;
          D.Env = Env;
        }
      }
    }
}

/// One block of repetitions of \p V in its own process: its time, or
/// nothing when it crashed or hung (\p V then says so).
std::optional<TimeResult> UnitRun::timeBlock(const Driver &D, VariantResult &V,
                                             unsigned Round) {
  unsigned Rounds = std::max(1u, O.Rounds);
  progress(indexOf(&V), Rounds == 1 ? "timing"
                                    : "timing (round " + std::to_string(Round + 1) +
                                          " of " + std::to_string(Rounds) + ")");
  double WS = V.Predicted.Known ? V.Predicted.BytesCompulsory
              : Naive && Naive->Predicted.Known
                  ? Naive->Predicted.BytesCompulsory
                  : 0;
  unsigned Buffers = rotationBuffers(WS, O.LLCBytes);
  // Each round takes its share of the repetitions and of the time.
  unsigned Reps = std::max(1u, (O.Reps + Rounds - 1) / Rounds);
  std::vector<std::string> Cmd = {D.Path,
                                  "time",
                                  V.Name,
                                  "--reps=" + std::to_string(Reps),
                                  "--min-time=" + std::to_string(O.MinTime / Rounds),
                                  "--buffers=" + std::to_string(Buffers)};
  ProcessResult R = runProcess(D.Path, Cmd, O.TimeoutS, D.Env);
  std::optional<TimeResult> T;
  if (R.ok())
    T = parseTimeLine(R.Out);
  if (!T) {
    V.Status = R.TimedOut ? VariantStatus::TimedOut : VariantStatus::Crashed;
    V.Reason = R.describe(O.TimeoutS) + " while timing";
    std::string E = firstErrorLine(R.Err);
    if (!E.empty() && !R.TimedOut)
      V.Reason += ": " + E;
    return std::nullopt;
  }
  // A device timer picks its own copies (for the device's L2).
  if (T->Clock != "device")
    T->Buffers = Buffers;
  return T;
}

// Interleaved rounds: on a shared machine a variant timed in one block
// gets its own stretch of load; here every round times each variant once,
// the order rotating, and ratios are taken within a round (roundRatio).
void UnitRun::timeAll() {
  std::vector<std::pair<const Driver *, VariantResult *>> Timed;
  for (const Driver &D : Drivers)
    for (VariantResult *V : D.Variants)
      if (V->Status == VariantStatus::Ok)
        Timed.push_back({&D, V});
  std::vector<std::vector<TimeResult>> Blocks(Timed.size());
  unsigned Rounds = std::max(1u, O.Rounds);
  for (unsigned Round = 0; Round < Rounds; ++Round)
    for (unsigned I : roundOrder(Round, static_cast<unsigned>(Timed.size()))) {
      auto [D, V] = Timed[I];
      if (V->Status != VariantStatus::Ok)
        continue; // failed in an earlier round
      if (std::optional<TimeResult> T = timeBlock(*D, *V, Round))
        Blocks[I].push_back(*T);
    }
  for (size_t I = 0; I < Timed.size(); ++I)
    if (Timed[I].second->Status == VariantStatus::Ok && !Blocks[I].empty())
      Timed[I].second->Time = combineRounds(Blocks[I]);
}

UnitResult UnitRun::run() {
  U.Manifest = M;
  U.Seed = O.Seed;
  selectVariants();
  // Drivers point into U.Variants: room for the baselines now, so that
  // adding them later moves nothing.
  U.Variants.reserve(U.Variants.size() + 3);
  Naive = M.find("naive");
  findBaselines();
  bool AnyLib =
      std::any_of(Libs.begin(), Libs.end(),
                  [](const LibraryBaseline &L) { return !L.Src.Code.empty(); });
  if (U.Variants.empty() && !AnyLib)
    return std::move(U);
  Count = static_cast<unsigned>(U.Variants.size()) + !Cublas.Code.empty();
  for (const LibraryBaseline &L : Libs)
    Count += !L.Src.Code.empty();
  if (!findCompiler())
    return std::move(U);

  // 1. Build.
  progress(1, "building");
  findCuda();
  addCompileSteps();
  addCublasStep();
  runSteps(Steps, O.Jobs, O.BuildTimeoutS);
  for (size_t I : {0, 1})
    if (!Steps[I].R.ok()) {
      failAll(VariantStatus::BuildFailed,
              "the unit's " + Steps[I].Name +
                  " did not build: " + buildFailure(Steps[I], O.BuildTimeoutS));
      return std::move(U);
    }
  for (bool Cuda : {false, true})
    linkVariants(Cuda);
  dropCudaDriversWithoutDevice();
  linkLibraryBaselines();
  if (!Cublas.Code.empty())
    linkCublas();

  // 2. Check.
  for (Driver &D : Drivers)
    checkDriver(D);
  useBlisArchs();

  // 3. Time.
  timeAll();
  return std::move(U);
}

} // namespace

UnitResult roofline::runUnit(const UnitManifest &M, const RunOptions &O) {
  return UnitRun(M, O).run();
}
