//===- Results.cpp - The runner's table, JSON and roofline overlay --------===//

#include "roofline/Runner/Results.h"

#include "roofline/Support/Format.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

using namespace roofline;
namespace json = llvm::json;

namespace {

const VariantResult *timedNamed(const UnitResult &U, bool Baseline,
                                const std::string &Name) {
  for (const VariantResult &V : U.Variants)
    if (V.Baseline == Baseline && V.Name == Name && V.Time &&
        V.Status == VariantStatus::Ok)
      return &V;
  return nullptr;
}

/// The threads a variant runs on for its roof: 1, or 0 for all cores.
unsigned roofThreads(const VariantResult &V) { return V.Threads == "1" ? 1 : 0; }

bool hasCublas(const UnitResult &U) {
  return std::any_of(U.Variants.begin(), U.Variants.end(),
                     [](const VariantResult &V) { return V.Baseline && V.Cuda; });
}

std::string fixed(double V, int Digits) {
  char B[64];
  snprintf(B, sizeof B, "%.*f", Digits, V);
  return B;
}

/// Three significant digits without exponents for table cells.
std::string num(double V) {
  if (V >= 100)
    return fixed(V, 0);
  if (V >= 10)
    return fixed(V, 1);
  if (V >= 1)
    return fixed(V, 2);
  if (V >= 0.01)
    return fixed(V, 3);
  char B[32];
  snprintf(B, sizeof B, "%.2g", V);
  return B;
}

std::string checkCell(const VariantResult &V) {
  switch (V.Status) {
  case VariantStatus::Ok:
    return "ok";
  case VariantStatus::Wrong:
    return "WRONG";
  case VariantStatus::Crashed:
    return "CRASHED";
  case VariantStatus::TimedOut:
    return "TIMED OUT";
  case VariantStatus::BuildFailed:
    return "BUILD FAILED";
  case VariantStatus::Skipped:
    return "skipped";
  }
  return "?";
}

std::string pad(const std::string &S, size_t W, bool Right = false) {
  if (S.size() >= W)
    return S;
  return Right ? std::string(W - S.size(), ' ') + S
               : S + std::string(W - S.size(), ' ');
}

} // namespace

std::optional<double> roofline::boundSeconds(const VariantPrediction &P,
                                             const Machine &M,
                                             Precision *Dominant,
                                             unsigned Threads, bool *AllCores) {
  if (!P.Known || !(P.Flops > 0))
    return std::nullopt;
  double Compute = 0, Most = -1;
  Precision Dom = Precision::F32;
  bool Assumed = false;
  auto Peak = [&](Precision Q) {
    bool A = false;
    double X = M.peakFor(Q, Threads, &A);
    Assumed |= A;
    return X;
  };
  if (P.FlopsByType.empty()) {
    Compute = P.Flops / Peak(Precision::F32);
  } else {
    for (const auto &[Name, F] : P.FlopsByType) {
      Precision Q = parsePrecision(Name).value_or(Precision::F32);
      Compute += F / Peak(Q);
      if (F > Most) {
        Most = F;
        Dom = Q;
      }
    }
  }
  if (Dominant)
    *Dominant = Dom;
  if (AllCores)
    *AllCores = Assumed;
  double Memory = P.BytesCompulsory / M.mainMemory().BandwidthBytesPerS;
  return std::max(Compute, Memory);
}

