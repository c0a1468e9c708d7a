//===- RooflineLint.cpp - roofline-lint driver -----------------------------===//
//
// Parses the given files with Clang, lowers every loop nest to the IR,
// counts it exactly, and prints the roofline verdict for a machine as
// clang-style diagnostics, JSON or SARIF. The CI side (many files, -j,
// .roofline.yaml, NOLINT, policies, baseline) is LintRun.cpp. Exit codes:
// 0 clean, 1 a policy was hit, 2 usage, configuration or compile error
// (docs/design.md).
//
//===----------------------------------------------------------------------===//

#include "GenRun.h"
#include "LintRun.h"
#include "roofline/Config/SizesFile.h"
#include "roofline/Frontend/Frontend.h"
#include "roofline/Frontend/RejectReason.h"
#include "roofline/Report/Plot.h"
#include "roofline/Report/ProgramPlot.h"
#include "roofline/Report/Report.h"
#include "roofline/Support/Debug.h"
#include "roofline/Support/Parallel.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Parallel.h"
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
cl::opt<std::string>
    SizesOpt("sizes",
             cl::desc("A YAML file of sizes for a whole model (NAME: VALUE, "
                      "p->field: VALUE, fn:NAME: VALUE), below --param "
                      "(docs/roofline-lint.md, \"Sizes\")"),
             cl::value_desc("file.yaml"), cl::cat(Category));
enum class OutputFormat { Text, Json, Sarif };
cl::opt<OutputFormat> Format(
    "format", cl::desc("Output format"), cl::init(OutputFormat::Text),
    cl::values(clEnumValN(OutputFormat::Text, "text", "clang-style diagnostics"),
               clEnumValN(OutputFormat::Json, "json",
                          "one JSON object (see docs/json.md)"),
               clEnumValN(OutputFormat::Sarif, "sarif",
                          "SARIF 2.1.0, for code scanning (see docs/ci.md)")),
    cl::cat(Category));
cl::opt<TrafficModel> ModelOpt(
    "model",
    cl::desc("Traffic model the verdict uses (default: cache on a CPU "
             "machine, compulsory otherwise)"),
    cl::init(TrafficModel::Compulsory),
    cl::values(clEnumValN(TrafficModel::Compulsory, "compulsory",
                          "each distinct element moves once (the ideal)"),
               clEnumValN(TrafficModel::NoReuse, "no-reuse",
                          "every executed reference moves its element, "
                          "except register-held loop invariants"),
               clEnumValN(TrafficModel::Cache, "cache",
                          "what crosses each cache level: line use, reuse "
                          "distance, layer conditions (docs/cache-model.md)"),
               clEnumValN(TrafficModel::Tiled, "tiled",
                          "what the nest moves tiled by --tile (tiled(T))")),
    cl::cat(Category));
cl::opt<std::string> CacheStateOpt(
    "cache-state",
    cl::desc("What the caches hold when a function starts, for the cache "
             "model: 'cold' (empty, one pass: the default) or 'warm' (the "
             "steady state of the function run again and again, as "
             "kerncraft reports it)"),
    cl::value_desc("cold|warm"), cl::init("cold"), cl::cat(Category));
cl::opt<unsigned> TileOpt("tile",
                          cl::desc("Tile size T of the tiled model and of the "
                                   "tiling what-if (default 32)"),
                          cl::init(32), cl::cat(Category));
cl::opt<int64_t> BatchOpt("batch",
                          cl::desc("Inputs of the batching what-if "
                                   "(default 64)"),
                          cl::init(64), cl::cat(Category));
cl::opt<bool> DumpIR("dump-ir",
                     cl::desc("Print the LoopNest IR of each nest and exit"),
                     cl::cat(Category));
cl::opt<std::string> BuildPath("p", cl::desc("Build directory holding "
                                             "compile_commands.json"),
                               cl::value_desc("dir"), cl::cat(Category));
cl::opt<std::string> OutputFile("o", cl::desc("Write the report to <file>"),
                                cl::value_desc("file"), cl::cat(Category));
cl::opt<std::string>
    PlotFile("plot",
             cl::desc("Also draw the roofline chart: FILE.svg, or FILE.html "
                      "(the SVG with hover tooltips and a table)"),
             cl::value_desc("file"), cl::cat(Category));
