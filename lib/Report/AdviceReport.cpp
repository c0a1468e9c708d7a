//===- AdviceReport.cpp - The advice and the cache model in the reports ---===//

#include "roofline/Report/AdviceReport.h"
#include "roofline/Support/JsonText.h"

#include <cmath>

using namespace roofline;

namespace {

std::string thousands(double V) {
  return withThousands(static_cast<Int128>(std::llround(V)));
}

std::string ai(double V) {
  return std::isfinite(V) ? formatG(V, 4) : std::string("inf");
}

std::string times(double X) {
  return X >= 10 ? formatG(X, 3) : formatG(X, 2);
}

} // namespace

std::string roofline::bytesText(double B) {
  static const std::pair<double, const char *> IEC[] = {
      {1099511627776.0, "TiB"}, {1073741824.0, "GiB"}, {1048576.0, "MiB"},
      {1024.0, "KiB"}};
  // Whole KiB read best in binary units (cache sizes: 1.25 MiB, 48 KiB).
  if (std::fmod(B, 1024.0) == 0)
    for (const auto &[Scale, Name] : IEC)
      if (B >= Scale)
        return formatG(B / Scale, 4) + " " + Name;
  return formatRate(B, "B");
}

//===----------------------------------------------------------------------===//
// [roofline-strided-access]
//===----------------------------------------------------------------------===//

std::string roofline::stridedMessage(const StridedAccess &S) {
  const AccessCacheInfo &A = S.Access;
  std::string Stride = A.StrideBytes.back()
                           ? std::to_string(std::llabs(*A.StrideBytes.back()))
                           : A.StrideFormula.empty() ? std::string("?")
                                                     : A.StrideFormula;
  std::string Used = A.BytesUsedPerLine ? formatG(*A.BytesUsedPerLine, 2) : "?";
  std::string Walk =
      A.Walk == "column"
          ? "is walked down a column in the innermost loop (stride " + Stride +
                " B)"
          : "is walked with a stride of " + Stride + " B in the innermost loop";
  return "'" + A.Text + "' " + Walk + ": " + Used + " of " +
         std::to_string(A.LineBytes) + " bytes per cache line used" +
         (A.Condition.empty() ? "" : " (while " + A.Condition + ")");
}

namespace {

std::string levelList(const std::vector<std::string> &Names) {
  std::string S;
  for (size_t I = 0; I < Names.size(); ++I)
    S += (I ? (I + 1 == Names.size() ? " and " : ", ") : "") + Names[I];
  return S;
}

/// "DRAM 16.8 MB -> 16.8 MB, L2 68.7 GB -> 4.4 GB" over the machine's
/// levels (main memory always, the others where they change).
std::string levelChange(const Prediction &B, const Prediction &A,
                        const Machine &M) {
  std::string S;
  if (!B.LevelBytes || !A.LevelBytes)
    return "DRAM " + bytesText(B.Bytes) + " -> " + bytesText(A.Bytes);
  for (size_t I = 0; I < M.Levels.size() && I < B.LevelBytes->size() &&
                     I < A.LevelBytes->size();
       ++I) {
    double X = (*B.LevelBytes)[I], Y = (*A.LevelBytes)[I];
    if (I && std::fabs(X - Y) <= 0.01 * std::max(X, Y))
      continue;
    S += (S.empty() ? "" : ", ") + M.Levels[I].Name + " " + formatRate(X, "B") +
         " -> " + formatRate(Y, "B");
  }
  return S;
}

} // namespace

