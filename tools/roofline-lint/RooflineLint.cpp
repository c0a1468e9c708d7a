//===- RooflineLint.cpp - roofline-lint driver -----------------------------===//
//
// Parses the given files with Clang, lowers every loop nest to the IR,
// counts it exactly, and prints the roofline verdict for a machine as
// clang-style diagnostics or JSON. Exit codes: 0 clean, 2 usage,
// configuration or compile error (DESIGN.md).
//
//===----------------------------------------------------------------------===//

#include "roofline/Frontend/Frontend.h"
#include "roofline/Report/Report.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"

#include <algorithm>

using namespace llvm;
namespace tooling = clang::tooling;
using namespace roofline;

namespace {

cl::OptionCategory Category("roofline-lint options");

cl::list<std::string> Sources(cl::Positional, cl::desc("<source files>"),
                              cl::cat(Category));
cl::opt<std::string>
    MachineOpt("machine",
               cl::desc("Machine to judge against: a builtin name (see "
                        "--list-machines) or a YAML machine file"),
               cl::init(defaultMachineName()), cl::cat(Category));
cl::opt<bool> ListMachines("list-machines",
                           cl::desc("List the builtin machines and exit"),
                           cl::cat(Category));
cl::list<std::string>
    ParamOpts("param",
              cl::desc("Give a size a value: --param N=1024 (repeatable; "
                       "overrides what the source says)"),
              cl::value_desc("NAME=VALUE"), cl::cat(Category));
enum class OutputFormat { Text, Json };
cl::opt<OutputFormat> Format(
    "format", cl::desc("Output format"), cl::init(OutputFormat::Text),
    cl::values(clEnumValN(OutputFormat::Text, "text", "clang-style diagnostics"),
               clEnumValN(OutputFormat::Json, "json",
                          "one JSON object (see docs/json.md)")),
    cl::cat(Category));
cl::opt<TrafficModel> ModelOpt(
    "model", cl::desc("Traffic model the verdict uses"),
    cl::init(TrafficModel::Compulsory),
    cl::values(clEnumValN(TrafficModel::Compulsory, "compulsory",
                          "each distinct element moves once (the ideal)"),
               clEnumValN(TrafficModel::NoReuse, "no-reuse",
                          "every executed reference moves its element, "
                          "except register-held loop invariants")),
    cl::cat(Category));
cl::opt<bool> DumpIR("dump-ir",
                     cl::desc("Print the LoopNest IR of each nest and exit"),
                     cl::cat(Category));
cl::opt<std::string> BuildPath("p", cl::desc("Build directory holding "
                                             "compile_commands.json"),
                               cl::value_desc("dir"), cl::cat(Category));
cl::opt<std::string> OutputFile("o", cl::desc("Write the report to <file>"),
                                cl::value_desc("file"), cl::cat(Category));
cl::opt<bool> NoSource("no-source",
                       cl::desc("Do not echo the source line under each "
                                "diagnostic"),
                       cl::cat(Category));

int usageError(const Twine &Msg) {
  WithColor::error(errs(), "roofline-lint") << Msg << "\n";
  return 2;
}

Expected<std::map<std::string, int64_t>> parseParams() {
  std::map<std::string, int64_t> Out;
  for (const std::string &P : ParamOpts) {
    auto [Name, Value] = StringRef(P).split('=');
    int64_t V;
    if (Name.empty() || Value.empty() || Value.getAsInteger(10, V))
      return createStringError(inconvertibleErrorCode(),
                               "malformed --param '%s': expected NAME=INTEGER",
                               P.c_str());
    Out[Name.str()] = V;
  }
  return Out;
}

std::unique_ptr<tooling::CompilationDatabase>
makeCompilations(int &Argc, const char **Argv, std::string &Err) {
  // Everything after "--" is compiler arguments, as for clang-tidy.
  if (auto DB = tooling::FixedCompilationDatabase::loadFromCommandLine(
          Argc, Argv, Err))
    return DB;
  return nullptr;
}

std::unique_ptr<tooling::CompilationDatabase>
findCompilations(std::unique_ptr<tooling::CompilationDatabase> FromArgs,
                 std::string &Err) {
  if (!BuildPath.empty())
    return tooling::CompilationDatabase::autoDetectFromDirectory(BuildPath,
                                                                 Err);
  if (FromArgs)
    return FromArgs;
  return std::make_unique<tooling::FixedCompilationDatabase>(
      ".", std::vector<std::string>());
}

/// Clang's builtin headers live beside the compiler, not the tool.
tooling::ArgumentsAdjuster resourceDirAdjuster() {
  return [](const tooling::CommandLineArguments &Args, StringRef) {
    tooling::CommandLineArguments Out = Args;
    bool Has = std::any_of(Args.begin(), Args.end(), [](const std::string &A) {
      return StringRef(A).starts_with("-resource-dir");
    });
    if (!Has && !Out.empty())
      Out.insert(Out.begin() + 1,
                 std::string("-resource-dir=") + ROOFLINE_CLANG_RESOURCE_DIR);
    return Out;
  };
}

/// CUDA files are parsed host-side only, without the CUDA installation's
/// headers (CUDA 13 is newer than Clang 19 supports): this preamble gives
/// the keywords and built-in variables kernels use.
constexpr const char *CudaPreamblePath = "/roofline-lint/cuda_preamble.h";
constexpr const char *CudaPreamble = R"(
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
struct __roofline_dim3 { unsigned x, y, z; };
extern const __device__ __roofline_dim3 threadIdx, blockIdx, blockDim, gridDim;
extern const __device__ int warpSize;
extern "C" __device__ void __syncthreads();
)";

