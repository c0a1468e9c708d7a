//===- Policy.cpp - What a CI run reports and what fails it ----------------===//

#include "roofline/Report/Policy.h"
#include "roofline/Report/AdviceReport.h"
#include "roofline/Report/LevelReport.h"
#include "roofline/Report/Report.h"
#include "roofline/Support/Parallel.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>
#include <tuple>

using namespace roofline;

bool PolicyOptions::failsOn(FailOnPolicy P) const {
  return llvm::is_contained(FailOn, P);
}

namespace {

std::string fmt(double V) { return formatG(V, 4); }

Finding nestFinding(const AnalyzedNest &A, size_t Index, unsigned Ordinal,
                    CheckId Check, Severity Level, std::string Message) {
  Finding F;
  F.Check = checkName(Check).str();
  F.Level = Level;
  F.Loc = A.Nest.Loc;
  F.Function = A.Nest.Function;
  F.Ordinal = Ordinal;
  F.NestIndex = static_cast<int>(Index);
  F.Message = std::move(Message);
  return F;
}

std::string verdictMessage(const AnalyzedNest &A, const Machine &M) {
  const NestVerdict &J = A.Judged;
  if (!J.V)
    return A.Nest.Function + ": no verdict on " + M.Name + ": " + J.WhyNot;
  const Verdict &V = *J.V;
  return A.Nest.Function + ": " + boundKindName(V.Bound) + " on " + M.Name +
         " (" + V.Model + " traffic): AI " + fmt(V.Intensity) +
         " FLOP/B, ridge " + fmt(V.Ridge) + ", time floor " +
         formatSeconds(V.Time);
}

void nestFindings(const Report &R, size_t I, unsigned Ordinal,
                  const PolicyOptions &O, std::vector<Finding> &Out) {
  const AnalyzedNest &A = R.Nests[I];
  const std::string &Fn = A.Nest.Function;
  const std::optional<Verdict> &V = A.Judged.V;
  bool DoesNotFit = V && V->Bound == BoundKind::DoesNotFit;

  // The nest's own line: the capacity error replaces the verdict remark,
  // as in the text report.
  if (DoesNotFit) {
    Finding F = nestFinding(A, I, Ordinal, CheckId::Capacity,
                            Severity::Error,
                            capacityMessage(Fn, *V, *R.M));
    F.Fails = O.failsOn(FailOnPolicy::Capacity);
    Out.push_back(std::move(F));
  } else {
    Out.push_back(nestFinding(A, I, Ordinal, CheckId::Verdict,
                              Severity::Remark, verdictMessage(A, *R.M)));
  }
  if (!V)
    return; // thresholds and bounds need the numbers

  // A memory-bound nest: a warning with the what-if table (AdviceReport.h);
  // an error that fails the run under --fail-on=memory-bound.
  if (V->Bound == BoundKind::MemoryBound) {
    bool Fail = O.failsOn(FailOnPolicy::MemoryBound);
    Finding F = nestFinding(
        A, I, Ordinal, CheckId::MemoryBound,
        Fail ? Severity::Error : Severity::Warning,
        memoryBoundMessage(A, *R.M) + (Fail ? " (--fail-on=memory-bound)" : ""));
    F.Notes.push_back("attainable " + formatRate(V->Attainable, "FLOP/s") +
                      " of the " + formatRate(V->Peak, "FLOP/s") +
                      " peak; time floor " + formatSeconds(V->Time) + " (" +
                      V->Model + " traffic)");
    std::vector<std::string> WhatIf = whatIfNotes(A, *R.M);
    // --verbosity=brief keeps the best what-if (the row under the header).
    if (!A.Advice.Advice.empty() && WhatIf.size() > 1)
      F.BriefNote = "best what-if: " + llvm::StringRef(WhatIf[1]).ltrim().str();
    for (std::string &N : WhatIf)
      F.Notes.push_back(std::move(N));
    F.Fails = Fail;
    Out.push_back(std::move(F));
  }
  if (O.MinIntensity && std::isfinite(V->Intensity) &&
      V->Intensity < *O.MinIntensity)
    Out.push_back(nestFinding(A, I, Ordinal, CheckId::MinIntensity,
                              Severity::Warning,
                              Fn + ": arithmetic intensity " +
                                  fmt(V->Intensity) +
                                  " FLOP/B is below the minimum " +
                                  fmt(*O.MinIntensity) + " (" + V->Model +
                                  " traffic)"));
  if (O.MaxTime && V->Time > *O.MaxTime)
    Out.push_back(nestFinding(A, I, Ordinal, CheckId::MaxTime,
                              Severity::Warning,
                              Fn + ": time floor " + formatSeconds(V->Time) +
                                  " on " + R.M->Name + " exceeds the maximum " +
                                  formatSeconds(*O.MaxTime)));
}

} // namespace