std::vector<std::string> roofline::stridedNotes(const StridedAccess &S,
                                                const Machine &M) {
  std::vector<std::string> Out;
  CacheConfig Cfg = cacheConfigFor(M);
  if (const std::optional<ReuseInfo> &R = S.LineReuse) {
    std::string Where = "the rest of each line is used again in the next "
                        "iteration of '" +
                        R->Loop + "'";
    std::string Formula =
        R->DistanceFormula.empty() ? "" : " (" + R->DistanceFormula + " B)";
    if (R->DistanceBytes && R->Fits.size() == Cfg.Levels.size()) {
      std::vector<std::string> Keep, Lose;
      for (size_t L = 0; L < Cfg.Levels.size(); ++L)
        (R->Fits[L] ? Keep : Lose)
            .push_back(Cfg.Levels[L].Name + " (" +
                       bytesText(Cfg.Levels[L].SizeBytes) + ")");
      Where += ", after " + bytesText(*R->DistanceBytes) + " of data" + Formula;
      if (Keep.empty())
        Where += ": no cache holds that, so every access fetches a new line "
                 "from memory";
      else if (Lose.empty())
        Where += ": " + levelList(Keep) + (Keep.size() == 1 ? " keeps" : " keep") +
                 " it, so the cost is cache bandwidth, not memory traffic";
      else
        Where += ": " + levelList(Keep) + " keep" +
                 (Keep.size() == 1 ? "s" : "") + " it, " + levelList(Lose) +
                 (Lose.size() == 1 ? " does" : " do") + " not";
    } else if (!R->DistanceFormula.empty()) {
      Where += " while " + R->DistanceFormula + " bytes fit in a cache";
      for (size_t L = 0; L < Cfg.Levels.size(); ++L)
        Where += std::string(L ? ", " : " (") + Cfg.Levels[L].Name + " " +
                 bytesText(Cfg.Levels[L].SizeBytes);
      if (!Cfg.Levels.empty())
        Where += ")";
    }
    Out.push_back(Where);
  } else {
    Out.push_back("no loop uses the rest of each line: every access fetches "
                  "a line of its own");
  }
  if (const std::optional<WhatIf> &F = S.Fix; F && !F->Predicted) {
    Out.push_back(F->Description + " walks it along a row (legal: " +
                  F->Legality + "); its traffic needs the sizes");
  } else if (F) {
    Out.push_back(F->Description + " walks it along a row (legal: " +
                  F->Legality + "): " + levelChange(F->Before, F->After, M) +
                  "; AI " + ai(F->Before.Intensity) + " -> " +
                  ai(F->After.Intensity) + " FLOP/B; slowest level " +
                  formatSeconds(F->Before.LevelBytes ? F->Before.LevelTime
                                                     : F->Before.Time) +
                  " -> " +
                  formatSeconds(F->After.LevelBytes ? F->After.LevelTime
                                                    : F->After.Time));
  } else if (const std::optional<RejectedWhatIf> &B = S.Blocked) {
    Out.push_back(B->Description +
                  " would walk it along a row, but is not legal: " + B->Reason);
  }
  for (const AccessCacheInfo &U : S.UnitNeighbours)
    Out.push_back("by contrast '" + U.Text +
                  "' is walked along a row: " +
                  (U.BytesUsedPerLine ? formatG(*U.BytesUsedPerLine, 2) : "?") +
                  " of " + std::to_string(U.LineBytes) +
                  " bytes per cache line used");
  return Out;
}

//===----------------------------------------------------------------------===//
// [roofline-memory-bound]
//===----------------------------------------------------------------------===//

std::string roofline::memoryBoundMessage(const AnalyzedNest &A,
                                         const Machine &M) {
  const Verdict &V = *A.Judged.V;
  return A.Nest.Function + ": memory-bound on " + M.Name + " (" + V.Model +
         " traffic): AI " + ai(V.Intensity) + " FLOP/B is below the ridge " +
         formatG(V.Ridge, 4) + "; the data takes " + formatSeconds(V.TimeMemory) +
         ", the math " + formatSeconds(V.TimeCompute);
}

std::vector<std::string> roofline::whatIfNotes(const AnalyzedNest &A,
                                               const Machine &M) {
  std::vector<std::string> Out;
  const NestAdvice &Adv = A.Advice;
  if (!Adv.WhatIfWhyNot.empty())
    Out.push_back("what-if: none considered: " + Adv.WhatIfWhyNot);
  else if (Adv.Advice.empty())
    Out.push_back("what-if: no transform considered lowers its time floor");
  else
    Out.push_back("what-if on " + M.Name + ", best first:");
  for (const WhatIf &W : Adv.Advice) {
    std::string Time = formatSeconds(W.After.Time);
    if (W.Transform == "batch")
      Time = formatSeconds(W.After.Time /
                           W.Params.getInteger("inputs").value_or(1)) +
             " per input";
    if (W.Transform == "fuse")
      Time += " for all the loops, against " + formatSeconds(W.Before.Time) +
              " now";
    std::string Row = "  " + W.Description + ": AI " + ai(W.After.Intensity) +
                      " FLOP/B (" + W.After.Model + "), " +
                      boundKindName(W.After.Bound) + ", time floor " + Time +
                      " (" + times(W.Speedup) + "x faster)";
    if (W.Transform == "tile")
      Row += "; as written " + ai(W.Before.Intensity) + ", ideal " +
             ai(A.Counts.BytesCompulsory.Value
                    ? W.Before.Flops /
                          static_cast<double>(*A.Counts.BytesCompulsory.Value)
                    : NAN);
    if (W.Transform == "fuse")
      Row += "; " + bytesText(W.Before.Bytes) + " -> " +
             bytesText(W.After.Bytes);
    if (W.Transform == "quantize")
      Row += "; " + thousands(W.Before.Bytes) + " -> " +
             thousands(W.After.Bytes) + " bytes";
    if (!W.Caveat.empty())
      Row += "; " + W.Caveat;
    Out.push_back(Row);
  }
  for (const RejectedWhatIf &R : Adv.Rejected)
    if (R.Reason.rfind("predicted no faster", 0) != 0)
      Out.push_back("  not offered: " + R.Description + ": " + R.Reason);
  return Out;
}

