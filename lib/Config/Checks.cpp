//===- Checks.cpp - The diagnostics roofline-lint can emit -----------------===//

#include "roofline/Config/Checks.h"

#include <cassert>
#include <vector>

using namespace roofline;

const char *roofline::severityName(Severity S) {
  switch (S) {
  case Severity::Remark:
    return "remark";
  case Severity::Note:
    return "note";
  case Severity::Warning:
    return "warning";
  case Severity::Error:
    return "error";
  }
  return "error";
}

static const CheckInfo Checks[] = {
    {CheckId::Verdict, "roofline-verdict", Severity::Remark,
     "docs/diagnostics/roofline-verdict.md",
     "The roofline verdict of a loop nest: compute-bound or memory-bound on "
     "the machine, with its arithmetic intensity and time floor."},
    {CheckId::Unanalyzable, "roofline-unanalyzable", Severity::Note,
     "docs/diagnostics/roofline-unanalyzable.md",
     "A loop nest that cannot be counted exactly, with the reason; an error "
     "under --fail-on=unanalyzable."},
    {CheckId::Capacity, "roofline-capacity", Severity::Error,
     "docs/diagnostics/roofline-capacity.md",
     "The data a loop nest touches does not fit in the machine's memory; "
     "fails the run under --fail-on=capacity."},
    {CheckId::MemoryBound, "roofline-memory-bound", Severity::Warning,
     "docs/diagnostics/roofline-memory-bound.md",
     "A memory-bound loop nest, with a what-if table of legal transforms "
     "(tiling, quantization, batching, fusion) best first; an error under "
     "--fail-on=memory-bound."},
    {CheckId::MinIntensity, "roofline-min-intensity", Severity::Warning,
     "docs/diagnostics/roofline-min-intensity.md",
     "A loop nest whose arithmetic intensity is below the configured "
     "min-intensity."},
    {CheckId::MaxTime, "roofline-max-time", Severity::Warning,
     "docs/diagnostics/roofline-max-time.md",
     "A loop nest whose time floor is above the configured max-time."},
    {CheckId::Baseline, "roofline-baseline", Severity::Error,
     "docs/diagnostics/roofline-baseline.md",
     "A loop nest that got worse than in the baseline: lower arithmetic "
     "intensity, a worse verdict, or no longer analyzable."},
    {CheckId::Annotation, "roofline-annotation", Severity::Warning,
     "docs/diagnostics/roofline-annotation.md",
     "A malformed `// roofline:` size annotation, or one naming no size of "
     "its nest."},
    {CheckId::StridedAccess, "roofline-strided-access", Severity::Warning,
     "docs/diagnostics/roofline-strided-access.md",
     "A reference the innermost loop walks with a stride that uses less than "
     "half of each cache line (cache model), with the legal loop order that "
     "walks it along a row."},
    {CheckId::Aliasing, "roofline-aliasing", Severity::Warning,
     "docs/diagnostics/roofline-aliasing.md",
     "Two arrays of a loop nest that provably share memory (a pointer into "
     "another array, or one array passed for two pointer parameters): the "
     "counts and the generated variants treat them as distinct."},
    {CheckId::FusionOpportunity, "roofline-fusion-opportunity", Severity::Warning,
     "docs/diagnostics/roofline-fusion-opportunity.md",
     "Adjacent elementwise loops that pass intermediate arrays through "
     "memory; fused, the intermediates could stay on chip."},
    {CheckId::NoLint, "roofline-nolint", Severity::Warning,
     "docs/diagnostics/roofline-nolint.md",
     "A NOLINTBEGIN without its NOLINTEND, or a NOLINTEND without its "
     "NOLINTBEGIN: it suppresses nothing."},
};

llvm::ArrayRef<CheckInfo> roofline::allChecks() { return Checks; }

const CheckInfo &roofline::check(CheckId Id) {
  const CheckInfo &C = Checks[static_cast<size_t>(Id)];
  assert(C.Id == Id && "the table lists the checks in CheckId order");
  return C;
}

llvm::ArrayRef<llvm::StringRef> roofline::allCheckNames() {
  static const std::vector<llvm::StringRef> Names = [] {
    std::vector<llvm::StringRef> N;
    for (const CheckInfo &C : Checks)
      N.push_back(C.Name);
    return N;
  }();
  return Names;
}

const CheckInfo *roofline::findCheck(llvm::StringRef Name) {
  for (const CheckInfo &C : Checks)
    if (C.Name == Name)
      return &C;
  return nullptr;
}