std::vector<Finding> roofline::evaluatePolicies(const Report &R,
                                                const NestOrdinals &Ord,
                                                const PolicyOptions &O,
                                                std::vector<Finding> Extra,
                                                SuppressFn IsSuppressed) {
  assert(R.M && "a report is judged against a machine");
  // The nests' messages are built on the -j threads, kept in nest order.
  std::vector<std::vector<Finding>> PerNest(R.Nests.size());
  parallelForChunks(R.Nests.size(), [&](size_t I) {
    nestFindings(R, I, Ord.Nests[I], O, PerNest[I]);
  });
  std::vector<Finding> All;
  for (std::vector<Finding> &Fs : PerNest)
    std::move(Fs.begin(), Fs.end(), std::back_inserter(All));
  for (size_t I = 0; I < R.Skipped.size(); ++I) {
    const SkippedNest &S = R.Skipped[I];
    Finding F;
    F.Check = checkName(CheckId::Unanalyzable).str();
    F.Loc = S.Loc;
    F.Function = S.Function;
    F.Ordinal = Ord.Skipped[I];
    F.SkippedIndex = static_cast<int>(I);
    F.Message = "loop nest not analyzed: " + S.Reason;
    bool Fail = O.failsOn(FailOnPolicy::Unanalyzable);
    F.Level = Fail ? Severity::Error : Severity::Note;
    F.Fails = Fail;
    All.push_back(std::move(F));
  }
  for (Finding &F : Extra) {
    if (F.Check == checkName(CheckId::StridedAccess) &&
        O.failsOn(FailOnPolicy::StridedAccess)) {
      F.Level = Severity::Error;
      F.Fails = true;
    }
    All.push_back(std::move(F));
  }

  std::vector<Finding> Out;
  for (Finding &F : All) {
    if (!O.Checks.contains(F.Check))
      continue;
    if (F.Level == Severity::Warning && O.WarningsAsErrors.contains(F.Check)) {
      F.Level = Severity::Error;
      F.Promoted = true;
      F.Fails = true;
    }
    if (IsSuppressed(F.Loc, F.Check)) {
      F.Suppressed = true;
      F.Fails = false;
    }
    Out.push_back(std::move(F));
  }
  // Source order within a file; files in the report's order (its main
  // file before the headers it includes).
  std::map<std::string, size_t> FileRank;
  for (const AnalyzedNest &A : R.Nests)
    FileRank.emplace(A.Nest.Loc.File, FileRank.size());
  for (const SkippedNest &S : R.Skipped)
    FileRank.emplace(S.Loc.File, FileRank.size());
  auto Key = [&](const Finding &F) {
    auto It = FileRank.find(F.Loc.File);
    return std::make_tuple(It == FileRank.end() ? FileRank.size() : It->second,
                           F.Loc.Line, F.Loc.Column);
  };
  std::stable_sort(Out.begin(), Out.end(),
                   [&](const Finding &A, const Finding &B) {
                     return Key(A) < Key(B);
                   });
  return Out;
}