tooling::ArgumentsAdjuster cudaAdjuster() {
  return [](const tooling::CommandLineArguments &Args, StringRef File) {
    tooling::CommandLineArguments Out = Args;
    if (!File.ends_with(".cu") || Out.empty())
      return Out;
    const char *Extra[] = {"--cuda-host-only", "-nocudainc", "-nocudalib",
                           "-Wno-unknown-cuda-version", "-include",
                           CudaPreamblePath};
    Out.insert(Out.begin() + 1, std::begin(Extra), std::end(Extra));
    return Out;
  };
}

void sortResults(FrontendResult &R, const std::vector<std::string> &Files) {
  auto Rank = [&](const std::string &F) {
    for (size_t I = 0; I < Files.size(); ++I)
      if (sys::path::filename(Files[I]) == sys::path::filename(F))
        return I;
    return Files.size();
  };
  auto Key = [&](const SourceLoc &L) {
    return std::make_tuple(Rank(L.File), L.File, L.Line, L.Column);
  };
  std::stable_sort(R.Nests.begin(), R.Nests.end(),
                   [&](const LoopNest &A, const LoopNest &B) {
                     return Key(A.Loc) < Key(B.Loc);
                   });
  std::stable_sort(R.Skipped.begin(), R.Skipped.end(),
                   [&](const SkippedNest &A, const SkippedNest &B) {
                     return Key(A.Loc) < Key(B.Loc);
                   });
}

int listMachines(raw_ostream &OS) {
  OS << "builtin machines (default " << defaultMachineName() << "):\n";
  for (const std::string &Name : builtinMachineNames()) {
    Expected<Machine> M = loadMachine(Name);
    if (!M) {
      OS << "  " << Name << "  (invalid: " << toString(M.takeError()) << ")\n";
      continue;
    }
    double Ridge = M->peakFor(Precision::F32) / M->mainMemory().BandwidthBytesPerS;
    OS << "  " << left_justify(Name, 12) << " "
       << left_justify(M->Description, 44) << " f32 "
       << formatRate(M->peakFor(Precision::F32), "FLOP/s") << ", "
       << formatRate(M->mainMemory().BandwidthBytesPerS, "B/s") << ", ridge "
       << format("%.1f", Ridge) << "\n";
  }
  return 0;
}

} // namespace

