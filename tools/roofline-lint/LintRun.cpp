//===- LintRun.cpp - roofline-lint over many files, as a CI check ---------===//
//
// Settings are resolved for every file up front (so a bad config stops the
// run before any parsing), translation units then run on a thread pool,
// and the main thread consumes their results strictly in input order: the
// output is the same for any -j. Each worker keeps only the small per-file
// result (IR, counts, findings); the AST dies with its translation unit.
//
//===----------------------------------------------------------------------===//

#include "LintRun.h"
#include "GenRun.h"
#include "GitDiff.h"

#include "roofline/Config/Checks.h"
#include "roofline/Config/GlobList.h"
#include "roofline/Config/LineFilter.h"
#include "roofline/Frontend/CompileFlags.h"
#include "roofline/Frontend/CrossTU.h"
#include "roofline/Frontend/Inputs.h"
#include "roofline/Report/AdviceFindings.h"
#include "roofline/Report/Baseline.h"
#include "roofline/Report/CIJson.h"
#include "roofline/Report/JsonStream.h"
#include "roofline/Report/ProgramFormulas.h"
#include "roofline/Report/ProgramReport.h"
#include "roofline/Report/Policy.h"
#include "roofline/Report/Sarif.h"
#include "roofline/Support/JsonText.h"
#include "roofline/Report/Suppressions.h"
#include "roofline/Support/Parallel.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/BuryPointer.h"
#include "llvm/Support/Parallel.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/WithColor.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <tuple>

using namespace llvm;
using namespace roofline;
namespace tooling = clang::tooling;

#ifndef ROOFLINE_DOCS_URL
#define ROOFLINE_DOCS_URL ""
#endif

namespace {

cl::OptionCategory CICategory("roofline-lint CI options");

/// Below this many nests, a lone file is analyzed on one thread unless -j
/// is given: on the 200-function speed file two threads measured no faster
/// than one (docs/results/speed.txt, the -j 2 row).
constexpr size_t MinNestsForThreads = 1000;

cl::opt<unsigned>
    Jobs("j",
         cl::desc("Analyze N translation units in parallel, or one file's "
                  "nests (default 0: one per hardware thread, for one file "
                  "only from 1000 nests on); the output is the same for any "
                  "N"),
         cl::value_desc("N"), cl::init(0), cl::Prefix, cl::cat(CICategory));
cl::OptionCategory ProgramCategory("roofline-lint whole-pass options");

cl::list<std::string> EntryOpt(
    "entry",
    cl::desc("Also report the whole pass that starts at this function: every "
             "nest it reaches through calls in the file, at the sizes of "
             "each call, times how often it runs (repeatable; "
             "docs/network-report.md)"),
    cl::value_desc("function"), cl::cat(ProgramCategory));

cl::opt<bool> CrossTUOpt(
    "cross-tu",
    cl::desc("With -p: a call inside a nest to a function that another "
             "translation unit of the compile database defines (exactly one) "
             "is counted as that body, as a call to one of the file's own "
             "functions is (the database's files are parsed when first "
             "needed; docs/roofline-lint.md)"),
    cl::cat(ProgramCategory));

cl::opt<std::string> HeaderFilterOpt(
    "header-filter",
    cl::desc("Also report the nests of headers whose path matches this "
             "regex (by default only each main file's; never system "
             "headers)"),
    cl::value_desc("regex"), cl::cat(CICategory));
cl::opt<unsigned> MaxNestsOpt(
    "max-nests",
    cl::desc("Analyze at most N loop nests per translation unit (0: no "
             "limit); the rest are reported as one unanalyzed nest. Bounds "
             "the memory a huge generated source can take"),
    cl::value_desc("N"), cl::init(10000), cl::cat(CICategory));
cl::opt<std::string> ConfigFileOpt(
    "config-file",
    cl::desc("Use this config file for every input instead of the nearest "
             ".roofline.yaml"),
    cl::value_desc("file"), cl::cat(CICategory));
cl::opt<std::string> ConfigOpt(
    "config",
    cl::desc("Inline YAML config for every input, e.g. "
             "--config='{fail-on: [memory-bound]}'"),
    cl::value_desc("yaml"), cl::cat(CICategory));
cl::opt<bool> DumpConfig(
    "dump-config",
    cl::desc("Print the configuration in effect for the first input (or the "
             "current directory) as YAML, and exit"),
    cl::cat(CICategory));
cl::opt<std::string> ChecksOpt(
    "checks",
    cl::desc("Checks to run, clang-tidy style: comma-separated globs, a "
             "leading '-' removes (default 'roofline-*'; e.g. "
             "'-*,roofline-min-intensity')"),
    cl::value_desc("globs"), cl::cat(CICategory));
cl::list<std::string> FailOnOpt(
    "fail-on", cl::CommaSeparated,
    cl::desc("Exit 1 when a nest is memory-bound, unanalyzable, capacity "
             "(does not fit in memory) or strided-access (a "
             "[roofline-strided-access] warning); 'none' clears the config's "
             "list"),
    cl::value_desc("policy,..."), cl::cat(CICategory));
cl::opt<std::string> WarningsAsErrorsOpt(
    "warnings-as-errors", cl::ValueOptional,
    cl::desc("Turn the warnings of the checks matching these globs (all, "
             "without a value) into errors that fail the run"),
    cl::value_desc("globs"), cl::cat(CICategory));
cl::opt<std::string> MinIntensityOpt(
    "min-intensity",
    cl::desc("Warn when a nest's arithmetic intensity is below X FLOP/byte "
             "[roofline-min-intensity]"),
    cl::value_desc("X"), cl::cat(CICategory));
cl::opt<std::string> MaxTimeOpt(
    "max-time",
    cl::desc("Warn when a nest's time floor exceeds T: seconds, or with a "
             "unit (250us, 3ms) [roofline-max-time]"),
    cl::value_desc("T"), cl::cat(CICategory));
cl::opt<std::string> BaselineOpt(
    "baseline",
    cl::desc("Fail only on nests that are new (and hit a policy) or got "
             "worse than in FILE (a --write-baseline file or a --format=json "
             "report)"),
    cl::value_desc("file"), cl::cat(CICategory));
cl::opt<std::string> WriteBaselineOpt(
    "write-baseline",
    cl::desc("Record this run's nests in FILE for --baseline (policy hits "
             "do not fail a run that writes a baseline)"),
    cl::value_desc("file"), cl::cat(CICategory));
cl::opt<double> BaselineTolerance(
    "baseline-tolerance",
    cl::desc("Relative drop in arithmetic intensity that --baseline still "
             "accepts (default 0.01, i.e. 1%)"),
    cl::init(0.01), cl::cat(CICategory));
cl::list<std::string>
    ExtraArg("extra-arg",
             cl::desc("Additional argument to append to the compiler "
                      "command line"),
             cl::cat(CICategory));
cl::list<std::string>
    ExtraArgBefore("extra-arg-before",
                   cl::desc("Additional argument to prepend to the compiler "
                            "command line"),
                   cl::cat(CICategory));
cl::opt<bool> Quiet("quiet",
                    cl::desc("Do not print the summary line on stderr"),
                    cl::cat(CICategory));
cl::opt<std::string>
    DocsUrl("docs-url",
            cl::desc("Web address of a published docs/ directory, for the "
                     "SARIF rules' helpUri (default: the build's "
                     "ROOFLINE_DOCS_URL; empty: no helpUri, the help names "
                     "the page in the repository)"),
            cl::value_desc("url"), cl::init(ROOFLINE_DOCS_URL),
            cl::cat(CICategory));
cl::opt<Verbosity> VerbosityOpt(
    "verbosity", cl::desc("How much the text report says per nest"),
    cl::init(Verbosity::Brief),
    cl::values(clEnumValN(Verbosity::Brief, "brief",
                          "one line per nest, one note per warning (default)"),
               clEnumValN(Verbosity::Normal, "normal",
                          "every note: counts, times, per-level roofline, "
                          "what-ifs, and the source line"),
               clEnumValN(Verbosity::Full, "full",
                          "normal, and where each size's value came from")),
    cl::cat(CICategory));
cl::opt<bool> ListChecks(
    "list-checks",
    cl::desc("List the checks enabled for the first input (or the current "
             "directory) and exit"),
    cl::cat(CICategory));
cl::opt<std::string> LineFilterOpt(
    "line-filter",
    cl::desc("Report only nests on these lines, clang-tidy's JSON: "
             "'[{\"name\":\"a.cpp\",\"lines\":[[1,30]]},{\"name\":\"b.h\"}]'"),
    cl::value_desc("json"), cl::cat(CICategory));
cl::opt<std::string> DiffOpt(
    "diff",
    cl::desc("Report only nests whose lines changed since this git "
             "revision (git diff REF: committed and uncommitted changes; "
             "REF...HEAD for a pull request's own changes)"),
    cl::value_desc("git-ref"), cl::cat(CICategory));
cl::list<std::string> OutputOpt(
    "output", cl::CommaSeparated,
    cl::desc("Reports to write, FORMAT:PATH with '-' for stdout, e.g. "
             "--output=text:-,sarif:roofline.sarif (replaces --format and "
             "-o)"),
    cl::value_desc("format:path,..."), cl::cat(CICategory));

//===----------------------------------------------------------------------===//
// Messages on stderr
//===----------------------------------------------------------------------===//

/// The report streams of the run. Before anything goes to stderr they are
/// flushed, and a message is written in one piece: a log that captures both
/// through one pipe (`2>&1`) never splices a line (docs/ci.md#output).
std::vector<raw_ostream *> &reportStreams() {
  static std::vector<raw_ostream *> Streams;
  return Streams;
}

void printErr(StringRef Text) {
  for (raw_ostream *OS : reportStreams())
    OS->flush();
  outs().flush();
  errs() << Text;
}

void printErr(const Twine &Prefix, const Twine &Msg) {
  printErr((Prefix + Msg + "\n").str());
}

int error(const Twine &Msg) {
  printErr("roofline-lint: error: ", Msg);
  return 2;
}

void warning(const Twine &Msg) { printErr("roofline-lint: warning: ", Msg); }

void note(const Twine &Msg) { printErr("roofline-lint: note: ", Msg); }

//===----------------------------------------------------------------------===//
// Settings
//===----------------------------------------------------------------------===//

/// What one file is analyzed with.
struct FileSettings {
  const Machine *M = nullptr;
  TrafficModel Model = TrafficModel::Compulsory;
  FrontendOptions FOpts;
  PolicyOptions Policy;
  /// `compile-flags` of the config (docs/ci.md#gcc-built-projects).
  std::vector<std::string> AddFlags, RemoveFlags;
};

Expected<std::string> checkGlobs(StringRef Spec, StringRef Flag) {
  std::vector<std::string> Bad = GlobList(Spec).unmatchedGlobs(allCheckNames());
  if (!Bad.empty())
    return createStringError(inconvertibleErrorCode(),
                             "%s: '%s' matches no check (checks: %s)",
                             Flag.str().c_str(), Bad.front().c_str(),
                             join(allCheckNames(), ", ").c_str());
  return Spec.str();
}

/// The CI flags given on the command line, as the top config layer.
Expected<Config> commandLineLayer(const LintRequest &Req) {
  Config C = Req.CommandLine;
  if (ChecksOpt.getNumOccurrences()) {
    Expected<std::string> S = checkGlobs(ChecksOpt, "--checks");
    if (!S)
      return S.takeError();
    C.Checks = *S;
  }
  if (HeaderFilterOpt.getNumOccurrences()) {
    std::string Err;
    if (!Regex(HeaderFilterOpt).isValid(Err))
      return createStringError(inconvertibleErrorCode(),
                               "--header-filter: invalid regex '%s': %s",
                               HeaderFilterOpt.c_str(), Err.c_str());
    C.HeaderFilter = HeaderFilterOpt;
  }
  if (FailOnOpt.getNumOccurrences()) {
    Expected<std::vector<FailOnPolicy>> L =
        parseFailOnList(join(FailOnOpt, ","));
    if (!L)
      return createStringError(inconvertibleErrorCode(), "--fail-on: " +
                                                             toString(L.takeError()));
    C.FailOn = *L;
  }
  if (WarningsAsErrorsOpt.getNumOccurrences()) {
    std::string Spec = WarningsAsErrorsOpt.empty() ? std::string("*")
                                                   : WarningsAsErrorsOpt.getValue();
    if (Spec != "*") {
      Expected<std::string> S = checkGlobs(Spec, "--warnings-as-errors");
      if (!S)
        return S.takeError();
    }
    C.WarningsAsErrors = Spec;
  }
  if (MinIntensityOpt.getNumOccurrences()) {
    double V;
    if (StringRef(MinIntensityOpt).trim().getAsDouble(V) || !(V >= 0))
      return createStringError(inconvertibleErrorCode(),
                               "--min-intensity: expected a non-negative "
                               "number of FLOP per byte, got '%s'",
                               MinIntensityOpt.c_str());
    C.MinIntensity = V;
  }
  if (MaxTimeOpt.getNumOccurrences()) {
    std::optional<double> T = parseSeconds(MaxTimeOpt);
    if (!T)
      return createStringError(inconvertibleErrorCode(),
                               "--max-time: invalid time '%s' (expected "
                               "seconds, or a number with s, ms, us or ns)",
                               MaxTimeOpt.c_str());
    C.MaxTime = *T;
  }
  bool Any = C.Machine || C.Model || C.Checks || C.HeaderFilter || C.FailOn ||
             C.WarningsAsErrors || C.MinIntensity || C.MaxTime;
  C.Sources.clear();
  if (Any)
    C.Sources.push_back("command line");
  return C;
}

class SettingsResolver {
public:
  SettingsResolver(const LintRequest &Req, Config CommandLine,
                   LintOutcome &Out)
      : Req(Req), CommandLine(std::move(CommandLine)), Out(Out) {
    ConfigParseOptions PO;
    PO.ModelNames = Req.ModelNames;
    Finder.emplace(PO);
    ParseOpts = PO;
  }