//===----------------------------------------------------------------------===//
// [roofline-fusion-opportunity]
//===----------------------------------------------------------------------===//

namespace {

std::string linesText(const std::vector<unsigned> &L) {
  std::string S;
  for (size_t I = 0; I < L.size(); ++I)
    S += (I ? (I + 1 == L.size() ? " and " : ", ") : "") + std::to_string(L[I]);
  return S;
}

std::string names(const std::vector<std::string> &N) {
  std::string S;
  for (size_t I = 0; I < N.size(); ++I)
    S += (I ? ", " : "") + ("'" + N[I] + "'");
  return S;
}

} // namespace

std::string roofline::fusionMessage(const FusionOpportunity &F) {
  double Ratio = F.BytesFused > 0 ? F.BytesBefore / F.BytesFused : 0;
  return std::to_string(F.Nests.size()) + " elementwise loops (lines " +
         linesText(F.Lines) + ") pass " + names(F.Intermediates) +
         " through memory: fused, with " +
         (F.Intermediates.size() > 1 ? "those" : "it") +
         " kept on chip, they would move " + thousands(F.BytesFused) +
         " bytes (" + bytesText(F.BytesFused) + ") instead of " +
         thousands(F.BytesBefore) + " (" + bytesText(F.BytesBefore) + "), " +
         times(Ratio) + "x less";
}

std::vector<std::string> roofline::fusionNotes(const FusionOpportunity &F) {
  std::vector<std::string> Out;
  Out.push_back("fusion is legal: " + F.Legality);
  Out.push_back("fused but still storing " + names(F.Intermediates) + ": " +
                thousands(F.BytesFusedStored) + " bytes (" + F.Model +
                " traffic)");
  if (!F.MaybeLive.empty())
    Out.push_back("keeping " + names(F.MaybeLive) +
                  " on chip assumes nothing reads them after the loops");
  return Out;
}

//===----------------------------------------------------------------------===//
// JSON
//===----------------------------------------------------------------------===//

