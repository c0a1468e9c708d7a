//===- Config.cpp - .roofline.yaml: per-directory settings -----------------===//
//
// YAMLIO maps the file onto a document of wrapper types, one per kind of
// value, so each value is checked by its ScalarTraits::input and a bad one
// is reported at its own line and column.
//
//===----------------------------------------------------------------------===//

#include "roofline/Config/Config.h"
#include "roofline/Config/Checks.h"
#include "roofline/Config/GlobList.h"
#include "roofline/Machine/Machine.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLTraits.h"

#include <cmath>

using namespace llvm;
using namespace roofline;

//===----------------------------------------------------------------------===//
// Policies and times
//===----------------------------------------------------------------------===//

static const std::pair<FailOnPolicy, const char *> PolicyNames[] = {
    {FailOnPolicy::MemoryBound, "memory-bound"},
    {FailOnPolicy::Unanalyzable, "unanalyzable"},
    {FailOnPolicy::Capacity, "capacity"},
    {FailOnPolicy::StridedAccess, "strided-access"}};

const char *roofline::failOnPolicyName(FailOnPolicy P) {
  for (const auto &[Policy, Name] : PolicyNames)
    if (Policy == P)
      return Name;
  return "?";
}

std::optional<FailOnPolicy> roofline::parseFailOnPolicy(StringRef Name) {
  for (const auto &[Policy, N] : PolicyNames)
    if (Name == N)
      return Policy;
  return std::nullopt;
}

std::string roofline::failOnPolicyList() {
  std::string S;
  for (const auto &[Policy, Name] : PolicyNames)
    S += (S.empty() ? "" : ", ") + std::string(Name);
  return S;
}

Expected<std::vector<FailOnPolicy>> roofline::parseFailOnList(StringRef Spec) {
  std::vector<FailOnPolicy> Out;
  SmallVector<StringRef, 4> Parts;
  Spec.split(Parts, ',', -1, /*KeepEmpty=*/false);
  for (StringRef P : Parts) {
    P = P.trim();
    if (P.empty())
      continue;
    if (P == "none") { // clears what came before (a config's list)
      Out.clear();
      continue;
    }
    std::optional<FailOnPolicy> Policy = parseFailOnPolicy(P);
    if (!Policy)
      return createStringError(inconvertibleErrorCode(),
                               "unknown fail-on policy '" + P.str() +
                                   "' (expected " + failOnPolicyList() +
                                   ", or none)");
    if (!is_contained(Out, *Policy))
      Out.push_back(*Policy);
  }
  return Out;
}

std::optional<double> roofline::parseSeconds(StringRef S) {
  S = S.trim();
  static const std::pair<const char *, double> Units[] = {
      {"ns", 1e-9}, {"us", 1e-6}, {"ms", 1e-3}, {"s", 1}};
  double Scale = 1;
  for (const auto &[Suffix, F] : Units)
    if (S.consume_back(Suffix)) {
      Scale = F;
      break;
    }
  S = S.rtrim();
  double V;
  if (S.empty() || S.getAsDouble(V) || !(V >= 0) || !std::isfinite(V))
    return std::nullopt;
  return V * Scale;
}

//===----------------------------------------------------------------------===//
// The YAML document
//===----------------------------------------------------------------------===//