Derived roofline::derive(const UnitResult &U, const VariantResult &V,
                         const Machine *M) {
  Derived D;
  const VariantPrediction &P = V.Predicted;
  if (P.Known && P.BytesCompulsory > 0)
    D.Intensity = P.Flops / P.BytesCompulsory;
  if (M)
    D.BoundS = boundSeconds(P, *M, &D.Prec, roofThreads(V), &D.AllCorePeak);
  if (!V.Time || V.Status != VariantStatus::Ok || !(V.Time->Median > 0))
    return D;
  double T = V.Time->Median;
  if (P.Known) {
    D.FlopsPerS = P.Flops / T;
    D.BytesPerS = P.BytesCompulsory / T;
  }
  if (D.BoundS)
    D.Percent = 100 * *D.BoundS / T;
  // Within each timing round, then the median (roundRatio).
  if (const VariantResult *R = timedNamed(U, false, "naive"))
    if ((D.VsReferenceSpread = roundRatio(*R->Time, *V.Time)))
      D.VsReference = D.VsReferenceSpread->Median;
  // The library on the same processor: CPU variants (and BLIS) against
  // OpenBLAS, CUDA variants against cuBLAS.
  if (const VariantResult *B = timedNamed(U, true, V.Cuda ? "cublas" : "openblas"))
    if ((D.VsBaselineSpread = roundRatio(*B->Time, *V.Time)))
      D.VsBaseline = D.VsBaselineSpread->Median;
  return D;
}

/// A variant whose precision the machine file has no peak for is judged
/// against the f32 peak (Machine::peakFor); say so, or a bf16 variant can
/// show more than 100% of its "roof".
static void printBorrowedPeaks(llvm::raw_ostream &OS, const UnitResult &U,
                               const Machine *M) {
  if (!M)
    return;
  std::set<std::string> Names;
  for (const VariantResult &V : U.Variants) {
    if (!V.Time || V.Baseline)
      continue;
    Precision P = derive(U, V, M).Prec;
    if (P != Precision::F32 && !M->Peak.count(P) && !M->CorePeak.count(P))
      Names.insert(precisionName(P));
  }
  for (const std::string &N : Names)
    OS << "  % roof of the " << N << " rows: " << M->Name << " gives no " << N
       << " peak, so the f32 peak stands in (roofline-probe --save measures "
          "the ones this CPU has)\n";
}

/// How the times were taken, and each speedup's spread over the rounds
/// (docs/roofline-run.md, "Timing").
static void printRounds(llvm::raw_ostream &OS, const UnitResult &U,
                        const Machine *M) {
  size_t Rounds = 0;
  for (const VariantResult &V : U.Variants)
    if (V.Time && V.Status == VariantStatus::Ok)
      Rounds = std::max(Rounds, V.Time->Rounds.size());
  if (Rounds < 2)
    return;
  std::string Spread;
  const char *Base = hasCublas(U) ? "library" : "openblas";
  for (const VariantResult &V : U.Variants) {
    std::optional<RatioSpread> R = derive(U, V, M).VsBaselineSpread;
    if (R && !(V.Baseline && (V.Name == "openblas" || V.Name == "cublas")))
      Spread += (Spread.empty() ? "" : ", ") + V.Name + " " + num(R->Min) +
                ".." + num(R->Max);
  }
  OS << "  timing: " << Rounds
     << " rounds, one block of each variant per round in rotating order; "
        "median: of the rounds' medians; vs columns: the median of the "
        "ratios within a round\n";
  if (!Spread.empty())
    OS << "  vs " << Base << " over the rounds (min..max): " << Spread << "\n";
}