namespace {

// The advice is written value by value too (JsonWriter), keys in byte
// order: building it as a json::Value cost as much as writing it.

/// \p V, or null when it is not finite.
void finite(JsonWriter &W, double V) {
  if (std::isfinite(V))
    W.number(V);
  else
    W.null();
}

void writePrediction(JsonWriter &W, const Prediction &P) {
  W.objectBegin();
  W.key("ai");
  finite(W, P.Intensity);
  W.key("bound");
  W.string(boundKindName(P.Bound));
  W.key("bytes");
  W.number(P.Bytes);
  W.key("flops");
  W.number(P.Flops);
  if (P.LevelBytes) {
    W.key("level_bytes");
    W.arrayBegin();
    for (double B : *P.LevelBytes)
      W.number(B);
    W.arrayEnd();
    W.key("level_time_s");
    W.number(P.LevelTime);
  }
  W.key("model");
  W.string(P.Model);
  W.key("precision");
  W.string(precisionName(P.Prec));
  W.key("time_s");
  W.number(P.Time);
  W.objectEnd();
}

void writeWhatIf(JsonWriter &W, const WhatIf &X) {
  W.objectBegin();
  if (X.Predicted) {
    W.key("after");
    writePrediction(W, X.After);
    W.key("ai");
    finite(W, X.After.Intensity);
    W.key("before");
    writePrediction(W, X.Before);
    W.key("bound");
    W.string(boundKindName(X.After.Bound));
    W.key("bytes");
    W.number(X.After.Bytes);
    if (!X.Caveat.empty()) {
      W.key("caveat");
      W.string(X.Caveat);
    }
  }
  W.key("description");
  W.string(X.Description);
  if (X.Predicted) {
    W.key("flops");
    W.number(X.After.Flops);
  }
  W.key("legal");
  W.boolean(X.Legal);
  W.key("legality");
  W.string(X.Legality);
  if (X.Predicted) {
    W.key("model");
    W.string(X.After.Model);
  }
  W.key("params");
  W.object(X.Params, {});
  if (X.Predicted) {
    W.key("precision");
    W.string(precisionName(X.After.Prec));
    W.key("speedup");
    W.number(X.Speedup);
    W.key("time_s");
    W.number(X.After.Time);
  } else {
    W.key("predicted");
    W.boolean(false);
  }
  W.key("transform");
  W.string(X.Transform);
  W.objectEnd();
}

// The cache model's JSON is written value by value (JsonWriter), without
// a json::Value: it is most of a nest's JSON, and building, writing and
// freeing the tree cost more than the simulation (docs/results/speed.txt).
// Keys in sorted order, as the whole report's.

void writeReuse(JsonWriter &W, const ReuseInfo &R) {
  W.objectBegin();
  W.key("distance_bytes");
  W.number(R.DistanceBytes);
  if (!R.DistanceFormula.empty()) {
    W.key("distance_formula");
    W.string(R.DistanceFormula);
  }
  W.key("fits");
  W.arrayBegin();
  for (bool F : R.Fits)
    W.boolean(F);
  W.arrayEnd();
  W.key("iterations");
  W.integer(static_cast<int64_t>(R.Iterations));
  W.key("kind");
  W.string(reuseKindName(R.Kind));
  W.key("loop");
  W.string(R.Loop);
  W.objectEnd();
}

/// \p S, or null when empty.
void stringOrNull(JsonWriter &W, const std::string &S) {
  if (S.empty())
    W.null();
  else
    W.string(S);
}

void writeAccess(JsonWriter &W, const AccessCacheInfo &A) {
  W.objectBegin();
  W.key("access");
  W.string(A.Text);
  W.key("array");
  W.string(A.Array);
  W.key("bytes_used_per_line");
  W.number(A.BytesUsedPerLine);
  W.key("column");
  W.integer(static_cast<int64_t>(A.Loc.Column));
  W.key("condition");
  stringOrNull(W, A.Condition);
  W.key("line");
  W.integer(static_cast<int64_t>(A.Loc.Line));
  W.key("line_bytes");
  W.integer(static_cast<int64_t>(A.LineBytes));
  W.key("read");
  W.boolean(A.IsRead);
  W.key("reuse");
  W.arrayBegin();
  for (const ReuseInfo &R : A.Reuse)
    writeReuse(W, R);
  W.arrayEnd();
  W.key("stride_formula");
  stringOrNull(W, A.StrideFormula);
  W.key("strides");
  W.arrayBegin();
  for (size_t I = 0; I < A.Loops.size(); ++I) {
    W.objectBegin();
    W.key("bytes");
    if (A.StrideBytes[I])
      W.integer(*A.StrideBytes[I]);
    else
      W.null();
    W.key("loop");
    W.string(A.Loops[I]);
    W.objectEnd();
  }
  W.arrayEnd();
  W.key("walk");
  W.string(A.Walk);
  W.key("write");
  W.boolean(A.IsWrite);
  W.objectEnd();
}

} // namespace

void roofline::writeCacheJSON(JsonWriter &W, const NestVerdict &J) {
  W.objectBegin();
  if (!J.Cache) {
    W.key("why_not");
    W.string(J.CacheWhyNot);
    W.objectEnd();
    return;
  }
  const CacheAnalysis &C = *J.Cache;
  W.key("accesses");
  W.arrayBegin();
  for (const AccessCacheInfo &A : C.Accesses)
    writeAccess(W, A);
  W.arrayEnd();
  W.key("levels");
  W.arrayBegin();
  for (const CacheLevelTraffic &L : C.Levels) {
    W.objectBegin();
    W.key("bytes");
    W.number(L.bytes());
    W.key("fetch_bytes");
    W.number(L.FetchBytes);
    W.key("line_bytes");
    W.integer(static_cast<int64_t>(L.LineBytes));
    W.key("name");
    W.string(L.Name);
    W.key("size_bytes");
    W.number(L.SizeBytes);
    W.key("writeback_bytes");
    W.number(L.WritebackBytes);
    W.objectEnd();
  }
  W.arrayEnd();
  W.key("main_memory_bytes");
  W.number(C.MainMemoryBytes);
  W.key("notes");
  W.arrayBegin();
  for (const std::string &N : C.Notes)
    W.string(N);
  W.arrayEnd();
  if (!C.WhyNot.empty()) {
    W.key("why_not");
    W.string(C.WhyNot);
  }
  W.objectEnd();
}