cl::opt<bool> NoSource("no-source",
                       cl::desc("Do not echo the source line under each "
                                "diagnostic"),
                       cl::cat(Category));

int usageError(const Twine &Msg) {
  WithColor::error(errs(), "roofline-lint") << Msg << "\n";
  return 2;
}

/// A C identifier or a qualified C++ name (ns::f).
bool isFunctionName(StringRef S) {
  if (S.empty() || isDigit(S.front()))
    return false;
  return llvm::all_of(S, [](char C) {
    return isAlnum(C) || C == '_' || C == ':';
  });
}

Expected<std::map<std::string, int64_t>> parseParams() {
  std::map<std::string, int64_t> Out;
  for (const std::string &P : ParamOpts) {
    auto [Name, Value] = StringRef(P).split('=');
    int64_t V;
    // A function pointer's target, --param ann->act=relu, travels beside
    // the sizes as the key "ann->act=relu" (docs/user-guide.md, "Calls").
    if (!Name.empty() && isFunctionName(Value)) {
      Out[P] = 1;
      continue;
    }
    if (Name.empty() || Value.empty() || Value.getAsInteger(10, V))
      return createStringError(
          inconvertibleErrorCode(),
          "malformed --param '%s': expected NAME=INTEGER or NAME=FUNCTION",
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
  // The directory itself, not its parents: a mistyped -p must not pick up
  // some other project's database on the way up.
  if (!BuildPath.empty())
    return tooling::CompilationDatabase::loadFromDirectory(BuildPath, Err);
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

/// A JSON report is among the outputs (set once they are known).
bool WantJson = false;

ModelOptions modelOptions() {
  ModelOptions O;
  O.Tile = TileOpt;
  // Only JSON reports the cache model beside the verdict's own model.
  O.CacheAlways = WantJson;
  O.State = parseCacheState(CacheStateOpt).value_or(CacheState::Cold);
  return O;
}

/// What-ifs, strided accesses and fusion runs (Roofline/Advice.h), in
/// source order so that fusion sees each nest's neighbours.
void adviseReport(Report &R, const Machine &M, TrafficModel Model) {
  std::vector<size_t> Order(R.Nests.size());
  for (size_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  auto Key = [&](size_t I) {
    const SourceLoc &L = R.Nests[I].Nest.Loc;
    return std::make_tuple(L.File, L.Line, L.Column);
  };
  std::stable_sort(Order.begin(), Order.end(),
                   [&](size_t A, size_t B) { return Key(A) < Key(B); });
  std::vector<AdvisedNest> Refs;
  for (size_t I : Order)
    Refs.push_back({&R.Nests[I].Nest, &R.Nests[I].Counts, &R.Nests[I].Judged});
  std::vector<SourceLoc> Skipped;
  for (const SkippedNest &S : R.Skipped)
    Skipped.push_back(S.Loc);
  AdviceOptions AO;
  AO.Tile = TileOpt;
  AO.Batch = BatchOpt;
  std::vector<NestAdvice> Adv =
      adviseNests(Refs, M, Model, modelOptions(), AO, Skipped);
  for (size_t K = 0; K < Order.size(); ++K)
    R.Nests[Order[K]].Advice = std::move(Adv[K]);
}

/// Counts and judges one file's nests; runs on the worker threads. The
/// nests are independent: they are counted and judged in parallel
/// (llvm::parallel::strategy, set from -j), then kept in their order.
Report analyzeNests(FrontendResult &FR, const Machine &M, TrafficModel Model) {
  Report R;
  R.M = &M;
  R.Model = Model;
  R.Skipped = FR.Skipped;
  struct Judged {
    std::optional<NestCounts> C;
    std::string Error;
    NestVerdict J;
  };
  std::vector<Judged> Out(FR.Nests.size());
  ModelOptions MOpts = modelOptions();
  parallelForChunks(FR.Nests.size(), [&](size_t I) {
    Expected<NestCounts> C = analyzeNest(FR.Nests[I]);
    if (!C) {
      Out[I].Error = toString(C.takeError());
      return;
    }
    Out[I].C = std::move(*C);
  });
  // The cache model runs over each function's nests together: what one
  // nest leaves in the caches, the next one reuses.
  std::vector<GivenCache> Caches;
  if (MOpts.CacheAlways || Model == TrafficModel::Cache) {
    std::vector<const LoopNest *> Ns;
    std::vector<const NestCounts *> Cs;
    for (size_t I = 0; I < FR.Nests.size(); ++I) {
      Ns.push_back(&FR.Nests[I]);
      Cs.push_back(Out[I].C ? &*Out[I].C : nullptr);
    }
    Caches = functionCaches(Ns, Cs, FR.Skipped, M, MOpts.State);
  }
  parallelForChunks(FR.Nests.size(), [&](size_t I) {
    if (Out[I].C)
      Out[I].J = judgeNest(FR.Nests[I], *Out[I].C, M, Model, MOpts,
                           JudgeDetail::Full,
                           Caches.empty() ? nullptr : &Caches[I]);
  });
  for (size_t I = 0; I < FR.Nests.size(); ++I) {
    LoopNest &N = FR.Nests[I];
    if (!Out[I].C) {
      R.Skipped.push_back({N.Function, N.Loc, std::move(Out[I].Error),
                           rejectKindSlug(RejectKind::CountsRefused).str()});
      continue;
    }
    R.Nests.push_back(
        {std::move(N), std::move(*Out[I].C), std::move(Out[I].J)});
  }
  adviseReport(R, M, Model);
  return R;
}

/// The arguments after "--" (FixedCompilationDatabase keeps them after a
/// placeholder compiler name and before the file).
std::vector<std::string>
trailingArgs(const tooling::CompilationDatabase &FromArgs) {
  std::vector<tooling::CompileCommand> C = FromArgs.getCompileCommands("f.c");
  if (C.empty() || C.front().CommandLine.size() < 2)
    return {};
  const std::vector<std::string> &L = C.front().CommandLine;
  return std::vector<std::string>(L.begin() + 1, L.end() - 1);
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

/// Parses the command line with the tool's categories and help text;
/// false (an error printed) when it is malformed.
bool parseCommandLine(int Argc, const char **Argv) {
  cl::HideUnrelatedOptions(
      {&Category, &ciOptionCategory(), &codegenOptionCategory(),
       &programOptionCategory()});
  addDebugOnlyOption(); // docs/design.md, "Debug tracing"
  cl::SetVersionPrinter([](raw_ostream &OS) {
    OS << "roofline-lint 0.1.0 (LLVM " << LLVM_VERSION_STRING << ")\n";
  });
  return cl::ParseCommandLineOptions(
      Argc, Argv,
      "roofline-lint: static roofline analysis of C/C++ loop nests\n\n"
      "Counts the MACs, FLOPs and bytes of every loop nest exactly, derives "
      "its\narithmetic intensity, and says whether it is compute-bound, "
      "memory-bound or\ndoes not fit on a machine.\n\n"
      "  roofline-lint kernels/gemm.cpp\n"
      "  roofline-lint --machine=t4 --param N=4096 --format=json file.cpp "
      "-- -I include\n"
      "  roofline-lint -p build -j 8 --fail-on=memory-bound "
      "--format=sarif -o roofline.sarif src/\n",
      &errs());
}

/// The usage error of a flag whose value is malformed on its own (before
/// any file is read), or 0.
int checkFlags() {
  // With -p, no inputs means every source of the compilation database.
  if (Sources.empty() && BuildPath.empty() && !configOnlyRequested())
    return usageError("no input files (try --help)");
  if (!parseCacheState(CacheStateOpt))
    return usageError("--cache-state must be 'cold' or 'warm', not '" +
                      CacheStateOpt + "'");
  if (!PlotFile.empty() && !isPlotPath(PlotFile))
    return usageError("--plot file '" + PlotFile +
                      "' must end in .svg or .html");
  return 0;
}

/// The sizes of --param and, below them, of --sizes (those are also put
/// in \p FromSizesFile, for the warning that names the flag).
Expected<std::map<std::string, int64_t>>
givenSizes(std::map<std::string, int64_t> &FromSizesFile) {
  Expected<std::map<std::string, int64_t>> Params = parseParams();
  if (!Params || SizesOpt.empty())
    return Params;
  Expected<std::map<std::string, int64_t>> Sizes = loadSizesFile(SizesOpt);
  if (!Sizes)
    return Sizes.takeError();
  // Below --param: a flag overrides the model file's value.
  for (const auto &[Name, V] : *Sizes)
    if (Params->emplace(Name, V).second)
      FromSizesFile[Name] = V;
  return Params;
}

/// The compilation database of -p, of the arguments after "--", or an
/// empty one; the usage error when -p names none, else 0.
int openCompilations(std::unique_ptr<tooling::CompilationDatabase> FromArgs,
                     const std::string &FromArgsErr,
                     std::unique_ptr<tooling::CompilationDatabase> &DB) {
  std::string DBErr = FromArgsErr;
  DB = findCompilations(std::move(FromArgs), DBErr);
  if (!DB && !BuildPath.empty() &&
      !sys::fs::exists(BuildPath + "/compile_commands.json"))
    return usageError("no compilation database in '" + BuildPath +
                      "': expected " + BuildPath +
                      "/compile_commands.json (CMake writes it with "
                      "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON)");
  if (!DB)
    return usageError("cannot load compilation database: " + DBErr);
  return 0;
}

/// Each report's stream, from --output=FORMAT:PATH,... or --format and -o,
/// opened into \p Files; the usage error of one that cannot be, else 0.
int openSinks(std::vector<std::unique_ptr<raw_fd_ostream>> &Files,
              std::vector<LintSink> &Sinks) {
  std::optional<StringRef> FormatGiven, FileGiven;
  if (Format.getNumOccurrences())
    FormatGiven = Format == OutputFormat::Json    ? "json"
                  : Format == OutputFormat::Sarif ? "sarif"
                                                  : "text";
  if (OutputFile.getNumOccurrences())
    FileGiven = OutputFile.getValue();
  Expected<std::vector<std::pair<LintOutput, std::string>>> Outputs =
      requestedOutputs(FormatGiven, FileGiven);
  if (!Outputs)
    return usageError(toString(Outputs.takeError()));
  for (const auto &[Kind, Path] : *Outputs) {
    raw_ostream *S = &outs();
    if (Path != "-") {
      std::error_code EC;
      Files.push_back(std::make_unique<raw_fd_ostream>(Path, EC));
      if (EC)
        return usageError("cannot write '" + Path + "': " + EC.message());
      S = Files.back().get();
    }
    Sinks.push_back({Kind, S});
    WantJson |= Kind == LintOutput::Json;
  }
  return 0;
}

/// The request of --emit / --schedule: transform and emit instead of
/// judging (GenRun.h).
CodegenRequest codegenRequest(tooling::CompilationDatabase &DB,
                              const std::map<std::string, int64_t> &Params,
                              const Machine &M) {
  CodegenRequest CR;
  CR.Sources = Sources;
  CR.DB = &DB;
  CR.Params = Params;
  CR.Adjust = tooling::combineAdjusters(resourceDirAdjuster(), cudaAdjuster());
  CR.VirtualFiles = {{CudaPreamblePath, CudaPreamble}};
  CR.M = &M;
  CR.DumpIR = DumpIR;
  return CR;
}

/// The request to judge every input (LintRun.h), reports to \p Sinks.
LintRequest lintRequest(tooling::CompilationDatabase &DB,
                        std::vector<std::string> Trailing,
                        const std::map<std::string, int64_t> &Params,
                        const std::vector<LintSink> &Sinks, raw_ostream &OS) {
  LintRequest Req;
  Req.Inputs = Sources;
  Req.DB = &DB;
  Req.TrailingArgs = std::move(Trailing);
  Req.FromBuildDir = !BuildPath.empty();
  Req.Params = Params;
  // Given flags override every .roofline.yaml; defaults do not.
  if (MachineOpt.getNumOccurrences())
    Req.CommandLine.Machine = MachineOpt;
  if (ModelOpt.getNumOccurrences())
    Req.CommandLine.Model = trafficModelName(ModelOpt);
  Req.DefaultMachine = defaultMachineName();
  for (unsigned I = 0; I < ModelOpt.getParser().getNumOptions(); ++I)
    Req.ModelNames.push_back(ModelOpt.getParser().getOption(I).str());
  Req.ParseModel = [](StringRef Name) -> std::optional<TrafficModel> {
    TrafficModel V = TrafficModel::Compulsory;
    if (ModelOpt.getParser().parse(ModelOpt, "model", Name, V))
      return std::nullopt;
    return V;
  };
  Req.Adjust = tooling::combineAdjusters(resourceDirAdjuster(), cudaAdjuster());
  Req.VirtualFiles = {{CudaPreamblePath, CudaPreamble}};
  Req.Analyze = analyzeNests;
  Req.Batch = BatchOpt;
  Req.Sinks = DumpIR ? std::vector<LintSink>{{LintOutput::DumpIR, &OS}}
                     : Sinks;
  Req.ShowSource = !NoSource;
  Req.KeepNests = !PlotFile.empty(); // the plot draws every nest at once
  Req.ToolVersion = "0.1.0";
  return Req;
}

/// Writes --plot: the combined chart, and with .svg one file per program
/// pass; the usage error of a file that cannot be written, else 0.
int writePlots(const LintOutcome &Out) {
  PlotOptions PO;
  for (const ProgramSummary &P : Out.Programs)
    PO.HtmlSections.push_back(programPlotSection(P, *Out.Combined.M));
  if (Error E = writeRooflinePlot(Out.Combined, PlotFile, PO))
    return usageError(toString(std::move(E)));
  // An SVG holds one chart: each pass's goes into a file of its own.
  if (sys::path::extension(PlotFile).equals_insensitive(".svg"))
    for (const ProgramSummary &P : Out.Programs)
      if (Expected<std::string> W =
              writeProgramSVG(P, *Out.Combined.M, PlotFile);
          !W)
        return usageError(toString(W.takeError()));
  return 0;
}

} // namespace

int main(int Argc, const char **Argv) {
  InitLLVM X(Argc, Argv);
  std::string DBErr;
  std::unique_ptr<tooling::CompilationDatabase> FromArgs =
      makeCompilations(Argc, Argv, DBErr);
  if (!parseCommandLine(Argc, Argv))
    return 2;
  if (ListMachines)
    return listMachines(outs());
  if (int RC = checkFlags())
    return RC;
  std::map<std::string, int64_t> FromSizesFile;
  Expected<std::map<std::string, int64_t>> Params = givenSizes(FromSizesFile);
  if (!Params)
    return usageError(toString(Params.takeError()));
  Expected<Machine> M = loadMachine(MachineOpt);
  if (!M)
    return usageError(toString(M.takeError()));

  std::vector<std::string> Trailing;
  if (!BuildPath.empty() && FromArgs)
    Trailing = trailingArgs(*FromArgs);
  std::unique_ptr<tooling::CompilationDatabase> DB;
  if (int RC = openCompilations(std::move(FromArgs), DBErr, DB))
    return RC;
  std::vector<std::unique_ptr<raw_fd_ostream>> Files;
  std::vector<LintSink> Sinks;
  if (int RC = openSinks(Files, Sinks))
    return RC;
  // --dump-ir and code generation print to the first one.
  raw_ostream &OS = *Sinks.front().OS;
  if (codegenRequested())
    return runCodegen(codegenRequest(*DB, *Params, *M), OS);

  LintRequest Req = lintRequest(*DB, std::move(Trailing), *Params, Sinks, OS);
  LintOutcome Out = runLint(Req, OS);
  if (configOnlyRequested() || !Out.Combined.M)
    return Out.ExitCode;
  for (const auto &[Name, V] : *Params)
    if (!Out.ParamNames.count(Name))
      printToolMessage("warning", (FromSizesFile.count(Name)
                                       ? "--sizes key '"
                                       : "--param '") +
                                      Name +
                                      (StringRef(Name).contains('=')
                                           ? "' names no function pointer"
                                           : "' names no size") +
                                      " in the analyzed loops");
  for (const std::string &Sel : nestSelectors())
    if (!Out.NestSelectorsMatched.count(Sel))
      printToolMessage("warning", "--nest '" + Sel +
                                      "' selects no nest in the analyzed files");
  if (!PlotFile.empty() && !DumpIR)
    if (int RC = writePlots(Out))
      return RC;
  return Out.ExitCode;
}
