//===- Checks.cpp - The diagnostics roofline-lint can emit -----------------===//

#include "roofline/Config/Checks.h"

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
    {"roofline-verdict", Severity::Remark,
     "The roofline verdict of a loop nest: compute-bound or memory-bound on "
     "the machine, with its arithmetic intensity and time floor."},
    {"roofline-unanalyzable", Severity::Note,
     "A loop nest that cannot be counted exactly, with the reason; an error "
     "under --fail-on=unanalyzable."},
    {"roofline-capacity", Severity::Error,
     "The data a loop nest touches does not fit in the machine's memory; "
     "fails the run under --fail-on=capacity."},
    {"roofline-memory-bound", Severity::Warning,
     "A memory-bound loop nest, with a what-if table of legal transforms "
     "(tiling, quantization, batching, fusion) best first; an error under "
     "--fail-on=memory-bound."},
    {"roofline-min-intensity", Severity::Warning,
     "A loop nest whose arithmetic intensity is below the configured "
     "min-intensity."},
    {"roofline-max-time", Severity::Warning,
     "A loop nest whose time floor is above the configured max-time."},
    {"roofline-baseline", Severity::Error,
     "A loop nest that got worse than in the baseline: lower arithmetic "
     "intensity, a worse verdict, or no longer analyzable."},
    {"roofline-annotation", Severity::Warning,
     "A malformed `// roofline:` size annotation, or one naming no size of "
     "its nest."},
    {"roofline-strided-access", Severity::Warning,
     "A reference the innermost loop walks with a stride that uses less than "
     "half of each cache line (cache model), with the legal loop order that "
     "walks it along a row."},
    {"roofline-aliasing", Severity::Warning,
     "Two arrays of a loop nest that provably share memory (a pointer into "
     "another array, or one array passed for two pointer parameters): the "
     "counts and the generated variants treat them as distinct."},
    {"roofline-fusion-opportunity", Severity::Warning,
     "Adjacent elementwise loops that pass intermediate arrays through "
     "memory; fused, the intermediates could stay on chip."},
    {"roofline-nolint", Severity::Warning,
     "A NOLINTBEGIN without its NOLINTEND, or a NOLINTEND without its "
     "NOLINTBEGIN: it suppresses nothing."},
};

llvm::ArrayRef<CheckInfo> roofline::allChecks() { return Checks; }

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