  /// Loads --config / --config-file once.
  Error init() {
    if (!ConfigOpt.empty() && !ConfigFileOpt.empty())
      return createStringError(inconvertibleErrorCode(),
                               "--config and --config-file are exclusive");
    if (!ConfigOpt.empty()) {
      Expected<Config> C = parseConfig(ConfigOpt, "--config", ParseOpts);
      if (!C)
        return C.takeError();
      Fixed = std::move(*C);
    } else if (!ConfigFileOpt.empty()) {
      Expected<Config> C = loadConfigFile(ConfigFileOpt, ParseOpts);
      if (!C)
        return C.takeError();
      Fixed = std::move(*C);
    }
    return Error::success();
  }

  /// Every layer merged, the command line on top.
  Expected<Config> effective(StringRef File) {
    Config Base;
    if (Fixed) {
      Base = *Fixed;
    } else {
      Expected<Config> C = Finder->configFor(File);
      if (!C)
        return C.takeError();
      Base = std::move(*C);
    }
    return mergeConfig(std::move(Base), CommandLine);
  }

  /// Defaults filled in: what --dump-config prints.
  Config withDefaults(Config C) {
    if (!C.Machine)
      C.Machine = Req.DefaultMachine;
    if (!C.Model) {
      if (Expected<FileSettings> S = settings(C)) // the machine's default
        C.Model = trafficModelName(S->Model);
      else // a machine that does not load: the dump leaves the model unset
        consumeError(S.takeError()); // (linting with it reports the error)
    }
    if (!C.Checks)
      C.Checks = "roofline-*";
    if (!C.FailOn)
      C.FailOn = std::vector<FailOnPolicy>();
    for (const auto &[Name, V] : Req.Params)
      C.Params[Name] = V;
    return C;
  }