namespace {

/// Handed to every ScalarTraits::input through yaml::Input's context.
struct ParseContext {
  std::string Dir; ///< the config file's directory
  const ConfigParseOptions *Opts = nullptr;
  std::string Message; ///< storage for the StringRef input() returns
};

ParseContext &ctx(void *P) { return *static_cast<ParseContext *>(P); }

struct MachineValue {
  std::string V;
};
struct ModelValue {
  std::string V;
};
struct ChecksValue {
  std::string V;
};
struct RegexValue {
  std::string V;
};
struct NonNegative {
  double V = 0;
};
struct SecondsValue {
  double V = 0;
};
struct ParamValue {
  int64_t V = 0;
};
/// Stands in for a value whose key is not a size name, so the error is
/// reported at that entry.
struct BadParamName {
  std::string Name;
};
struct FailOnItem {
  FailOnPolicy V = FailOnPolicy::MemoryBound;
};
struct FailOnScalar {
  std::vector<FailOnPolicy> V;
};
struct FailOnMap {};
/// `fail-on: [a, b]`, a block list, or the command line's "a,b".
struct FailOnSpec {
  FailOnScalar Scalar;
  std::vector<FailOnItem> Seq;
  FailOnMap Map;
  bool FromScalar = false;
};
using ParamMap = std::map<std::string, ParamValue>;
struct Thresholds {
  std::optional<NonNegative> MinIntensity;
  std::optional<SecondsValue> MaxTime;
};
/// One compiler flag of `compile-flags` (docs/ci.md#gcc-built-projects).
struct FlagValue {
  std::string V;
};
struct CompileFlagsDoc {
  std::optional<std::vector<FlagValue>> Add, Remove;
};
struct ConfigDoc {
  std::optional<MachineValue> Machine;
  std::optional<ModelValue> Model;
  std::optional<ParamMap> Params;
  std::optional<ChecksValue> Checks;
  std::optional<RegexValue> HeaderFilter;
  std::optional<Thresholds> Limits;
  std::optional<FailOnSpec> FailOn;
  std::optional<ChecksValue> WarningsAsErrors;
  std::optional<bool> InheritParentConfig;
  std::optional<CompileFlagsDoc> CompileFlags;
};

bool isIdentifier(StringRef S) {
  if (S.empty() || !(isAlpha(S[0]) || S[0] == '_'))
    return false;
  return all_of(S, [](char C) { return isAlnum(C) || C == '_'; });
}

/// Keeps \p Msg for the StringRef a ScalarTraits::input returns.
StringRef fail(void *Ctxt, const Twine &Msg) {
  ParseContext &C = ctx(Ctxt);
  C.Message = Msg.str();
  return C.Message;
}

/// A control character in a value (NUL, CR, ...): refused, because the
/// value could not be written back by --dump-config and parsed again.
bool hasControlChar(StringRef S) { return firstControlChar(S).has_value(); }

std::string controlCharMessage(StringRef S) {
  return "control character 0x" +
         utohexstr(static_cast<unsigned char>(*firstControlChar(S))) +
         " in a value";
}

yaml::QuotingType quoteIfNeeded(StringRef S) { return yaml::needsQuotes(S); }

} // namespace

LLVM_YAML_IS_FLOW_SEQUENCE_VECTOR(FailOnItem)
LLVM_YAML_IS_FLOW_SEQUENCE_VECTOR(FlagValue)

