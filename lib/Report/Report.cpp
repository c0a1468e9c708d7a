//===- Report.cpp - Text diagnostics and JSON for analyzed nests ----------===//

#include "roofline/Report/Report.h"
#include "roofline/Report/AdviceReport.h"
#include "roofline/Report/LevelReport.h"
#include "roofline/Report/SourceLines.h"
#include "roofline/Support/JsonText.h"
#include "roofline/Support/Parallel.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cassert>
#include <cmath>
#include <limits>

using namespace roofline;

std::string roofline::withThousands(Int128 V) {
  std::string Digits = int128ToString(V);
  bool Neg = !Digits.empty() && Digits[0] == '-';
  if (Neg)
    Digits.erase(0, 1);
  std::string Out;
  for (size_t I = 0; I < Digits.size(); ++I) {
    if (I && (Digits.size() - I) % 3 == 0)
      Out += ',';
    Out += Digits[I];
  }
  return (Neg ? "-" : "") + Out;
}

namespace {

/// " (why)" after a count shown as '?' whose reason is known.
std::string whyUnknown(const Count &C) {
  return C.Value || C.Formula || C.WhyNot.empty() ? "" : " (" + C.WhyNot + ")";
}

std::string countStr(const Count &C) {
  if (C.Value)
    return withThousands(*C.Value);
  if (C.Formula)
    return C.Formula->str();
  return "?";
}

} // namespace

//===----------------------------------------------------------------------===//
// Text
//===----------------------------------------------------------------------===//

