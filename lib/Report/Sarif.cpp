//===- Sarif.cpp - SARIF 2.1.0 for code scanning ---------------------------===//

#include "roofline/Report/Sarif.h"

#include "roofline/Support/JsonText.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

using namespace roofline;
using JArray = llvm::json::Array;
using llvm::json::Object;
using llvm::json::Value;

static constexpr const char *SrcRoot = "%SRCROOT%";

std::string roofline::uriEncodePath(llvm::StringRef Path) {
  std::string Out;
  for (unsigned char C : Path) {
    if (llvm::isAlnum(C) || C == '-' || C == '.' || C == '_' || C == '~' ||
        C == '/')
      Out += C;
    else
      Out += "%" + llvm::utohexstr(C, /*LowerCase=*/false, /*Width=*/2);
  }
  return Out;
}

namespace {

/// SARIF has no remark level: a remark is a note there.
const char *sarifLevel(Severity S) {
  return S == Severity::Remark ? "note" : severityName(S);
}

/// A location relative to %SRCROOT% when the file is under it, else an
/// absolute file:// URI.
Object artifactLocation(const std::string &File) {
  std::string Rel = relativeToCwd(File);
  if (llvm::sys::path::is_absolute(Rel))
    return Object{{"uri", "file://" + uriEncodePath(Rel)}};
  return Object{{"uri", uriEncodePath(Rel)}, {"uriBaseId", SrcRoot}};
}

JArray rules(const SarifOptions &O) {
  JArray Rules;
  for (const CheckInfo &C : allChecks()) {
    if (!C.Implemented)
      continue;
    std::string Page = C.DocPage.str();
    Object Rule{
        {"id", C.Name},
        {"shortDescription", Object{{"text", C.Summary}}},
        {"fullDescription", Object{{"text", C.Summary}}},
        {"defaultConfiguration", Object{{"level", sarifLevel(C.Default)}}},
        {"properties", Object{{"tags", JArray{"performance", "roofline"}}}}};
    // Without a published docs URL the help names the page in the
    // repository (docs/ci.md#output).
    if (O.DocsBaseUri.empty()) {
      std::string Text = "See " + Page + " in roofline-lint's repository.";
      Rule["help"] = Object{{"text", Text}, {"markdown", Text}};
    } else {
      std::string Uri =
          O.DocsBaseUri + llvm::sys::path::filename(C.DocPage).str();
      Rule["helpUri"] = Uri;
      Rule["help"] = Object{{"text", "See " + Page + "."},
                            {"markdown", "See [" + Page + "](" + Uri + ")."}};
    }
    Rules.push_back(std::move(Rule));
  }
  return Rules;
}

int ruleIndex(llvm::StringRef Check) {
  int I = 0;
  for (const CheckInfo &C : allChecks()) {
    if (!C.Implemented)
      continue;
    if (C.Name == Check)
      return I;
    ++I;
  }
  return -1;
}

Object result(const Finding &F, const SarifOptions &O) {
  std::string Text = F.Message;
  for (const std::string &N : F.Notes)
    Text += "\n" + N;
  Object Physical{
      {"artifactLocation", artifactLocation(F.Loc.File)},
      {"region", Object{{"startLine", static_cast<int64_t>(F.Loc.Line)},
                        {"startColumn", static_cast<int64_t>(F.Loc.Column)}}}};
  Object Loc{{"physicalLocation", std::move(Physical)}};
  if (!F.Function.empty())
    Loc["logicalLocations"] =
        JArray{Object{{"fullyQualifiedName", F.Function}, {"kind", "function"}}};
  Object R{{"ruleId", F.Check},
           {"level", sarifLevel(F.Level)},
           {"message", Object{{"text", Text}}},
           {"locations", JArray{std::move(Loc)}},
           // Stable across edits above the nest, like the baseline key.
           {"partialFingerprints",
            Object{{"rooflineNest/v1", relativeToCwd(F.Loc.File) + ":" +
                                           F.Function + ":" +
                                           std::to_string(F.Ordinal) + ":" +
                                           F.Check}}}};
  int Index = ruleIndex(F.Check);
  if (Index >= 0)
    R["ruleIndex"] = Index;
  if (F.Suppressed)
    R["suppressions"] = JArray{Object{{"kind", "inSource"}}};
  if (O.WithBaseline && F.Baseline != BaselineState::None)
    R["baselineState"] = baselineStateName(F.Baseline);
  return R;
}

} // namespace

namespace {

/// The SARIF log around \p Results.
Value sarifLog(JArray Results, const SarifOptions &O) {
  JArray Notifications;
  for (const FileError &E : O.Errors) {
    Object N{{"level", "error"}, {"message", Object{{"text", E.Message}}}};
    if (!E.File.empty())
      N["locations"] = JArray{Object{
          {"physicalLocation",
           Object{{"artifactLocation", artifactLocation(E.File)}}}}};
    Notifications.push_back(std::move(N));
  }
  Object Invocation{{"executionSuccessful", O.Errors.empty()}};
  if (!Notifications.empty())
    Invocation["toolExecutionNotifications"] = std::move(Notifications);

  std::string Root = O.SourceRoot;
  if (!Root.empty() && Root.back() != '/')
    Root += '/';
  Object Driver{{"name", "roofline-lint"},
                {"version", O.ToolVersion},
                {"semanticVersion", O.ToolVersion},
                {"rules", rules(O)}};
  if (!O.InformationUri.empty())
    Driver["informationUri"] = O.InformationUri;
  Object Run{{"tool", Object{{"driver", std::move(Driver)}}},
             {"originalUriBaseIds",
              Object{{SrcRoot, Object{{"uri", "file://" + uriEncodePath(Root)}}}}},
             {"invocations", JArray{std::move(Invocation)}},
             {"columnKind", "utf16CodeUnits"},
             {"results", std::move(Results)}};
  return Object{{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
                {"version", "2.1.0"},
                {"runs", JArray{std::move(Run)}}};
}

} // namespace

Value roofline::toSarif(const std::vector<Finding> &Findings,
                        const SarifOptions &O) {
  // Reserved: a json::Value's move may throw, so a growing vector copies
  // every result it moves.
  JArray Results;
  Results.reserve(Findings.size());
  for (const Finding &F : Findings)
    Results.push_back(result(F, O));
  return sarifLog(std::move(Results), O);
}

std::string roofline::toSarifText(const std::vector<Finding> &Findings,
                                  const SarifOptions &O) {
  // The log without results, then each result written into its place as
  // soon as it is built: all results' json::Values at once were most of
  // --format=sarif's page faults over text's.
  std::string Text = jsonText(sarifLog(JArray(), O));
  llvm::StringRef Empty = "\"results\": []";
  size_t At = Text.find(Empty.data());
  if (Findings.empty() || At == std::string::npos ||
      Text.find(Empty.data(), At + 1) != std::string::npos)
    return Findings.empty() ? Text : jsonText(toSarif(Findings, O));
  // The member's indentation is the array's (JsonText.h's layout).
  size_t LineStart = Text.rfind('\n', At) + 1;
  unsigned Indent = static_cast<unsigned>(At - LineStart);
  std::string Out = Text.substr(0, At + Empty.size() - 1);
  for (size_t I = 0; I < Findings.size(); ++I) {
    if (I)
      Out += ',';
    Out += '\n';
    Out.append(Indent + 2, ' ');
    appendJson(Out, result(Findings[I], O), /*IndentSize=*/2, Indent + 2);
  }
  Out += '\n';
  Out.append(Indent, ' ');
  Out.append(Text, At + Empty.size() - 1, std::string::npos);
  return Out;
}
