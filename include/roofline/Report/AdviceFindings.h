//===- AdviceFindings.h - The advice's diagnostics as CI findings ---------===//
//
// [roofline-strided-access] (a warning at the access) and
// [roofline-fusion-opportunity] (a warning at the first loop of the run) as
// Findings, so that `checks`, NOLINT, --warnings-as-errors and SARIF treat
// them like every other check. [roofline-memory-bound] and its what-if notes
// are made with the verdict's findings (Policy.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_REPORT_ADVICEFINDINGS_H
#define ROOFLINE_REPORT_ADVICEFINDINGS_H

#include "roofline/Report/Finding.h"
#include "roofline/Report/Report.h"

#include <vector>

namespace roofline {

std::vector<Finding> adviceFindings(const Report &R, const NestOrdinals &Ord);

} // namespace roofline

#endif // ROOFLINE_REPORT_ADVICEFINDINGS_H