namespace llvm {
namespace yaml {

template <> struct ScalarTraits<MachineValue> {
  static void output(const MachineValue &M, void *, raw_ostream &OS) {
    OS << M.V;
  }
  static StringRef input(StringRef S, void *Ctxt, MachineValue &M) {
    if (hasControlChar(S))
      return fail(Ctxt, controlCharMessage(S));
    if (builtinMachineText(S)) {
      M.V = S.str();
      return {};
    }
    bool LooksLikePath = S.contains('/') || S.ends_with(".yaml") ||
                         S.ends_with(".yml");
    SmallString<256> Path(S);
    if (LooksLikePath && !sys::path::is_absolute(Path)) {
      Path = ctx(Ctxt).Dir;
      sys::path::append(Path, S);
      sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
    }
    // Load it now, so a wrong name or a broken file is reported here.
    Expected<Machine> Loaded = loadMachine(Path);
    if (!Loaded)
      return fail(Ctxt, toString(Loaded.takeError()));
    M.V = std::string(Path);
    return {};
  }
  static QuotingType mustQuote(StringRef S) { return quoteIfNeeded(S); }
};

template <> struct ScalarTraits<ModelValue> {
  static void output(const ModelValue &M, void *, raw_ostream &OS) {
    OS << M.V;
  }
  static StringRef input(StringRef S, void *Ctxt, ModelValue &M) {
    const std::vector<std::string> &Names = ctx(Ctxt).Opts->ModelNames;
    if (!is_contained(Names, S.str()))
      return fail(Ctxt, "unknown model '" + S + "' (expected " +
                            join(Names, ", ") + ")");
    M.V = S.str();
    return {};
  }
  static QuotingType mustQuote(StringRef S) { return quoteIfNeeded(S); }
};

template <> struct ScalarTraits<ChecksValue> {
  static void output(const ChecksValue &C, void *, raw_ostream &OS) {
    OS << C.V;
  }
  static StringRef input(StringRef S, void *Ctxt, ChecksValue &C) {
    if (hasControlChar(S))
      return fail(Ctxt, controlCharMessage(S));
    std::vector<std::string> Bad = GlobList(S).unmatchedGlobs(allCheckNames());
    if (!Bad.empty())
      return fail(Ctxt, "'" + Bad.front() + "' matches no check (checks: " +
                            join(allCheckNames(), ", ") + ")");
    C.V = S.str();
    return {};
  }
  static QuotingType mustQuote(StringRef) { return QuotingType::Single; }
};

template <> struct ScalarTraits<RegexValue> {
  static void output(const RegexValue &R, void *, raw_ostream &OS) {
    OS << R.V;
  }
  static StringRef input(StringRef S, void *Ctxt, RegexValue &R) {
    if (hasControlChar(S))
      return fail(Ctxt, controlCharMessage(S));
    std::string Err;
    if (!Regex(S).isValid(Err))
      return fail(Ctxt, "invalid header-filter regex '" + S + "': " + Err);
    R.V = S.str();
    return {};
  }
  static QuotingType mustQuote(StringRef) { return QuotingType::Single; }
};

template <> struct ScalarTraits<FlagValue> {
  static void output(const FlagValue &F, void *, raw_ostream &OS) {
    OS << F.V;
  }
  static StringRef input(StringRef S, void *Ctxt, FlagValue &F) {
    if (hasControlChar(S))
      return fail(Ctxt, controlCharMessage(S));
    if (S.empty())
      return fail(Ctxt, "an empty compiler flag");
    F.V = S.str();
    return {};
  }
  static QuotingType mustQuote(StringRef S) { return quoteIfNeeded(S); }
};

template <> struct MappingTraits<CompileFlagsDoc> {
  static void mapping(IO &IO, CompileFlagsDoc &D) {
    IO.mapOptional("add", D.Add);
    IO.mapOptional("remove", D.Remove);
  }
};

template <> struct ScalarTraits<NonNegative> {
  static void output(const NonNegative &N, void *, raw_ostream &OS) {
    OS << format("%g", N.V);
  }
  static StringRef input(StringRef S, void *Ctxt, NonNegative &N) {
    if (S.trim().getAsDouble(N.V) || !(N.V >= 0) || !std::isfinite(N.V))
      return fail(Ctxt, "expected a non-negative number of FLOP per byte, "
                        "got '" + S + "'");
    return {};
  }
  static QuotingType mustQuote(StringRef) { return QuotingType::None; }
};

template <> struct ScalarTraits<SecondsValue> {
  static void output(const SecondsValue &T, void *, raw_ostream &OS) {
    OS << format("%g", T.V);
  }
  static StringRef input(StringRef S, void *Ctxt, SecondsValue &T) {
    std::optional<double> V = parseSeconds(S);
    if (!V)
      return fail(Ctxt, "invalid time '" + S +
                            "' (expected seconds, or a number with s, ms, "
                            "us or ns, e.g. 250us)");
    T.V = *V;
    return {};
  }
  static QuotingType mustQuote(StringRef) { return QuotingType::None; }
};

template <> struct ScalarTraits<ParamValue> {
  static void output(const ParamValue &P, void *, raw_ostream &OS) {
    OS << P.V;
  }
  static StringRef input(StringRef S, void *Ctxt, ParamValue &P) {
    if (S.trim().getAsInteger(10, P.V))
      return fail(Ctxt, "expected an integer size, got '" + S + "'");
    return {};
  }
  static QuotingType mustQuote(StringRef) { return QuotingType::None; }
};

template <> struct ScalarTraits<BadParamName> {
  static void output(const BadParamName &, void *, raw_ostream &) {}
  static StringRef input(StringRef, void *Ctxt, BadParamName &B) {
    return fail(Ctxt, "'" + B.Name + "' is not a size name (an identifier "
                                     "such as N or BATCH)");
  }
  static QuotingType mustQuote(StringRef) { return QuotingType::None; }
};

template <> struct ScalarTraits<FailOnItem> {
  static void output(const FailOnItem &F, void *, raw_ostream &OS) {
    OS << failOnPolicyName(F.V);
  }
  static StringRef input(StringRef S, void *Ctxt, FailOnItem &F) {
    std::optional<FailOnPolicy> P = parseFailOnPolicy(S.trim());
    if (!P)
      return fail(Ctxt, "unknown fail-on policy '" + S + "' (expected " +
                            failOnPolicyList() + ")");
    F.V = *P;
    return {};
  }
  static QuotingType mustQuote(StringRef) { return QuotingType::None; }
};

template <> struct ScalarTraits<FailOnScalar> {
  static void output(const FailOnScalar &, void *, raw_ostream &) {}
  static StringRef input(StringRef S, void *Ctxt, FailOnScalar &F) {
    Expected<std::vector<FailOnPolicy>> L = parseFailOnList(S);
    if (!L)
      return fail(Ctxt, toString(L.takeError()));
    F.V = *L;
    return {};
  }
  static QuotingType mustQuote(StringRef) { return QuotingType::None; }
};

template <> struct MappingTraits<FailOnMap> {
  static void mapping(IO &, FailOnMap &) {}
  static std::string validate(IO &, FailOnMap &) {
    return "fail-on is a list of policies ([memory-bound, unanalyzable]) "
           "or a comma-separated string, not a mapping";
  }
};

template <> struct PolymorphicTraits<FailOnSpec> {
  static NodeKind getKind(const FailOnSpec &) { return NodeKind::Sequence; }
  static FailOnScalar &getAsScalar(FailOnSpec &S) {
    S.FromScalar = true;
    return S.Scalar;
  }
  static FailOnMap &getAsMap(FailOnSpec &S) { return S.Map; }
  static std::vector<FailOnItem> &getAsSequence(FailOnSpec &S) {
    return S.Seq;
  }
};

template <> struct CustomMappingTraits<ParamMap> {
  static void inputOne(IO &IO, StringRef Key, ParamMap &M) {
    if (!isIdentifier(Key)) {
      BadParamName B{Key.str()};
      IO.mapRequired(Key.str().c_str(), B);
      return;
    }
    IO.mapRequired(Key.str().c_str(), M[Key.str()]);
  }
  static void output(IO &IO, ParamMap &M) {
    for (auto &[Name, V] : M)
      IO.mapRequired(Name.c_str(), V);
  }
};

template <> struct MappingTraits<Thresholds> {
  static void mapping(IO &IO, Thresholds &T) {
    IO.mapOptional("min-intensity", T.MinIntensity);
    IO.mapOptional("max-time", T.MaxTime);
  }
};

template <> struct MappingTraits<ConfigDoc> {
  static void mapping(IO &IO, ConfigDoc &D) {
    IO.mapOptional("machine", D.Machine);
    IO.mapOptional("model", D.Model);
    IO.mapOptional("params", D.Params);
    IO.mapOptional("checks", D.Checks);
    IO.mapOptional("header-filter", D.HeaderFilter);
    IO.mapOptional("thresholds", D.Limits);
    IO.mapOptional("fail-on", D.FailOn);
    IO.mapOptional("warnings-as-errors", D.WarningsAsErrors);
    IO.mapOptional("inherit-parent-config", D.InheritParentConfig);
    IO.mapOptional("compile-flags", D.CompileFlags);
  }
};

} // namespace yaml
} // namespace llvm