  Expected<FileSettings> settings(const Config &C) {
    FileSettings S;
    std::string MachineName = C.Machine.value_or(Req.DefaultMachine);
    auto It = Out.Machines.find(MachineName);
    if (It == Out.Machines.end()) {
      Expected<Machine> M = loadMachine(MachineName);
      if (!M)
        return M.takeError();
      It = Out.Machines
               .emplace(MachineName, std::make_unique<Machine>(std::move(*M)))
               .first;
    }
    S.M = It->second.get();
    // Unless told, the machine picks the model (cache on a CPU).
    std::optional<TrafficModel> Model =
        C.Model ? Req.ParseModel(*C.Model)
                : std::optional<TrafficModel>(defaultTrafficModel(*S.M));
    if (!Model)
      return createStringError(inconvertibleErrorCode(), "unknown model '%s'",
                               C.Model->c_str());
    S.Model = *Model;
    S.FOpts.Params = Req.Params;
    S.FOpts.ConfigParams = C.Params;
    S.FOpts.HeaderFilter = C.HeaderFilter.value_or("");
    S.FOpts.MaxNests = MaxNestsOpt;
    S.Policy.Checks = GlobList(C.Checks.value_or("roofline-*"));
    S.Policy.WarningsAsErrors = GlobList(C.WarningsAsErrors.value_or(""));
    S.Policy.FailOn = C.FailOn.value_or(std::vector<FailOnPolicy>());
    S.Policy.MinIntensity = C.MinIntensity;
    S.Policy.MaxTime = C.MaxTime;
    S.AddFlags = C.AddFlags;
    S.RemoveFlags = C.RemoveFlags;
    return S;
  }

private:
  const LintRequest &Req;
  Config CommandLine;
  LintOutcome &Out;
  ConfigParseOptions ParseOpts;
  std::optional<ConfigFinder> Finder;
  std::optional<Config> Fixed;
};

//===----------------------------------------------------------------------===//
// One file
//===----------------------------------------------------------------------===//

struct FileJob {
  std::string File;
  tooling::CompileCommand Cmd;
  FileSettings Settings;
  /// Headers named on the command line that this translation unit stands
  /// in for (absolute): their nests are reported.
  std::set<std::string> Headers;
  /// False when the file is here only for Headers: its own nests are not
  /// reported.
  bool ReportMain = true;
  /// The header filter before Headers widened it.
  std::string OwnHeaderFilter;
};

/// A nest's place: file, line, column, function.
using NestKey = std::tuple<std::string, int64_t, int64_t, std::string>;

NestKey keyOf(const SourceLoc &L, const std::string &Function) {
  return NestKey{L.File, L.Line, L.Column, Function};
}

std::optional<NestKey> keyOf(const json::Value &V) {
  const json::Object *O = V.getAsObject();
  if (!O)
    return std::nullopt;
  // A case's nest is "f [case]" in memory, "f" plus "case" in JSON.
  std::string Function = O->getString("function").value_or("").str();
  if (std::optional<StringRef> Case = O->getString("case"))
    Function += " [" + Case->str() + "]";
  return NestKey{O->getString("file").value_or("").str(),
                 O->getInteger("line").value_or(0),
                 O->getInteger("column").value_or(0), Function};
}

struct FileResult {
  TUResult TU; ///< Nests emptied once analyzed (except for --dump-ir)
  Report R;
  NestOrdinals Ord;
  std::vector<Finding> Findings;
  std::vector<std::string> NoLintProblems; ///< unmatched NOLINTBEGIN/END
  /// --format=json: each nest serialized (in the worker, in parallel), by
  /// location; and the rest of the file's report (skipped, functions, ...).
  std::map<NestKey, std::string> NestJson;
  std::optional<json::Object> JsonRest;
  /// --entry: one per entry found in this file.
  std::vector<ProgramSummary> Programs;
  /// With a line filter: each loop's last line, by its absolute start.
  std::map<LoopStart, unsigned> LoopEnds;
};

/// Clang names files as the compile command spells them (relative to its
/// directory for a compile_commands.json entry); the reports, NOLINT and
/// the source echo want paths that work from here.
void absolutize(std::string &File, const std::string &Dir) {
  if (File.empty() || sys::path::is_absolute(File))
    return;
  SmallString<256> P(Dir);
  sys::path::append(P, File);
  File = normalizePath(P);
}

void absolutizeAll(FrontendResult &FR, const std::string &Dir) {
  for (LoopNest &N : FR.Nests)
    absolutize(N.Loc.File, Dir);
  for (SkippedNest &S : FR.Skipped)
    absolutize(S.Loc.File, Dir);
  for (NestIssue &A : FR.Issues)
    absolutize(A.Loc.File, Dir);
}

bool sameLoc(const SourceLoc &A, const SourceLoc &B) {
  return A.File == B.File && A.Line == B.Line && A.Column == B.Column;
}

/// Main file first, then headers by name; each in source order.
void sortReport(Report &R, const std::string &MainFile) {
  // References, not copies: the file name is compared, never copied.
  auto Key = [&](const SourceLoc &L) {
    return std::tuple<bool, const std::string &, unsigned, unsigned>(
        L.File != MainFile, L.File, L.Line, L.Column);
  };
  auto NestBefore = [&](const AnalyzedNest &A, const AnalyzedNest &B) {
    return Key(A.Nest.Loc) < Key(B.Nest.Loc);
  };
  // Usually sorted already; a stable sort would still move every nest.
  if (!std::is_sorted(R.Nests.begin(), R.Nests.end(), NestBefore))
    std::stable_sort(R.Nests.begin(), R.Nests.end(), NestBefore);
  std::stable_sort(R.Skipped.begin(), R.Skipped.end(),
                   [&](const SkippedNest &A, const SkippedNest &B) {
                     return Key(A.Loc) < Key(B.Loc);
                   });
}

/// The front end's warnings (annotations, aliasing) as findings.
std::vector<Finding> frontendFindings(const FrontendResult &FR,
                                      const Report &R,
                                      const NestOrdinals &Ord) {
  std::vector<Finding> Out;
  for (const NestIssue &A : FR.Issues) {
    Finding F;
    F.Check = checkName(A.Check).str();
    F.Level = Severity::Warning;
    F.Loc = A.Loc;
    F.Function = A.Function;
    F.Message = A.Message;
    for (size_t I = 0; I < R.Nests.size(); ++I)
      if (sameLoc(R.Nests[I].Nest.Loc, A.Loc))
        F.Ordinal = Ord.Nests[I];
    for (size_t I = 0; I < R.Skipped.size(); ++I)
      if (sameLoc(R.Skipped[I].Loc, A.Loc))
        F.Ordinal = Ord.Skipped[I];
    Out.push_back(std::move(F));
  }
  return Out;
}

bool wants(const LintRequest &Req, LintOutput Kind) {
  return llvm::any_of(Req.Sinks,
                      [&](const LintSink &S) { return S.Kind == Kind; });
}

FileResult analyzeFile(const LintRequest &Req, const FileJob &Job,
                       const tooling::ArgumentsAdjuster &Adjust,
                       const Baseline *B, bool LoopExtents) {
  FileResult Res;
  FrontendOptions FOpts = Job.Settings.FOpts;
  FOpts.Entries = EntryOpt;
  FOpts.CountNest = countProgramNest;
  Res.TU = runFrontendOnFile(Job.Cmd, FOpts, Adjust, Req.VirtualFiles,
                             LoopExtents);
  absolutizeAll(Res.TU.Nests, Job.Cmd.Directory);
  for (auto &[Start, End] : Res.TU.LoopEnds) {
    auto [File, Line, Column] = Start;
    absolutize(File, Job.Cmd.Directory);
    Res.LoopEnds[{File, Line, Column}] = End;
  }
  Res.TU.LoopEnds.clear();
  for (ProgramResult &P : Res.TU.Nests.Programs) {
    if (!P.Found)
      continue;
    absolutize(P.EntryLoc.File, Job.Cmd.Directory);
    for (ProgramNest &N : P.Nests)
      absolutize(N.Nest.Loc.File, Job.Cmd.Directory);
    for (ProgramLeftOut &L : P.LeftOut)
      absolutize(L.Loc.File, Job.Cmd.Directory);
    Res.Programs.push_back(summarizeProgram(P, *Job.Settings.M));
    Res.Programs.back().WhatIf =
        predictProgramWhatIfs(P, *Job.Settings.M, Req.Batch);
  }
  if (wants(Req, LintOutput::DumpIR) || !Res.TU.Compiled)
    return Res;
  const FileSettings &S = Job.Settings;
  Res.R = Req.Analyze(Res.TU.Nests, *S.M, S.Model);
  sortReport(Res.R, Job.File);
  Res.Ord = nestOrdinals(Res.R);
  std::vector<Finding> Extra = frontendFindings(Res.TU.Nests, Res.R, Res.Ord);
  std::vector<Finding> Advice = adviceFindings(Res.R, Res.Ord);
  Extra.insert(Extra.end(), Advice.begin(), Advice.end());
  Res.TU.Nests.Nests.clear(); // the Report owns them now
  if (B) {
    std::vector<Finding> Worse =
        baselineRegressions(*B, Res.R, Res.Ord, BaselineTolerance);
    Extra.insert(Extra.end(), Worse.begin(), Worse.end());
  }
  SuppressionCache NoLint;
  Res.Findings = evaluatePolicies(
      Res.R, Res.Ord, S.Policy, std::move(Extra),
      [&](const SourceLoc &L, StringRef Check) {
        return NoLint.suppresses(L.File, L.Line, Check);
      });
  Res.NoLintProblems = NoLint.problems();
  if (B)
    markBaseline(*B, Res.R, Res.Ord, Res.Findings, BaselineTolerance);
  if (wants(Req, LintOutput::Json)) {
    // Each nest written as soon as it is built: the whole report's
    // json::Values at once were most of --format=json's page faults.
    // An element of the top-level "nests" array sits two levels deep.
    for (const AnalyzedNest &A : Res.R.Nests)
      Res.NestJson[keyOf(A.Nest.Loc, A.Nest.Function)] =
          nestToJSONText(A, Res.R, /*Indent=*/4);
    json::Object O = toJSONWithoutNests(Res.R);
    if (!Res.Programs.empty()) {
      json::Array Programs;
      for (const ProgramSummary &P : Res.Programs)
        Programs.push_back(programJson(P));
      O["programs"] = std::move(Programs);
    }
    Res.JsonRest = std::move(O);
  }
  return Res;
}

//===----------------------------------------------------------------------===//
// Collecting results in input order
//===----------------------------------------------------------------------===//

using SeenSet = std::set<std::tuple<std::string, unsigned, unsigned, std::string>>;

/// What a narrowing of a file's result keeps.
struct NestFilter {
  /// A nest or skipped nest, by its place and function.
  std::function<bool(const SourceLoc &, const std::string &)> Nest;
  /// A finding of no nest (an annotation, aliasing), by its own place.
  std::function<bool(const Finding &)> Loose;
  /// A function's totals in the JSON report, by file and function; unset:
  /// those of the functions with a nest kept.
  std::function<bool(const std::string &, const std::string &)> Function;
};

/// Keeps what \p Keep accepts of \p Res: nests, their findings and JSON
/// parts, the JSON's skipped nests and function totals.
void keepNests(FileResult &Res, const NestFilter &Keep) {
  std::vector<int> NestMap(Res.R.Nests.size(), -1),
      SkipMap(Res.R.Skipped.size(), -1);
  Report Kept;
  Kept.M = Res.R.M;
  Kept.Model = Res.R.Model;
  NestOrdinals KeptOrd;
  // Reserved: an AnalyzedNest is large, and a narrowing mostly keeps all.
  Kept.Nests.reserve(Res.R.Nests.size());
  KeptOrd.Nests.reserve(Res.R.Nests.size());
  Kept.Skipped.reserve(Res.R.Skipped.size());
  KeptOrd.Skipped.reserve(Res.R.Skipped.size());
  for (size_t I = 0; I < Res.R.Nests.size(); ++I)
    if (Keep.Nest(Res.R.Nests[I].Nest.Loc, Res.R.Nests[I].Nest.Function)) {
      NestMap[I] = static_cast<int>(Kept.Nests.size());
      Kept.Nests.push_back(std::move(Res.R.Nests[I]));
      KeptOrd.Nests.push_back(Res.Ord.Nests[I]);
    }
  for (size_t I = 0; I < Res.R.Skipped.size(); ++I)
    if (Keep.Nest(Res.R.Skipped[I].Loc, Res.R.Skipped[I].Function)) {
      SkipMap[I] = static_cast<int>(Kept.Skipped.size());
      Kept.Skipped.push_back(std::move(Res.R.Skipped[I]));
      KeptOrd.Skipped.push_back(Res.Ord.Skipped[I]);
    }
  std::vector<Finding> KeptFindings;
  KeptFindings.reserve(Res.Findings.size());
  for (Finding &F : Res.Findings) {
    if (F.NestIndex >= 0 && (F.NestIndex = NestMap[F.NestIndex]) < 0)
      continue;
    if (F.SkippedIndex >= 0 && (F.SkippedIndex = SkipMap[F.SkippedIndex]) < 0)
      continue;
    if (F.NestIndex < 0 && F.SkippedIndex < 0 && !Keep.Loose(F))
      continue;
    KeptFindings.push_back(std::move(F));
  }
  Res.R = std::move(Kept);
  Res.Ord = std::move(KeptOrd);
  Res.Findings = std::move(KeptFindings);
  if (!Res.JsonRest)
    return;
  // The JSON parts follow: nests and skipped nests kept above, and the
  // function totals the filter keeps.
  std::set<NestKey> KeptKeys;
  std::set<std::pair<std::string, std::string>> KeptFunctions;
  for (const AnalyzedNest &A : Res.R.Nests) {
    KeptKeys.insert(keyOf(A.Nest.Loc, A.Nest.Function));
    KeptFunctions.insert({A.Nest.Loc.File, A.Nest.Function});
  }
  for (const SkippedNest &S : Res.R.Skipped)
    KeptKeys.insert(keyOf(S.Loc, S.Function));
  for (auto It = Res.NestJson.begin(); It != Res.NestJson.end();)
    It = KeptKeys.count(It->first) ? std::next(It) : Res.NestJson.erase(It);
  // json::Value's move is not noexcept: a json::Array growing by push_back
  // deep-copies what it holds, so the kept arrays are reserved.
  if (json::Array *Skipped = Res.JsonRest->getArray("skipped")) {
    json::Array Kept;
    Kept.reserve(Skipped->size());
    for (json::Value &V : *Skipped)
      if (std::optional<NestKey> K = keyOf(V); K && KeptKeys.count(*K))
        Kept.push_back(std::move(V));
    *Skipped = std::move(Kept);
  }
  if (json::Array *Functions = Res.JsonRest->getArray("functions")) {
    json::Array Kept;
    Kept.reserve(Functions->size());
    for (json::Value &V : *Functions) {
      const json::Object *O = V.getAsObject();
      std::string File = O ? O->getString("file").value_or("").str() : "";
      std::string Fn = O ? O->getString("function").value_or("").str() : "";
      if (Keep.Function ? Keep.Function(File, Fn)
                        : KeptFunctions.count({File, Fn}) > 0)
        Kept.push_back(std::move(V));
    }
    *Functions = std::move(Kept);
  }
}

/// Drops nests of headers that an earlier file already reported (the same
/// header analyzed from two translation units).
void dropSeenHeaderNests(FileResult &Res, const std::string &MainFile,
                         SeenSet &Seen) {
  NestFilter F;
  F.Nest = [&](const SourceLoc &L, const std::string &Fn) {
    return L.File == MainFile ||
           Seen.insert({L.File, L.Line, L.Column, Fn}).second;
  };
  F.Loose = [&](const Finding &X) {
    return X.Loc.File == MainFile ||
           Seen.insert({X.Loc.File, X.Loc.Line, X.Loc.Column,
                        X.Function + "\x1f" + X.Check})
               .second;
  };
  // Each header function's totals once.
  F.Function = [&](const std::string &File, const std::string &Fn) {
    return File == MainFile || Seen.insert({File, 0, 0, "\x1e" + Fn}).second;
  };
  keepNests(Res, F);
}

/// A header named on the command line is analyzed through a translation
/// unit that includes it: only the header's nests (and, when the unit was
/// named too, its own) are reported.
void keepNamedHeaders(FileResult &Res, const FileJob &Job) {
  std::optional<Regex> Own;
  if (!Job.OwnHeaderFilter.empty())
    Own.emplace(Job.OwnHeaderFilter);
  auto Wanted = [&](const std::string &File) {
    if (Job.Headers.count(normalizePath(File)))
      return true;
    if (!Job.ReportMain)
      return false;
    return File == Job.File || (Own && Own->match(File));
  };
  NestFilter F;
  F.Nest = [&](const SourceLoc &L, const std::string &) {
    return Wanted(L.File);
  };
  F.Loose = [&](const Finding &X) { return Wanted(X.Loc.File); };
  keepNests(Res, F);
}

/// --nest: the nests of the functions it names (or the one at a line);
/// findings of no nest (an annotation, aliasing) by their function.
void keepSelectedNests(FileResult &Res, std::set<std::string> &Matched) {
  NestFilter F;
  F.Nest = [&](const SourceLoc &L, const std::string &Fn) {
    return nestSelected(Fn, L.Line, &Matched);
  };
  F.Loose = [&](const Finding &X) { return nestSelected(X.Function, 0); };
  keepNests(Res, F);
}

/// --line-filter, --diff: the nests with a line in the filter.
class LineNarrowing {
public:
  explicit LineNarrowing(LineFilter Lines) : Lines(std::move(Lines)) {}

