//===- CIJson.cpp - The CI fields of --format=json -------------------------===//

#include "roofline/Report/CIJson.h"
#include "roofline/Support/JsonText.h"


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

void roofline::writeDiagnosticsJSON(JsonWriter &W,
                                    const std::vector<Finding> &Findings) {
  W.arrayBegin();
  for (const Finding &F : Findings) {
    W.objectBegin();
    if (F.Baseline != BaselineState::None) {
      W.key("baseline");
      W.string(baselineStateName(F.Baseline));
    }
    W.key("check");
    W.string(F.Check);
    W.key("column");
    W.integer(static_cast<int64_t>(F.Loc.Column));
    W.key("fails");
    W.boolean(F.Fails);
    W.key("file");
    W.string(F.Loc.File);
    W.key("function");
    W.string(F.Function);
    W.key("line");
    W.integer(static_cast<int64_t>(F.Loc.Line));
    W.key("message");
    W.string(F.Message);
    W.key("notes");
    W.arrayBegin();
    for (const std::string &N : F.Notes)
      W.string(N);
    W.arrayEnd();
    W.key("ordinal");
    W.integer(static_cast<int64_t>(F.Ordinal));
    W.key("severity");
    W.string(severityName(F.Level));
    W.key("suppressed");
    W.boolean(F.Suppressed);
    W.objectEnd();
  }
  W.arrayEnd();
}