namespace {

void diag(llvm::raw_ostream &OS, const SourceLoc &L, const char *Severity,
          const std::string &Msg, SourceLines *Src) {
  OS << L.File << ":" << L.Line << ":" << L.Column << ": " << Severity << ": "
     << Msg << "\n";
  if (!Src)
    return;
  llvm::StringRef Code = Src->line(L.File, L.Line);
  if (Code.empty())
    return;
  printSourceEcho(OS, Code, L.Line, L.Column);
}

std::string flopsByTypeStr(const NestCounts &C) {
  std::string S;
  for (const auto &[P, Cnt] : C.FlopsByType) {
    if (Cnt.Value && *Cnt.Value == 0)
      continue;
    S += (S.empty() ? "" : ", ") + std::string(precisionName(P)) + ": " +
         countStr(Cnt);
  }
  return S;
}

std::string verdictLine(const AnalyzedNest &A, const Report &R) {
  const NestVerdict &J = A.Judged;
  std::string Who = A.Nest.Function + ": ";
  if (!J.V)
    return Who + "no verdict on " + R.M->Name + ": " + J.WhyNot;
  const Verdict &V = *J.V;
  std::string S = Who + boundKindName(V.Bound) + " on " + R.M->Name + " (" +
                  V.Model + " traffic): AI " + formatG(V.Intensity, 4) +
                  " FLOP/B ";
  if (V.Bound == BoundKind::DoesNotFit)
    return S + "but its " + formatG(V.FootprintBytes / 1e9) +
           " GB footprint exceeds the " + formatG(R.M->CapacityBytes / 1e9) +
           " GB memory";
  S += std::string(V.Intensity >= V.Ridge ? "above" : "below") +
       " the ridge " + formatG(V.Ridge, 4) + "; time floor " +
       formatSeconds(V.Time);
  return S;
}

/// Totals over the nests of one function (the seed's fusion example is
/// three nests against one).
struct FunctionTotal {
  std::string File, Function;
  unsigned Nests = 0;
  size_t LastIndex = 0;
  std::optional<Int128> Flops = 0, BytesCompulsory = 0, BytesNoReuse = 0;
  /// Why BytesCompulsory is unknown: the first nest without it.
  std::string CompulsoryWhyNot;
};

void accumulate(std::optional<Int128> &Sum, const Count &C) {
  if (Sum && C.Value && !__builtin_add_overflow(*Sum, *C.Value, &*Sum))
    return;
  Sum.reset();
}

std::vector<FunctionTotal>
functionTotals(llvm::ArrayRef<const AnalyzedNest *> Nests) {
  std::vector<FunctionTotal> Out;
  std::map<std::pair<std::string, std::string>, size_t> Index;
  for (size_t I = 0; I < Nests.size(); ++I) {
    const AnalyzedNest &A = *Nests[I];
    auto Key = std::make_pair(A.Nest.Loc.File, A.Nest.Function);
    auto [It, New] = Index.emplace(Key, Out.size());
    if (New)
      Out.push_back({Key.first, Key.second});
    FunctionTotal &T = Out[It->second];
    ++T.Nests;
    T.LastIndex = I;
    accumulate(T.Flops, A.Counts.Flops);
    accumulate(T.BytesCompulsory, A.Counts.BytesCompulsory);
    const Count &Cc = A.Counts.BytesCompulsory;
    if (!Cc.Value && T.CompulsoryWhyNot.empty())
      T.CompulsoryWhyNot =
          "the nest at line " + std::to_string(A.Nest.Loc.Line) + ": " +
          (Cc.WhyNot.empty() ? "its compulsory bytes are unknown" : Cc.WhyNot);
    accumulate(T.BytesNoReuse, A.Counts.BytesNoReuse);
  }
  return Out;
}

template <typename T> std::vector<const T *> pointersTo(const std::vector<T> &V) {
  std::vector<const T *> Out;
  Out.reserve(V.size());
  for (const T &X : V)
    Out.push_back(&X);
  return Out;
}

std::vector<FunctionTotal> functionTotals(const Report &R) {
  return functionTotals(pointersTo(R.Nests));
}

std::string optCount(const std::optional<Int128> &V) {
  return V ? withThousands(*V) : std::string("?");
}

void printNestText(llvm::raw_ostream &OS, const AnalyzedNest &A,
                   const Report &R, SourceLines *Src, Verbosity Level) {
  const SourceLoc &L = A.Nest.Loc;
  const NestCounts &C = A.Counts;
  // The seed's third limit: a nest whose data does not fit does not run.
  // The error comes first; the verdict remark and its notes follow as usual.
  if (A.Judged.V && A.Judged.V->Bound == BoundKind::DoesNotFit)
    diag(OS, L, "error",
         capacityMessage(A.Nest.Function, *A.Judged.V, *R.M) +
             " [roofline-capacity]",
         Src);
  diag(OS, L, "remark", verdictLine(A, R) + " [roofline-verdict]", Src);
  if (Level == Verbosity::Brief)
    return;
  std::string FlopsBy = flopsByTypeStr(C);
  std::string Range = C.WorkIsRange ? countStr(C.FlopsMin) + " to " : "";
  diag(OS, L, "note",
       countStr(C.Macs) + " MACs, " + Range + countStr(C.Flops) + " FLOPs" +
           (FlopsBy.empty() ? "" : " (" + FlopsBy + ")") + "; " +
           countStr(C.BytesCompulsory) + " bytes compulsory" +
           whyUnknown(C.BytesCompulsory) + ", " +
           countStr(C.BytesNoReuse) + " bytes no-reuse",
       nullptr);
  if (A.Judged.V) {
    const Verdict &V = *A.Judged.V;
    diag(OS, L, "note",
         "math " + formatSeconds(V.TimeCompute) + " at " +
             formatRate(V.Peak, isFloating(V.Prec) ? "FLOP/s" : "OP/s") +
             " (" + precisionName(V.Prec) +
             "), data " + formatSeconds(V.TimeMemory) + " at " +
             formatRate(V.Bandwidth, "B/s") + "; attainable " +
             formatRate(V.Attainable, "FLOP/s"),
         nullptr);
  }
  if (C.Macs.Formula && C.Flops.Formula && C.BytesCompulsory.Formula) {
    // A range of work reads "FLOPs = N to 2*N".
    auto Range = [&](const Count &Min, const Count &Max) {
      std::string Hi = Max.Formula->str();
      if (!C.WorkIsRange || !Min.Formula || Min.Formula->str() == Hi)
        return Hi;
      return Min.Formula->str() + " to " + Hi;
    };
    diag(OS, L, "note",
         "as formulas: MACs = " + Range(C.MacsMin, C.Macs) + ", FLOPs = " +
             Range(C.FlopsMin, C.Flops) + ", bytes compulsory = " +
             C.BytesCompulsory.Formula->str(),
         nullptr);
  }
  if (const auto &X = A.Judged.Cross)
    diag(OS, L, "note",
         "the verdict flips at " + X->Param + " = " + formatG(X->Value, 4) +
             ": " + (X->ComputeBoundAbove ? "memory" : "compute") +
             "-bound below, " + (X->ComputeBoundAbove ? "compute" : "memory") +
             "-bound above",
         nullptr);
  if (A.Judged.Levels)
    diag(OS, L, "note", levelsNote(*A.Judged.Levels, *R.M), nullptr);
  for (const std::string &Note : C.Notes)
    diag(OS, L, "note", Note, nullptr);
  if (Level == Verbosity::Full)
    if (std::string Sizes = sizesNote(A.Nest); !Sizes.empty())
      diag(OS, L, "note", Sizes, nullptr);
}

} // namespace