  /// Whether \p File needs parsing at all: it has filtered lines, or it
  /// may report header nests that do.
  bool wantsFile(const std::string &File, const FileSettings &S) {
    return Lines.mentions(real(File)) || !S.FOpts.HeaderFilter.empty();
  }

  void apply(FileResult &Res) {
    NestFilter F;
    F.Nest = [&](const SourceLoc &L, const std::string &) {
      auto It = Res.LoopEnds.find({L.File, L.Line, L.Column});
      unsigned End = It == Res.LoopEnds.end() ? L.Line : It->second;
      return Lines.passes(real(L.File), L.Line, End);
    };
    F.Loose = [&](const Finding &X) {
      return Lines.passes(real(X.Loc.File), X.Loc.Line, X.Loc.Line);
    };
    keepNests(Res, F);
  }

private:
  /// git names files by their real path; the nests, as given.
  const std::string &real(const std::string &File) {
    auto [It, New] = Real.try_emplace(File, File);
    if (New) {
      SmallString<256> P;
      if (!sys::fs::real_path(File, P))
        It->second = std::string(P);
    }
    return It->second;
  }
  LineFilter Lines;
  std::map<std::string, std::string> Real;
};

bool shownByPrintText(const Finding &F) {
  // An accepted capacity error prints as printFinding's note instead.
  if (F.AcceptedByBaseline)
    return false;
  return F.Check == checkName(CheckId::Verdict) ||
         F.Check == checkName(CheckId::Capacity) ||
         (F.Check == checkName(CheckId::Unanalyzable) &&
          F.Level == Severity::Note);
}

/// A file's text report: printText's remarks and notes for the nests whose
/// verdict (or capacity) line is enabled and not suppressed, with the other
/// findings (warnings, errors) placed right after their nest's lines.
void printFileText(raw_ostream &OS, const FileResult &Res, bool ShowSource,
                   SourceLines &Lines, Verbosity Level, bool HideAccepted) {
  std::vector<const AnalyzedNest *> ShownNests;
  std::vector<const SkippedNest *> ShownSkipped;
  std::set<int> SeenNests, SeenSkipped;
  for (const Finding &F : Res.Findings) {
    if (F.Suppressed || !shownByPrintText(F))
      continue;
    if (F.NestIndex >= 0 && SeenNests.insert(F.NestIndex).second)
      ShownNests.push_back(&Res.R.Nests[F.NestIndex]);
    else if (F.SkippedIndex >= 0 && SeenSkipped.insert(F.SkippedIndex).second)
      ShownSkipped.push_back(&Res.R.Skipped[F.SkippedIndex]);
  }
  // Same-place blocks stay together: the findings of a place follow all
  // of its lines (template instantiations share their nest's location).
  std::vector<TextBlock> Blocks;
  for (TextBlock &B :
       textBlocks(Res.R, ShownNests, ShownSkipped, ShowSource, Level)) {
    if (!Blocks.empty() && sameLoc(Blocks.back().Loc, B.Loc))
      Blocks.back().Text += B.Text;
    else
      Blocks.push_back(std::move(B));
  }
  // --quiet: what the baseline accepts is not news.
  std::vector<const Finding *> Own;
  for (const Finding &F : Res.Findings)
    if (!F.Suppressed && !shownByPrintText(F) &&
        !(HideAccepted && F.AcceptedByBaseline))
      Own.push_back(&F);

  // Merge both streams in source order; files rank as they first appear.
  std::map<std::string, size_t> Rank;
  for (const TextBlock &B : Blocks)
    Rank.emplace(B.Loc.File, Rank.size());
  for (const Finding *F : Own)
    Rank.emplace(F->Loc.File, Rank.size());
  auto KeyOf = [&](const std::string &File, unsigned L, unsigned C) {
    return std::make_tuple(Rank[File], L, C);
  };
  size_t Next = 0;
  auto FlushUpTo = [&](const std::tuple<size_t, unsigned, unsigned> &K) {
    for (; Next < Own.size(); ++Next) {
      const Finding &F = *Own[Next];
      if (KeyOf(F.Loc.File, F.Loc.Line, F.Loc.Column) > K)
        break;
      printFinding(OS, F, ShowSource ? &Lines : nullptr, Level);
    }
  };
  for (const TextBlock &B : Blocks) {
    // Findings before this nest, then the nest's lines, then its findings.
    auto K = KeyOf(B.Loc.File, B.Loc.Line, B.Loc.Column);
    for (; Next < Own.size(); ++Next) {
      const Finding &F = *Own[Next];
      if (KeyOf(F.Loc.File, F.Loc.Line, F.Loc.Column) >= K)
        break;
      printFinding(OS, F, ShowSource ? &Lines : nullptr, Level);
    }
    OS << B.Text;
    FlushUpTo(K);
  }
  for (; Next < Own.size(); ++Next)
    printFinding(OS, *Own[Next], ShowSource ? &Lines : nullptr, Level);
}

/// Moves a file's findings (and, for the plot, its nests) into the run's.
void appendTo(Report *All, std::vector<Finding> &AllF, FileResult &Res) {
  int NestBase = All ? static_cast<int>(All->Nests.size()) : 0;
  int SkipBase = All ? static_cast<int>(All->Skipped.size()) : 0;
  for (Finding &F : Res.Findings) {
    // Indices only mean something where the nests are kept.
    F.NestIndex = All && F.NestIndex >= 0 ? F.NestIndex + NestBase : -1;
    F.SkippedIndex =
        All && F.SkippedIndex >= 0 ? F.SkippedIndex + SkipBase : -1;
    AllF.push_back(std::move(F));
  }
  if (!All)
    return;
  for (AnalyzedNest &A : Res.R.Nests)
    All->Nests.push_back(std::move(A));
  for (SkippedNest &S : Res.R.Skipped)
    All->Skipped.push_back(std::move(S));
}

Expected<std::vector<std::string>> inputFiles(const LintRequest &Req,
                                              std::vector<std::string> &Errors) {
  if (Req.Inputs.empty() && Req.FromBuildDir) {
    // `roofline-lint -p build`: every source in the database.
    std::vector<std::string> All;
    for (const std::string &F : Req.DB->getAllFiles())
      if (isSourceFile(F))
        All.push_back(normalizePath(F));
    std::sort(All.begin(), All.end());
    All.erase(std::unique(All.begin(), All.end()), All.end());
    if (All.empty())
      return createStringError(inconvertibleErrorCode(),
                               "the compilation database lists no C, C++ or "
                               "CUDA source");
    return All;
  }
  InputList L = collectInputs(Req.Inputs);
  Errors = std::move(L.Errors);
  return L.Files;
}

/// Sources that may include \p Header: the compilation database's, or
/// without one the other inputs and the sources beside the header.
std::vector<std::string> headerCandidates(const LintRequest &Req,
                                          const std::vector<std::string> &Files,
                                          const std::string &Header) {
  std::vector<std::string> Out;
  if (Req.FromBuildDir) {
    for (const std::string &F : Req.DB->getAllFiles())
      if (isSourceFile(F))
        Out.push_back(normalizePath(F));
    std::sort(Out.begin(), Out.end());
    return Out;
  }
  for (const std::string &F : Files)
    if (!isHeaderFile(F))
      Out.push_back(F);
  InputList Beside = collectInputs({sys::path::parent_path(Header).str()});
  Out.insert(Out.end(), Beside.Files.begin(), Beside.Files.end());
  return Out;
}

/// A regex for the header filter that lets \p Header's nests through
/// (Clang names it as its #include spells it; keepNamedHeaders then keeps
/// exactly this file).
std::string headerNameRegex(StringRef Header) {
  return "(^|/)" + Regex::escape(sys::path::filename(Header)) + "$";
}

/// The compile flags each command lost because Clang does not know them,
/// and in how many commands: one note per flag per run.
using DroppedFlags = std::map<std::string, unsigned>;

/// \p Cmd with the config's `compile-flags` and without the flags Clang
/// does not know (docs/ci.md#gcc-built-projects).
tooling::CompileCommand adjustedCommand(tooling::CompileCommand Cmd,
                                        const FileSettings &S,
                                        DroppedFlags &Dropped) {
  std::vector<std::string> Args = removeFlags(Cmd.CommandLine, S.RemoveFlags);
  Args = addFlags(Args, S.AddFlags);
  CleanCommand Clean = dropUnknownFlags(Args);
  std::set<std::string> Once(Clean.Dropped.begin(), Clean.Dropped.end());
  for (const std::string &F : Once)
    ++Dropped[F];
  Cmd.CommandLine = std::move(Clean.Args);
  return Cmd;
}

void noteDroppedFlags(const DroppedFlags &Dropped) {
  for (const auto &[Flag, Count] : Dropped)
    note("ignoring '" + Flag + "' in " + Twine(Count) + " compile command" +
         (Count == 1 ? "" : "s") +
         ": clang does not know it (a GCC flag?); `compile-flags: {remove: "
         "[...]}` in .roofline.yaml silences this");
}

Expected<std::optional<LineFilter>> requestedLineFilter() {
  if (!LineFilterOpt.empty() && !DiffOpt.empty())
    return createStringError(inconvertibleErrorCode(),
                             "--line-filter and --diff are exclusive");
  if (!LineFilterOpt.empty()) {
    Expected<LineFilter> F = LineFilter::fromJSON(LineFilterOpt);
    if (!F)
      return F.takeError();
    return std::optional<LineFilter>(std::move(*F));
  }
  if (!DiffOpt.empty()) {
    Expected<LineFilter> F = changedLinesSince(DiffOpt);
    if (!F)
      return F.takeError();
    return std::optional<LineFilter>(std::move(*F));
  }
  return std::optional<LineFilter>();
}

/// clang-tidy's --list-checks: the checks \p C enables.
void listChecks(raw_ostream &OS, const Config &C) {
  GlobList Enabled(C.Checks.value_or("roofline-*"));
  OS << "Enabled checks:\n";
  for (const CheckInfo &I : allChecks())
    if (I.Implemented && Enabled.contains(I.Name))
      OS << "    " << left_justify(I.Name, 30) << " "
         << severityName(I.Default) << "\n";
  OS << "\n";
}

/// "66 errors (66 files not analyzed, 0 failing the run)": files that do
/// not compile count as errors beside the findings.
void printSummary(const RunSummary &Sum, size_t Files, size_t FileErrors,
                  bool WithBaseline) {
  size_t Errors = Sum.Errors + FileErrors;
  std::string S;
  raw_string_ostream OS(S);
  OS << "roofline-lint: " << Files << " file" << (Files == 1 ? "" : "s")
     << ", " << Sum.Nests << " nests analyzed, " << Sum.Skipped << " not; "
     << Errors << " error" << (Errors == 1 ? "" : "s") << " (";
  if (FileErrors)
    OS << FileErrors << " file" << (FileErrors == 1 ? "" : "s")
       << " not analyzed, ";
  OS << Sum.Failures << " failing the run), " << Sum.Warnings << " warning"
     << (Sum.Warnings == 1 ? "" : "s") << ", " << Sum.Suppressed
     << " suppressed by NOLINT";
  if (WithBaseline)
    OS << ", " << Sum.AcceptedByBaseline << " accepted by the baseline";
  OS << "\n";
  printErr(OS.str());
}

} // namespace

