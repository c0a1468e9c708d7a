//===- CIJson.cpp - The CI fields of --format=json -------------------------===//

#include "roofline/Report/CIJson.h"


using namespace roofline;
using JArray = llvm::json::Array;
using llvm::json::Object;

RunSummary roofline::summarize(const std::vector<Finding> &Findings,
                               unsigned Files) {
  RunSummary S;
  S.Files = Files;
  for (const Finding &F : Findings) {
    if (F.Suppressed) {
      ++S.Suppressed;
      continue;
    }
    S.Errors += F.Level == Severity::Error;
    S.Warnings += F.Level == Severity::Warning;
    S.Failures += F.Fails;
    S.AcceptedByBaseline += F.AcceptedByBaseline;
  }
  return S;
}

Object roofline::ciFields(const std::vector<Finding> &Findings,
                          const std::vector<FileError> &Errors,
                          const RunSummary &S) {
  Object Root;
  JArray Diags;
  for (const Finding &F : Findings) {
    JArray Notes;
    for (const std::string &N : F.Notes)
      Notes.push_back(N);
    Object D{{"check", F.Check},
             {"severity", severityName(F.Level)},
             {"file", F.Loc.File},
             {"line", static_cast<int64_t>(F.Loc.Line)},
             {"column", static_cast<int64_t>(F.Loc.Column)},
             {"function", F.Function},
             {"ordinal", static_cast<int64_t>(F.Ordinal)},
             {"message", F.Message},
             {"notes", std::move(Notes)},
             {"suppressed", F.Suppressed},
             {"fails", F.Fails}};
    if (F.Baseline != BaselineState::None)
      D["baseline"] = baselineStateName(F.Baseline);
    Diags.push_back(std::move(D));
  }
  Root["diagnostics"] = std::move(Diags);

  JArray Errs;
  for (const FileError &E : Errors)
    Errs.push_back(Object{{"file", E.File}, {"message", E.Message}});
  Root["errors"] = std::move(Errs);

  Root["summary"] =
      Object{{"files", static_cast<int64_t>(S.Files)},
             {"nests", static_cast<int64_t>(S.Nests)},
             {"skipped", static_cast<int64_t>(S.Skipped)},
             {"errors", static_cast<int64_t>(S.Errors)},
             {"warnings", static_cast<int64_t>(S.Warnings)},
             {"failures", static_cast<int64_t>(S.Failures)},
             {"suppressed", static_cast<int64_t>(S.Suppressed)},
             {"accepted_by_baseline", static_cast<int64_t>(S.AcceptedByBaseline)},
             {"file_errors", static_cast<int64_t>(S.FileErrors)}};
  return Root;
}