void roofline::printTable(llvm::raw_ostream &OS, const UnitResult &U,
                          const Machine *M) {
  const UnitManifest &Man = U.Manifest;
  std::string Where = Man.File.empty()
                          ? Man.Function
                          : llvm::sys::path::filename(Man.File).str() +
                                (Man.Lines.empty()
                                     ? ""
                                     : ":" + std::to_string(Man.Lines.front()));
  OS << Man.Unit << ": " << Man.Kind << " in " << Man.Function << " ("
     << Where << "), " << Man.sizesText() << "; seed " << U.Seed;
  if (M)
    OS << "; roofline of " << M->Name;
  OS << "\n";
  const char *Heads[] = {"variant", "threads", "check", "median", "min..max",
                         "GFLOP/s", "GB/s", "% roof", "vs naive",
                         hasCublas(U) ? "vs library" : "vs openblas"};
  const size_t W[] = {12, 7, 12, 10, 21, 8, 8, 7, 9, 11};
  std::string Line = " ";
  for (size_t I = 0; I < 10; ++I)
    Line += " " + pad(Heads[I], W[I], I >= 3);
  OS << Line << "\n";
  std::vector<std::string> Notes;
  for (const VariantResult &V : U.Variants) {
    Derived D = derive(U, V, M);
    auto Opt = [](const std::optional<double> &X, const char *Suffix) {
      return X ? num(*X) + Suffix : std::string("-");
    };
    std::string Threads = V.Threads == "1" || V.Threads == "GPU" ? V.Threads
                                                                 : "all";
    std::string Cells[10] = {
        V.Name,
        Threads,
        checkCell(V),
        V.Time && V.Status == VariantStatus::Ok ? formatSeconds(V.Time->Median)
                                                : "-",
        V.Time && V.Status == VariantStatus::Ok
            ? formatSeconds(V.Time->Min) + ".." + formatSeconds(V.Time->Max)
            : "-",
        D.FlopsPerS ? num(*D.FlopsPerS / 1e9) : "-",
        D.BytesPerS ? num(*D.BytesPerS / 1e9) : "-",
        Opt(D.Percent, "%"),
        Opt(D.VsReference, "x"),
        Opt(D.VsBaseline, "x")};
    Line = " ";
    for (size_t I = 0; I < 10; ++I)
      Line += " " + pad(Cells[I], W[I], I >= 3);
    OS << Line << "\n";
    // Crash and time-out reasons say what happened themselves.
    const char *Prefix = V.Status == VariantStatus::Wrong         ? "wrong: "
                         : V.Status == VariantStatus::BuildFailed ? "build failed: "
                         : V.Status == VariantStatus::Skipped     ? "skipped: "
                                                                  : "";
    if (V.Status != VariantStatus::Ok)
      Notes.push_back(V.Name + ": " + Prefix + V.Reason);
  }
  for (const std::string &N : Notes)
    OS << "  " << N << "\n";
  bool AllCorePeak = false;
  for (const VariantResult &V : U.Variants) {
    if (V.Baseline)
      OS << "  " << V.Name << ": " << V.Description
         << (V.Check && !V.Check->Library.empty()
                 ? "; kernel " + V.Check->Library +
                       (V.Name == "openblas"
                            ? " (OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE unset "
                              "for its process)"
                            : "")
                 : std::string())
         << " (the library's own algorithm; its GB/s and % use the naive "
            "nest's prediction)\n";
    AllCorePeak |= V.Time && roofThreads(V) == 1 && derive(U, V, M).AllCorePeak;
  }
  if (M && AllCorePeak)
    OS << "  % roof of the 1-thread rows: the all-core peak (" << M->Name
       << " gives no core_peaks; roofline-probe --save writes them)\n";
  printBorrowedPeaks(OS, U, M);
  if (hasCublas(U))
    OS << "  vs library: CPU variants against openblas, CUDA variants against "
          "cublas\n";
  if (!U.BaselineNote.empty())
    OS << "  " << U.BaselineNote << "\n";
  if (!U.NotEmitted.empty()) {
    std::string S;
    for (const auto &[Name, Why] : U.NotEmitted)
      S += (S.empty() ? "" : "; ") + Name + " (" + Why + ")";
    OS << "  not emitted: " << S << "\n";
  }
  printRounds(OS, U, M);
}

