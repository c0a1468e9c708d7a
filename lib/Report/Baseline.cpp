//===- Baseline.cpp - Fail only on new or worsened nests -------------------===//

#include "roofline/Report/Baseline.h"
#include "roofline/Report/Report.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cmath>

using namespace roofline;
using JArray = llvm::json::Array;
using llvm::json::Object;
using llvm::json::Value;

static constexpr const char *BaselineKind = "roofline-lint-baseline";
/// The `paths` value of a baseline whose files are relative to its own
/// directory; older baselines (no `paths`) were relative to the directory
/// the run was made in.
static constexpr const char *RelativeToBaseline = "relative-to-baseline";

//===----------------------------------------------------------------------===//
// Paths
//===----------------------------------------------------------------------===//

std::string roofline::absolutePathIn(llvm::StringRef Dir, llvm::StringRef File) {
  llvm::SmallString<256> P(File);
  if (!llvm::sys::path::is_absolute(P)) {
    P = Dir;
    llvm::sys::path::append(P, File);
  }
  llvm::sys::fs::make_absolute(P);
  llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  return std::string(P);
}

std::string roofline::relativePathFrom(llvm::StringRef Dir,
                                       llvm::StringRef File) {
  std::string AbsDir = absolutePathIn(".", Dir), AbsFile = absolutePathIn(".", File);
  llvm::SmallVector<llvm::StringRef, 16> D, F;
  for (auto I = llvm::sys::path::begin(AbsDir), E = llvm::sys::path::end(AbsDir);
       I != E; ++I)
    D.push_back(*I);
  for (auto I = llvm::sys::path::begin(AbsFile),
            E = llvm::sys::path::end(AbsFile);
       I != E; ++I)
    F.push_back(*I);
  size_t Common = 0;
  while (Common < D.size() && Common + 1 < F.size() && D[Common] == F[Common])
    ++Common;
  if (Common <= 1)
    return AbsFile; // nothing shared but the root

  llvm::SmallString<256> Out;
  for (size_t I = Common; I < D.size(); ++I)
    llvm::sys::path::append(Out, "..");
  for (size_t I = Common; I < F.size(); ++I)
    llvm::sys::path::append(Out, F[I]);
  return std::string(Out);
}

//===----------------------------------------------------------------------===//
// Reading
//===----------------------------------------------------------------------===//

namespace {

llvm::Error bad(llvm::StringRef Path, const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "baseline '" + Path + "': " + Msg);
}

/// One entry of a baseline file or of a report's nests/skipped array.
llvm::Expected<BaselineNest> readEntry(const Value &V, llvm::StringRef Path,
                                       const llvm::Twine &Where,
                                       bool FromReport, bool Skipped) {
  const Object *O = V.getAsObject();
  if (!O)
    return bad(Path, Where + " is not an object");
  BaselineNest N;
  std::optional<llvm::StringRef> File = O->getString("file");
  std::optional<llvm::StringRef> Fn = O->getString("function");
  if (!File || !Fn)
    return bad(Path, Where + " lacks 'file' or 'function'");
  N.File = File->str();
  N.Function = Fn->str();
  // A report names a case's nest "f" plus "case"; in memory it is "f [case]".
  if (std::optional<llvm::StringRef> Case = O->getString("case"))
    N.Function += " [" + Case->str() + "]";
  N.Line = static_cast<unsigned>(O->getInteger("line").value_or(0));
  N.Column = static_cast<unsigned>(O->getInteger("column").value_or(0));
  if (std::optional<int64_t> Ord = O->getInteger("ordinal"))
    N.Ordinal = static_cast<unsigned>(*Ord);
  if (Skipped) {
    N.Analyzable = false;
    return N;
  }
  const Object *Verdict = FromReport ? O->getObject("verdict") : O;
  if (!FromReport)
    N.Analyzable = O->getBoolean("analyzable").value_or(true);
  if (Verdict) {
    if (std::optional<llvm::StringRef> B = Verdict->getString("bound"))
      N.Bound = B->str();
    if (std::optional<double> I = Verdict->getNumber("intensity"))
      N.Intensity = *I;
    if (std::optional<llvm::StringRef> M = Verdict->getString("machine"))
      N.Machine = M->str();
    if (std::optional<llvm::StringRef> M = Verdict->getString("model"))
      N.Model = M->str();
  }
  return N;
}

/// A report written before ordinals were added: number each function's
/// nests in source order, analyzed and skipped together.
void assignOrdinals(std::vector<BaselineNest> &Nests) {
  std::vector<size_t> Order(Nests.size());
  for (size_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  std::stable_sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
    return std::tie(Nests[A].File, Nests[A].Line, Nests[A].Column) <
           std::tie(Nests[B].File, Nests[B].Line, Nests[B].Column);
  });
  std::map<std::pair<std::string, std::string>, unsigned> Next;
  for (size_t I : Order)
    Nests[I].Ordinal = Next[{Nests[I].File, Nests[I].Function}]++;
}

} // namespace