Expected<std::vector<std::pair<LintOutput, std::string>>>
roofline::requestedOutputs(std::optional<StringRef> Format,
                           std::optional<StringRef> OutputFile) {
  using Out = std::vector<std::pair<LintOutput, std::string>>;
  auto Kind = [](StringRef Name) -> std::optional<LintOutput> {
    if (Name == "text")
      return LintOutput::Text;
    if (Name == "json")
      return LintOutput::Json;
    if (Name == "sarif")
      return LintOutput::Sarif;
    return std::nullopt;
  };
  if (OutputOpt.empty())
    return Out{{Kind(Format.value_or("text")).value_or(LintOutput::Text),
                std::string(OutputFile.value_or("-"))}};
  if (Format || OutputFile)
    return createStringError(inconvertibleErrorCode(),
                             "--output replaces --format and -o: give the "
                             "formats and files there");
  Out L;
  std::set<std::string> Paths;
  for (const std::string &Spec : OutputOpt) {
    auto [Name, Path] = StringRef(Spec).split(':');
    std::optional<LintOutput> K = Kind(Name);
    if (!K || Path.empty())
      return createStringError(inconvertibleErrorCode(),
                               "--output: '%s' is not FORMAT:PATH with "
                               "FORMAT text, json or sarif ('-' for stdout)",
                               Spec.c_str());
    if (!Paths.insert(Path.str()).second)
      return createStringError(inconvertibleErrorCode(),
                               "--output: two reports go to '%s'",
                               Path.str().c_str());
    L.push_back({*K, Path.str()});
  }
  return L;
}

