//===- Machine.cpp - Hardware models read from YAML machine files ---------===//
//
// The file is first read into a small owned tree (the YAML parser streams, so
// nodes cannot be revisited), then validated field by field. Every error names
// the file, the line and the field: a machine file is user input, and a wrong
// peak silently skews every verdict.
//
//===----------------------------------------------------------------------===//

#include "roofline/Machine/Machine.h"
#include "roofline/Machine/HostMachine.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLParser.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <set>

using namespace llvm;

namespace roofline {

namespace {

struct BuiltinMachine {
  const char *Name;
  const char *Text;
};

// One entry per machines/*.yaml, generated at build time.
const BuiltinMachine Builtins[] = {
#include "BuiltinMachines.inc"
};

// The parsed file, owned, with the line of every node and key.
struct YNode {
  enum KindTy { Null, Scalar, Mapping, Sequence };
  KindTy Kind = Null;
  std::string Value; // Scalar
  unsigned Line = 0;
  std::vector<std::string> Keys;     // Mapping
  std::vector<unsigned> KeyLines;    // Mapping
  std::vector<YNode> Children;       // Mapping values or Sequence items

  const char *kindName() const {
    switch (Kind) {
    case Null:
      return "nothing";
    case Scalar:
      return "a scalar";
    case Mapping:
      return "a mapping";
    case Sequence:
      return "a sequence";
    }
    return "?";
  }
};

/// Reads and validates one file, accumulating into a Machine.
class MachineParser {
public:
  MachineParser(StringRef Yaml, StringRef Path) : Yaml(Yaml), Path(Path) {}

  Expected<Machine> parse();

private:
  StringRef Yaml;
  std::string Path;
  SourceMgr SM;

  Error error(unsigned Line, const Twine &Msg) const {
    return createStringError(inconvertibleErrorCode(),
                             Path + ":" + Twine(Line) + ": " + Msg);
  }

  unsigned lineOf(SMLoc Loc) const {
    return Loc.isValid() ? SM.getLineAndColumn(Loc).first : 1;
  }

  Expected<YNode> convert(yaml::Node *N);

  /// Refuses control characters other than \p Allowed: a '\r' escape
  /// would be written back raw and read again as a space.
  Error checkText(StringRef S, unsigned Line, StringRef Allowed) const {
    if (std::optional<char> C = firstControlChar(S, Allowed))
      return error(Line, "control character 0x" +
                             utohexstr(static_cast<unsigned char>(*C)) +
                             " in a value");
    return Error::success();
  }

  /// Rejects keys outside \p Allowed; checks \p Required are present.
  /// \p Line is where a missing field is reported: the mapping's own key.
  Error checkKeys(const YNode &Map, ArrayRef<StringRef> Allowed,
                  ArrayRef<StringRef> Required, const Twine &Where,
                  unsigned Line) const;

  Expected<const YNode *> expectKind(const YNode &N, YNode::KindTy Kind,
                                     StringRef Field) const;
  Expected<std::string> getString(const YNode &N, StringRef Field,
                                  const Twine &Ctx) const;
  Expected<double> getPositive(const YNode &N, StringRef Field,
                               const Twine &Ctx, bool Whole) const;
  Expected<bool> getBool(const YNode &N, StringRef Field) const;

  /// The top level's sections, read after its scalar fields, and the lines
  /// of their keys (where a message about one points).
  struct Sections {
    const YNode *Peaks = nullptr, *CorePeaks = nullptr, *Memory = nullptr,
                *Sources = nullptr;
    unsigned PeaksLine = 1, CorePeaksLine = 1, MemoryLine = 1, SourcesLine = 1;
  };
  /// The scanner's first diagnostic, where it reported one.
  std::string ScanError;

