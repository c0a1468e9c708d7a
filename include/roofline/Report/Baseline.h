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
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace roofline {

struct BaselineNest {
  std::string File; ///< relative to the directory the run was made in
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
  static llvm::Expected<Baseline> parse(llvm::StringRef Text,
                                        llvm::StringRef Path);

  const BaselineNest *find(const std::string &File, const std::string &Function,
                           unsigned Ordinal) const;
  const std::string &path() const { return Path; }
  const std::vector<BaselineNest> &nests() const { return Nests; }

private:
  void index();
  std::string Path;
  std::vector<BaselineNest> Nests;
  std::map<std::tuple<std::string, std::string, unsigned>, size_t> Index;
};

/// The baseline entries of one file's report.
std::vector<BaselineNest> baselineEntries(const Report &R,
                                          const NestOrdinals &Ord);
/// {"version":1, "kind":"roofline-lint-baseline", "nests":[...]}.
llvm::json::Value baselineToJSON(const std::vector<BaselineNest> &Nests);

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
