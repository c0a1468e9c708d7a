//===- CacheGeometry.cpp - Array boxes in cache lines and sets ------------===//

#include "CacheGeometry.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

using namespace roofline;
using namespace roofline::detail;

double DimBox::values() const {
  if (single())
    return 1;
  return Step > 1 ? std::floor((Hi - Lo) / Step + 1e-9) + 1 : Hi - Lo + 1;
}

int64_t roofline::detail::gcd64(int64_t A, int64_t B) {
  return std::gcd(A < 0 ? -A : A, B < 0 ? -B : B);
}

double roofline::detail::linesOf(const Box &B, const ArrayGeom &G,
                                 unsigned Lb, bool Exact, bool Placed) {
  size_t N = B.size();
  if (N == 0)
    return 1;
  double E = G.Elem;
  size_t D = N - 1;
  if (!B[D].single() && B[D].Step * E >= Lb) {
    double T = 1;
    for (const DimBox &X : B)
      T *= X.values();
    return T; // every element in a line of its own
  }
  double Run = B[D].Hi - B[D].Lo + 1; // contiguous elements
  double Start = B[D].Lo;
  // A run over whole rows continues into the next row.
  while (D > 0 && Start == 0 && Run >= G.Pitch[D - 1] - 1e-9 &&
         B[D - 1].Step == 1) {
    Run = (B[D - 1].Hi - B[D - 1].Lo + 1) * G.Pitch[D - 1];
    Start = B[D - 1].Lo * G.Pitch[D - 1];
    --D;
  }
  double R = Run * E, StartB = Start * E;
  bool Aligned = Exact;
  for (size_t M = 0; M < D; ++M)
    Aligned &= std::fmod(G.Pitch[M] * E, Lb) == 0;
  double Runs = 1;
  for (size_t M = 0; M < D; ++M)
    Runs *= B[M].values();
  if (Exact && Placed && !Aligned && Runs <= 4096) {
    bool Shared = D > 0 && B[D - 1].Step * G.Pitch[D - 1] * E < Lb;
    if (!Shared) {
      // Few rows at known places: each where it lies.
      std::vector<LineRuns> Rs;
      boxRuns(B, G, Lb, 4096, Rs);
      double Sum = 0;
      for (const LineRuns &X : Rs)
        Sum += static_cast<double>(X.Len * X.Count) * X.Weight;
      return Sum;
    }
  }
  double PerRun =
      Aligned ? std::floor((StartB + R - 1) / Lb) - std::floor(StartB / Lb) + 1
              : 1 + (R - E) / Lb;
  if (D > 0) {
    double Gap = B[D - 1].Step * G.Pitch[D - 1] * E;
    if (Gap < Lb) { // rows shorter than a line share lines
      double Region = (B[D - 1].values() - 1) * Gap + R;
      double Outer = 1;
      for (size_t M = 0; M + 1 < D; ++M)
        Outer *= B[M].values();
      return Outer * (1 + (Region - E) / Lb);
    }
  }
  return Runs * PerRun;
}

bool roofline::detail::intersect(const Box &A, const Box &B, Box &Out) {
  Out = A;
  for (size_t D = 0; D < A.size() && D < B.size(); ++D) {
    DimBox &X = Out[D];
    double Lo = std::max(A[D].Lo, B[D].Lo), Hi = std::min(A[D].Hi, B[D].Hi);
    if (X.Step > 1 && !A[D].single()) // stay on A's progression
      Lo = A[D].Lo + std::ceil((Lo - A[D].Lo) / X.Step - 1e-9) * X.Step;
    if (Lo > Hi + 1e-9)
      return false;
    X.Lo = Lo;
    X.Hi = std::max(Lo, Hi);
  }
  return true;
}

/// \p A and \p B (of one size) widened along their last dimension to the
/// whole lines they touch, where each steps less than a line there and
/// \p RowsAligned; else unchanged. Boxes that share a line give widened ones
/// that intersect.
static std::pair<Box, Box> widenedToLines(const Box &A, const Box &B,
                                          const ArrayGeom &G, unsigned Lb,
                                          bool RowsAligned) {
  size_t D = A.size() - 1;
  double PerLine = std::max(1.0, std::floor(double(Lb) / G.Elem));
  Box WA = A, WB = B;
  if (RowsAligned && (A[D].single() || A[D].Step * G.Elem < Lb) &&
      (B[D].single() || B[D].Step * G.Elem < Lb)) {
    for (Box *X : {&WA, &WB}) {
      (*X)[D].Lo = std::floor((*X)[D].Lo / PerLine) * PerLine;
      (*X)[D].Hi = std::floor((*X)[D].Hi / PerLine) * PerLine + PerLine - 1;
      (*X)[D].Step = 1;
    }
  }
  return {std::move(WA), std::move(WB)};
}

