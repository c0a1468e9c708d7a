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
  /// Lower ends, where a nest's work or bytes are a range (the sums of
  /// each nest's lower end, its one value where it has no range).
  bool WorkIsRange = false, BytesIsRange = false;
  std::optional<Int128> FlopsMin = 0, BytesCompulsoryMin = 0;
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
    const NestCounts &C = A.Counts;
    accumulate(T.Flops, C.Flops);
    accumulate(T.BytesCompulsory, C.BytesCompulsory);
    T.WorkIsRange |= C.WorkIsRange;
    T.BytesIsRange |= C.BytesIsRange;
    accumulate(T.FlopsMin, C.WorkIsRange ? C.FlopsMin : C.Flops);
    accumulate(T.BytesCompulsoryMin,
               C.BytesIsRange ? C.BytesCompulsoryMin : C.BytesCompulsory);
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

/// "2 to 16", or the one value where there is no range.
std::string optRange(bool IsRange, const std::optional<Int128> &Min,
                     const std::optional<Int128> &Max) {
  if (!IsRange || optCount(Min) == optCount(Max))
    return optCount(Max);
  return optCount(Min) + " to " + optCount(Max);
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
  // "2 to 16 FLOPs"; a range whose ends agree reads as one number.
  auto From = [](bool IsRange, const Count &Min, const Count &Max) {
    return IsRange && countStr(Min) != countStr(Max) ? countStr(Min) + " to "
                                                     : std::string();
  };
  std::string Range = From(C.WorkIsRange, C.FlopsMin, C.Flops);
  std::string BytesFrom =
      From(C.BytesIsRange, C.BytesCompulsoryMin, C.BytesCompulsory);
  // Withdrawn (an early exit): the reason instead of "?".
  const Count &NR = C.BytesNoReuse;
  std::string NoReuse = NR.Value || NR.Formula || NR.WhyNot.empty()
                            ? countStr(NR) + " bytes no-reuse"
                            : "no-reuse bytes unknown (" + NR.WhyNot + ")";
  diag(OS, L, "note",
       countStr(C.Macs) + " MACs, " + Range + countStr(C.Flops) + " FLOPs" +
           (FlopsBy.empty() ? "" : " (" + FlopsBy + ")") + "; " + BytesFrom +
           countStr(C.BytesCompulsory) + " bytes compulsory" +
           whyUnknown(C.BytesCompulsory) + ", " + NoReuse,
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
    auto Range = [&](const Count &Min, const Count &Max, bool IsRange) {
      std::string Hi = Max.Formula->str();
      if (!IsRange || !Min.Formula || Min.Formula->str() == Hi)
        return Hi;
      return Min.Formula->str() + " to " + Hi;
    };
    diag(OS, L, "note",
         "as formulas: MACs = " + Range(C.MacsMin, C.Macs, C.WorkIsRange) +
             ", FLOPs = " + Range(C.FlopsMin, C.Flops, C.WorkIsRange) +
             ", bytes compulsory = " +
             Range(C.BytesCompulsoryMin, C.BytesCompulsory, C.BytesIsRange),
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
                   " nests): " + optRange(T.WorkIsRange, T.FlopsMin, T.Flops) +
                   " FLOPs, " +
                   optRange(T.BytesIsRange, T.BytesCompulsoryMin,
                            T.BytesCompulsory) +
                   " bytes compulsory" +
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

llvm::json::Object locJSON(const SourceLoc &L, const std::string &Function) {
  return llvm::json::Object{{"file", L.File},
                            {"line", static_cast<int64_t>(L.Line)},
                            {"column", static_cast<int64_t>(L.Column)},
                            {"function", Function}};
}

// The nest is written member by member through JsonWriter, not built as a
// json::Value and then written: building, writing and freeing the tree was
// most of --format=json's cost over text (docs/results/speed.txt). Every
// object's keys are written in byte order, as llvm::json::OStream sorts
// them; keys that come from the input (sizes, call names) are sorted here.

/// number(V) as written: an integer within int64, else a double.
void writeInt(JsonWriter &W, Int128 V) {
  if (V >= std::numeric_limits<int64_t>::min() &&
      V <= std::numeric_limits<int64_t>::max())
    W.integer(static_cast<int64_t>(V));
  else
    W.number(static_cast<double>(V));
}

void writeCount(JsonWriter &W, const Count &C) {
  if (C.Value)
    writeInt(W, *C.Value);
  else
    W.null();
}

void writeFormula(JsonWriter &W, const Count &C) {
  if (C.Formula)
    W.string(C.Formula->str());
  else
    W.null();
}

void writeIntensity(JsonWriter &W, const Count &Flops, const Count &Bytes) {
  if (!Flops.Value || !Bytes.Value || *Bytes.Value == 0)
    return W.null();
  W.number(static_cast<double>(*Flops.Value) /
           static_cast<double>(*Bytes.Value));
}

/// An object whose \p N keys come from the input: in byte order, a key
/// given twice once with its last value (as json::Object's operator[]
/// keeps it), a key of invalid UTF-8 fixed as json::ObjectKey fixes it.
void writeKeyed(JsonWriter &W, size_t N,
                llvm::function_ref<llvm::StringRef(size_t)> Key,
                llvm::function_ref<void(size_t)> Value) {
  llvm::SmallVector<std::pair<std::string, size_t>, 8> Keys;
  Keys.reserve(N);
  for (size_t I = 0; I < N; ++I) {
    llvm::StringRef K = Key(I);
    Keys.push_back({llvm::json::isUTF8(K) ? K.str() : llvm::json::fixUTF8(K),
                    I});
  }
  std::stable_sort(Keys.begin(), Keys.end(), [](const auto &L, const auto &R) {
    return L.first < R.first;
  });
  W.objectBegin();
  for (size_t I = 0; I < Keys.size(); ++I) {
    if (I + 1 < Keys.size() && Keys[I + 1].first == Keys[I].first)
      continue; // the last one wins
    W.key(Keys[I].first);
    Value(Keys[I].second);
  }
  W.objectEnd();
}

/// A map keyed by precision, by precision name.
void writeByType(JsonWriter &W, const std::map<Precision, Count> &M) {
  llvm::SmallVector<const std::pair<const Precision, Count> *, 8> E;
  for (const auto &KV : M)
    E.push_back(&KV);
  writeKeyed(
      W, E.size(), [&](size_t I) { return precisionName(E[I]->first); },
      [&](size_t I) { writeCount(W, E[I]->second); });
}

void writeVerdict(JsonWriter &W, const NestVerdict &J) {
  W.objectBegin();
  const Verdict *V = J.V ? &*J.V : nullptr;
  if (V) {
    W.key("attainable_flops_per_s");
    W.number(V->Attainable);
    W.key("bandwidth_bytes_per_s");
    W.number(V->Bandwidth);
  }
  if (J.Levels) {
    W.key("bottleneck");
    W.string(J.Levels->bottleneckName());
  }
  W.key("bound");
  if (V)
    W.string(boundKindName(V->Bound));
  else
    W.null();
  if (J.Cross) {
    W.key("crossover");
    W.objectBegin();
    W.key("compute_bound_above");
    W.boolean(J.Cross->ComputeBoundAbove);
    W.key("param");
    W.string(J.Cross->Param);
    W.key("value");
    W.number(J.Cross->Value);
    W.objectEnd();
  }
  if (V) {
    W.key("footprint_bytes");
    W.number(V->FootprintBytes);
    W.key("intensity");
    if (std::isfinite(V->Intensity))
      W.number(V->Intensity);
    else
      W.null();
  }
  if (!J.IntensityFormula.empty()) {
    W.key("intensity_formula");
    W.string(J.IntensityFormula);
  }
  if (J.Levels) {
    W.key("levels");
    writeLevelsJSON(W, *J.Levels);
  }
  if (V) {
    W.key("machine");
    W.string(V->MachineName);
    W.key("model");
    W.string(V->Model);
    W.key("peak_flops_per_s");
    W.number(V->Peak);
    W.key("precision");
    W.string(precisionName(V->Prec));
    W.key("ridge");
    W.number(V->Ridge);
    W.key("time_compute_s");
    W.number(V->TimeCompute);
    W.key("time_memory_s");
    W.number(V->TimeMemory);
    W.key("time_s");
    W.number(V->Time);
  } else {
    W.key("why_not");
    W.string(J.WhyNot);
  }
  W.objectEnd();
}

void writeLoops(JsonWriter &W, const NestCounts &C) {
  W.arrayBegin();
  for (const LoopTrip &T : C.Loops) {
    W.objectBegin();
    W.key("first");
    W.string(T.First);
    W.key("iv");
    W.string(T.IV);
    W.key("last");
    W.string(T.Last);
    W.key("step");
    W.integer(T.Step);
    W.key("total");
    writeCount(W, T.Total);
    W.key("total_formula");
    writeFormula(W, T.Total);
    W.key("trip");
    W.string(T.TripPerEntry);
    W.objectEnd();
  }
  W.arrayEnd();
}

void writeCounts(JsonWriter &W, const NestCounts &C) {
  W.objectBegin();
  W.key("calls");
  llvm::SmallVector<const std::pair<const std::string, Count> *, 4> Calls;
  for (const auto &KV : C.Calls)
    Calls.push_back(&KV);
  writeKeyed(
      W, Calls.size(), [&](size_t I) { return llvm::StringRef(Calls[I]->first); },
      [&](size_t I) { writeCount(W, Calls[I]->second); });
  W.key("flops");
  writeCount(W, C.Flops);
  W.key("flops_by_type");
  writeByType(W, C.FlopsByType);
  // The upper end is counts.flops; data-dependent branches may do less.
  if (C.WorkIsRange) {
    W.key("flops_min");
    writeCount(W, C.FlopsMin);
  }
  W.key("intops");
  writeCount(W, C.IntOps);
  W.key("iterations");
  writeCount(W, C.Iterations);
  W.key("loads");
  writeCount(W, C.Loads);
  W.key("macs");
  writeCount(W, C.Macs);
  W.key("macs_by_type");
  writeByType(W, C.MacsByType);
  if (C.WorkIsRange) {
    W.key("macs_min");
    writeCount(W, C.MacsMin);
  }
  W.key("stores");
  writeCount(W, C.Stores);
  W.objectEnd();
}

/// counts' totals as formulas (symbolic) or as exact decimal strings
/// (exact: exact even where a JSON number, a double past 2^63, is not).
void writeTotals(JsonWriter &W, const NestCounts &C,
                 void (*Write)(JsonWriter &, const Count &)) {
  W.objectBegin();
  W.key("bytes_compulsory");
  Write(W, C.BytesCompulsory);
  // The upper end is bytes_compulsory; rows a gather picks may repeat.
  if (C.BytesIsRange) {
    W.key("bytes_compulsory_min");
    Write(W, C.BytesCompulsoryMin);
  }
  W.key("bytes_no_reuse");
  Write(W, C.BytesNoReuse);
  W.key("flops");
  Write(W, C.Flops);
  // The work's lower end, as in counts.
  if (C.WorkIsRange) {
    W.key("flops_min");
    Write(W, C.FlopsMin);
  }
  W.key("iterations");
  Write(W, C.Iterations);
  W.key("loads");
  Write(W, C.Loads);
  W.key("macs");
  Write(W, C.Macs);
  if (C.WorkIsRange) {
    W.key("macs_min");
    Write(W, C.MacsMin);
  }
  W.key("stores");
  Write(W, C.Stores);
  W.objectEnd();
}

void writeExact(JsonWriter &W, const Count &C) {
  if (C.Value)
    W.string(int128ToString(*C.Value));
  else
    W.null();
}

/// bytes and intensity: per traffic model. The cache model's main-memory
/// bytes (docs/json.md: bytes.cache); tiled when the verdict used it.
void writeBytes(JsonWriter &W, const AnalyzedNest &A, const Report &R,
                bool Intensity) {
  const NestCounts &C = A.Counts;
  Count CacheBytes;
  if (A.Judged.Cache && A.Judged.Cache->MainMemoryBytes)
    CacheBytes.Value =
        static_cast<Int128>(std::llround(*A.Judged.Cache->MainMemoryBytes));
  // The lower end of the bytes comes with the work's lower end where an
  // early exit makes both ranges (the same run); a row gather's work is one.
  bool Exits = earlyExitLoop(A.Nest.Root) != nullptr;
  auto Write = [&](const Count &Bytes, bool AtMin = false) {
    if (Intensity)
      writeIntensity(W, AtMin && Exits ? C.FlopsMin : C.Flops, Bytes);
    else
      writeCount(W, Bytes);
  };
  W.objectBegin();
  W.key("cache");
  Write(CacheBytes);
  W.key("compulsory");
  Write(C.BytesCompulsory);
  if (C.BytesIsRange) {
    W.key("compulsory_min");
    Write(C.BytesCompulsoryMin, /*AtMin=*/true);
  }
  // A null count is never left without its reason.
  if (!Intensity && !C.BytesCompulsory.Value &&
      !C.BytesCompulsory.WhyNot.empty()) {
    W.key("compulsory_why_not");
    W.string(C.BytesCompulsory.WhyNot);
  }
  W.key("no_reuse");
  Write(C.BytesNoReuse);
  if (R.Model == TrafficModel::Tiled) {
    W.key("tiled");
    Write(A.Judged.Bytes);
  }
  W.objectEnd();
}

void writeArrays(JsonWriter &W, const NestCounts &C) {
  W.arrayBegin();
  for (const ArrayTraffic &T : C.Arrays) {
    W.objectBegin();
    W.key("element_bytes");
    W.integer(static_cast<int64_t>(T.ElemBytes));
    W.key("elements_read");
    writeCount(W, T.ElementsRead);
    if (T.ElementsAreRange) {
      W.key("elements_read_min");
      writeCount(W, T.ElementsReadMin);
    }
    W.key("elements_written");
    writeCount(W, T.ElementsWritten);
    if (T.ElementsAreRange) {
      W.key("elements_written_min");
      writeCount(W, T.ElementsWrittenMin);
    }
    W.key("loads");
    writeCount(W, T.Loads);
    W.key("name");
    W.string(T.Name);
    W.key("stores");
    writeCount(W, T.Stores);
    W.key("type");
    W.string(precisionName(T.Elem));
    W.objectEnd();
  }
  W.arrayEnd();
}

/// The nest's object (docs/json.md).
void writeNest(JsonWriter &W, const AnalyzedNest &A, const Report &R) {
  const NestCounts &C = A.Counts;
  const LoopNest &N = A.Nest;
  // A case's nest is labelled "f [bias != NULL]"; JSON names both apart.
  llvm::StringRef Function = N.Function;
  if (!N.Case.empty())
    Function = Function.drop_back(N.Case.size() + 3);
  // Member holds a function_ref: the lambdas are named, to outlive it.
  auto Arrays = [&](JsonWriter &W) { writeArrays(W, C); };
  auto Bytes = [&](JsonWriter &W) { writeBytes(W, A, R, false); };
  auto Cache = [&](JsonWriter &W) { writeCacheJSON(W, A.Judged); };
  auto Case = [&](JsonWriter &W) { W.string(N.Case); };
  auto Column = [&](JsonWriter &W) {
    W.integer(static_cast<int64_t>(N.Loc.Column));
  };
  auto Counts = [&](JsonWriter &W) { writeCounts(W, C); };
  auto Exact = [&](JsonWriter &W) { writeTotals(W, C, writeExact); };
  auto File = [&](JsonWriter &W) { W.string(N.Loc.File); };
  auto Func = [&](JsonWriter &W) { W.string(Function); };
  auto Intensity = [&](JsonWriter &W) { writeBytes(W, A, R, true); };
  auto Line = [&](JsonWriter &W) {
    W.integer(static_cast<int64_t>(N.Loc.Line));
  };
  auto Loops = [&](JsonWriter &W) { writeLoops(W, C); };
  auto Notes = [&](JsonWriter &W) {
    W.arrayBegin();
    for (const std::string &S : C.Notes)
      W.string(S);
    W.arrayEnd();
  };
  auto ParamName = [&](size_t I) { return llvm::StringRef(N.Params[I].Name); };
  // Where each value came from (docs/json.md): a size fixed by the source
  // against one given by --param or .roofline.yaml.
  auto Origins = [&](JsonWriter &W) {
    writeKeyed(W, N.Params.size(), ParamName,
               [&](size_t I) { W.string(N.Params[I].Origin); });
  };
  auto Params = [&](JsonWriter &W) {
    writeKeyed(W, N.Params.size(), ParamName, [&](size_t I) {
      if (N.Params[I].Value)
        W.integer(*N.Params[I].Value);
      else
        W.null();
    });
  };
  auto Symbolic = [&](JsonWriter &W) { writeTotals(W, C, writeFormula); };
  auto Verdict = [&](JsonWriter &W) { writeVerdict(W, A.Judged); };
  using M = JsonWriter::Member;
  llvm::SmallVector<M, 24> Members = {
      M{"arrays", Arrays},       M{"bytes", Bytes},
      M{"cache", Cache},         M{"column", Column},
      M{"counts", Counts},       M{"exact", Exact},
      M{"file", File},           M{"function", Func},
      M{"intensity", Intensity}, M{"line", Line},
      M{"loops", Loops},         M{"notes", Notes},
      M{"param_origins", Origins}, M{"params", Params},
      M{"symbolic", Symbolic},   M{"verdict", Verdict}};
  const NestAdvice &Adv = A.Advice;
  auto Advice = [&](JsonWriter &W) { writeAdviceJSON(W, Adv); };
  auto Rejected = [&](JsonWriter &W) { writeRejectedJSON(W, Adv); };
  auto Strided = [&](JsonWriter &W) { writeStridedJSON(W, Adv); };
  auto Fusion = [&](JsonWriter &W) { writeFusionJSON(W, *Adv.Fusion); };
  auto Tiled = [&](JsonWriter &W) { writeTiledJSON(W, *A.Judged.Tiled); };
  Members.append({M{"advice", Advice}, M{"rejected_advice", Rejected},
                  M{"strided_access", Strided}});
  auto AdviceWhyNot = [&](JsonWriter &W) { W.string(Adv.WhatIfWhyNot); };
  if (!Adv.WhatIfWhyNot.empty())
    Members.push_back(M{"advice_why_not", AdviceWhyNot});
  if (!N.Case.empty())
    Members.push_back(M{"case", Case});
  if (Adv.Fusion)
    Members.push_back(M{"fusion_opportunity", Fusion});
  if (A.Judged.Tiled)
    Members.push_back(M{"tiled", Tiled});
  // JsonWriter::object places the members in key order.
  W.object(llvm::json::Object(), Members);
}

} // namespace

llvm::json::Value roofline::nestToJSON(const AnalyzedNest &A,
                                      const Report &R) {
  std::string Text = nestToJSONText(A, R, /*Indent=*/0);
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(Text);
  assert(V && "writeNest writes JSON");
  if (!V) {
    llvm::consumeError(V.takeError());
    return nullptr;
  }
  return std::move(*V);
}

std::string roofline::nestToJSONText(const AnalyzedNest &A, const Report &R,
                                     unsigned Indent) {
  std::string Out;
  {
    JsonWriter W(Out, /*IndentSize=*/2, Indent);
    writeNest(W, A, R);
  }
  return Out;
}

llvm::json::Value roofline::toJSON(const Report &R) {
  // json::Value's move is not noexcept: a growing vector deep-copies.
  llvm::json::Array Nests;
  Nests.reserve(R.Nests.size());
  for (const AnalyzedNest &A : R.Nests)
    Nests.push_back(nestToJSON(A, R));
  llvm::json::Object Top = toJSONWithoutNests(R);
  Top["nests"] = std::move(Nests);
  return Top;
}

llvm::json::Object roofline::toJSONWithoutNests(const Report &R) {
  // Reserved: json::Value's move is not noexcept, a growing json::Array
  // deep-copies its elements.
  llvm::json::Array Skipped, Functions;
  std::vector<FunctionTotal> Totals = functionTotals(R);
  Functions.reserve(Totals.size());
  Skipped.reserve(R.Skipped.size());
  for (const FunctionTotal &T : Totals) {
    auto Opt = [](const std::optional<Int128> &V) {
      return V ? number(*V) : llvm::json::Value(nullptr);
    };
    llvm::json::Object Bytes{{"compulsory", Opt(T.BytesCompulsory)},
                             {"no_reuse", Opt(T.BytesNoReuse)}};
    if (!T.BytesCompulsory && !T.CompulsoryWhyNot.empty())
      Bytes["compulsory_why_not"] = T.CompulsoryWhyNot;
    if (T.BytesIsRange)
      Bytes["compulsory_min"] = Opt(T.BytesCompulsoryMin);
    llvm::json::Object F{{"file", T.File},
                         {"function", T.Function},
                         {"nests", static_cast<int64_t>(T.Nests)},
                         {"flops", Opt(T.Flops)}};
    if (T.WorkIsRange)
      F["flops_min"] = Opt(T.FlopsMin);
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