llvm::json::Value roofline::cacheJSON(const NestVerdict &J) {
  std::string Text;
  {
    JsonWriter W(Text);
    writeCacheJSON(W, J);
  }
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(Text);
  assert(V && "writeCacheJSON writes JSON");
  return V ? std::move(*V) : llvm::json::Value(nullptr);
}

namespace {
} // namespace

void roofline::writeTiledJSON(JsonWriter &W, const TiledTraffic &T) {
  W.objectBegin();
  W.key("bytes");
  W.number(T.Bytes);
  W.key("formula");
  if (T.Formula)
    W.string(T.Formula->str());
  else
    W.null();
  W.key("legal");
  W.boolean(T.Legal);
  W.key("legality");
  W.string(T.LegalityReason);
  W.key("loops");
  W.arrayBegin();
  for (const std::string &L : T.Loops)
    W.string(L);
  W.arrayEnd();
  W.key("tile");
  W.integer(static_cast<int64_t>(T.Tile));
  W.objectEnd();
}

void roofline::writeAdviceJSON(JsonWriter &W, const NestAdvice &Adv) {
  W.arrayBegin();
  for (const WhatIf &X : Adv.Advice)
    writeWhatIf(W, X);
  W.arrayEnd();
}

void roofline::writeRejectedJSON(JsonWriter &W, const NestAdvice &Adv) {
  W.arrayBegin();
  for (const RejectedWhatIf &R : Adv.Rejected) {
    W.objectBegin();
    W.key("description");
    W.string(R.Description);
    W.key("legal");
    W.boolean(R.Reason.rfind("predicted no faster", 0) == 0);
    W.key("reason");
    W.string(R.Reason);
    W.key("transform");
    W.string(R.Transform);
    W.objectEnd();
  }
  W.arrayEnd();
}

void roofline::writeStridedJSON(JsonWriter &W, const NestAdvice &Adv) {
  W.arrayBegin();
  for (const StridedAccess &S : Adv.Strided) {
    W.objectBegin();
    W.key("access");
    W.string(S.Access.Text);
    if (S.Blocked) {
      W.key("blocked");
      W.objectBegin();
      W.key("description");
      W.string(S.Blocked->Description);
      W.key("legal");
      W.boolean(false);
      W.key("reason");
      W.string(S.Blocked->Reason);
      W.objectEnd();
    }
    W.key("bytes_used_per_line");
    W.number(S.Access.BytesUsedPerLine);
    W.key("column");
    W.integer(static_cast<int64_t>(S.Access.Loc.Column));
    if (S.Fix) {
      W.key("fix");
      writeWhatIf(W, *S.Fix);
    }
    W.key("line");
    W.integer(static_cast<int64_t>(S.Access.Loc.Line));
    W.key("line_bytes");
    W.integer(static_cast<int64_t>(S.Access.LineBytes));
    W.key("loop");
    W.string(S.InnerLoop);
    W.key("stride_bytes");
    if (S.Access.StrideBytes.back())
      W.integer(*S.Access.StrideBytes.back());
    else
      W.null();
    W.objectEnd();
  }
  W.arrayEnd();
}

void roofline::writeFusionJSON(JsonWriter &W, const FusionOpportunity &F) {
  W.objectBegin();
  W.key("bytes_fused");
  W.number(F.BytesFused);
  W.key("bytes_fused_stored");
  W.number(F.BytesFusedStored);
  W.key("bytes_unfused");
  W.number(F.BytesBefore);
  W.key("intermediates");
  W.arrayBegin();
  for (const std::string &X : F.Intermediates)
    W.string(X);
  W.arrayEnd();
  W.key("legality");
  W.string(F.Legality);
  W.key("lines");
  W.arrayBegin();
  for (unsigned L : F.Lines)
    W.integer(static_cast<int64_t>(L));
  W.arrayEnd();
  W.key("model");
  W.string(F.Model);
  W.objectEnd();
}