  /// The one document's root mapping.
  Expected<YNode> readRoot();
  /// The top level's scalar fields into \p M; its sections into \p S.
  Error parseTopFields(const YNode &Root, Machine &M, Sections &S) const;
  Error parsePeaks(const YNode &Peaks, unsigned Line, Machine &M) const;
  Error parseCorePeaks(const YNode &CorePeaks, unsigned Line, Machine &M) const;
  Error parseMemory(const YNode &Memory, unsigned Line, Machine &M) const;
  /// Level \p I (0: main memory) of 'memory'; \p M has the ones before.
  Expected<MemoryLevel> parseLevel(const YNode &L, size_t I,
                                   const Machine &M) const;
  Error parseLevelField(StringRef Key, const YNode &V, unsigned KeyLine,
                        bool IsMain, const std::string &Ctx,
                        MemoryLevel &Level) const;
  Error parseSources(const YNode &Sources, unsigned Line, const YNode &Peaks,
                     Machine &M) const;
};

Expected<YNode> MachineParser::convert(yaml::Node *N) {
  YNode Out;
  Out.Line = lineOf(N->getSourceRange().Start);
  if (auto *S = dyn_cast<yaml::ScalarNode>(N)) {
    SmallString<64> Storage;
    Out.Kind = YNode::Scalar;
    Out.Value = S->getValue(Storage).str();
    if (Error E = checkText(Out.Value, Out.Line, "\t"))
      return std::move(E);
    // A plain '~' or 'null' is YAML's null, not the text "null".
    if (S->getRawValue() == "~" || S->getRawValue() == "null")
      Out.Kind = YNode::Null;
    return Out;
  }
  if (auto *B = dyn_cast<yaml::BlockScalarNode>(N)) {
    Out.Kind = YNode::Scalar;
    Out.Value = B->getValue().str();
    if (Error E = checkText(Out.Value, Out.Line, "\t\n"))
      return std::move(E);
    return Out;
  }
  if (isa<yaml::NullNode>(N))
    return Out;
  if (isa<yaml::AliasNode>(N))
    return error(Out.Line, "YAML aliases are not supported in machine files");
  if (auto *M = dyn_cast<yaml::MappingNode>(N)) {
    Out.Kind = YNode::Mapping;
    for (yaml::KeyValueNode &KV : *M) {
      yaml::Node *K = KV.getKey();
      if (!K)
        break; // The scanner reported the error.
      auto *KS = dyn_cast<yaml::ScalarNode>(K);
      unsigned KLine = lineOf(K->getSourceRange().Start);
      if (!KS)
        return error(KLine, "mapping keys must be plain names");
      SmallString<32> KStorage;
      std::string Key = KS->getValue(KStorage).str();
      if (llvm::is_contained(Out.Keys, Key))
        return error(KLine, "duplicate field '" + Key + "'");
      yaml::Node *V = KV.getValue();
      if (!V)
        break;
      Expected<YNode> Child = convert(V);
      if (!Child)
        return Child.takeError();
      // An empty value ("f32:") has no position of its own; use the key's.
      if (Child->Kind == YNode::Null)
        Child->Line = KLine;
      Out.Keys.push_back(std::move(Key));
      Out.KeyLines.push_back(KLine);
      Out.Children.push_back(std::move(*Child));
    }
    return Out;
  }
  if (auto *Seq = dyn_cast<yaml::SequenceNode>(N)) {
    Out.Kind = YNode::Sequence;
    for (yaml::Node &Item : *Seq) {
      Expected<YNode> Child = convert(&Item);
      if (!Child)
        return Child.takeError();
      Out.Children.push_back(std::move(*Child));
    }
    return Out;
  }
  return error(Out.Line, "unsupported YAML node");
}

Error MachineParser::checkKeys(const YNode &Map, ArrayRef<StringRef> Allowed,
                               ArrayRef<StringRef> Required,
                               const Twine &Where, unsigned Line) const {
  for (size_t I = 0; I < Map.Keys.size(); ++I) {
    if (llvm::is_contained(Allowed, StringRef(Map.Keys[I])))
      continue;
    return error(Map.KeyLines[I], "unknown field '" + Map.Keys[I] + "'" +
                                      Where + " (expected one of: " +
                                      join(Allowed, ", ") + ")");
  }
  for (StringRef R : Required)
    if (!llvm::is_contained(Map.Keys, R.str()))
      return error(Line, "missing required field '" + R + "'" + Where);
  return Error::success();
}

Expected<std::string> MachineParser::getString(const YNode &N, StringRef Field,
                                               const Twine &Ctx) const {
  if (N.Kind != YNode::Scalar || N.Value.empty())
    return error(N.Line, "'" + Field + "' must be a non-empty string, got " +
                             N.kindName() + Ctx);
  return N.Value;
}

Expected<double> MachineParser::getPositive(const YNode &N, StringRef Field,
                                            const Twine &Ctx,
                                            bool Whole) const {
  if (N.Kind != YNode::Scalar)
    return error(N.Line, "'" + Field + "' must be a positive number, got " +
                             N.kindName() + Ctx);
  double V = 0;
  StringRef Text = StringRef(N.Value).trim();
  // getAsDouble accepts "nan" and "inf"; the range check below rejects them.
  if (Text.getAsDouble(V) || !std::isfinite(V) || !(V > 0))
    return error(N.Line, "'" + Field + "' must be a positive number, got " +
                             N.Value + Ctx);
  if (Whole && V != std::floor(V))
    return error(N.Line, "'" + Field + "' must be a whole number, got " +
                             N.Value + Ctx);
  return V;
}

Expected<bool> MachineParser::getBool(const YNode &N, StringRef Field) const {
  if (N.Kind == YNode::Scalar)
    if (std::optional<bool> B = yaml::parseBool(N.Value))
      return *B;
  return error(N.Line, "'" + Field + "' must be true or false, got " +
                           (N.Kind == YNode::Scalar ? N.Value
                                                    : std::string(N.kindName())));
}

// Precisions a file may key a peak by (parsePrecision's names).
constexpr StringRef PrecisionKeys[] = {"f64", "f32", "f16", "bf16",
                                       "i8",  "i16", "i32", "i64"};
// Copies of one memory level a file may declare: far beyond any machine's
// cores or SMs, and well inside MemoryLevel::Instances' unsigned.
constexpr unsigned MaxInstances = 1000000;
// Matrix-unit peaks: kept apart because plain loops never reach them.
constexpr StringRef TensorKeys[] = {"f64-tensor", "tf32-tensor", "f16-tensor",
                                    "bf16-tensor", "fp8-tensor", "i8-tensor",
                                    "i4-tensor"};

Expected<YNode> MachineParser::readRoot() {
  // Capture the scanner's own diagnostics instead of printing them.
  SM.setDiagHandler(
      [](const SMDiagnostic &D, void *Ctx) {
        auto *Out = static_cast<std::string *>(Ctx);
        if (Out->empty())
          *Out = (Twine(D.getLineNo()) + ": " + D.getMessage()).str();
      },
      &ScanError);
  yaml::Stream Stream(MemoryBufferRef(Yaml, Path), SM, /*ShowColors=*/false);

  std::optional<YNode> Root;
  unsigned Docs = 0;
  for (yaml::Document &Doc : Stream) {
    ++Docs;
    yaml::Node *N = Doc.getRoot();
    if (!N || Docs > 1) {
      Doc.skip();
      continue;
    }
    Expected<YNode> Tree = convert(N);
    if (!Tree)
      return Tree.takeError();
    Root = std::move(*Tree);
  }
  if (!ScanError.empty())
    return createStringError(inconvertibleErrorCode(),
                             Path + ":" + ScanError);
  if (Docs > 1)
    return error(1, "a machine file holds one YAML document, found " +
                        Twine(Docs));
  if (!Root || Root->Kind != YNode::Mapping)
    return error(Root ? Root->Line : 1,
                 "a machine file must be a mapping of fields (name, kind, "
                 "capacity_bytes, peaks, memory, ...)");
  return std::move(*Root);
}

Error MachineParser::parseTopFields(const YNode &Root, Machine &M,
                                    Sections &S) const {
  static constexpr StringRef TopKeys[] = {
      "name",    "description", "kind",   "capacity_bytes", "line_bytes",
      "write_allocate", "peaks", "core_peaks", "memory", "sources",
      "host_link_bandwidth", "launch_latency"};
  if (Error E = checkKeys(Root, TopKeys,
                          {"name", "kind", "capacity_bytes", "peaks", "memory"},
                          "", 1))
    return E;

  std::optional<unsigned> LineBytes;
  std::optional<bool> WriteAllocate;
  for (size_t I = 0; I < Root.Keys.size(); ++I) {
    StringRef Key = Root.Keys[I];
    const YNode &V = Root.Children[I];
    if (Key == "name") {
      Expected<std::string> Str = getString(V, Key, "");
      if (!Str)
        return Str.takeError();
      if (StringRef(*Str).find_first_of(" \t/") != StringRef::npos)
        return error(V.Line, "'name' must be a single word (no spaces or "
                             "slashes), got '" +
                                 *Str + "'");
      M.Name = *Str;
    } else if (Key == "description") {
      Expected<std::string> Str = getString(V, Key, "");
      if (!Str)
        return Str.takeError();
      M.Description = *Str;
    } else if (Key == "kind") {
      if (V.Kind != YNode::Scalar || (V.Value != "gpu" && V.Value != "cpu"))
        return error(V.Line, "'kind' must be 'gpu' or 'cpu', got " +
                                 (V.Kind == YNode::Scalar
                                      ? "'" + V.Value + "'"
                                      : std::string(V.kindName())));
      M.Kind = V.Value;
    } else if (Key == "capacity_bytes") {
      Expected<double> D = getPositive(V, Key, "", /*Whole=*/true);
      if (!D)
        return D.takeError();
      M.CapacityBytes = *D;
    } else if (Key == "line_bytes") {
      Expected<double> D = getPositive(V, Key, "", /*Whole=*/true);
      if (!D)
        return D.takeError();
      if (*D > 65536 || !isPowerOf2_64(static_cast<uint64_t>(*D)))
        return error(V.Line, "'line_bytes' must be a power of two, got " +
                                 V.Value);
      LineBytes = static_cast<unsigned>(*D);
    } else if (Key == "write_allocate") {
      Expected<bool> B = getBool(V, Key);
      if (!B)
        return B.takeError();
      WriteAllocate = *B;
    } else if (Key == "host_link_bandwidth" || Key == "launch_latency") {
      Expected<double> D = getPositive(V, Key, "", /*Whole=*/false);
      if (!D)
        return D.takeError();
      (Key == "launch_latency" ? M.LaunchLatencyS : M.HostLinkBytesPerS) = *D;
    } else if (Key == "peaks") {
      S.Peaks = &V;
      S.PeaksLine = Root.KeyLines[I];
    } else if (Key == "core_peaks") {
      S.CorePeaks = &V;
      S.CorePeaksLine = Root.KeyLines[I];
    } else if (Key == "memory") {
      S.Memory = &V;
      S.MemoryLine = Root.KeyLines[I];
    } else if (Key == "sources") {
      S.Sources = &V;
      S.SourcesLine = Root.KeyLines[I];
    }
  }
  if (M.Description.empty())
    M.Description = M.Name;
  // Defaults follow the kind: GPUs move 128-byte lines and do not fetch a
  // line to write it; CPUs move 64-byte lines and write-allocate.
  M.LineBytes = LineBytes ? *LineBytes : (M.Kind == "gpu" ? 128 : 64);
  M.WriteAllocate = WriteAllocate ? *WriteAllocate : M.Kind == "cpu";
  return Error::success();
}

Error MachineParser::parsePeaks(const YNode &Peaks, unsigned Line,
                                Machine &M) const {
  if (Peaks.Kind != YNode::Mapping)
    return error(Line, "'peaks' must be a mapping of precision to "
                       "FLOP/s, got " +
                           Twine(Peaks.kindName()));
  {
    SmallVector<StringRef, 16> Allowed(std::begin(PrecisionKeys),
                                       std::end(PrecisionKeys));
    Allowed.append(std::begin(TensorKeys), std::end(TensorKeys));
    if (Error E = checkKeys(Peaks, Allowed, {"f32"}, " in 'peaks'", Line))
      return E;
  }
  for (size_t I = 0; I < Peaks.Keys.size(); ++I) {
    const std::string &Key = Peaks.Keys[I];
    Expected<double> D =
        getPositive(Peaks.Children[I], Key, " (in 'peaks')", false);
    if (!D)
      return D.takeError();
    if (std::optional<Precision> P = parsePrecision(Key);
        P && *P != Precision::Unknown)
      M.Peak[*P] = *D;
    else
      M.TensorPeak[Key] = *D;
  }
  return Error::success();
}

// core_peaks: one core's peak per precision (optional; the 1-thread roof of
// roofline-run's % roof).
Error MachineParser::parseCorePeaks(const YNode &CorePeaks, unsigned Line,
                                    Machine &M) const {
  if (CorePeaks.Kind != YNode::Mapping)
    return error(Line, "'core_peaks' must be a mapping of precision "
                       "to FLOP/s, got " +
                           Twine(CorePeaks.kindName()));
  if (Error E =
          checkKeys(CorePeaks, PrecisionKeys, {}, " in 'core_peaks'", Line))
    return E;
  for (size_t I = 0; I < CorePeaks.Keys.size(); ++I) {
    const std::string &Key = CorePeaks.Keys[I];
    Expected<double> D =
        getPositive(CorePeaks.Children[I], Key, " (in 'core_peaks')", false);
    if (!D)
      return D.takeError();
    if (std::optional<Precision> P = parsePrecision(Key);
        P && *P != Precision::Unknown)
      M.CorePeak[*P] = *D;
  }
  return Error::success();
}

Error MachineParser::parseMemory(const YNode &Memory, unsigned Line,
                                 Machine &M) const {
  if (Memory.Kind != YNode::Sequence || Memory.Children.empty())
    return error(Line,
                 "'memory' must be a non-empty sequence of levels (main "
                 "memory first), got " +
                     Twine(Memory.Kind == YNode::Sequence ? "an empty sequence"
                                                          : Memory.kindName()));
  for (size_t I = 0; I < Memory.Children.size(); ++I) {
    Expected<MemoryLevel> Level = parseLevel(Memory.Children[I], I, M);
    if (!Level)
      return Level.takeError();
    M.Levels.push_back(std::move(*Level));
  }
  return Error::success();
}

Expected<MemoryLevel> MachineParser::parseLevel(const YNode &L, size_t I,
                                                const Machine &M) const {
  if (L.Kind != YNode::Mapping)
    return error(L.Line, "each 'memory' level must be a mapping {name, "
                         "bandwidth, size}, got " +
                             Twine(L.kindName()));
  bool IsMain = I == 0;
  static constexpr StringRef LevelKeys[] = {"name",      "bandwidth",  "size",
                                            "instances", "line_bytes", "ways"};
  SmallVector<StringRef, 3> Required = {"name", "bandwidth"};
  if (!IsMain)
    Required.push_back("size");
  // Name the level in messages as soon as it has one.
  std::string Named;
  for (size_t J = 0; J < L.Keys.size(); ++J)
    if (L.Keys[J] == "name" && L.Children[J].Kind == YNode::Scalar)
      Named = " '" + L.Children[J].Value + "'";
  std::string Where = (" in memory level " + Twine(I + 1) + Named +
                       (IsMain ? " (main memory)" : ""))
                          .str();
  if (Error E = checkKeys(L, LevelKeys, Required, Where, L.Line))
    return std::move(E);
  MemoryLevel Level;
  for (size_t J = 0; J < L.Keys.size(); ++J)
    if (L.Keys[J] == "name") {
      Expected<std::string> S = getString(L.Children[J], "name", Where);
      if (!S)
        return S.takeError();
      Level.Name = *S;
    }
  if (M.findLevel(Level.Name))
    return error(L.Line, "duplicate memory level '" + Level.Name + "'");
  std::string Ctx = " (in memory level '" + Level.Name + "')";
  for (size_t J = 0; J < L.Keys.size(); ++J)
    if (L.Keys[J] != "name")
      if (Error E = parseLevelField(L.Keys[J], L.Children[J], L.KeyLines[J],
                                    IsMain, Ctx, Level))
        return std::move(E);
  return Level;
}

Error MachineParser::parseLevelField(StringRef Key, const YNode &V,
                                     unsigned KeyLine, bool IsMain,
                                     const std::string &Ctx,
                                     MemoryLevel &Level) const {
  if (Key == "size" && IsMain)
    return error(KeyLine, "'size' does not apply to main memory '" +
                              Level.Name + "'; its size is 'capacity_bytes'");
  Expected<double> D = getPositive(V, Key, Ctx, Key != "bandwidth");
  if (!D)
    return D.takeError();
  if (Key == "bandwidth") {
    Level.BandwidthBytesPerS = *D;
  } else if (Key == "size") {
    Level.SizeBytes = *D;
  } else if (Key == "instances") {
    // Bounded before the conversion: a double beyond unsigned's range
    // does not convert (undefined behaviour; found by fuzz-machine).
    if (*D > MaxInstances)
      return error(V.Line, "'instances' must be at most " +
                               Twine(MaxInstances) + ", got " + V.Value + Ctx);
    Level.Instances = static_cast<unsigned>(*D);
  } else if (Key == "ways") {
    if (IsMain)
      return error(KeyLine,
                   "'ways' does not apply to main memory '" + Level.Name + "'");
    if (*D > 1024)
      return error(V.Line, "'ways' must be at most 1024 lines per set, "
                           "got " +
                               V.Value + Ctx);
    Level.Ways = static_cast<unsigned>(*D);
  } else if (Key == "line_bytes") {
    if (*D > 65536 || !isPowerOf2_64(static_cast<uint64_t>(*D)))
      return error(V.Line,
                   "'line_bytes' must be a power of two, got " + V.Value + Ctx);
    Level.LineBytes = static_cast<unsigned>(*D);
  }
  return Error::success();
}

// sources: every key must name a figure of this file, so a typo cannot
// leave a figure silently unsourced.
Error MachineParser::parseSources(const YNode &Sources, unsigned Line,
                                  const YNode &Peaks, Machine &M) const {
  if (Sources.Kind != YNode::Mapping)
    return error(Line, "'sources' must be a mapping of field to text, got " +
                           Twine(Sources.kindName()));
  for (size_t I = 0; I < Sources.Keys.size(); ++I) {
    const std::string &Key = Sources.Keys[I];
    bool Known = llvm::is_contained(Peaks.Keys, Key) || M.findLevel(Key) ||
                 Key == "capacity_bytes" ||
                 (Key == "host_link_bandwidth" && M.HostLinkBytesPerS) ||
                 (Key == "launch_latency" && M.LaunchLatencyS);
    if (!Known)
      return error(Sources.KeyLines[I],
                   "unknown field '" + Key +
                       "' in 'sources' (expected a key of 'peaks', a "
                       "memory level name, 'capacity_bytes', "
                       "'host_link_bandwidth' or 'launch_latency' of this "
                       "file)");
    Expected<std::string> S =
        getString(Sources.Children[I], Key, " (in 'sources')");
    if (!S)
      return S.takeError();
    M.Sources[Key] = *S;
  }
  return Error::success();
}

Expected<Machine> MachineParser::parse() {
  Expected<YNode> Root = readRoot();
  if (!Root)
    return Root.takeError();
  Machine M;
  M.Path = Path;
  Sections S;
  if (Error E = parseTopFields(*Root, M, S))
    return std::move(E);
  if (Error E = parsePeaks(*S.Peaks, S.PeaksLine, M))
    return std::move(E);
  if (S.CorePeaks)
    if (Error E = parseCorePeaks(*S.CorePeaks, S.CorePeaksLine, M))
      return std::move(E);
  if (Error E = parseMemory(*S.Memory, S.MemoryLine, M))
    return std::move(E);
  if (S.Sources)
    if (Error E = parseSources(*S.Sources, S.SourcesLine, *S.Peaks, M))
      return std::move(E);
  return M;
}

} // namespace

double Machine::peakFor(Precision P, unsigned Threads, bool *Assumed) const {
  if (Assumed)
    *Assumed = false;
  if (Threads == 1) {
    auto It = CorePeak.find(P);
    if (It == CorePeak.end())
      It = CorePeak.find(Precision::F32);
    if (It != CorePeak.end() && (CorePeak.count(P) || !Peak.count(P)))
      return It->second;
    if (Assumed)
      *Assumed = true;
  }
  return peakFor(P);
}

double Machine::peakFor(Precision P) const {
  auto It = Peak.find(P);
  if (It != Peak.end())
    return It->second;
  It = Peak.find(Precision::F32);
  return It != Peak.end() ? It->second : 0.0;
}

const char *tensorPeakKey(Precision P) {
  switch (P) {
  case Precision::F64:
    return "f64-tensor";
  case Precision::F32:
    return "tf32-tensor"; // fp32 GEMMs reach tensor cores only as TF32
  case Precision::F16:
    return "f16-tensor";
  case Precision::BF16:
    return "bf16-tensor";
  case Precision::I8:
    return "i8-tensor";
  default:
    return nullptr;
  }
}

std::optional<double> Machine::tensorPeakFor(Precision P) const {
  const char *Key = tensorPeakKey(P);
  if (!Key)
    return std::nullopt;
  auto It = TensorPeak.find(Key);
  if (It == TensorPeak.end())
    return std::nullopt;
  return It->second;
}

double Machine::ridge(Precision P) const {
  if (Levels.empty() || Levels.front().BandwidthBytesPerS <= 0)
    return 0;
  return peakFor(P) / Levels.front().BandwidthBytesPerS;
}

const MemoryLevel *Machine::findLevel(StringRef Name) const {
  for (const MemoryLevel &L : Levels)
    if (L.Name == Name)
      return &L;
  return nullptr;
}

std::vector<std::string> builtinMachineNames() {
  std::vector<std::string> Names;
  for (const BuiltinMachine &B : Builtins)
    Names.push_back(B.Name);
  llvm::sort(Names);
  return Names;
}

const char *defaultMachineName() { return "rtx-a6000"; }

std::optional<StringRef> builtinMachineText(StringRef Name) {
  for (const BuiltinMachine &B : Builtins)
    if (Name == B.Name)
      return StringRef(B.Text);
  return std::nullopt;
}

Expected<Machine> parseMachine(StringRef Yaml, StringRef Path) {
  return MachineParser(Yaml, Path).parse();
}

Expected<Machine> loadMachine(StringRef NameOrPath) {
  if (std::optional<StringRef> Text = builtinMachineText(NameOrPath)) {
    Expected<Machine> M =
        parseMachine(*Text, ("machines/" + NameOrPath + ".yaml").str());
    if (M)
      M->Path = "<builtin>";
    return M;
  }
  // "host" is the machine roofline-probe measured and saved (--save).
  if (NameOrPath == HostMachineName) {
    std::string Path = defaultHostMachinePath();
    ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
        MemoryBuffer::getFile(Path, /*IsText=*/true);
    if (!Buf)
      return createStringError(
          inconvertibleErrorCode(),
          "no measured host machine at '" + Path +
              "'; run 'roofline-probe --save' to measure this machine");
    return parseMachine((*Buf)->getBuffer(), Path);
  }
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
      MemoryBuffer::getFile(NameOrPath, /*IsText=*/true);
  if (Buf)
    return parseMachine((*Buf)->getBuffer(), NameOrPath);
  return createStringError(
      inconvertibleErrorCode(),
      "unknown machine '" + NameOrPath + "' (known: " +
          join(builtinMachineNames(), ", ") +
          ", or host for the one roofline-probe measured); or give a path "
          "to a YAML machine file");
}

} // namespace roofline

std::optional<char> roofline::firstControlChar(StringRef S, StringRef Allowed) {
  for (char C : S)
    if ((static_cast<unsigned char>(C) < 0x20 || C == 0x7f) &&
        !Allowed.contains(C))
      return C;
  return std::nullopt;
}