llvm::Expected<Baseline> Baseline::load(llvm::StringRef Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buf)
    return bad(Path, "cannot read it: " + Buf.getError().message());
  return parse((*Buf)->getBuffer(), Path);
}

llvm::Expected<Baseline> Baseline::parse(llvm::StringRef Text,
                                         llvm::StringRef Path) {
  llvm::SmallString<256> Dir(Path);
  llvm::sys::path::remove_filename(Dir);
  return parse(Text, Path, absolutePathIn(".", Dir.empty() ? "." : Dir.str()));
}

llvm::Expected<Baseline> Baseline::parse(llvm::StringRef Text,
                                         llvm::StringRef Path,
                                         llvm::StringRef Dir) {
  llvm::Expected<Value> Root = llvm::json::parse(Text);
  if (!Root)
    return bad(Path, "not JSON: " + llvm::toString(Root.takeError()));
  const Object *O = Root->getAsObject();
  if (!O)
    return bad(Path, "expected a JSON object");
  Baseline B;
  B.Path = Path.str();
  bool IsBaseline = O->getString("kind") == std::optional<llvm::StringRef>(BaselineKind);
  bool IsReport = !IsBaseline && O->get("machine") && O->getArray("nests");
  if (!IsBaseline && !IsReport)
    return bad(Path, "neither a --write-baseline file nor a --format=json "
                     "report");
  bool HaveOrdinals = true;
  auto ReadArray = [&](const char *Key, bool Skipped) -> llvm::Error {
    const JArray *A = O->getArray(Key);
    if (!A)
      return llvm::Error::success();
    for (size_t I = 0; I < A->size(); ++I) {
      const Object *E = (*A)[I].getAsObject();
      HaveOrdinals &= E && E->getInteger("ordinal").has_value();
      llvm::Expected<BaselineNest> N = readEntry(
          (*A)[I], Path, llvm::Twine(Key) + "[" + llvm::Twine(I) + "]",
          IsReport, Skipped);
      if (!N)
        return N.takeError();
      B.Nests.push_back(std::move(*N));
    }
    return llvm::Error::success();
  };
  if (llvm::Error E = ReadArray("nests", false))
    return std::move(E);
  if (IsReport)
    if (llvm::Error E = ReadArray("skipped", true))
      return std::move(E);
  if (!HaveOrdinals)
    assignOrdinals(B.Nests);
  B.resolvePaths(Dir, O->getString("paths") ==
                          std::optional<llvm::StringRef>(RelativeToBaseline));
  B.index();
  return B;
}

void Baseline::resolvePaths(llvm::StringRef Dir, bool RelativeToDir) {
  std::map<std::string, std::string> Resolved;
  std::set<std::string> Exist;
  for (BaselineNest &N : Nests) {
    auto [It, New] = Resolved.emplace(N.File, "");
    if (New) {
      std::string InDir = absolutePathIn(Dir, N.File);
      // Older baselines: relative to where they were written, which is
      // usually where they are kept too.
      std::string InCwd = absolutePathIn(".", N.File);
      bool UseDir = RelativeToDir || (!llvm::sys::fs::exists(InCwd) &&
                                      llvm::sys::fs::exists(InDir));
      It->second = UseDir ? InDir : InCwd;
      if (llvm::sys::fs::exists(It->second))
        Exist.insert(It->second);
      else if (FirstMissing.empty())
        FirstMissing = "'" + N.File + "', is looked for at '" + It->second + "'";
    }
    N.File = It->second;
  }
  FilesNamed = Resolved.size();
  FilesFound = Exist.size();
}

std::optional<std::string> Baseline::matchesNothing() const {
  if (Nests.empty() || FilesFound)
    return std::nullopt;
  return "baseline '" + Path + "' matches nothing: none of the " +
         std::to_string(FilesNamed) + " file" + (FilesNamed == 1 ? "" : "s") +
         " it names exists (the first, " + FirstMissing +
         "), so every nest counts as new; write it again with "
         "--write-baseline (its paths are then relative to its own "
         "directory)";
}

void Baseline::index() {
  Index.clear();
  for (size_t I = 0; I < Nests.size(); ++I)
    Index.emplace(std::make_tuple(Nests[I].File, Nests[I].Function,
                                  Nests[I].Ordinal),
                  I);
}

const BaselineNest *Baseline::find(const std::string &File,
                                   const std::string &Function,
                                   unsigned Ordinal) const {
  auto It = Index.find(std::make_tuple(File, Function, Ordinal));
  return It == Index.end() ? nullptr : &Nests[It->second];
}