std::string roofline::sizesNote(const LoopNest &N) {
  std::string S;
  for (const Param &P : N.Params) {
    S += (S.empty() ? "sizes: " : ", ") + P.Name + " = " +
         (P.Value ? std::to_string(*P.Value) : std::string("?"));
    if (!P.Origin.empty())
      S += " (" + P.Origin + ")";
  }
  return S;
}

void roofline::printText(llvm::raw_ostream &OS, const Report &R,
                         bool ShowSource) {
  printText(OS, R, pointersTo(R.Nests), pointersTo(R.Skipped), ShowSource);
}

void roofline::printText(llvm::raw_ostream &OS, const Report &R,
                         llvm::ArrayRef<const AnalyzedNest *> Nests,
                         llvm::ArrayRef<const SkippedNest *> Skipped,
                         bool ShowSource) {
  for (const TextBlock &B : textBlocks(R, Nests, Skipped, ShowSource))
    OS << B.Text;
}

std::vector<TextBlock>
roofline::textBlocks(const Report &R, llvm::ArrayRef<const AnalyzedNest *> Nests,
                     llvm::ArrayRef<const SkippedNest *> Skipped,
                     bool ShowSource, Verbosity Level) {
  SourceLines Cache;
  // Brief: one line per nest, without the source under it.
  SourceLines *Src = ShowSource && Level != Verbosity::Brief ? &Cache : nullptr;
  std::vector<FunctionTotal> Totals = functionTotals(Nests);
  // Each nest's lines are rendered on the -j threads, then kept in order.
  std::vector<std::string> NestText(Nests.size());
  parallelForChunks(Nests.size(), [&](size_t K) {
    llvm::raw_string_ostream S(NestText[K]);
    printNestText(S, *Nests[K], R, Src, Level);
  });
  // Nests and skipped nests interleave in source order.
  auto Before = [](const SourceLoc &A, const SourceLoc &B) {
    return std::tie(A.File, A.Line, A.Column) <
           std::tie(B.File, B.Line, B.Column);
  };
  std::vector<TextBlock> Blocks;
  size_t I = 0, J = 0;
  while (I < Nests.size() || J < Skipped.size()) {
    bool TakeNest =
        J == Skipped.size() ||
        (I < Nests.size() && !Before(Skipped[J]->Loc, Nests[I]->Nest.Loc));
    if (TakeNest) {
      TextBlock B{Nests[I]->Nest.Loc, std::move(NestText[I])};
      llvm::raw_string_ostream OS(B.Text);
      for (const FunctionTotal &T : Totals)
        if (T.LastIndex == I && T.Nests > 1 && Level != Verbosity::Brief)
          diag(OS, B.Loc, "note",
               T.Function + " in all (" + std::to_string(T.Nests) +
                   " nests): " + optCount(T.Flops) + " FLOPs, " +
                   optCount(T.BytesCompulsory) + " bytes compulsory" +
                   (T.BytesCompulsory ? "" : " (" + T.CompulsoryWhyNot + ")") +
                   ", " +
                   optCount(T.BytesNoReuse) + " bytes no-reuse",
               nullptr);
      OS.flush();
      Blocks.push_back(std::move(B));
      ++I;
      continue;
    }
    const SkippedNest &S = *Skipped[J++];
    TextBlock B{S.Loc, ""};
    llvm::raw_string_ostream OS(B.Text);
    diag(OS, S.Loc, "note",
         "loop nest not analyzed: " + S.Reason + " [roofline-unanalyzable]",
         Src);
    OS.flush();
    Blocks.push_back(std::move(B));
  }
  return Blocks;
}