double roofline::detail::sharedLines(const Box &A, const Box &B,
                                     const ArrayGeom &G, unsigned Lb,
                                     bool Exact) {
  if (A.empty() || B.empty() || A.size() != B.size())
    return 0;
  // Along how many dimensions they differ, and whether the union of the
  // one they differ along is an interval.
  size_t Differ = 0;
  bool Joined = true;
  Box Hull = A;
  for (size_t D = 0; D < A.size(); ++D) {
    if (A[D].Lo == B[D].Lo && A[D].Hi == B[D].Hi && A[D].Step == B[D].Step)
      continue;
    ++Differ;
    int64_t S = std::max<int64_t>(1, std::max(A[D].Step, B[D].Step));
    Joined &= A[D].Step == B[D].Step &&
              std::max(A[D].Lo, B[D].Lo) <=
                  std::min(A[D].Hi, B[D].Hi) + static_cast<double>(S) &&
              std::fmod(std::fabs(A[D].Lo - B[D].Lo), static_cast<double>(S)) ==
                  0;
    Hull[D].Lo = std::min(A[D].Lo, B[D].Lo);
    Hull[D].Hi = std::max(A[D].Hi, B[D].Hi);
  }
  if (Differ == 0)
    return linesOf(A, G, Lb, Exact);
  if (Differ == 1 && Joined)
    return std::max(0.0, linesOf(A, G, Lb, Exact) + linesOf(B, G, Lb, Exact) -
                             linesOf(Hull, G, Lb, Exact));
  size_t D = A.size() - 1;
  bool RowsAligned = true;
  for (size_t M = 0; M < D; ++M)
    RowsAligned &= std::fmod(G.Pitch[M] * G.Elem, Lb) == 0;
  auto [WA, WB] = widenedToLines(A, B, G, Lb, RowsAligned);
  Box Both;
  if (!intersect(WA, WB, Both))
    return 0;
  return std::min(linesOf(Both, G, Lb, Exact),
                  std::min(linesOf(A, G, Lb, Exact), linesOf(B, G, Lb, Exact)));
}

void roofline::detail::boxRuns(const Box &B, const ArrayGeom &G, unsigned Lb,
                               size_t MaxRuns, std::vector<LineRuns> &Out) {
  size_t N = B.size();
  double E = G.Elem;
  auto LineOf = [&](double Byte) {
    return static_cast<int64_t>(std::floor(Byte / Lb));
  };
  if (N == 0) {
    int64_t L = LineOf(G.BaseBytes);
    Out.push_back({L, 1, 0, 1, 1});
    return;
  }
  // The run along the contiguous dimension, merged over whole rows (as
  // linesOf counts it), or single elements when the last dimension steps
  // at least a line (then the last dimension is a progression too).
  size_t D = N; // dimensions D.. form one run
  double Run = 1, Start = 0;
  if (B[N - 1].single() || B[N - 1].Step * E < Lb) {
    D = N - 1;
    Run = B[D].Hi - B[D].Lo + 1;
    Start = B[D].Lo;
    while (D > 0 && Start == 0 && Run >= G.Pitch[D - 1] - 1e-9 &&
           B[D - 1].Step == 1) {
      Run = (B[D - 1].Hi - B[D - 1].Lo + 1) * G.Pitch[D - 1];
      Start = B[D - 1].Lo * G.Pitch[D - 1];
      --D;
    }
  }
  // The innermost enumerated dimension becomes a progression when its step
  // is a whole number of lines; the ones outside it are enumerated.
  size_t Outer = D; // dimensions [0, Outer) enumerated
  double ProgCount = 1, ProgStrideB = 0;
  if (D > 0) {
    double StepB = (B[D - 1].single() ? 0 : B[D - 1].Step) * G.Pitch[D - 1] * E;
    if (std::fmod(StepB, Lb) == 0) {
      Outer = D - 1;
      ProgCount = B[D - 1].values();
      ProgStrideB = StepB;
    }
  }
  double Enum = 1;
  std::vector<double> Count(Outer);
  for (size_t M = 0; M < Outer; ++M)
    Enum *= (Count[M] = B[M].values());
  double Every = Enum > static_cast<double>(MaxRuns)
                     ? std::ceil(Enum / static_cast<double>(MaxRuns))
                     : 1;
  for (double T = 0; T < Enum; T += Every) {
    // Decode T into one index per dimension, the last fastest.
    double Rest = T, Off = Start;
    for (size_t M = Outer; M-- > 0;) {
      double I = std::fmod(Rest, Count[M]);
      Rest = std::floor(Rest / Count[M]);
      Off += (B[M].Lo + I * (B[M].single() ? 0 : B[M].Step)) * G.Pitch[M];
    }
    if (Outer < D)
      Off += B[D - 1].Lo * G.Pitch[D - 1];
    double FirstB = G.BaseBytes + Off * E;
    int64_t A = LineOf(FirstB), Z = LineOf(FirstB + Run * E - 1);
    Out.push_back({A, Z - A + 1, static_cast<int64_t>(ProgStrideB / Lb),
                   static_cast<int64_t>(ProgCount), std::min(Every, Enum - T)});
  }
}

