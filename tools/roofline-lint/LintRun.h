//===- LintRun.h - roofline-lint over many files, as a CI check -----------===//
//
// The part of the driver that makes roofline-lint a CI static check: input
// expansion (files, directories, the whole compilation database), one
// .roofline.yaml per file, translation units in parallel (-j) with output
// in input order, NOLINT, policies, baseline, and the text / JSON / SARIF
// writers. RooflineLint.cpp parses the basic options and hands over.
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_TOOLS_LINTRUN_H
#define ROOFLINE_TOOLS_LINTRUN_H

#include "roofline/Config/Config.h"
#include "roofline/Frontend/Frontend.h"
#include "roofline/Frontend/Runner.h"
#include "roofline/Report/Finding.h"
#include "roofline/Report/ProgramReport.h"
#include "roofline/Report/Report.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/CommandLine.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace roofline {

/// The CI options' --help category.
llvm::cl::OptionCategory &ciOptionCategory();
/// --entry and what goes with it.
llvm::cl::OptionCategory &programOptionCategory();

enum class LintOutput { Text, Json, Sarif, DumpIR };

/// One report of the run and where it goes.
struct LintSink {
  LintOutput Kind;
  llvm::raw_ostream *OS;
};

/// The reports asked for: --output=FORMAT:PATH,... or else --format and -o
/// (\p Format, \p OutputFile when given). PATH "-" is stdout.
llvm::Expected<std::vector<std::pair<LintOutput, std::string>>>
requestedOutputs(std::optional<llvm::StringRef> Format,
                 std::optional<llvm::StringRef> OutputFile);

/// "roofline-lint: warning: ..." on stderr, after the reports written so
/// far are flushed, in one write (docs/ci.md#output).
void printToolMessage(const llvm::Twine &Kind, const llvm::Twine &Msg);

struct LintRequest {
  std::vector<std::string> Inputs; ///< files and directories as given
  /// The compilation database (-p, or the arguments after --).
  const clang::tooling::CompilationDatabase *DB = nullptr;
  /// With -p: the arguments after -- (appended to each command).
  std::vector<std::string> TrailingArgs;
  bool FromBuildDir = false; ///< -p given: no inputs means all its files
  std::map<std::string, int64_t> Params; ///< --param
  /// The basic options that were given on the command line (machine,
  /// model); they override every .roofline.yaml.
  Config CommandLine;
  std::string DefaultMachine;
  std::vector<std::string> ModelNames;
  std::function<std::optional<TrafficModel>(llvm::StringRef)> ParseModel;
  clang::tooling::ArgumentsAdjuster Adjust;
  std::vector<VirtualFile> VirtualFiles;
  /// Counts and judges one file's nests (runs on worker threads).
  std::function<Report(FrontendResult &, const Machine &, TrafficModel)>
      Analyze;
  /// Inputs of the batching what-ifs, per nest and per pass (--batch).
  int64_t Batch = 64;
  /// The reports to write (one per kind), or a DumpIR sink alone.
  std::vector<LintSink> Sinks;
  /// Keep every nest for LintOutcome::Combined (the plot); otherwise a
  /// file's nests are dropped once reported.
  bool KeepNests = false;
  bool ShowSource = true;
  std::string ToolVersion;
};

struct LintOutcome {
  int ExitCode = 0;
  /// With KeepNests, every analyzed nest of the run (for the plot); its
  /// machine is the first file's (set also without KeepNests).
  Report Combined;
  /// With KeepNests, every `--entry` pass of the run (for the plot).
  std::vector<ProgramSummary> Programs;
  /// Names any analyzed nest used, for the unused --param warning.
  std::set<std::string> ParamNames;
  /// The --nest selectors that selected a nest, for the unused one warning.
  std::set<std::string> NestSelectorsMatched;
  /// Keeps the machines the reports point at alive.
  std::map<std::string, std::unique_ptr<Machine>> Machines;
};

/// Runs the check and writes the reports to Req.Sinks; --dump-config and
/// --list-checks print to \p OS. Usage and configuration errors are
/// printed and give exit code 2 before any file is parsed.
LintOutcome runLint(const LintRequest &Req, llvm::raw_ostream &OS);

/// --dump-config or --list-checks was given: the run only prints the
/// configuration (no input is needed).
bool configOnlyRequested();

} // namespace roofline

#endif // ROOFLINE_TOOLS_LINTRUN_H