//===----------------------------------------------------------------------===//
// JSON
//===----------------------------------------------------------------------===//

namespace {

llvm::json::Value number(Int128 V) {
  if (V >= std::numeric_limits<int64_t>::min() &&
      V <= std::numeric_limits<int64_t>::max())
    return static_cast<int64_t>(V);
  return static_cast<double>(V); // beyond int64: JSON numbers are doubles
}

llvm::json::Value countJSON(const Count &C) {
  if (C.Value)
    return number(*C.Value);
  return nullptr;
}

llvm::json::Value formulaJSON(const Count &C) {
  if (C.Formula)
    return C.Formula->str();
  return nullptr;
}

llvm::json::Value intensityJSON(const NestCounts &C, const Count &Bytes) {
  if (!C.Flops.Value || !Bytes.Value)
    return nullptr;
  if (*Bytes.Value == 0)
    return nullptr;
  return static_cast<double>(*C.Flops.Value) /
         static_cast<double>(*Bytes.Value);
}

llvm::json::Object locJSON(const SourceLoc &L, const std::string &Function) {
  return llvm::json::Object{{"file", L.File},
                            {"line", static_cast<int64_t>(L.Line)},
                            {"column", static_cast<int64_t>(L.Column)},
                            {"function", Function}};
}

llvm::json::Value verdictJSON(const NestVerdict &J) {
  llvm::json::Object O;
  if (J.V) {
    const Verdict &V = *J.V;
    O["machine"] = V.MachineName;
    O["model"] = V.Model;
    O["bound"] = boundKindName(V.Bound);
    O["precision"] = precisionName(V.Prec);
    O["ridge"] = V.Ridge;
    O["intensity"] = std::isfinite(V.Intensity)
                         ? llvm::json::Value(V.Intensity)
                         : llvm::json::Value(nullptr);
    O["peak_flops_per_s"] = V.Peak;
    O["bandwidth_bytes_per_s"] = V.Bandwidth;
    O["attainable_flops_per_s"] = V.Attainable;
    O["time_compute_s"] = V.TimeCompute;
    O["time_memory_s"] = V.TimeMemory;
    O["time_s"] = V.Time;
    O["footprint_bytes"] = V.FootprintBytes;
  } else {
    O["bound"] = nullptr;
    O["why_not"] = J.WhyNot;
  }
  if (!J.IntensityFormula.empty())
    O["intensity_formula"] = J.IntensityFormula;
  if (J.Levels) {
    O["levels"] = levelsJSON(*J.Levels);
    O["bottleneck"] = J.Levels->bottleneckName();
  }
  if (J.Cross)
    O["crossover"] = llvm::json::Object{
        {"param", J.Cross->Param},
        {"value", J.Cross->Value},
        {"compute_bound_above", J.Cross->ComputeBoundAbove}};
  return O;
}

/// The nest's JSON, with its `cache` member when \p WithCache.
llvm::json::Object nestJSON(const AnalyzedNest &A, const Report &R,
                            bool WithCache) {
  const NestCounts &C = A.Counts;
  // A case's nest is labelled "f [bias != NULL]"; JSON names both apart.
  std::string Function = A.Nest.Function;
  if (!A.Nest.Case.empty())
    Function = Function.substr(0, Function.size() - A.Nest.Case.size() - 3);
  llvm::json::Object O = locJSON(A.Nest.Loc, Function);
  if (!A.Nest.Case.empty())
    O["case"] = A.Nest.Case;

  // Nested values are assigned, not listed: an initializer list's
  // elements are const, so listing copies them whole.
  llvm::json::Array Loops;
  Loops.reserve(C.Loops.size());
  for (const LoopTrip &T : C.Loops)
    Loops.push_back(llvm::json::Object{{"iv", T.IV},
                                       {"first", T.First},
                                       {"last", T.Last},
                                       {"step", T.Step},
                                       {"trip", T.TripPerEntry},
                                       {"total", countJSON(T.Total)},
                                       {"total_formula", formulaJSON(T.Total)}});
  O["loops"] = std::move(Loops);

  llvm::json::Object Params;
  for (const Param &P : A.Nest.Params)
    Params[P.Name] = P.Value ? llvm::json::Value(*P.Value)
                             : llvm::json::Value(nullptr);
  O["params"] = std::move(Params);
  // Where each value came from (docs/json.md): a size fixed by the source
  // against one given by --param or .roofline.yaml.
  llvm::json::Object Origins;
  for (const Param &P : A.Nest.Params)
    Origins[P.Name] = P.Origin;
  O["param_origins"] = std::move(Origins);

  llvm::json::Object ByType, MacsByType, Calls;
  for (const auto &[P, Cnt] : C.FlopsByType)
    ByType[precisionName(P)] = countJSON(Cnt);
  for (const auto &[P, Cnt] : C.MacsByType)
    MacsByType[precisionName(P)] = countJSON(Cnt);
  for (const auto &[Name, Cnt] : C.Calls)
    Calls[Name] = countJSON(Cnt);
  llvm::json::Object Counts{{"iterations", countJSON(C.Iterations)},
                            {"macs", countJSON(C.Macs)},
                            {"flops", countJSON(C.Flops)},
                            {"intops", countJSON(C.IntOps)},
                            {"loads", countJSON(C.Loads)},
                            {"stores", countJSON(C.Stores)}};
  Counts["flops_by_type"] = std::move(ByType);
  Counts["macs_by_type"] = std::move(MacsByType);
  Counts["calls"] = std::move(Calls);
  if (C.WorkIsRange) {
    // The upper end is counts.flops; data-dependent branches may do less.
    Counts["flops_min"] = countJSON(C.FlopsMin);
    Counts["macs_min"] = countJSON(C.MacsMin);
  }
  O["counts"] = std::move(Counts);
  O["symbolic"] =
      llvm::json::Object{{"iterations", formulaJSON(C.Iterations)},
                         {"macs", formulaJSON(C.Macs)},
                         {"flops", formulaJSON(C.Flops)},
                         {"loads", formulaJSON(C.Loads)},
                         {"stores", formulaJSON(C.Stores)},
                         {"bytes_no_reuse", formulaJSON(C.BytesNoReuse)},
                         {"bytes_compulsory", formulaJSON(C.BytesCompulsory)}};
  // Decimal strings: exact even where a JSON number (a double past 2^63)
  // is not.
  auto Exact = [](const Count &Cnt) {
    return Cnt.Value ? llvm::json::Value(int128ToString(*Cnt.Value))
                     : llvm::json::Value(nullptr);
  };
  O["exact"] = llvm::json::Object{{"iterations", Exact(C.Iterations)},
                                  {"macs", Exact(C.Macs)},
                                  {"flops", Exact(C.Flops)},
                                  {"loads", Exact(C.Loads)},
                                  {"stores", Exact(C.Stores)},
                                  {"bytes_no_reuse", Exact(C.BytesNoReuse)},
                                  {"bytes_compulsory", Exact(C.BytesCompulsory)}};
  // The cache model's main-memory bytes (docs/json.md: bytes.cache); tiled
  // when the verdict used it.
  Count CacheBytes;
  if (A.Judged.Cache && A.Judged.Cache->MainMemoryBytes)
    CacheBytes.Value =
        static_cast<Int128>(std::llround(*A.Judged.Cache->MainMemoryBytes));
  llvm::json::Object Bytes{{"no_reuse", countJSON(C.BytesNoReuse)},
                           {"compulsory", countJSON(C.BytesCompulsory)},
                           {"cache", countJSON(CacheBytes)}};
  // A null count is never left without its reason.
  if (!C.BytesCompulsory.Value && !C.BytesCompulsory.WhyNot.empty())
    Bytes["compulsory_why_not"] = C.BytesCompulsory.WhyNot;
  llvm::json::Object AI{{"no_reuse", intensityJSON(C, C.BytesNoReuse)},
                        {"compulsory", intensityJSON(C, C.BytesCompulsory)},
                        {"cache", intensityJSON(C, CacheBytes)}};
  if (R.Model == TrafficModel::Tiled) {
    Bytes["tiled"] = countJSON(A.Judged.Bytes);
    AI["tiled"] = intensityJSON(C, A.Judged.Bytes);
  }
  O["bytes"] = std::move(Bytes);
  O["intensity"] = std::move(AI);

  llvm::json::Array Arrays;
  Arrays.reserve(C.Arrays.size());
  for (const ArrayTraffic &T : C.Arrays)
    Arrays.push_back(llvm::json::Object{
        {"name", T.Name},
        {"type", precisionName(T.Elem)},
        {"element_bytes", static_cast<int64_t>(T.ElemBytes)},
        {"loads", countJSON(T.Loads)},
        {"stores", countJSON(T.Stores)},
        {"elements_read", countJSON(T.ElementsRead)},
        {"elements_written", countJSON(T.ElementsWritten)}});
  O["arrays"] = std::move(Arrays);
  O["verdict"] = verdictJSON(A.Judged);

  llvm::json::Array Notes;
  Notes.reserve(C.Notes.size());
  for (const std::string &N : C.Notes)
    Notes.push_back(N);
  O["notes"] = std::move(Notes);
  addAdviceJSON(O, A);
  if (WithCache)
    O["cache"] = cacheJSON(A.Judged);
  return O;
}

} // namespace