void roofline::printToolMessage(const Twine &Kind, const Twine &Msg) {
  printErr("roofline-lint: " + Kind + ": ", Msg);
}

cl::OptionCategory &roofline::ciOptionCategory() { return CICategory; }
cl::OptionCategory &roofline::programOptionCategory() {
  return ProgramCategory;
}

bool roofline::configOnlyRequested() { return DumpConfig || ListChecks; }

//===----------------------------------------------------------------------===//
// The run
//===----------------------------------------------------------------------===//

namespace {

/// Where the reports go. Text and SARIF may go to several places (the log
/// and a file); the JSON report is assembled once.
struct ReportSinks {
  std::vector<raw_ostream *> Text, Sarif;
  raw_ostream *Json = nullptr, *IR = nullptr;
};

Expected<ReportSinks> sortSinks(const LintRequest &Req) {
  ReportSinks S;
  for (const LintSink &K : Req.Sinks) {
    reportStreams().push_back(K.OS);
    if (K.Kind == LintOutput::Text)
      S.Text.push_back(K.OS);
    else if (K.Kind == LintOutput::Sarif)
      S.Sarif.push_back(K.OS);
    else if (K.Kind == LintOutput::Json && S.Json)
      return createStringError(inconvertibleErrorCode(),
                               "--output: one json report per run");
    else
      (K.Kind == LintOutput::Json ? S.Json : S.IR) = K.OS;
  }
  return S;
}

/// --dump-config and --list-checks: the configuration of the first input.
Error printConfiguration(const LintRequest &Req, SettingsResolver &Resolver,
                         raw_ostream &OS) {
  std::string For = Req.Inputs.empty() ? normalizePath("./.")
                                       : normalizePath(Req.Inputs.front());
  Expected<Config> C = Resolver.effective(
      // A directory: as for a file directly in it.
      sys::fs::is_directory(For) ? For + "/-" : For);
  if (!C)
    return C.takeError();
  if (ListChecks) {
    listChecks(OS, *C);
    return Error::success();
  }
  Config Full = Resolver.withDefaults(std::move(*C));
  OS << "# roofline-lint configuration for " << For << "\n# from: ";
  std::vector<std::string> From;
  for (const std::string &S : Full.Sources)
    From.push_back(S);
  OS << (From.empty() ? std::string("defaults") : join(From, ", ")) << "\n";
  OS << dumpConfig(Full);
  return Error::success();
}

/// The translation units to parse: the sources named, and for a header
/// named explicitly (a pre-commit hook's staged header) one that includes
/// it.
struct UnitList {
  std::vector<std::string> Units;
  std::map<std::string, std::set<std::string>> HeadersOf;
  std::set<std::string> Named;
};

UnitList translationUnits(const LintRequest &Req,
                          const std::vector<std::string> &Files) {
  UnitList U;
  for (const std::string &F : Files) {
    if (!isHeaderFile(F)) {
      if (U.Named.insert(F).second)
        U.Units.push_back(F);
      continue;
    }
    std::optional<std::string> TU =
        translationUnitFor(F, headerCandidates(Req, Files, F));
    if (!TU) {
      note("'" + F + "' is a header that no translation unit" +
           (Req.FromBuildDir ? " of the compilation database" : " beside it") +
           " includes: skipped");
      continue;
    }
    U.HeadersOf[*TU].insert(F);
    if (!llvm::is_contained(Files, *TU) && !llvm::is_contained(U.Units, *TU))
      U.Units.push_back(*TU);
  }
  return U;
}

/// What each file is analyzed with, and the files left out.
struct JobList {
  std::vector<FileJob> Work;
  std::set<std::string> ConfigErrors;
  DroppedFlags Dropped;
  size_t OutsideFilter = 0; ///< files with no line in the line filter
};

// Settings and compile commands for every file, before any parsing: a bad
// config stops the run with nothing half-done.
JobList fileJobs(const LintRequest &Req, const UnitList &U,
                 SettingsResolver &Resolver,
                 std::optional<LineNarrowing> &Narrow,
                 std::vector<roofline::FileError> &FileErrors, bool &HadErrors) {
  JobList L;
  for (const std::string &F : U.Units) {
    FileJob J;
    J.File = F;
    Expected<Config> C = Resolver.effective(F);
    if (!C) {
      std::string Msg = toString(C.takeError());
      if (L.ConfigErrors.insert(Msg).second)
        printErr(Msg + "\n");
      continue;
    }
    Expected<FileSettings> S = Resolver.settings(*C);
    if (!S) {
      std::string Msg = toString(S.takeError());
      std::string From = C->Sources.empty() ? "" : " (" + C->Sources.back() + ")";
      if (L.ConfigErrors.insert(Msg + From).second)
        error(Msg + From);
      continue;
    }
    J.Settings = std::move(*S);
    J.ReportMain = U.Named.count(F) > 0;
    J.OwnHeaderFilter = J.Settings.FOpts.HeaderFilter;
    if (auto H = U.HeadersOf.find(F); H != U.HeadersOf.end()) {
      J.Headers = H->second;
      std::string &Filter = J.Settings.FOpts.HeaderFilter;
      for (const std::string &Header : J.Headers)
        Filter += (Filter.empty() ? "" : "|") + headerNameRegex(Header);
    }
    if (Narrow && J.Headers.empty() && !Narrow->wantsFile(F, J.Settings)) {
      ++L.OutsideFilter; // no line of it is asked for
      continue;
    }
    std::vector<tooling::CompileCommand> Cmds = Req.DB->getCompileCommands(F);
    if (Cmds.empty()) {
      error("no compile command for '" + F + "' in the compilation database");
      FileErrors.push_back({F, "no compile command in the compilation database"});
      HadErrors = true;
      continue;
    }
    J.Cmd = adjustedCommand(Cmds.front(), J.Settings, L.Dropped);
    L.Work.push_back(std::move(J));
  }
  return L;
}

/// The request's adjuster with --extra-arg-before and --extra-arg (and the
/// arguments after "--") added.
tooling::ArgumentsAdjuster argumentAdjuster(const LintRequest &Req) {
  std::vector<std::string> Before(ExtraArgBefore.begin(), ExtraArgBefore.end());
  std::vector<std::string> After(ExtraArg.begin(), ExtraArg.end());
  After.insert(After.end(), Req.TrailingArgs.begin(), Req.TrailingArgs.end());
  tooling::ArgumentsAdjuster Adjust = Req.Adjust;
  if (!Before.empty())
    Adjust = tooling::combineAdjusters(
        Adjust, tooling::getInsertArgumentAdjuster(
                    Before, tooling::ArgumentInsertPosition::BEGIN));
  if (!After.empty())
    Adjust = tooling::combineAdjusters(
        Adjust, tooling::getInsertArgumentAdjuster(
                    After, tooling::ArgumentInsertPosition::END));
  return Adjust;
}

/// The files' analyses: on -j threads, started at once, or one at a time
/// when the run asks for the next.
class FileAnalyses {
public:
  FileAnalyses(const LintRequest &Req, const std::vector<FileJob> &Work,
               tooling::ArgumentsAdjuster Adjust, const Baseline *BP,
               bool LoopExtents)
      : Req(Req), Work(Work), Adjust(std::move(Adjust)), BP(BP),
        LoopExtents(LoopExtents), Results(Work.size()) {
    unsigned Threads = Jobs == 0 ? hardware_concurrency().compute_thread_count()
                                 : Jobs.getValue();
    // One file: its nests are analyzed on the -j threads (parallelForChunks
    // in the analysis); several: the files are, each nest by nest in turn.
    // Unless -j says so, a file needs many nests to be worth the threads.
    parallel::strategy = hardware_concurrency(Work.size() == 1 ? Threads : 1);
    setMinParallelItems(Jobs == 0 ? MinNestsForThreads : 2);
    Threads = std::max(1u, std::min<unsigned>(Threads, Work.size()));
    if (Threads > 1) {
      Pool.emplace(hardware_concurrency(Threads));
      for (size_t I = 0; I < Work.size(); ++I)
        Done.push_back(Pool->async([this, I] { Results[I] = analyze(I); }));
    }
  }