//===----------------------------------------------------------------------===//
// Writing
//===----------------------------------------------------------------------===//

std::vector<BaselineNest> roofline::baselineEntries(const Report &R,
                                                    const NestOrdinals &Ord) {
  std::vector<BaselineNest> Out;
  for (size_t I = 0; I < R.Nests.size(); ++I) {
    const AnalyzedNest &A = R.Nests[I];
    BaselineNest N;
    N.File = absolutePathIn(".", A.Nest.Loc.File);
    N.Function = A.Nest.Function;
    N.Ordinal = Ord.Nests[I];
    N.Line = A.Nest.Loc.Line;
    N.Column = A.Nest.Loc.Column;
    if (const std::optional<Verdict> &V = A.Judged.V) {
      N.Bound = boundKindName(V->Bound);
      if (std::isfinite(V->Intensity))
        N.Intensity = V->Intensity;
      N.Machine = V->MachineName;
      N.Model = V->Model;
    }
    Out.push_back(std::move(N));
  }
  for (size_t I = 0; I < R.Skipped.size(); ++I) {
    BaselineNest N;
    N.File = absolutePathIn(".", R.Skipped[I].Loc.File);
    N.Function = R.Skipped[I].Function;
    N.Ordinal = Ord.Skipped[I];
    N.Line = R.Skipped[I].Loc.Line;
    N.Column = R.Skipped[I].Loc.Column;
    N.Analyzable = false;
    Out.push_back(std::move(N));
  }
  return Out;
}

Value roofline::baselineToJSON(const std::vector<BaselineNest> &In,
                               llvm::StringRef Dir) {
  std::vector<BaselineNest> Rel = In;
  for (BaselineNest &N : Rel)
    N.File = relativePathFrom(Dir, N.File);
  std::vector<const BaselineNest *> Sorted;
  for (const BaselineNest &N : Rel)
    Sorted.push_back(&N);
  std::stable_sort(Sorted.begin(), Sorted.end(),
                   [](const BaselineNest *A, const BaselineNest *B) {
                     return std::tie(A->File, A->Function, A->Ordinal) <
                            std::tie(B->File, B->Function, B->Ordinal);
                   });
  JArray Nests;
  for (const BaselineNest *N : Sorted) {
    Object O{{"file", N->File},
             {"function", N->Function},
             {"ordinal", static_cast<int64_t>(N->Ordinal)},
             {"line", static_cast<int64_t>(N->Line)},
             {"column", static_cast<int64_t>(N->Column)},
             {"analyzable", N->Analyzable}};
    if (N->Bound)
      O["bound"] = *N->Bound;
    if (N->Intensity)
      O["intensity"] = *N->Intensity;
    if (!N->Machine.empty())
      O["machine"] = N->Machine;
    if (!N->Model.empty())
      O["model"] = N->Model;
    Nests.push_back(std::move(O));
  }
  return Object{{"version", 1},
                {"kind", BaselineKind},
                {"paths", RelativeToBaseline},
                {"nests", std::move(Nests)}};
}

//===----------------------------------------------------------------------===//
// Comparing
//===----------------------------------------------------------------------===//

namespace {

int boundRank(llvm::StringRef Bound) {
  if (Bound == "compute-bound")
    return 0;
  if (Bound == "memory-bound")
    return 1;
  return 2; // does-not-fit
}

std::string fmt(double V) { return formatG(V, 4); }

struct Comparison {
  BaselineState State = BaselineState::New;
  std::string Worse; ///< why it regressed; empty when it did not
  const BaselineNest *Old = nullptr;
};

Comparison compare(const Baseline &B, const std::string &File,
                   const std::string &Function, unsigned Ordinal,
                   const AnalyzedNest *Now, const SkippedNest *NowSkipped,
                   double Tolerance) {
  Comparison C;
  C.Old = B.find(absolutePathIn(".", File), Function, Ordinal);
  if (!C.Old)
    return C;
  const BaselineNest &Old = *C.Old;
  if (NowSkipped) {
    if (Old.Analyzable)
      C.Worse = "no longer analyzable (" + NowSkipped->Reason +
                "); it was analyzed in the baseline";
    C.State = Old.Analyzable ? BaselineState::Updated : BaselineState::Unchanged;
    return C;
  }
  const std::optional<Verdict> &V = Now->Judged.V;
  if (!Old.Analyzable) {
    C.State = BaselineState::Updated; // became analyzable: better
    return C;
  }
  bool Changed = false;
  if (V && Old.Bound) {
    int Was = boundRank(*Old.Bound), Is = boundRank(boundKindName(V->Bound));
    if (Is > Was)
      C.Worse = std::string("verdict went from ") + *Old.Bound + " to " +
                boundKindName(V->Bound);
    Changed |= Is != Was;
  }
  if (V && Old.Intensity && std::isfinite(V->Intensity)) {
    if (C.Worse.empty() && V->Intensity < *Old.Intensity * (1 - Tolerance))
      C.Worse = "arithmetic intensity dropped from " + fmt(*Old.Intensity) +
                " to " + fmt(V->Intensity) + " FLOP/B (tolerance " +
                fmt(Tolerance * 100) + "%)";
    Changed |= std::fabs(V->Intensity - *Old.Intensity) >
               Tolerance * std::fabs(*Old.Intensity);
  }
  C.State = Changed ? BaselineState::Updated : BaselineState::Unchanged;
  return C;
}

Comparison compareFinding(const Baseline &B, const Report &R,
                          const Finding &F, double Tolerance) {
  const AnalyzedNest *Now = F.NestIndex >= 0 ? &R.Nests[F.NestIndex] : nullptr;
  const SkippedNest *NowSkipped =
      F.SkippedIndex >= 0 ? &R.Skipped[F.SkippedIndex] : nullptr;
  return compare(B, F.Loc.File, F.Function, F.Ordinal, Now, NowSkipped,
                 Tolerance);
}

} // namespace