//===----------------------------------------------------------------------===//
// Parsing, merging, printing
//===----------------------------------------------------------------------===//

namespace {

const char *KeyHint =
    " (keys: machine, model, params, checks, header-filter, thresholds "
    "{min-intensity, max-time}, fail-on, warnings-as-errors, "
    "inherit-parent-config, compile-flags {add, remove})";

/// "path:line:col: error: message", the source line and a caret, as clang
/// prints diagnostics.
void collectDiag(const SMDiagnostic &D, void *Out) {
  std::string &S = *static_cast<std::string *>(Out);
  raw_string_ostream OS(S);
  std::string Msg = D.getMessage().str();
  if (StringRef(Msg).starts_with("unknown key"))
    Msg += KeyHint;
  OS << D.getFilename() << ":" << D.getLineNo() << ":" << (D.getColumnNo() + 1)
     << ": error: " << Msg << "\n";
  if (!D.getLineContents().empty()) {
    OS << "  " << D.getLineContents() << "\n  ";
    for (int I = 0; I < D.getColumnNo(); ++I)
      OS << (D.getLineContents()[I] == '\t' ? '\t' : ' ');
    OS << "^\n";
  }
}

Config fromDoc(const ConfigDoc &D, StringRef Path) {
  Config C;
  if (D.Machine)
    C.Machine = D.Machine->V;
  if (D.Model)
    C.Model = D.Model->V;
  if (D.Params)
    for (const auto &[Name, V] : *D.Params)
      C.Params[Name] = V.V;
  if (D.Checks)
    C.Checks = D.Checks->V;
  if (D.HeaderFilter)
    C.HeaderFilter = D.HeaderFilter->V;
  if (D.Limits) {
    if (D.Limits->MinIntensity)
      C.MinIntensity = D.Limits->MinIntensity->V;
    if (D.Limits->MaxTime)
      C.MaxTime = D.Limits->MaxTime->V;
  }
  if (D.FailOn) {
    std::vector<FailOnPolicy> L = D.FailOn->Scalar.V;
    if (!D.FailOn->FromScalar)
      for (const FailOnItem &I : D.FailOn->Seq)
        if (!is_contained(L, I.V))
          L.push_back(I.V);
    C.FailOn = L;
  }
  if (D.WarningsAsErrors)
    C.WarningsAsErrors = D.WarningsAsErrors->V;
  C.InheritParentConfig = D.InheritParentConfig;
  if (D.CompileFlags) {
    for (const FlagValue &F : D.CompileFlags->Add.value_or(std::vector<FlagValue>()))
      C.AddFlags.push_back(F.V);
    for (const FlagValue &F : D.CompileFlags->Remove.value_or(std::vector<FlagValue>()))
      C.RemoveFlags.push_back(F.V);
  }
  C.Sources.push_back(Path.str());
  return C;
}

} // namespace