std::optional<double> LineSet::add(const Box &B, const ArrayGeom &G) {
  constexpr size_t MaxRuns = 1 << 17;
  if (Overflow)
    return std::nullopt;
  std::vector<LineRuns> Rs;
  boxRuns(B, G, Lb, MaxRuns, Rs);
  double Added = 0;
  size_t Expanded = 0;
  for (const LineRuns &R : Rs) {
    if (R.Weight != 1 || Runs.size() + static_cast<size_t>(R.Count) > MaxRuns) {
      Overflow = true;
      return std::nullopt;
    }
    for (int64_t K = 0; K < R.Count; ++K, ++Expanded) {
      int64_t A = R.First + K * R.Stride, Z = A + R.Len - 1;
      // Merge [A, Z] with the runs it meets or touches.
      auto It = Runs.upper_bound(A);
      if (It != Runs.begin() && std::prev(It)->second >= A - 1)
        --It;
      int64_t Covered = 0, NewA = A, NewZ = Z;
      while (It != Runs.end() && It->first <= Z + 1) {
        Covered += std::max<int64_t>(
            0, std::min(Z, It->second) - std::max(A, It->first) + 1);
        NewA = std::min(NewA, It->first);
        NewZ = std::max(NewZ, It->second);
        It = Runs.erase(It);
      }
      Runs[NewA] = NewZ;
      Added += static_cast<double>(Z - A + 1 - Covered);
    }
  }
  (void)Expanded;
  return Added;
}

namespace {

int64_t modulo(int64_t A, int64_t M) {
  int64_t R = A % M;
  return R < 0 ? R + M : R;
}

/// Calls F(first set, lines, times) for the spans \p R covers in a cache of
/// \p S sets: one call per distinct starting set of the progression (its
/// starts repeat with period S / gcd(Stride, S)).
template <typename Fn> void forEachSpan(const LineRuns &R, int64_t S, Fn F) {
  int64_t St = modulo(R.Stride, S);
  int64_t Period = St == 0 ? 1 : S / std::gcd(St, S);
  int64_t Distinct = std::min(R.Count, Period);
  int64_t Each = R.Count / Period, Extra = R.Count % Period;
  for (int64_t J = 0; J < Distinct; ++J) {
    double Times = R.Count <= Period
                       ? 1
                       : static_cast<double>(Each + (J < Extra ? 1 : 0));
    F(modulo(R.First + J * St, S), R.Len, Times * R.Weight);
  }
}

} // namespace

void SetOccupancy::add(unsigned Id, const std::string &Array, const Box &B,
                       const ArrayGeom &G) {
  NumIds = std::max(NumIds, Id + 1);
  Entry E{Id, Array, B, &G, {}};
  boxRuns(B, G, Lb, 1 << 14, E.Runs);
  Entries.push_back(std::move(E));
}