llvm::json::Value roofline::nestToJSON(const AnalyzedNest &A,
                                      const Report &R) {
  return nestJSON(A, R, /*WithCache=*/true);
}

std::string roofline::nestToJSONText(const AnalyzedNest &A, const Report &R,
                                     unsigned Indent) {
  llvm::json::Object O = nestJSON(A, R, /*WithCache=*/false);
  std::string Out;
  {
    JsonWriter W(Out, /*IndentSize=*/2, Indent);
    W.object(O, {{"cache", [&](JsonWriter &W) {
                    writeCacheJSON(W, A.Judged);
                  }}});
  }
  return Out;
}

llvm::json::Value roofline::toJSON(const Report &R) {
  // json::Value's move is not noexcept: a growing vector deep-copies.
  llvm::json::Array Nests;
  Nests.reserve(R.Nests.size());
  for (const AnalyzedNest &A : R.Nests)
    Nests.push_back(nestJSON(A, R, /*WithCache=*/true));
  llvm::json::Object Top = toJSONWithoutNests(R);
  Top["nests"] = std::move(Nests);
  return Top;
}

llvm::json::Object roofline::toJSONWithoutNests(const Report &R) {
  llvm::json::Array Skipped, Functions;
  for (const FunctionTotal &T : functionTotals(R)) {
    auto Opt = [](const std::optional<Int128> &V) {
      return V ? number(*V) : llvm::json::Value(nullptr);
    };
    llvm::json::Object Bytes{{"compulsory", Opt(T.BytesCompulsory)},
                             {"no_reuse", Opt(T.BytesNoReuse)}};
    if (!T.BytesCompulsory && !T.CompulsoryWhyNot.empty())
      Bytes["compulsory_why_not"] = T.CompulsoryWhyNot;
    llvm::json::Object F{{"file", T.File},
                         {"function", T.Function},
                         {"nests", static_cast<int64_t>(T.Nests)},
                         {"flops", Opt(T.Flops)}};
    F["bytes"] = std::move(Bytes);
    Functions.push_back(std::move(F));
  }
  for (const SkippedNest &S : R.Skipped) {
    llvm::json::Object O = locJSON(S.Loc, S.Function);
    O["reason"] = S.Reason;
    O["reason_kind"] = S.ReasonKind;
    Skipped.push_back(std::move(O));
  }
  const Machine &M = *R.M;
  llvm::json::Object Peaks;
  for (const auto &[P, V] : M.Peak)
    Peaks[precisionName(P)] = V;
  llvm::json::Object Mach{
      {"name", M.Name},
      {"description", M.Description},
      {"peaks", std::move(Peaks)},
      {"bandwidth_bytes_per_s", M.mainMemory().BandwidthBytesPerS},
      {"capacity_bytes", M.CapacityBytes},
      {"ridge_f32", M.peakFor(Precision::F32) /
                        M.mainMemory().BandwidthBytesPerS}};
  // Assigned, not listed: an initializer list would copy every nest.
  llvm::json::Object Top{{"version", 1},
                         {"model", trafficModelName(R.Model)}};
  Top["machine"] = std::move(Mach);
  Top["functions"] = std::move(Functions);
  Top["skipped"] = std::move(Skipped);
  return Top;
}