Expected<Config> roofline::parseConfig(StringRef Yaml, StringRef Path,
                                       const ConfigParseOptions &Opts) {
  // YAML is text: LLVM's scanner takes invalid UTF-8 inside double quotes
  // but not in the single-quoted form --dump-config writes, so such a file
  // was accepted and its dump was not (found by fuzz/FuzzConfig.cpp).
  size_t BadAt = 0;
  if (!json::isUTF8(Yaml, &BadAt))
    return createStringError(inconvertibleErrorCode(),
                             "%s: error: the config file is not valid UTF-8 "
                             "(byte %zu)",
                             Path.str().c_str(), BadAt);
  ParseContext Ctx;
  SmallString<256> Dir(Path);
  sys::path::remove_filename(Dir);
  Ctx.Dir = std::string(Dir.empty() ? "." : Dir.str());
  Ctx.Opts = &Opts;
  std::string Errors;
  ConfigDoc Doc;
  {
    yaml::Input In(MemoryBufferRef(Yaml, Path), &Ctx, collectDiag, &Errors);
    In >> Doc;
    if (In.error() && Errors.empty())
      Errors = (Path + ": error: cannot parse the config file\n").str();
  }
  if (!Errors.empty()) {
    StringRef E = StringRef(Errors).rtrim('\n');
    return createStringError(inconvertibleErrorCode(), E.str());
  }
  return fromDoc(Doc, Path);
}

Expected<Config> roofline::loadConfigFile(StringRef Path,
                                          const ConfigParseOptions &Opts) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
      MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buf)
    return createStringError(Buf.getError(), "cannot read config file '%s': %s",
                             Path.str().c_str(),
                             Buf.getError().message().c_str());
  return parseConfig((*Buf)->getBuffer(), Path, Opts);
}