std::vector<double> SetOccupancy::keptShares() {
  const int64_t S = Sets;
  // Lines per set as events at span boundaries (spans longer than the set
  // count wrap whole times): only the sets where counts change are visited.
  std::vector<std::pair<int64_t, double>> Events;
  double Whole = 0;
  auto AddSpan = [&](int64_t From, int64_t Len, double W) {
    Whole += W * static_cast<double>(Len / S);
    int64_t R = Len % S;
    if (R == 0)
      return;
    if (From + R <= S) {
      Events.push_back({From, W});
      Events.push_back({From + R, -W});
    } else {
      Events.push_back({From, W});
      Events.push_back({S, -W});
      Events.push_back({0, W});
      Events.push_back({From + R - S, -W});
    }
  };
  for (const Entry &E : Entries)
    for (const LineRuns &R : E.Runs)
      forEachSpan(R, S, AddSpan);
  // Lines two boxes of one array share count once.
  for (size_t I = 0; I < Entries.size(); ++I)
    for (size_t J = I + 1; J < Entries.size(); ++J) {
      if (Entries[I].Array != Entries[J].Array)
        continue;
      const Box &A = Entries[I].B, &B = Entries[J].B;
      if (A.empty() || A.size() != B.size())
        continue;
      const ArrayGeom &G = *Entries[I].G;
      auto [WA, WB] = widenedToLines(A, B, G, Lb, /*RowsAligned=*/true);
      Box Both;
      if (!intersect(WA, WB, Both))
        continue;
      std::vector<LineRuns> Runs;
      boxRuns(Both, G, Lb, 1 << 14, Runs);
      for (LineRuns &R : Runs) {
        R.Weight = -R.Weight;
        forEachSpan(R, S, AddSpan);
      }
    }
  // Segments of sets with one count; Ok[k]: sets [At[k], At[k + 1]) keep
  // their lines. OkBefore[k]: kept sets before At[k]. Few events: sorted;
  // many: counted over all sets (buffers kept between calls).
  thread_local std::vector<int64_t> At;
  thread_local std::vector<char> Ok;
  thread_local std::vector<double> Diff;
  At.assign(1, 0);
  Ok.clear();
  if (Events.size() * 8 < static_cast<size_t>(S)) {
    std::sort(Events.begin(), Events.end(),
              [](const auto &X, const auto &Y) { return X.first < Y.first; });
    double Count = 0;
    size_t E = 0;
    while (At.back() < S) {
      while (E < Events.size() && Events[E].first <= At.back())
        Count += Events[E++].second;
      int64_t Next = E < Events.size() ? std::min(Events[E].first, S) : S;
      Ok.push_back(Count + Whole <= Ways + 1e-9);
      At.push_back(Next);
    }
  } else {
    Diff.assign(S + 1, 0);
    for (const auto &[P, W] : Events)
      Diff[P] += W;
    double Count = 0;
    for (int64_t I = 0; I < S; ++I) {
      Count += Diff[I];
      char K = Count + Whole <= Ways + 1e-9;
      if (Ok.empty() || Ok.back() != K) {
        if (!Ok.empty())
          At.push_back(I);
        Ok.push_back(K);
      }
    }
    At.push_back(S);
  }
  std::vector<int64_t> OkBefore(At.size(), 0);
  for (size_t K = 0; K + 1 < At.size(); ++K)
    OkBefore[K + 1] = OkBefore[K] + (Ok[K] ? At[K + 1] - At[K] : 0);
  int64_t OkAll = OkBefore.back();
  auto OkUpTo = [&](int64_t X) { // kept sets in [0, X)
    if (At.size() == 2)
      return Ok[0] ? X : 0;
    size_t K = static_cast<size_t>(
        std::upper_bound(At.begin(), At.end(), X) - At.begin() - 1);
    if (K + 1 >= At.size())
      return OkAll;
    return OkBefore[K] + (Ok[K] ? X - At[K] : 0);
  };
  auto OkLines = [&](int64_t From, int64_t Len) {
    int64_t N = (Len / S) * OkAll, R = Len % S;
    if (From + R <= S)
      return N + OkUpTo(From + R) - OkUpTo(From);
    return N + OkAll - OkUpTo(From) + OkUpTo(From + R - S);
  };
  std::vector<double> Kept(NumIds, 0), Total(NumIds, 0);
  for (const Entry &En : Entries)
    for (const LineRuns &R : En.Runs)
      forEachSpan(R, S, [&](int64_t From, int64_t Len, double W) {
        Kept[En.Id] += W * static_cast<double>(OkLines(From, Len));
        Total[En.Id] += W * static_cast<double>(Len);
      });
  std::vector<double> Out(NumIds, 1);
  for (unsigned I = 0; I < NumIds; ++I)
    if (Total[I] > 0)
      Out[I] = Kept[I] / Total[I];
  return Out;
}
