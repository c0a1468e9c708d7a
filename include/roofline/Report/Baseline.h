//===- Baseline.h - Fail only on new or worsened nests ---------------------===//
//
// The way teams adopt a linter on legacy code: record today's nests, then
// fail CI only where a nest is new (and hits a policy) or got worse
// (lower arithmetic intensity beyond a tolerance, a worse verdict, no
// longer analyzable). Nests are matched by file, function and ordinal
// within the function, so edits above a function do not break matching.
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_REPORT_BASELINE_H
#define ROOFLINE_REPORT_BASELINE_H

#include "roofline/Report/Finding.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <map>
#include <set>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace roofline {

struct BaselineNest {
  /// Absolute once read; written relative to the baseline's directory.
  std::string File;
  std::string Function;
  unsigned Ordinal = 0;
  unsigned Line = 0, Column = 0; ///< for messages and ordering only
  bool Analyzable = true;
  std::optional<std::string> Bound; ///< "compute-bound", ...
  std::optional<double> Intensity;  ///< FLOP/byte under Model
  std::string Machine, Model;
};

class Baseline {
public:
  /// Reads a --write-baseline file or a --format=json report.
  static llvm::Expected<Baseline> load(llvm::StringRef Path);
  /// \p Path names it in messages; relative file names resolve against
  /// its directory (or \p Dir).
  static llvm::Expected<Baseline> parse(llvm::StringRef Text,
                                        llvm::StringRef Path);
  static llvm::Expected<Baseline> parse(llvm::StringRef Text,
                                        llvm::StringRef Path,
                                        llvm::StringRef Dir);

  const BaselineNest *find(const std::string &File, const std::string &Function,
                           unsigned Ordinal) const;
  const std::string &path() const { return Path; }
  const std::vector<BaselineNest> &nests() const { return Nests; }
  /// A warning when no file the baseline names exists: written from
  /// another directory by an older version, or for another tree.
  std::optional<std::string> matchesNothing() const;

private:
  void index();
  void resolvePaths(llvm::StringRef Dir, bool RelativeToDir);
  std::string Path;
  size_t FilesNamed = 0, FilesFound = 0;
  std::string FirstMissing;
  std::vector<BaselineNest> Nests;
  std::map<std::tuple<std::string, std::string, unsigned>, size_t> Index;
};

/// The baseline entries of one file's report.
std::vector<BaselineNest> baselineEntries(const Report &R,
                                          const NestOrdinals &Ord);
/// {"version":1, "kind":"roofline-lint-baseline", "paths":
/// "relative-to-baseline", "nests":[...]}, files relative to \p Dir (the
/// directory of the baseline file): it then matches from any directory.
llvm::json::Value baselineToJSON(const std::vector<BaselineNest> &Nests,
                                 llvm::StringRef Dir);

/// \p File (relative to \p Dir unless absolute) absolute, without . or ..
std::string absolutePathIn(llvm::StringRef Dir, llvm::StringRef File);
/// \p File relative to \p Dir ("../src/a.cpp"); absolute when they share
/// nothing but the root.
std::string relativePathFrom(llvm::StringRef Dir, llvm::StringRef File);

/// roofline-baseline errors for the nests of \p R that got worse than in
/// \p B (\p Tolerance: the relative intensity drop still accepted).
std::vector<Finding> baselineRegressions(const Baseline &B, const Report &R,
                                         const NestOrdinals &Ord,
                                         double Tolerance);

/// Sets each finding's baseline state; a policy hit on a nest that is in
/// the baseline and no worse stops failing.
void markBaseline(const Baseline &B, const Report &R, const NestOrdinals &Ord,
                  std::vector<Finding> &Findings, double Tolerance);

/// A warning when the baseline was made for another machine or traffic
/// model (its verdicts and intensities then compare poorly).
std::optional<std::string> baselineMismatch(const Baseline &B,
                                            const std::string &Machine,
                                            const std::string &Model);

} // namespace roofline

#endif // ROOFLINE_REPORT_BASELINE_H