Config roofline::mergeConfig(Config Base, const Config &Over) {
  auto Take = [](auto &Dst, const auto &Src) {
    if (Src)
      Dst = Src;
  };
  Take(Base.Machine, Over.Machine);
  Take(Base.Model, Over.Model);
  for (const auto &[Name, V] : Over.Params)
    Base.Params[Name] = V;
  Take(Base.Checks, Over.Checks);
  Take(Base.HeaderFilter, Over.HeaderFilter);
  Take(Base.MinIntensity, Over.MinIntensity);
  Take(Base.MaxTime, Over.MaxTime);
  Take(Base.FailOn, Over.FailOn);
  Take(Base.WarningsAsErrors, Over.WarningsAsErrors);
  Take(Base.InheritParentConfig, Over.InheritParentConfig);
  // Flags accumulate, parent first, as clangd's CompileFlags fragments do.
  Base.AddFlags.insert(Base.AddFlags.end(), Over.AddFlags.begin(),
                       Over.AddFlags.end());
  Base.RemoveFlags.insert(Base.RemoveFlags.end(), Over.RemoveFlags.begin(),
                          Over.RemoveFlags.end());
  Base.Sources.insert(Base.Sources.end(), Over.Sources.begin(),
                      Over.Sources.end());
  return Base;
}

std::string roofline::dumpConfig(const Config &C) {
  ConfigDoc D;
  if (C.Machine)
    D.Machine = MachineValue{*C.Machine};
  if (C.Model)
    D.Model = ModelValue{*C.Model};
  if (!C.Params.empty()) {
    D.Params.emplace();
    for (const auto &[Name, V] : C.Params)
      (*D.Params)[Name] = ParamValue{V};
  }
  if (C.Checks)
    D.Checks = ChecksValue{*C.Checks};
  if (C.HeaderFilter)
    D.HeaderFilter = RegexValue{*C.HeaderFilter};
  if (C.MinIntensity || C.MaxTime) {
    D.Limits.emplace();
    if (C.MinIntensity)
      D.Limits->MinIntensity = NonNegative{*C.MinIntensity};
    if (C.MaxTime)
      D.Limits->MaxTime = SecondsValue{*C.MaxTime};
  }
  if (C.FailOn) {
    D.FailOn.emplace();
    for (FailOnPolicy P : *C.FailOn)
      D.FailOn->Seq.push_back(FailOnItem{P});
  }
  if (C.WarningsAsErrors)
    D.WarningsAsErrors = ChecksValue{*C.WarningsAsErrors};
  D.InheritParentConfig = C.InheritParentConfig;
  auto Flags = [](const std::vector<std::string> &L) {
    std::optional<std::vector<FlagValue>> Out;
    if (!L.empty()) {
      Out.emplace();
      for (const std::string &F : L)
        Out->push_back(FlagValue{F});
    }
    return Out;
  };
  if (!C.AddFlags.empty() || !C.RemoveFlags.empty())
    D.CompileFlags = CompileFlagsDoc{Flags(C.AddFlags), Flags(C.RemoveFlags)};
  std::string S;
  raw_string_ostream OS(S);
  yaml::Output Out(OS);
  Out << D;
  return S;
}

//===----------------------------------------------------------------------===//
// Lookup
//===----------------------------------------------------------------------===//

Expected<Config> ConfigFinder::configFor(StringRef SourceFile) {
  SmallString<256> Path(SourceFile);
  sys::fs::make_absolute(Path);
  sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  return configForDir(std::string(sys::path::parent_path(Path)));
}

Expected<Config> ConfigFinder::configForDir(const std::string &Dir) {
  auto It = Cache.find(Dir);
  if (It == Cache.end()) {
    Entry E;
    SmallString<256> File(Dir);
    sys::path::append(File, FileName);
    std::string Parent = sys::path::parent_path(Dir).str();
    bool HasParent = !Parent.empty() && Parent != Dir;
    if (sys::fs::exists(File)) {
      Expected<Config> C = loadConfigFile(File, Opts);
      if (!C) {
        E.Error = toString(C.takeError());
      } else if (C->InheritParentConfig.value_or(false) && HasParent) {
        Expected<Config> Up = configForDir(Parent);
        if (!Up)
          E.Error = toString(Up.takeError());
        else
          E.C = mergeConfig(std::move(*Up), *C);
      } else {
        E.C = std::move(*C);
      }
    } else if (HasParent) {
      Expected<Config> Up = configForDir(Parent);
      if (!Up)
        E.Error = toString(Up.takeError());
      else
        E.C = std::move(*Up);
    } else {
      E.C = Config();
    }
    It = Cache.emplace(Dir, std::move(E)).first;
  }
  if (!It->second.Error.empty())
    return createStringError(inconvertibleErrorCode(), It->second.Error);
  return *It->second.C;
}