json::Object roofline::unitJSON(const UnitResult &U, const Machine *M) {
  const UnitManifest &Man = U.Manifest;
  json::Object Sizes;
  for (const ManifestSize &S : Man.Sizes)
    Sizes[S.Name] = S.Value ? json::Value(*S.Value) : json::Value(nullptr);
  json::Array Vs;
  for (const VariantResult &V : U.Variants) {
    Derived D = derive(U, V, M);
    json::Object J{{"name", V.Name},
                   {"baseline", V.Baseline},
                   {"status", statusName(V.Status)},
                   {"threads", V.Threads},
                   {"path", V.Description}};
    if (!V.Reason.empty())
      J["reason"] = V.Reason;
    if (V.Check && !V.Check->Library.empty())
      J["library"] = V.Check->Library;
    if (V.Check)
      J["check"] = json::Object{{"ok", V.Status != VariantStatus::Wrong},
                                {"checked", static_cast<int64_t>(V.Check->Checked)},
                                {"bad", static_cast<int64_t>(V.Check->Bad)},
                                {"max_error_over_tolerance", V.Check->MaxRatio},
                                {"seed", static_cast<int64_t>(U.Seed)}};
    if (V.Time)
      J["time"] = json::Object{{"reps", static_cast<int64_t>(V.Time->Reps)},
                               {"buffers", static_cast<int64_t>(V.Time->Buffers)},
                               {"clock", V.Time->Clock},
                               {"median_s", V.Time->Median},
                               {"min_s", V.Time->Min},
                               {"max_s", V.Time->Max},
                               {"q1_s", V.Time->Q1},
                               {"q3_s", V.Time->Q3},
                               {"rounds_s", json::Array(V.Time->Rounds)}};
    if (V.Predicted.Known)
      J["predicted"] = json::Object{
          {"flops", V.Predicted.Flops},
          {"bytes_compulsory", V.Predicted.BytesCompulsory},
          {"intensity", D.Intensity}};
    auto Put = [&](const char *K, const std::optional<double> &X) {
      J[K] = X ? json::Value(*X) : json::Value(nullptr);
    };
    Put("bound_s", D.BoundS);
    Put("gflops", D.FlopsPerS ? std::optional<double>(*D.FlopsPerS / 1e9)
                              : std::nullopt);
    Put("gbps", D.BytesPerS ? std::optional<double>(*D.BytesPerS / 1e9)
                            : std::nullopt);
    Put("percent_of_bound", D.Percent);
    Put("speedup_vs_reference", D.VsReference);
    Put("speedup_vs_baseline", D.VsBaseline);
    auto Range = [&](const char *K, const std::optional<RatioSpread> &X) {
      J[K] = X ? json::Value(json::Array{X->Min, X->Max}) : json::Value(nullptr);
    };
    Range("speedup_vs_reference_range", D.VsReferenceSpread);
    Range("speedup_vs_baseline_range", D.VsBaselineSpread);
    Vs.push_back(std::move(J));
  }
  json::Array NotEmitted;
  for (const auto &[Name, Why] : U.NotEmitted)
    NotEmitted.push_back(json::Object{{"name", Name}, {"why", Why}});
  json::Object O{{"unit", Man.Unit},
                 {"kind", Man.Kind},
                 {"function", Man.Function},
                 {"file", Man.File},
                 {"sizes", std::move(Sizes)},
                 {"seed", static_cast<int64_t>(U.Seed)},
                 {"variants", std::move(Vs)},
                 {"not_emitted", std::move(NotEmitted)},
                 {"failed", U.failed()}};
  if (!U.BaselineNote.empty())
    O["baseline_note"] = U.BaselineNote;
  return O;
}

std::vector<MeasuredPoint>
roofline::measuredPoints(const std::vector<UnitResult> &Us, const Machine &M) {
  std::vector<MeasuredPoint> Out;
  for (const UnitResult &U : Us)
    for (const VariantResult &V : U.Variants) {
      Derived D = derive(U, V, &M);
      if (!D.FlopsPerS || !D.BoundS || !(D.Intensity > 0))
        continue;
      MeasuredPoint P;
      P.Label = U.Manifest.Unit + " " + V.Name;
      if (V.Check && !V.Check->Library.empty())
        P.Label += " [" + V.Check->Library + "]";
      if (!U.Manifest.Sizes.empty())
        P.Label += " (" + U.Manifest.sizesText() + ")";
      P.Intensity = D.Intensity;
      P.Predicted = V.Predicted.Flops / *D.BoundS;
      P.Measured = *D.FlopsPerS;
      P.Prec = D.Prec;
      Out.push_back(std::move(P));
    }
  return Out;
}