  /// File \p I's result (analyzed now without threads).
  std::optional<FileResult> &take(size_t I) {
    if (Pool)
      Done[I].wait();
    else
      Results[I] = analyze(I);
    return Results[I];
  }

  void wait() {
    if (Pool)
      Pool->wait();
  }

private:
  FileResult analyze(size_t I) const {
    return analyzeFile(Req, Work[I], Adjust, BP, LoopExtents);
  }

  const LintRequest &Req;
  const std::vector<FileJob> &Work;
  tooling::ArgumentsAdjuster Adjust;
  const Baseline *BP;
  bool LoopExtents;
  // Workers fill Results[I]; the run takes them in order.
  std::vector<std::optional<FileResult>> Results;
  std::vector<std::shared_future<void>> Done;
  std::optional<DefaultThreadPool> Pool; // last: it stops first
};

/// What the run gathers from its files, in input order.
struct RunCollector {
  RunCollector(const LintRequest &Req, const ReportSinks &Sinks,
               std::optional<LineNarrowing> &Narrow, LintOutcome &Out,
               std::vector<roofline::FileError> &FileErrors, bool &HadErrors)
      : Req(Req), Sinks(Sinks), Narrow(Narrow), Out(Out),
        FileErrors(FileErrors), HadErrors(HadErrors) {}

  /// Reports \p Res, file \p Job's result; whether it went into the
  /// reports (false: it did not compile, or --dump-ir printed it).
  Expected<bool> take(const FileJob &Job, FileResult &Res);

  const LintRequest &Req;
  const ReportSinks &Sinks;
  std::optional<LineNarrowing> &Narrow;
  LintOutcome &Out;
  std::vector<roofline::FileError> &FileErrors;
  bool &HadErrors;

  std::vector<Finding> AllFindings;
  size_t NestCount = 0, SkippedCount = 0;
  JsonReportWriter Json;
  std::vector<BaselineNest> NewBaseline;
  SeenSet Seen;
  SourceLines SourceCache;
  std::set<std::string> SeenNoLintProblems;
  std::set<std::string> EntriesFound;
};

Expected<bool> RunCollector::take(const FileJob &Job, FileResult &Res) {
  if (!Res.TU.Diagnostics.empty())
    printErr(Res.TU.Diagnostics);
  for (const std::string &P : Res.TU.Nests.ParamNames)
    Out.ParamNames.insert(P);
  if (!Res.TU.Compiled) {
    error("'" + Job.File +
          "' does not compile: its loop nests are not analyzed");
    FileErrors.push_back({Job.File, "does not compile"});
    HadErrors = true;
    return false;
  }
  if (Sinks.IR) {
    for (const LoopNest &N : Res.TU.Nests.Nests)
      *Sinks.IR << printNest(N);
    for (const SkippedNest &S : Res.TU.Nests.Skipped)
      *Sinks.IR << "skipped @" << S.Function << " at " << S.Loc.File << ":"
                << S.Loc.Line << ":" << S.Loc.Column << ": " << S.Reason
                << "\n";
    return false;
  }
  if (Job.Settings.Policy.Checks.contains(checkName(CheckId::NoLint)))
    for (const std::string &P : Res.NoLintProblems)
      if (SeenNoLintProblems.insert(P).second)
        printErr(P + "\n");
  if (!Job.Headers.empty())
    keepNamedHeaders(Res, Job);
  if (Narrow)
    Narrow->apply(Res);
  if (!nestSelectors().empty())
    keepSelectedNests(Res, Out.NestSelectorsMatched);
  dropSeenHeaderNests(Res, Job.File, Seen);
  for (const ProgramSummary &P : Res.Programs) {
    EntriesFound.insert(P.Entry);
    if (Req.KeepNests)
      Out.Programs.push_back(P);
  }
  if (!Sinks.Text.empty()) {
    std::string Text;
    raw_string_ostream TOS(Text);
    printFileText(TOS, Res, Req.ShowSource, SourceCache, VerbosityOpt, Quiet);
    for (const ProgramSummary &P : Res.Programs)
      printProgramText(TOS, P);
    for (raw_ostream *T : Sinks.Text) {
      *T << Text;
      T->flush(); // a file at a time: CI logs show progress
    }
  }
  if (!WriteBaselineOpt.empty()) {
    std::vector<BaselineNest> E = baselineEntries(Res.R, Res.Ord);
    NewBaseline.insert(NewBaseline.end(), E.begin(), E.end());
  }
  NestCount += Res.R.Nests.size();
  SkippedCount += Res.R.Skipped.size();
  if (Res.JsonRest) {
    // Spool the nests in report order; keep only the small parts.
    for (const AnalyzedNest &A : Res.R.Nests) {
      auto It = Res.NestJson.find(keyOf(A.Nest.Loc, A.Nest.Function));
      if (It != Res.NestJson.end())
        if (Error E = Json.addNest(It->second))
          return std::move(E);
    }
    Json.addFile(std::move(*Res.JsonRest));
  }
  appendTo(Req.KeepNests ? &Out.Combined : nullptr, AllFindings, Res);
  return true;
}

/// The SARIF log of \p Findings, one line of text.
std::string sarifText(const LintRequest &Req,
                      const std::vector<Finding> &Findings,
                      const std::vector<roofline::FileError> &FileErrors,
                      bool WithBaseline) {
  SarifOptions SO;
  SO.ToolVersion = Req.ToolVersion;
  std::string Base = DocsUrl;
  if (!Base.empty() && Base.back() != '/')
    Base += '/';
  SO.DocsBaseUri = Base.empty() ? "" : Base + "diagnostics/";
  SO.InformationUri = Base.empty() ? "" : Base + "roofline-lint.md";
  SmallString<256> Cwd;
  sys::fs::current_path(Cwd);
  SO.SourceRoot = std::string(Cwd);
  SO.WithBaseline = WithBaseline;
  SO.Errors = FileErrors;
  return toSarifText(Findings, SO) + "\n";
}

/// --write-baseline's file.
Error writeBaselineFile(const std::vector<BaselineNest> &Nests) {
  std::error_code EC;
  raw_fd_ostream BOS(WriteBaselineOpt, EC);
  if (EC)
    return createStringError(inconvertibleErrorCode(),
                             "cannot write '" + WriteBaselineOpt +
                                 "': " + EC.message());
  SmallString<256> Dir(WriteBaselineOpt);
  sys::path::remove_filename(Dir);
  BOS << formatv("{0:2}", baselineToJSON(Nests, Dir.empty() ? StringRef(".")
                                                            : Dir.str()))
      << "\n";
  return Error::success();
}

/// --baseline's file, where one is given.
Expected<std::optional<Baseline>> loadBaseline() {
  if (BaselineOpt.empty())
    return std::nullopt;
  Expected<Baseline> Loaded = Baseline::load(BaselineOpt);
  if (!Loaded)
    return Loaded.takeError();
  if (std::optional<std::string> W = Loaded->matchesNothing())
    warning(*W);
  return std::optional<Baseline>(std::move(*Loaded));
}

/// The JSON report, the SARIF log and --write-baseline's file.
Error writeReports(const LintRequest &Req, const ReportSinks &Sinks,
                   RunCollector &C, const RunSummary &Sum, bool WithBaseline) {
  if (Sinks.Json) {
    // Even when no file could be analyzed, CI gets an object to read.
    for (auto &KV : ciFields(C.AllFindings, C.FileErrors, Sum))
      C.Json.set(KV.first, std::move(KV.second));
    std::string Diagnostics;
    {
      JsonWriter W(Diagnostics, /*IndentSize=*/2, /*Indent=*/2);
      writeDiagnosticsJSON(W, C.AllFindings);
    }
    C.Json.setText("diagnostics", std::move(Diagnostics));
    C.Json.set("version", 1);
    if (Error E = C.Json.write(*Sinks.Json))
      return E;
  }
  if (!Sinks.Sarif.empty()) {
    std::string Sarif =
        sarifText(Req, C.AllFindings, C.FileErrors, WithBaseline);
    for (raw_ostream *S : Sinks.Sarif)
      *S << Sarif;
  }
  if (!WriteBaselineOpt.empty())
    return writeBaselineFile(C.NewBaseline);
  return Error::success();
}

} // namespace