std::vector<Finding> roofline::baselineRegressions(const Baseline &B,
                                                   const Report &R,
                                                   const NestOrdinals &Ord,
                                                   double Tolerance) {
  std::vector<Finding> Out;
  auto Emit = [&](const Comparison &C, const SourceLoc &Loc,
                  const std::string &Fn, unsigned Ordinal, int NestIndex,
                  int SkippedIndex) {
    if (C.Worse.empty())
      return;
    Finding F;
    F.Check = checkName(CheckId::Baseline).str();
    F.Level = Severity::Error;
    F.Loc = Loc;
    F.Function = Fn;
    F.Ordinal = Ordinal;
    F.NestIndex = NestIndex;
    F.SkippedIndex = SkippedIndex;
    F.Message = Fn + ": " + C.Worse;
    F.Notes.push_back("compared with nest #" + std::to_string(Ordinal + 1) +
                      " of " + Fn + " in " + B.path() + " (then at line " +
                      std::to_string(C.Old->Line) + ")");
    F.Fails = true;
    F.Baseline = BaselineState::Updated;
    Out.push_back(std::move(F));
  };
  for (size_t I = 0; I < R.Nests.size(); ++I) {
    const AnalyzedNest &A = R.Nests[I];
    Emit(compare(B, A.Nest.Loc.File, A.Nest.Function, Ord.Nests[I], &A,
                 nullptr, Tolerance),
         A.Nest.Loc, A.Nest.Function, Ord.Nests[I], static_cast<int>(I), -1);
  }
  for (size_t I = 0; I < R.Skipped.size(); ++I) {
    const SkippedNest &S = R.Skipped[I];
    Emit(compare(B, S.Loc.File, S.Function, Ord.Skipped[I], nullptr, &S,
                 Tolerance),
         S.Loc, S.Function, Ord.Skipped[I], -1, static_cast<int>(I));
  }
  return Out;
}

void roofline::markBaseline(const Baseline &B, const Report &R,
                            const NestOrdinals &, std::vector<Finding> &Findings,
                            double Tolerance) {
  for (Finding &F : Findings) {
    if (F.Check == checkName(CheckId::Baseline))
      continue; // a regression: it fails
    if (F.NestIndex < 0 && F.SkippedIndex < 0)
      continue;
    Comparison C = compareFinding(B, R, F, Tolerance);
    F.Baseline = C.State;
    // A known problem that did not get worse is what the baseline accepts.
    if (C.State != BaselineState::New && C.Worse.empty() && F.Fails) {
      F.Fails = false;
      F.AcceptedByBaseline = true;
      F.Notes.push_back("accepted: this nest is in the baseline " + B.path() +
                        " and did not get worse");
      F.BriefNote = F.Notes.back();
    }
  }
}

std::optional<std::string> roofline::baselineMismatch(const Baseline &B,
                                                      const std::string &Machine,
                                                      const std::string &Model) {
  for (const BaselineNest &N : B.nests()) {
    if (N.Machine.empty())
      continue;
    if (N.Machine != Machine || N.Model != Model)
      return "baseline '" + B.path() + "' was made for " + N.Machine + " (" +
             N.Model + " traffic), this run judges against " + Machine + " (" +
             Model + " traffic): verdicts and intensities may differ for that "
                     "reason alone";
    return std::nullopt;
  }
  return std::nullopt;
}