int main(int Argc, const char **Argv) {
  InitLLVM X(Argc, Argv);
  std::string DBErr;
  std::unique_ptr<tooling::CompilationDatabase> FromArgs =
      makeCompilations(Argc, Argv, DBErr);
  cl::HideUnrelatedOptions(Category);
  cl::SetVersionPrinter([](raw_ostream &OS) {
    OS << "roofline-lint 0.1.0 (LLVM " << LLVM_VERSION_STRING << ")\n";
  });
  if (!cl::ParseCommandLineOptions(
          Argc, Argv,
          "roofline-lint: static roofline analysis of C/C++ loop nests\n\n"
          "Counts the MACs, FLOPs and bytes of every loop nest exactly, derives "
          "its\narithmetic intensity, and says whether it is compute-bound, "
          "memory-bound or\ndoes not fit on a machine.\n\n"
          "  roofline-lint kernels/gemm.cpp\n"
          "  roofline-lint --machine=t4 --param N=4096 --format=json file.cpp "
          "-- -I include\n",
          &errs()))
    return 2;

  if (ListMachines)
    return listMachines(outs());
  if (Sources.empty())
    return usageError("no input files (try --help)");

  Expected<std::map<std::string, int64_t>> Params = parseParams();
  if (!Params)
    return usageError(toString(Params.takeError()));
  Expected<Machine> M = loadMachine(MachineOpt);
  if (!M)
    return usageError(toString(M.takeError()));

  std::unique_ptr<tooling::CompilationDatabase> DB =
      findCompilations(std::move(FromArgs), DBErr);
  if (!DB)
    return usageError("cannot load compilation database: " + DBErr);

  FrontendOptions FOpts;
  FOpts.Params = *Params;
  FrontendResult FR;
  // One tool run per file keeps output in command-line order (and quiet:
  // ClangTool announces each file when given several).
  int ToolStatus = 0;
  std::unique_ptr<tooling::FrontendActionFactory> Factory =
      newExtractNestsFactory(FOpts, FR);
  for (const std::string &Src : Sources) {
    tooling::ClangTool Tool(*DB, {Src});
    Tool.appendArgumentsAdjuster(resourceDirAdjuster());
    Tool.appendArgumentsAdjuster(cudaAdjuster());
    Tool.mapVirtualFile(CudaPreamblePath, CudaPreamble);
    ToolStatus |= Tool.run(Factory.get());
  }
  sortResults(FR, Sources);

  for (const auto &[Name, V] : *Params)
    if (!FR.ParamNames.count(Name))
      WithColor::warning(errs(), "roofline-lint")
          << "--param '" << Name << "' names no size in the analyzed loops\n";

  std::unique_ptr<raw_fd_ostream> File;
  if (!OutputFile.empty()) {
    std::error_code EC;
    File = std::make_unique<raw_fd_ostream>(OutputFile, EC);
    if (EC)
      return usageError("cannot write '" + OutputFile + "': " + EC.message());
  }
  raw_ostream &OS = File ? *File : outs();

  if (DumpIR) {
    for (const LoopNest &N : FR.Nests)
      OS << printNest(N);
    for (const SkippedNest &S : FR.Skipped)
      OS << "skipped @" << S.Function << " at " << S.Loc.File << ":"
         << S.Loc.Line << ":" << S.Loc.Column << ": " << S.Reason << "\n";
    return ToolStatus ? 2 : 0;
  }

  Report R;
  R.M = &*M;
  R.Model = ModelOpt;
  R.Skipped = FR.Skipped;
  for (LoopNest &N : FR.Nests) {
    Expected<NestCounts> C = analyzeNest(N);
    if (!C) {
      R.Skipped.push_back({N.Function, N.Loc, toString(C.takeError())});
      continue;
    }
    NestVerdict J = judgeNest(N, *C, *M, ModelOpt);
    R.Nests.push_back({std::move(N), std::move(*C), std::move(J)});
  }
  std::stable_sort(R.Skipped.begin(), R.Skipped.end(),
                   [](const SkippedNest &A, const SkippedNest &B) {
                     return std::tie(A.Loc.File, A.Loc.Line, A.Loc.Column) <
                            std::tie(B.Loc.File, B.Loc.Line, B.Loc.Column);
                   });

  if (Format == OutputFormat::Json)
    OS << formatv("{0:2}", toJSON(R)) << "\n";
  else
    printText(OS, R, !NoSource);
  return ToolStatus ? 2 : 0;
}
