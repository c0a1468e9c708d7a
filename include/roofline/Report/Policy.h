//===- Policy.h - What a CI run reports and what fails it ------------------===//
//
// Turns one file's Report into its findings under the run's policy: which
// checks are enabled (`checks`), the thresholds (min-intensity, max-time),
// --fail-on and --warnings-as-errors, and NOLINT suppressions. The exit
// code follows: any finding with Fails set makes it 1.
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_REPORT_POLICY_H
#define ROOFLINE_REPORT_POLICY_H

#include "roofline/Config/Config.h"
#include "roofline/Config/GlobList.h"
#include "roofline/Report/Finding.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>
#include <vector>

namespace roofline {

struct PolicyOptions {
  GlobList Checks = GlobList("roofline-*");
  GlobList WarningsAsErrors;
  std::vector<FailOnPolicy> FailOn;
  std::optional<double> MinIntensity; ///< FLOP/byte
  std::optional<double> MaxTime;      ///< seconds

  bool failsOn(FailOnPolicy P) const;
};

/// Whether a NOLINT comment covers \p Check at \p Loc.
using SuppressFn =
    llvm::function_ref<bool(const SourceLoc &Loc, llvm::StringRef Check)>;

/// The findings of one file's report, in source order: a verdict remark (or
/// capacity error) per analyzed nest, an unanalyzable note (an error under
/// --fail-on=unanalyzable) per skipped nest, threshold warnings and
/// --fail-on errors. \p Extra (annotation warnings) goes through the same
/// selection. Disabled checks yield nothing; suppressed findings are kept,
/// marked, and never fail.
std::vector<Finding> evaluatePolicies(const Report &R, const NestOrdinals &Ord,
                                      const PolicyOptions &O,
                                      std::vector<Finding> Extra,
                                      SuppressFn IsSuppressed);

} // namespace roofline

#endif // ROOFLINE_REPORT_POLICY_H
