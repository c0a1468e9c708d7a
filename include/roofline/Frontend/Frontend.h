//===- Frontend.h - Clang AST to LoopNest IR -------------------------------===//
//
// Finds every outermost loop of every function (template instantiations
// included) and lowers it to a LoopNest, or records why it cannot be
// analyzed exactly. This is the only component that sees Clang.
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_FRONTEND_FRONTEND_H
#define ROOFLINE_FRONTEND_FRONTEND_H

#include "roofline/Config/Checks.h"
#include "roofline/Frontend/Program.h"
#include "roofline/IR/LoopNest.h"

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
namespace tooling {
class FrontendActionFactory;
} // namespace tooling
} // namespace clang

namespace roofline {

class CrossTUDefinitions;

struct FrontendOptions {
  /// --param NAME=VALUE: overrides any value the source gives.
  std::map<std::string, int64_t> Params;
  /// `params` of .roofline.yaml: below --param and a nest's
  /// `// roofline: N=...` annotation, above what the source says.
  std::map<std::string, int64_t> ConfigParams;
  /// Nests in headers whose path matches this regex are lowered too
  /// (--header-filter); empty: the main file only. Never system headers.
  std::string HeaderFilter;
  /// At most this many nests per translation unit are lowered (0: no
  /// limit); the rest are reported as one unanalyzed entry. Each analyzed
  /// nest keeps its report in memory, so a generated 50 MB source with
  /// 600,000 loops would otherwise need tens of GB.
  unsigned MaxNests = 10000;
  /// --entry: functions whose whole pass through the call graph is
  /// collected (Program.h).
  std::vector<std::string> Entries;
  /// The sizes one call passes to the function being built ("fn:N"), set
  /// by the program walk; they win over every other source for that call.
  std::map<std::string, int64_t> CallParams;
  /// Struct fields the translation unit sets from one literal, by field
  /// name (`c.dim = 288;` in main), set by the program walk: below every
  /// other source, and only for a size that is a field (docs/network-report.md).
  std::map<std::string, int64_t> FieldLiterals;
  /// With `-p` and `--entry`: the compile database's other translation
  /// units, where the walk looks for a callee this one only declares
  /// (CrossTU.h); null: no lookup.
  std::shared_ptr<CrossTUDefinitions> CrossTU;
  /// --cross-tu: a call inside a nest is inlined from CrossTU too.
  bool CrossTUNests = false;
  /// Counts the nests of the Entries' passes for their formulas (Program.h:
  /// the Analysis, which the Frontend does not call); empty: the walk has
  /// numbers and no formulas.
  NestCounter CountNest;
};

/// A warning the front end finds about a nest: a malformed `// roofline:`
/// annotation (roofline-annotation), arrays that share memory
/// (roofline-aliasing).
struct NestIssue {
  CheckId Check;
  std::string Function;
  SourceLoc Loc; ///< the nest the annotation precedes
  std::string Message;
};

struct FrontendResult {
  std::vector<LoopNest> Nests;
  std::vector<SkippedNest> Skipped;
  /// Names of the parameters seen anywhere, to report unused --param.
  std::set<std::string> ParamNames;
  std::vector<NestIssue> Issues;
  /// One per --entry, in order.
  std::vector<ProgramResult> Programs;
};

/// Lowers the loop nests of the main file of \p Ctx into \p Out.
void extractNests(clang::ASTContext &Ctx, const FrontendOptions &Opts,
                  FrontendResult &Out);

/// A factory for ClangTool::run that calls extractNests on each file.
std::unique_ptr<clang::tooling::FrontendActionFactory>
newExtractNestsFactory(const FrontendOptions &Opts, FrontendResult &Out);

} // namespace roofline

#endif // ROOFLINE_FRONTEND_FRONTEND_H