LintOutcome roofline::runLint(const LintRequest &Req, raw_ostream &OS) {
  LintOutcome Out;
  auto Fail = [&](const Twine &Msg) {
    std::string S = Msg.str();
    // A config file's own diagnostic ("file:3:1: error: ...") as it is.
    if (StringRef(S).contains(": error: "))
      printErr(S + "\n");
    else
      error(S);
    Out.ExitCode = 2;
    return std::move(Out);
  };
  Expected<ReportSinks> Sinks = sortSinks(Req);
  if (!Sinks)
    return Fail(toString(Sinks.takeError()));

  Expected<Config> CmdLayer = commandLineLayer(Req);
  if (!CmdLayer)
    return Fail(toString(CmdLayer.takeError()));
  SettingsResolver Resolver(Req, std::move(*CmdLayer), Out);
  if (Error E = Resolver.init())
    return Fail(toString(std::move(E)));

  if (DumpConfig || ListChecks) {
    if (Error E = printConfiguration(Req, Resolver, OS))
      return Fail(toString(std::move(E)));
    return Out;
  }

  Expected<std::optional<LineFilter>> Lines = requestedLineFilter();
  if (!Lines)
    return Fail(toString(Lines.takeError()));
  if (CrossTUOpt && !Req.FromBuildDir)
    return Fail("--cross-tu needs a compile database (-p BUILD_DIR): the "
                "other translation units are its files");
  std::optional<LineNarrowing> Narrow;
  if (*Lines)
    Narrow.emplace(std::move(**Lines));

  std::vector<std::string> InputErrors;
  Expected<std::vector<std::string>> Files = inputFiles(Req, InputErrors);
  if (!Files)
    return Fail(toString(Files.takeError()));
  for (const std::string &E : InputErrors)
    error(E);
  bool HadErrors = !InputErrors.empty();
  std::vector<FileError> FileErrors;
  for (const std::string &E : InputErrors)
    FileErrors.push_back({"", E});

  Expected<std::optional<Baseline>> Loaded = loadBaseline();
  if (!Loaded)
    return Fail(toString(Loaded.takeError()));
  std::optional<Baseline> &B = *Loaded;

  UnitList Units = translationUnits(Req, *Files);
  JobList Plan = fileJobs(Req, Units, Resolver, Narrow, FileErrors, HadErrors);
  std::vector<FileJob> &Work = Plan.Work;
  if (!Plan.ConfigErrors.empty()) {
    Out.ExitCode = 2;
    return Out;
  }
  if (Work.empty() && !HadErrors) {
    if (Plan.OutsideFilter || !Units.HeadersOf.empty() ||
        Units.Units.size() < Files->size()) {
      // Nothing to report is a clean run: a pull request that changed no
      // loop, a hook given only headers nothing includes.
      if (!Quiet && Plan.OutsideFilter)
        note("no line of the " + Twine(Plan.OutsideFilter) + " input file" +
             (Plan.OutsideFilter == 1 ? "" : "s") + " is in the line filter" +
             (DiffOpt.empty() ? "" : " (changed since " + DiffOpt + ")"));
      return Out;
    }
    return Fail("no input files (try --help)");
  }
  noteDroppedFlags(Plan.Dropped);

  if (B)
    if (std::optional<std::string> W = baselineMismatch(
            *B, Work.empty() ? "" : Work.front().Settings.M->Name,
            Work.empty() ? "" : trafficModelName(Work.front().Settings.Model)))
      warning(*W);

  tooling::ArgumentsAdjuster Adjust = argumentAdjuster(Req);
  // --entry with -p follows calls into the database's other files; with
  // --cross-tu, so do the nests.
  if ((!EntryOpt.empty() || CrossTUOpt) && Req.FromBuildDir && Req.DB) {
    auto CrossTU = std::make_shared<CrossTUDefinitions>(
        Req.DB->getAllCompileCommands(), Adjust, Req.VirtualFiles);
    for (FileJob &J : Work) {
      J.Settings.FOpts.CrossTU = CrossTU;
      J.Settings.FOpts.CrossTUNests = CrossTUOpt;
    }
  }
  FileAnalyses Analyses(Req, Work, Adjust, B ? &*B : nullptr,
                        /*LoopExtents=*/Narrow.has_value());
  Report &All = Out.Combined;
  All.M = Work.empty() ? nullptr : Work.front().Settings.M;
  All.Model =
      Work.empty() ? TrafficModel::Compulsory : Work.front().Settings.Model;
  RunCollector C(Req, *Sinks, Narrow, Out, FileErrors, HadErrors);
  for (size_t I = 0; I < Work.size(); ++I) {
    std::optional<FileResult> &Res = Analyses.take(I);
    Expected<bool> Reported = C.take(Work[I], *Res);
    if (!Reported)
      return Fail(toString(Reported.takeError()));
    if (*Reported && I + 1 == Work.size())
      // The process ends soon: its last file's nests are not torn down,
      // as clang's -disable-free (reachable, so leak checkers stay quiet).
      BuryPointer(std::make_unique<FileResult>(std::move(*Res)));
    Res.reset(); // keep memory flat in the number of files
  }
  Analyses.wait();

  RunSummary Sum = summarize(C.AllFindings, Work.size());
  Sum.Nests = C.NestCount;
  Sum.Skipped = C.SkippedCount;
  Sum.FileErrors = FileErrors.size();
  if (Error E = writeReports(Req, *Sinks, C, Sum, B.has_value()))
    return Fail(toString(std::move(E)));

  if (!Quiet && !Sinks->IR &&
      (Sum.Errors || Sum.Warnings || Sum.Suppressed || Sum.AcceptedByBaseline ||
       HadErrors))
    printSummary(Sum, Work.size(), FileErrors.size(), B.has_value());

  // An empty or loop-free input says so rather than leaving a silent pass
  // that looks like a run that checked something.
  if (!Quiet && !Sinks->Text.empty() && !HadErrors && !C.NestCount &&
      !C.SkippedCount)
    printErr("roofline-lint: no loop nests found " +
             std::string(Narrow ? "on the filtered lines of " : "in ") +
             std::to_string(Work.size()) + " file" +
             (Work.size() == 1 ? "" : "s") + "\n");

  for (const std::string &E : EntryOpt)
    if (!C.EntriesFound.count(E) && !Work.empty()) {
      error("--entry=" + E + ": no function of that name with a body in " +
            (Work.size() == 1 ? "the input file" : "the input files"));
      HadErrors = true;
    }

  if (HadErrors)
    Out.ExitCode = 2;
  else if (Sum.Failures && WriteBaselineOpt.empty())
    Out.ExitCode = 1;
  return Out;
}
