//===- Plot.cpp - The roofline chart as SVG and as a self-contained page --===//
//
// Layout: the plot area on the left, the legend on the right. Roofs are
// drawn under a clip path, so a line may run past the axes; labels are placed
// greedily around their anchor where they overlap nothing placed before.
// Every element carries a class and data-* attributes with the exact values
// (FileCheck tests and scripts read those, not pixel positions).
//
//===----------------------------------------------------------------------===//

#include "roofline/Report/Plot.h"
#include "roofline/Report/PlotAxis.h"

#include "roofline/Analysis/Univariate.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

using namespace roofline;

namespace {

std::string esc(llvm::StringRef S) {
  std::string Out;
  for (char C : S) {
    switch (C) {
    case '&':
      Out += "&amp;";
      break;
    case '<':
      Out += "&lt;";
      break;
    case '>':
      Out += "&gt;";
      break;
    case '"':
      Out += "&quot;";
      break;
    case '\n':
      Out += "&#10;";
      break;
    default:
      Out += C;
    }
  }
  return Out;
}

/// Pixel coordinates: one decimal keeps the SVG small and deterministic.
std::string px(double V) {
  char Buf[32];
  snprintf(Buf, sizeof(Buf), "%.1f", V);
  return Buf;
}

/// Exact-enough value for data-* attributes.
std::string dataNum(double V) {
  if (!std::isfinite(V))
    return "inf";
  return formatG(V, 6);
}

const char *boundColor(BoundKind B) {
  switch (B) {
  case BoundKind::ComputeBound:
    return plotcolors::ComputeBound;
  case BoundKind::MemoryBound:
    return plotcolors::MemoryBound;
  case BoundKind::DoesNotFit:
    return plotcolors::DoesNotFit;
  }
  return "#000000";
}

/// boundKindName, but "does not fit" in words.
const char *boundWords(BoundKind B) {
  return B == BoundKind::DoesNotFit ? "does not fit" : boundKindName(B);
}

/// Cache-level roofs: distinct from the main-memory blue and the verdicts.
const char *const CacheColors[] = {"#17becf", "#8c564b", "#7f7f7f",
                                   "#bcbd22"};
constexpr const char *PeakColor = "#1f3b73";

struct Box {
  double X0 = 0, Y0 = 0, X1 = 0, Y1 = 0;
  bool overlaps(const Box &B) const {
    return X0 < B.X1 && B.X0 < X1 && Y0 < B.Y1 && B.Y0 < Y1;
  }
};

/// Rough width of a label in the plot's 12px sans-serif: good enough to
/// keep labels apart, not to typeset.
double textWidth(llvm::StringRef S, double FontPx = 12) {
  return 0.58 * FontPx * static_cast<double>(S.size());
}

/// A compute roof: one peak, shared by the precisions that have it.
struct PeakRoof {
  double Peak = 0;
  std::vector<Precision> Precs;
  std::string names() const {
    std::string S;
    for (Precision P : Precs)
      S += (S.empty() ? "" : "/") + std::string(precisionName(P));
    return S;
  }
  bool integer() const {
    return std::none_of(Precs.begin(), Precs.end(), isFloating);
  }
};

/// One nest as drawn: a point, or a range of sizes.
struct Mark {
  const AnalyzedNest *A = nullptr;
  std::string Name; ///< "gemm", or "gemm:12" when the function has several
  bool IsRange = false;
  double AI = 0, Perf = 0; ///< the point (for a range: its first sample)
  double Peak = 0;
  const char *Color = plotcolors::SizeRange;
  // Range: samples of (size, AI, attainable).
  std::vector<double> Sizes, AIs, Perfs;
  std::string Param; ///< "N", or "M=N" when several sizes vary together
  std::optional<Crossover> Cross;
  /// Set when the range uses another model's formula than the report's.
  std::string RangeModel;
};

class PlotBuilder {
public:
  PlotBuilder(const Report &R, const PlotOptions &O) : R(R), O(O) {
    collect();
    layout();
  }
  std::string svg(bool ForHTML);
  std::string table();

private:
  const Report &R;
  const PlotOptions &O;
  std::vector<PeakRoof> Roofs; ///< ascending peak
  std::vector<Mark> Marks;
  LogAxis X, Y; ///< Y in FLOP/s (ticks are labelled in GFLOP/s)
  double Left = 80, Right = 0, Top = 56, Bottom = 0;
  std::vector<Box> Taken;

  const Machine &machine() const { return *R.M; }
  double mainBW() const { return machine().mainMemory().BandwidthBytesPerS; }
  void collect();
  void layout();
  std::string placeLabel(double AX, double AY, const std::string &Text,
                         const std::string &Extra);
  std::string tipOf(const Mark &K) const;

  /// Nests drawn at one spot: one label names them all.
  struct PointGroup {
    double PX = 0, PY = 0;
    std::vector<size_t> Marks;
  };
  /// Keeps labels off a point of radius \p Rad.
  void reserve(double PX, double PY, double Rad);
  // The parts of svg(), in drawing order.
  void svgHeader(llvm::raw_ostream &OS) const;
  void svgAxes(llvm::raw_ostream &OS) const;
  std::vector<PointGroup> reservePoints();
  void svgComputeRoofs(llvm::raw_ostream &OS,
                       std::vector<std::string> &RoofLabels);
  void svgMemoryRoofs(llvm::raw_ostream &OS,
                      std::vector<std::string> &RoofLabels);
  std::vector<std::string> svgRidges(llvm::raw_ostream &OS);
  void svgLevelPoints(llvm::raw_ostream &OS);
  void svgRanges(llvm::raw_ostream &OS, std::vector<std::string> &Labels);
  void svgPoints(llvm::raw_ostream &OS, const std::vector<PointGroup> &Groups,
                 std::vector<std::string> &Labels);
  void svgMeasured(llvm::raw_ostream &OS, std::vector<std::string> &Labels);
  void svgLegend(llvm::raw_ostream &OS) const;
};

void PlotBuilder::collect() {
  const Machine &M = machine();
  std::map<std::string, unsigned> PerFunction;
  for (const AnalyzedNest &A : R.Nests)
    ++PerFunction[A.Nest.Function];
  std::set<Precision> Used;
  for (const AnalyzedNest &A : R.Nests) {
    const NestVerdict &J = A.Judged;
    Mark K;
    K.A = &A;
    K.Name = A.Nest.Function;
    if (PerFunction[K.Name] > 1)
      K.Name += ":" + std::to_string(A.Nest.Loc.Line);
    K.Peak = M.peakFor(J.Prec);
    if (J.V) {
      K.AI = J.V->Intensity;
      K.Perf = J.V->Attainable;
      K.Color = boundColor(J.V->Bound);
      Used.insert(J.Prec);
      Marks.push_back(std::move(K));
      continue;
    }
    // Sizes without a value: the AI over a range of them, every unbound
    // size set to the same S (a square problem).
    // Models without a closed form (the cache model) fall back to the
    // compulsory formula, and the label says so.
    const Count *BytesP = &bytesOf(A.Counts, R.Model);
    if (!BytesP->Formula) {
      BytesP = &A.Counts.BytesCompulsory;
      K.RangeModel = trafficModelName(TrafficModel::Compulsory);
    }
    const Count &Bytes = *BytesP;
    if (J.Unbound.empty() || !A.Counts.Flops.Formula || !Bytes.Formula)
      continue;
    std::map<std::string, double> Vals;
    for (const auto &[Name, V] : A.Counts.Values)
      Vals[Name] = static_cast<double>(V);
    for (const std::string &U : J.Unbound)
      Vals.erase(U);
    std::optional<UnivariateApprox> F =
        UnivariateApprox::of(*A.Counts.Flops.Formula, J.Unbound, Vals);
    std::optional<UnivariateApprox> B =
        UnivariateApprox::of(*Bytes.Formula, J.Unbound, Vals);
    for (unsigned Q = 4 * O.RangeLog2Lo; F && B && Q <= 4 * O.RangeLog2Hi;
         ++Q) {
      double S = std::exp2(Q / 4.0);
      double FlopsAt = (*F)(S), BytesAt = (*B)(S);
      if (!(BytesAt > 0) || !(FlopsAt > 0))
        continue;
      double AI = FlopsAt / BytesAt;
      K.Sizes.push_back(S);
      K.AIs.push_back(AI);
      K.Perfs.push_back(std::min(K.Peak, AI * mainBW()));
    }
    if (K.Sizes.size() < 2)
      continue; // Formula with atoms or no positive range: not drawable.
    K.IsRange = true;
    K.AI = K.AIs.front();
    K.Perf = K.Perfs.front();
    for (const std::string &U : J.Unbound)
      K.Param += (K.Param.empty() ? "" : "=") + U;
    K.Cross = J.Cross;
    Used.insert(J.Prec);
    Marks.push_back(std::move(K));
  }
  for (const MeasuredPoint &P : O.Measured)
    Used.insert(P.Prec);
  if (Used.empty())
    Used.insert(Precision::F32);
  for (Precision P : Used) {
    double Peak = M.peakFor(P);
    auto It = std::find_if(Roofs.begin(), Roofs.end(), [&](const PeakRoof &F) {
      return F.Peak == Peak;
    });
    if (It == Roofs.end())
      Roofs.push_back({Peak, {P}});
    else
      It->Precs.push_back(P);
  }
  std::sort(Roofs.begin(), Roofs.end(),
            [](const PeakRoof &A, const PeakRoof &B) { return A.Peak < B.Peak; });
}

void PlotBuilder::layout() {
  const Machine &M = machine();
  Right = O.Width - 250.0;
  Bottom = O.Height - 64.0;
  double MaxPeak = Roofs.back().Peak, MinPeak = Roofs.front().Peak;
  // X: every ridge and every nest's intensity, with room either side.
  double XMin = INFINITY, XMax = 0;
  auto SeeX = [&](double V) {
    if (std::isfinite(V) && V > 0) {
      XMin = std::min(XMin, V);
      XMax = std::max(XMax, V);
    }
  };
  for (const MemoryLevel &L : M.Levels)
    for (const PeakRoof &F : Roofs)
      SeeX(F.Peak / L.BandwidthBytesPerS);
  double YMin = MinPeak;
  for (const Mark &K : Marks) {
    SeeX(K.AI);
    for (double A : K.AIs)
      SeeX(A);
    if (K.Perf > 0)
      YMin = std::min(YMin, K.Perf);
    for (double P : K.Perfs)
      YMin = std::min(YMin, P);
  }
  for (const MeasuredPoint &P : O.Measured) {
    SeeX(P.Intensity);
    for (double V : {P.Predicted, P.Measured})
      if (V > 0)
        YMin = std::min(YMin, V);
  }
  auto [XLo, XHi] = niceLogRange(XMin / 3, XMax * 3);
  X = {XLo, XHi, Left, Right};
  // Y: up to the highest roof; down far enough to show the memory roofs
  // climb (three decades below the lowest peak) and every nest.
  auto [YLo, YHi] = niceLogRange(std::min(YMin / 3, MinPeak / 1e3),
                                 MaxPeak * 1.6);
  Y = {YLo, YHi, Bottom, Top};
}

std::string PlotBuilder::placeLabel(double AX, double AY,
                                    const std::string &Text,
                                    const std::string &Extra) {
  double W = textWidth(Text), H = 14;
  // Right, left, above, below, then stacked further out; the first spot
  // that covers nothing wins, else the one covering least.
  std::vector<std::pair<double, double>> Cand = {
      {9, -5}, {-9 - W, -5}, {9, 13}, {-9 - W, 13}, {-W / 2, -12},
      {-W / 2, 24}};
  for (double DY : {-19.0, 27.0, -33.0, 41.0, -47.0, 55.0, 69.0, -61.0, 83.0,
                    97.0}) {
    Cand.push_back({9, DY});
    Cand.push_back({-9 - W, DY});
  }
  Box Chosen;
  double Least = INFINITY;
  for (const auto &[DX, DY] : Cand) {
    Box B{AX + DX, AY + DY - H + 3, AX + DX + W, AY + DY + 3};
    if (B.X0 < Left + 2 || B.X1 > Right - 2 || B.Y0 < Top + 2 ||
        B.Y1 > Bottom - 2)
      continue;
    double Covered = 0;
    for (const Box &T : Taken)
      if (T.overlaps(B))
        Covered += (std::min(T.X1, B.X1) - std::max(T.X0, B.X0)) *
                   (std::min(T.Y1, B.Y1) - std::max(T.Y0, B.Y0));
    if (Covered < Least) {
      Least = Covered;
      Chosen = B;
      if (Covered == 0)
        break;
    }
  }
  if (!std::isfinite(Least)) // Nowhere inside: right of the anchor.
    Chosen = Box{AX + 9, AY - 5 - H + 3, AX + 9 + W, AY - 2};
  Taken.push_back(Chosen);
  std::string Out;
  // A label pushed away from its anchor gets a leader line.
  double CX = std::clamp(AX, Chosen.X0, Chosen.X1);
  double CY = std::clamp(AY, Chosen.Y0, Chosen.Y1);
  if (std::hypot(CX - AX, CY - AY) > 16)
    Out += "<line class=\"leader\" x1=\"" + px(AX) + "\" y1=\"" + px(AY) +
           "\" x2=\"" + px(CX) + "\" y2=\"" + px(CY) +
           "\" stroke=\"#999999\" stroke-width=\"0.8\"/>";
  return Out + "<text x=\"" + px(Chosen.X0) + "\" y=\"" + px(Chosen.Y1 - 3) +
         "\"" + Extra + ">" + esc(Text) + "</text>";
}

std::string PlotBuilder::tipOf(const Mark &K) const {
  const AnalyzedNest &A = *K.A;
  const NestVerdict &J = A.Judged;
  std::string File = llvm::sys::path::filename(A.Nest.Loc.File).str();
  std::string T = A.Nest.Function + " (" + File + ":" +
                  std::to_string(A.Nest.Loc.Line) + ")\n";
  if (J.V) {
    const Verdict &V = *J.V;
    T += std::string(boundKindName(V.Bound)) + " on " + V.MachineName + ", " +
         V.Model + " traffic, " + precisionName(V.Prec) + "\n";
    T += "AI " + formatG(V.Intensity, 4) + " FLOP/B (ridge " + formatG(V.Ridge, 4) +
         "), attainable " + formatRate(V.Attainable, "FLOP/s") + "\n";
    T += formatRate(V.Flops, "FLOP") + ", " + formatRate(V.Bytes, "B") +
         "; time floor " + formatSeconds(V.Time);
    if (J.Levels)
      T += "\nslowest: " + J.Levels->bottleneckName() + " (" +
           formatSeconds(J.Levels->Time) + ")";
    if (V.Bound == BoundKind::DoesNotFit)
      T += "\nfootprint " + formatRate(V.FootprintBytes, "B") + " > " +
           formatRate(machine().CapacityBytes, "B") + " memory";
    return T;
  }
  T += "sizes without a value: " + K.Param + " = " + formatG(K.Sizes.front()) +
       " .. " + formatG(K.Sizes.back(), 6) + "\n";
  T += "AI " + formatG(K.AIs.front(), 4) + " .. " + formatG(K.AIs.back(), 4) +
       " FLOP/B" +
       (K.RangeModel.empty()
            ? " (" + J.IntensityFormula + ")"
            : " under the " + K.RangeModel + " model (the " +
                  trafficModelName(R.Model) + " model has no formula)");
  if (K.Cross)
    T += "\nverdict flips at " + K.Cross->Param + " = " +
         formatG(K.Cross->Value, 4);
  return T;
}

void PlotBuilder::reserve(double PX, double PY, double Rad) {
  Taken.push_back({PX - Rad, PY - Rad, PX + Rad, PY + Rad});
}

/// The <svg> element's opening, its defs, background, title and subtitle.
void PlotBuilder::svgHeader(llvm::raw_ostream &OS) const {
  const Machine &M = machine();
  double W = O.Width, H = O.Height;
  OS << "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"roofline\" width=\""
     << px(W) << "\" height=\"" << px(H) << "\" viewBox=\"0 0 " << px(W)
     << " " << px(H)
     << "\" font-family=\"DejaVu Sans, Arial, Helvetica, sans-serif\" "
        "font-size=\"12\" data-machine=\""
     << esc(M.Name) << "\" data-model=\"" << trafficModelName(R.Model)
     << "\">\n";
  OS << "<title>Roofline: " << esc(M.Description) << "</title>\n";
  OS << "<defs><clipPath id=\"plot-area\"><rect x=\"" << px(Left) << "\" y=\""
     << px(Top) << "\" width=\"" << px(Right - Left) << "\" height=\""
     << px(Bottom - Top) << "\"/></clipPath>";
  if (!O.Measured.empty())
    OS << "<marker id=\"measured-arrow\" viewBox=\"0 0 10 10\" refX=\"9\" "
          "refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" "
          "orient=\"auto-start-reverse\"><path d=\"M 0 0 L 10 5 L 0 10 z\" "
          "fill=\"#555555\"/></marker>";
  OS << "</defs>\n";
  OS << "<rect class=\"background\" x=\"0\" y=\"0\" width=\"" << px(W)
     << "\" height=\"" << px(H) << "\" fill=\"#ffffff\"/>\n";
  OS << "<text class=\"title\" x=\"" << px(Left) << "\" y=\"24\" "
        "font-size=\"16\" font-weight=\"bold\">Roofline: "
     << esc(M.Description) << "</text>\n";
  OS << "<text class=\"subtitle\" x=\"" << px(Left) << "\" y=\"42\" "
        "fill=\"#555555\">"
     << esc(M.Name) << ", " << trafficModelName(R.Model)
     << " traffic; attainable = min(peak, AI x bandwidth)</text>\n";
}

void PlotBuilder::svgAxes(llvm::raw_ostream &OS) const {
  // Grid and ticks.
  OS << "<g class=\"grid\">\n";
  std::vector<Tick> XT = logTicks(X.Lo, X.Hi), YT = logTicks(Y.Lo, Y.Hi);
  for (const Tick &T : XT) {
    double P = X.toPixel(T.Value);
    OS << "<line class=\"" << (T.Major ? "major" : "minor") << "\" x1=\""
       << px(P) << "\" y1=\"" << px(Top) << "\" x2=\"" << px(P) << "\" y2=\""
       << px(Bottom) << "\" stroke=\"" << (T.Major ? "#d9d9d9" : "#f0f0f0")
       << "\"/>\n";
  }
  for (const Tick &T : YT) {
    double P = Y.toPixel(T.Value);
    OS << "<line class=\"" << (T.Major ? "major" : "minor") << "\" x1=\""
       << px(Left) << "\" y1=\"" << px(P) << "\" x2=\"" << px(Right)
       << "\" y2=\"" << px(P) << "\" stroke=\""
       << (T.Major ? "#d9d9d9" : "#f0f0f0") << "\"/>\n";
  }
  OS << "</g>\n<g class=\"axes\">\n";
  OS << "<rect x=\"" << px(Left) << "\" y=\"" << px(Top) << "\" width=\""
     << px(Right - Left) << "\" height=\"" << px(Bottom - Top)
     << "\" fill=\"none\" stroke=\"#333333\"/>\n";
  for (const Tick &T : XT)
    if (!T.Label.empty())
      OS << "<text class=\"tick x\" x=\"" << px(X.toPixel(T.Value))
         << "\" y=\"" << px(Bottom + 17) << "\" text-anchor=\"middle\">"
         << esc(T.Label) << "</text>\n";
  // Y ticks in GFLOP/s: the axis runs in FLOP/s.
  for (const Tick &T : YT)
    if (!T.Label.empty())
      OS << "<text class=\"tick y\" x=\"" << px(Left - 6) << "\" y=\""
         << px(Y.toPixel(T.Value) + 4) << "\" text-anchor=\"end\">"
         << esc(tickLabel(T.Value / 1e9)) << "</text>\n";
  OS << "<text class=\"axis-title x\" x=\"" << px((Left + Right) / 2)
     << "\" y=\"" << px(Bottom + 40)
     << "\" text-anchor=\"middle\">Arithmetic intensity (FLOP/byte)</text>\n";
  OS << "<text class=\"axis-title y\" transform=\"translate(" << px(Left - 58)
     << " " << px((Top + Bottom) / 2)
     << ") rotate(-90)\" text-anchor=\"middle\">Attainable GFLOP/s"
     << (std::any_of(Roofs.begin(), Roofs.end(),
                     [](const PeakRoof &F) { return F.integer(); })
             ? " (GOP/s for integers)"
             : "")
     << "</text>\n</g>\n";
}

// Where every nest goes, first: labels placed later keep off the points.
std::vector<PlotBuilder::PointGroup> PlotBuilder::reservePoints() {
  std::vector<PointGroup> Groups;
  for (size_t I = 0; I < Marks.size(); ++I) {
    const Mark &K = Marks[I];
    if (K.IsRange) {
      for (size_t J = 0; J < K.Sizes.size(); J += 4)
        reserve(X.toPixel(K.AIs[J]), Y.toPixel(K.Perfs[J]), 6);
      reserve(X.toPixel(K.AIs.back()), Y.toPixel(K.Perfs.back()), 7);
      continue;
    }
    double AI = std::isfinite(K.AI) ? K.AI : X.Hi;
    double PX = X.toPixel(AI), PY = Y.toPixel(K.Perf);
    reserve(PX, PY, 8);
    // Nests at the same spot (the three steps of the unfused example) share
    // one label.
    auto G = std::find_if(Groups.begin(), Groups.end(), [&](const PointGroup &P) {
      return std::fabs(P.PX - PX) < 3 && std::fabs(P.PY - PY) < 3 &&
             Marks[P.Marks.front()].Color == K.Color;
    });
    if (G == Groups.end())
      Groups.push_back({PX, PY, {I}});
    else
      G->Marks.push_back(I);
  }
  return Groups;
}

// Compute roofs run flat from the fastest level's ridge to the right edge,
// drawn thick from the main-memory ridge on: that polyline is the roofline
// of main memory, the seed's blue line.
void PlotBuilder::svgComputeRoofs(llvm::raw_ostream &OS,
                                  std::vector<std::string> &RoofLabels) {
  const Machine &M = machine();
  double FastestBW = 0;
  for (const MemoryLevel &L : M.Levels)
    FastestBW = std::max(FastestBW, L.BandwidthBytesPerS);
  for (size_t I = 0; I < Roofs.size(); ++I) {
    const PeakRoof &F = Roofs[Roofs.size() - 1 - I]; // highest first
    double Ridge = F.Peak / mainBW();
    double XFast = std::max(X.Lo, F.Peak / FastestBW);
    double PY = Y.toPixel(F.Peak);
    const char *Unit = F.integer() ? "OP/s" : "FLOP/s";
    std::string Text = F.names() + " peak " + formatRate(F.Peak, Unit);
    OS << "<g class=\"roof compute\" data-precision=\"" << F.names()
       << "\" data-peak=\"" << dataNum(F.Peak) << "\" data-tip=\""
       << esc(Text) << "\"><title>" << esc(Text) << "</title>";
    OS << "<line class=\"ceiling\" x1=\"" << px(X.toPixel(XFast))
       << "\" y1=\"" << px(PY) << "\" x2=\"" << px(X.toPixel(Ridge))
       << "\" y2=\"" << px(PY) << "\" stroke=\"" << PeakColor
       << "\" stroke-width=\"1.5\" stroke-dasharray=\"6 3\"/>";
    OS << "<line class=\"roofline\" x1=\"" << px(X.toPixel(Ridge)) << "\" y1=\""
       << px(PY) << "\" x2=\"" << px(Right) << "\" y2=\"" << px(PY)
       << "\" stroke=\"" << plotcolors::MainMemory
       << "\" stroke-width=\"3\"/></g>\n";
    double TW = textWidth(Text);
    RoofLabels.push_back("<text class=\"roof-label compute\" data-precision=\"" +
                         F.names() + "\" x=\"" + px(Right - 4) + "\" y=\"" +
                         px(PY - 6) + "\" text-anchor=\"end\" fill=\"" +
                         PeakColor + "\">" + esc(Text) + "</text>");
    Taken.push_back({Right - 4 - TW, PY - 19, Right - 4, PY - 2});
  }
}

// Memory roofs climb from the left edge to the highest peak.
void PlotBuilder::svgMemoryRoofs(llvm::raw_ostream &OS,
                                 std::vector<std::string> &RoofLabels) {
  const Machine &M = machine();
  double MaxPeak = Roofs.back().Peak;
  for (size_t I = 0; I < M.Levels.size(); ++I) {
    const MemoryLevel &L = M.Levels[I];
    bool Main = I == 0;
    const char *Color =
        Main ? plotcolors::MainMemory : CacheColors[(I - 1) % 4];
    double BW = L.BandwidthBytesPerS;
    // From where the line enters the plot (left or bottom edge) up to the
    // highest roof.
    double X0 = std::max(X.Lo, Y.Lo / BW);
    double X1 = std::min(X.Hi, MaxPeak / BW);
    if (!(X1 > X0))
      continue;
    double PX0 = X.toPixel(X0), PY0 = Y.toPixel(BW * X0);
    double PX1 = X.toPixel(X1), PY1 = Y.toPixel(BW * X1);
    std::string Tip = L.Name + ": " + formatRate(BW, "B/s") +
                      (L.SizeBytes ? ", " + formatRate(*L.SizeBytes, "B") +
                                         " per instance"
                                   : std::string(" (main memory)"));
    OS << "<g class=\"roof memory\" data-level=\"" << esc(L.Name)
       << "\" data-bandwidth=\"" << dataNum(BW) << "\" data-tip=\""
       << esc(Tip) << "\"><title>" << esc(Tip) << "</title><line x1=\""
       << px(PX0) << "\" y1=\"" << px(PY0) << "\" x2=\"" << px(PX1)
       << "\" y2=\"" << px(PY1) << "\" stroke=\"" << Color
       << "\" stroke-width=\"" << (Main ? "3" : "1.5") << "\""
       << (Main ? "" : " stroke-dasharray=\"7 4\"") << "/></g>\n";
    // The label runs along the line, where it covers no point or label.
    std::string Text = L.Name + " " + formatRate(BW, "B/s");
    double Angle = std::atan2(PY1 - PY0, PX1 - PX0);
    double TW = textWidth(Text), C = std::cos(Angle), Sn = std::sin(Angle);
    auto BoxAt = [&](double LPX, double LPY) {
      // Bounding box of the rotated text (baseline 5px above the line).
      double Xs[] = {LPX, LPX + TW * C, LPX + 14 * Sn, LPX + TW * C + 14 * Sn};
      double Ys[] = {LPY, LPY + TW * Sn, LPY - 14 * C, LPY + TW * Sn - 14 * C};
      return Box{*std::min_element(Xs, Xs + 4), *std::min_element(Ys, Ys + 4),
                 *std::max_element(Xs, Xs + 4), *std::max_element(Ys, Ys + 4)};
    };
    double LPX = 0, LPY = 0;
    Box Chosen;
    bool Found = false;
    for (double Frac : {0.06, 0.18, 0.3, 0.42, 0.54, 0.66}) {
      LPX = PX0 + Frac * (PX1 - PX0);
      LPY = PY0 + Frac * (PY1 - PY0);
      Chosen = BoxAt(LPX, LPY);
      if (Chosen.X1 > Right || Chosen.Y0 < Top)
        continue;
      if (std::none_of(Taken.begin(), Taken.end(),
                       [&](const Box &T) { return T.overlaps(Chosen); })) {
        Found = true;
        break;
      }
    }
    if (!Found) {
      LPX = PX0 + 0.06 * (PX1 - PX0);
      LPY = PY0 + 0.06 * (PY1 - PY0);
      Chosen = BoxAt(LPX, LPY);
    }
    Taken.push_back(Chosen);
    RoofLabels.push_back("<text class=\"roof-label memory\" data-level=\"" +
                         esc(L.Name) + "\" x=\"" + px(LPX) + "\" y=\"" +
                         px(LPY - 5) + "\" fill=\"" + Color +
                         "\" transform=\"rotate(" + px(Angle * 180 / M_PI) +
                         " " + px(LPX) + " " + px(LPY) + ")\">" + esc(Text) +
                         "</text>");
  }
}

// Ridge points: where each memory roof meets each compute roof; the main
// memory's are labelled.
std::vector<std::string> PlotBuilder::svgRidges(llvm::raw_ostream &OS) {
  const Machine &M = machine();
  OS << "<g class=\"ridges\">\n";
  std::vector<std::string> RidgeLabels;
  for (size_t I = 0; I < M.Levels.size(); ++I) {
    const MemoryLevel &L = M.Levels[I];
    for (const PeakRoof &F : Roofs) {
      double Ridge = F.Peak / L.BandwidthBytesPerS;
      if (!X.contains(Ridge))
        continue;
      double PX = X.toPixel(Ridge), PY = Y.toPixel(F.Peak);
      std::string Tip = L.Name + " ridge for " + F.names() + ": " +
                        formatG(Ridge, 4) + " FLOP/byte";
      OS << "<circle class=\"ridge\" data-level=\"" << esc(L.Name)
         << "\" data-precision=\"" << F.names() << "\" data-ridge=\""
         << dataNum(Ridge) << "\" data-tip=\"" << esc(Tip) << "\" cx=\""
         << px(PX) << "\" cy=\"" << px(PY) << "\" r=\"" << (I == 0 ? "4.5" : "3")
         << "\" fill=\"#ffffff\" stroke=\""
         << (I == 0 ? plotcolors::MainMemory : CacheColors[(I - 1) % 4])
         << "\" stroke-width=\"2\"><title>" << esc(Tip) << "</title></circle>\n";
      reserve(PX, PY, 5);
    }
  }
  for (const PeakRoof &F : Roofs) {
    double Ridge = F.Peak / mainBW();
    if (X.contains(Ridge))
      RidgeLabels.push_back(placeLabel(
          X.toPixel(Ridge), Y.toPixel(F.Peak) + 12, "ridge " + formatG(Ridge, 3),
          " class=\"ridge-label\" fill=\"#1f3b73\""));
  }
  OS << "</g>\n";
  return RidgeLabels;
}

// A nest whose slowest level is a cache also gets a hollow point at that
// level's intensity, joined to its main point.
void PlotBuilder::svgLevelPoints(llvm::raw_ostream &OS) {
  for (const Mark &K : Marks) {
    const NestVerdict &J = K.A->Judged;
    if (K.IsRange || !J.Levels || !J.V || !J.Levels->Bottleneck ||
        *J.Levels->Bottleneck == 0)
      continue;
    const LevelVerdict &L = J.Levels->Levels[*J.Levels->Bottleneck];
    if (!std::isfinite(L.Intensity) || !X.contains(L.Intensity))
      continue;
    double Perf = std::min(K.Peak, L.Intensity * L.Bandwidth);
    double PX = X.toPixel(L.Intensity), PY = Y.toPixel(Perf);
    std::string Tip = K.Name + " at " + L.Name + " (its slowest level): AI " +
                      formatG(L.Intensity, 4) + " FLOP/B, " +
                      formatRate(L.Bytes, "B") + " (" + levelRuleName(L.Rule) +
                      "), " + formatSeconds(L.Time);
    OS << "<g class=\"level-point\" data-nest=\"" << esc(K.Name)
       << "\" data-level=\"" << esc(L.Name) << "\" data-intensity=\""
       << dataNum(L.Intensity) << "\" data-tip=\"" << esc(Tip) << "\"><title>"
       << esc(Tip) << "</title><line x1=\"" << px(X.toPixel(K.AI))
       << "\" y1=\"" << px(Y.toPixel(K.Perf)) << "\" x2=\"" << px(PX)
       << "\" y2=\"" << px(PY) << "\" stroke=\"" << K.Color
       << "\" stroke-width=\"1\" stroke-dasharray=\"2 3\"/><circle cx=\""
       << px(PX) << "\" cy=\"" << px(PY) << "\" r=\"4\" fill=\"#ffffff\" "
       << "stroke=\"" << K.Color << "\" stroke-width=\"1.5\"/></g>\n";
    reserve(PX, PY, 5);
  }
}

void PlotBuilder::svgRanges(llvm::raw_ostream &OS,
                            std::vector<std::string> &Labels) {
  for (const Mark &K : Marks) {
    if (!K.IsRange)
      continue;
    std::string Tip = tipOf(K);
    OS << "<g class=\"nest range\" data-nest=\"" << esc(K.Name)
       << "\" data-param=\"" << esc(K.Param) << "\" data-from=\""
       << dataNum(K.Sizes.front()) << "\" data-to=\""
       << dataNum(K.Sizes.back()) << "\" data-intensity-from=\""
       << dataNum(K.AIs.front()) << "\" data-intensity-to=\""
       << dataNum(K.AIs.back()) << "\" data-tip=\"" << esc(Tip)
       << "\"><title>" << esc(Tip) << "</title><polyline points=\"";
    for (size_t I = 0; I < K.Sizes.size(); ++I)
      OS << (I ? " " : "") << px(X.toPixel(K.AIs[I])) << ","
         << px(Y.toPixel(K.Perfs[I]));
    OS << "\" fill=\"none\" stroke=\"" << plotcolors::SizeRange
       << "\" stroke-width=\"7\" stroke-opacity=\"0.55\" "
          "stroke-linecap=\"round\"/>";
    for (size_t End : {size_t(0), K.Sizes.size() - 1}) {
      double PX = X.toPixel(K.AIs[End]), PY = Y.toPixel(K.Perfs[End]);
      OS << "<circle class=\"range-end\" cx=\"" << px(PX) << "\" cy=\""
         << px(PY) << "\" r=\"6\" fill=\"" << plotcolors::SizeRange
         << "\" stroke=\"#ffffff\" stroke-width=\"1.5\"/>";
      Labels.push_back(placeLabel(PX, PY,
                                  K.Param + "=" + formatG(K.Sizes[End], 9),
                                  " class=\"range-label\" fill=\"#b35900\""));
    }
    if (K.Cross && K.Cross->Value >= K.Sizes.front() &&
        K.Cross->Value <= K.Sizes.back()) {
      double PX = X.toPixel(K.Peak / mainBW()), PY = Y.toPixel(K.Peak);
      OS << "<circle class=\"crossover\" data-value=\""
         << dataNum(K.Cross->Value) << "\" cx=\"" << px(PX) << "\" cy=\""
         << px(PY) << "\" r=\"5\" fill=\"#ffffff\" stroke=\""
         << plotcolors::SizeRange << "\" stroke-width=\"2.5\"/>";
    }
    OS << "</g>\n";
    // The nest's name by the middle of the range.
    size_t Mid = K.Sizes.size() / 2;
    std::string Text = K.Name + ": " + K.Param + " = " +
                       formatG(K.Sizes.front(), 9) + ".." +
                       formatG(K.Sizes.back(), 9);
    if (K.Cross)
      Text += ", flips at " + formatG(K.Cross->Value, 4);
    if (!K.RangeModel.empty())
      Text += " (" + K.RangeModel + ")";
    Labels.push_back(placeLabel(X.toPixel(K.AIs[Mid]), Y.toPixel(K.Perfs[Mid]),
                                Text, " class=\"nest-label\" fill=\"#b35900\""));
  }
}

void PlotBuilder::svgPoints(llvm::raw_ostream &OS,
                            const std::vector<PointGroup> &Groups,
                            std::vector<std::string> &Labels) {
  for (const PointGroup &G : Groups) {
    for (size_t I : G.Marks) {
      const Mark &K = Marks[I];
      const Verdict &V = *K.A->Judged.V;
      std::string Tip = tipOf(K);
      OS << "<g class=\"nest point\" data-nest=\"" << esc(K.Name)
         << "\" data-bound=\"" << boundKindName(V.Bound)
         << "\" data-intensity=\"" << dataNum(K.AI) << "\" data-attainable=\""
         << dataNum(K.Perf) << "\" data-tip=\"" << esc(Tip) << "\"><title>"
         << esc(Tip) << "</title><circle class=\"nest-point\" cx=\""
         << px(G.PX) << "\" cy=\"" << px(G.PY) << "\" r=\"7\" fill=\""
         << K.Color << "\" stroke=\"#ffffff\" stroke-width=\"1.5\"/></g>\n";
    }
    // "f:8,10,12" for several nests of one function, else "f, g".
    const Mark &First = Marks[G.Marks.front()];
    std::string Names;
    bool OneFunction = std::all_of(G.Marks.begin(), G.Marks.end(), [&](size_t I) {
      return Marks[I].A->Nest.Function == First.A->Nest.Function;
    });
    if (OneFunction && G.Marks.size() > 1) {
      Names = First.A->Nest.Function + ":";
      for (size_t J = 0; J < G.Marks.size(); ++J)
        Names += (J ? "," : "") +
                 std::to_string(Marks[G.Marks[J]].A->Nest.Loc.Line);
    } else {
      for (size_t I : G.Marks)
        Names += (Names.empty() ? "" : ", ") + Marks[I].Name;
    }
    const Verdict &V = *First.A->Judged.V;
    std::string Text = Names + ": " + boundWords(V.Bound) + ", AI " +
                       (std::isfinite(First.AI) ? formatG(First.AI, 3) : "inf");
    Labels.push_back(
        placeLabel(G.PX, G.PY, Text, " class=\"nest-label\" fill=\"#222222\""));
  }
}

// Measured kernels (roofline-run): predicted hollow, measured filled, an
// arrow from the prediction to the measurement.
void PlotBuilder::svgMeasured(llvm::raw_ostream &OS,
                              std::vector<std::string> &Labels) {
  OS << "<g class=\"measured\">\n";
  for (const MeasuredPoint &P : O.Measured) {
    if (!(P.Intensity > 0) || !(P.Measured > 0) || !(P.Predicted > 0))
      continue;
    double PX = X.toPixel(P.Intensity);
    double PYp = Y.toPixel(P.Predicted), PYm = Y.toPixel(P.Measured);
    std::string Tip = P.Label + "\nAI " + formatG(P.Intensity, 4) +
                      " FLOP/B; predicted " +
                      formatRate(P.Predicted, "FLOP/s") + ", measured " +
                      formatRate(P.Measured, "FLOP/s") + " (" +
                      formatG(100 * P.Measured / P.Predicted, 3) + "%)";
    OS << "<g class=\"measured-kernel\" data-kernel=\"" << esc(P.Label)
       << "\" data-intensity=\"" << dataNum(P.Intensity)
       << "\" data-predicted=\"" << dataNum(P.Predicted)
       << "\" data-measured=\"" << dataNum(P.Measured) << "\" data-tip=\""
       << esc(Tip) << "\"><title>" << esc(Tip) << "</title>";
    // The arrow stops short of the filled point's edge.
    double Len = std::fabs(PYm - PYp);
    if (Len > 12) {
      double Dir = PYm > PYp ? 1 : -1;
      OS << "<line class=\"measured-arrow\" x1=\"" << px(PX) << "\" y1=\""
         << px(PYp + Dir * 6) << "\" x2=\"" << px(PX) << "\" y2=\""
         << px(PYm - Dir * 7) << "\" stroke=\"#555555\" stroke-width=\"1.5\" "
         << "marker-end=\"url(#measured-arrow)\"/>";
    }
    OS << "<circle class=\"predicted-point\" cx=\"" << px(PX) << "\" cy=\""
       << px(PYp) << "\" r=\"6\" fill=\"#ffffff\" stroke=\""
       << plotcolors::Measured << "\" stroke-width=\"2\"/>";
    OS << "<circle class=\"measured-point\" cx=\"" << px(PX) << "\" cy=\""
       << px(PYm) << "\" r=\"6\" fill=\"" << plotcolors::Measured
       << "\" stroke=\"#ffffff\" stroke-width=\"1.5\"/></g>\n";
    reserve(PX, PYp, 7);
    reserve(PX, PYm, 7);
    Labels.push_back(placeLabel(PX, PYm, P.Label,
                                " class=\"measured-label\" fill=\"#7a1f5c\""));
  }
  OS << "</g>\n";
}

void PlotBuilder::svgLegend(llvm::raw_ostream &OS) const {
  const Machine &M = machine();
  double LX = Right + 18, LY = Top + 6;
  OS << "<g class=\"legend\" transform=\"translate(" << px(LX) << " "
     << px(LY) << ")\">\n";
  double Row = 0;
  auto Item = [&](const std::string &Swatch, const std::string &Text) {
    OS << "<g class=\"legend-item\" transform=\"translate(0 " << px(Row)
       << ")\">" << Swatch << "<text x=\"30\" y=\"4\">" << esc(Text)
       << "</text></g>\n";
    Row += 20;
  };
  OS << "<text class=\"legend-title\" x=\"0\" y=\"-4\" font-weight=\"bold\">"
        "Legend</text>\n";
  Row = 14;
  for (size_t I = 0; I < M.Levels.size(); ++I) {
    const MemoryLevel &L = M.Levels[I];
    bool Main = I == 0;
    Item(std::string("<line x1=\"0\" y1=\"0\" x2=\"24\" y2=\"0\" stroke=\"") +
             (Main ? plotcolors::MainMemory : CacheColors[(I - 1) % 4]) +
             "\" stroke-width=\"" + (Main ? "3" : "1.5") + "\"" +
             (Main ? "" : " stroke-dasharray=\"7 4\"") + "/>",
         L.Name + " " + formatRate(L.BandwidthBytesPerS, "B/s"));
  }
  for (auto It = Roofs.rbegin(); It != Roofs.rend(); ++It)
    Item(std::string("<line x1=\"0\" y1=\"0\" x2=\"24\" y2=\"0\" stroke=\"") +
             plotcolors::MainMemory + "\" stroke-width=\"3\"/>",
         It->names() + " peak " +
             formatRate(It->Peak, It->integer() ? "OP/s" : "FLOP/s"));
  Item("<circle cx=\"12\" cy=\"0\" r=\"4.5\" fill=\"#ffffff\" stroke=\"" +
           std::string(plotcolors::MainMemory) + "\" stroke-width=\"2\"/>",
       "ridge point");
  Row += 6;
  Item(std::string("<circle cx=\"12\" cy=\"0\" r=\"6\" fill=\"") +
           plotcolors::ComputeBound + "\"/>",
       "compute-bound nest");
  Item(std::string("<circle cx=\"12\" cy=\"0\" r=\"6\" fill=\"") +
           plotcolors::MemoryBound + "\"/>",
       "memory-bound nest");
  Item(std::string("<circle cx=\"12\" cy=\"0\" r=\"6\" fill=\"") +
           plotcolors::DoesNotFit + "\"/>",
       "does not fit in memory");
  Item(std::string("<line x1=\"2\" y1=\"0\" x2=\"22\" y2=\"0\" stroke=\"") +
           plotcolors::SizeRange +
           "\" stroke-width=\"7\" stroke-opacity=\"0.55\" "
           "stroke-linecap=\"round\"/>",
       "sizes " + formatG(std::exp2(O.RangeLog2Lo), 9) + ".." +
           formatG(std::exp2(O.RangeLog2Hi), 9) + " (no value)");
  Item("<circle cx=\"12\" cy=\"0\" r=\"4\" fill=\"#ffffff\" stroke=\"#555555\" "
       "stroke-width=\"1.5\"/>",
       "the nest at its slowest cache");
  if (!O.Measured.empty()) {
    Row += 6;
    Item(std::string("<circle cx=\"12\" cy=\"0\" r=\"6\" fill=\"#ffffff\" "
                     "stroke=\"") +
             plotcolors::Measured + "\" stroke-width=\"2\"/>",
         "kernel: predicted");
    Item(std::string("<circle cx=\"12\" cy=\"0\" r=\"6\" fill=\"") +
             plotcolors::Measured + "\"/>",
         "kernel: measured");
  }
  OS << "</g>\n";
}

std::string PlotBuilder::svg(bool ForHTML) {
  Taken.clear();
  std::string S;
  llvm::raw_string_ostream OS(S);
  svgHeader(OS);
  svgAxes(OS);
  std::vector<PointGroup> Groups = reservePoints();
  // Roofs.
  std::vector<std::string> RoofLabels;
  OS << "<g class=\"roofs\" clip-path=\"url(#plot-area)\" fill=\"none\">\n";
  svgComputeRoofs(OS, RoofLabels);
  svgMemoryRoofs(OS, RoofLabels);
  OS << "</g>\n";
  std::vector<std::string> RidgeLabels = svgRidges(OS);
  // Nests.
  OS << "<g class=\"nests\">\n";
  svgLevelPoints(OS);
  std::vector<std::string> Labels;
  svgRanges(OS, Labels);
  svgPoints(OS, Groups, Labels);
  OS << "</g>\n";
  if (!O.Measured.empty())
    svgMeasured(OS, Labels);
  if (Marks.empty() && O.Measured.empty())
    OS << "<text class=\"empty\" x=\"" << px((Left + Right) / 2) << "\" y=\""
       << px((Top + Bottom) / 2)
       << "\" text-anchor=\"middle\" fill=\"#888888\">no analyzed loop "
          "nests</text>\n";
  // Labels last, above every line; a white halo keeps them readable.
  OS << "<g class=\"labels\" paint-order=\"stroke\" stroke=\"#ffffff\" "
        "stroke-width=\"3\" stroke-linejoin=\"round\">\n";
  for (const std::string &L : RoofLabels)
    OS << L << "\n";
  for (const std::string &L : RidgeLabels)
    OS << L << "\n";
  for (const std::string &L : Labels)
    OS << L << "\n";
  OS << "</g>\n";
  svgLegend(OS);
  if (ForHTML)
    OS << "<!-- hover a point or a roof for its numbers -->\n";
  OS << "</svg>\n";
  return S;
}

std::string PlotBuilder::table() {
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << "<table class=\"nests\">\n<thead><tr><th>nest</th><th>where</th>"
        "<th>precision</th><th>FLOPs</th><th>bytes ("
     << trafficModelName(R.Model)
     << ")</th><th>AI (FLOP/B)</th><th>attainable</th><th>verdict</th>"
        "<th>time floor</th><th>slowest</th></tr></thead>\n<tbody>\n";
  for (const AnalyzedNest &A : R.Nests) {
    const NestVerdict &J = A.Judged;
    std::string Where = llvm::sys::path::filename(A.Nest.Loc.File).str() +
                        ":" + std::to_string(A.Nest.Loc.Line);
    OS << "<tr><td>" << esc(A.Nest.Function) << "</td><td>" << esc(Where)
       << "</td><td>" << precisionName(J.Prec) << "</td>";
    if (J.V) {
      const Verdict &V = *J.V;
      // V.Bytes: the model's main-memory bytes (the cache model's are per
      // verdict, not in the counts).
      OS << "<td>" << withThousands(A.Counts.Flops.Value.value_or(0))
         << "</td><td>"
         << withThousands(static_cast<Int128>(std::llround(V.Bytes)))
         << "</td><td>" << formatG(V.Intensity, 4) << "</td><td>"
         << formatRate(V.Attainable, isFloating(V.Prec) ? "FLOP/s" : "OP/s")
         << "</td><td class=\"bound\" style=\"color:" << boundColor(V.Bound)
         << "\">" << boundKindName(V.Bound) << "</td><td>"
         << formatSeconds(V.Time) << "</td><td>"
         << (J.Levels ? esc(J.Levels->bottleneckName()) : "") << "</td>";
    } else {
      std::string Formula = J.IntensityFormula.empty()
                                ? std::string("")
                                : "AI = " + J.IntensityFormula;
      OS << "<td colspan=\"7\">no verdict: " << esc(J.WhyNot)
         << (Formula.empty() ? "" : "; " + esc(Formula))
         << (J.Cross ? "; flips at " + esc(J.Cross->Param) + " = " +
                           formatG(J.Cross->Value, 4)
                     : std::string())
         << "</td>";
    }
    OS << "</tr>\n";
  }
  for (const SkippedNest &K : R.Skipped)
    OS << "<tr class=\"skipped\"><td>" << esc(K.Function) << "</td><td>"
       << esc(llvm::sys::path::filename(K.Loc.File).str() + ":" +
              std::to_string(K.Loc.Line))
       << "</td><td colspan=\"8\">not analyzed: " << esc(K.Reason)
       << "</td></tr>\n";
  OS << "</tbody>\n</table>\n";
  return S;
}

} // namespace

std::string roofline::renderRooflineSVG(const Report &R,
                                        const PlotOptions &O) {
  PlotBuilder B(R, O);
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + B.svg(false);
}

std::string roofline::renderRooflineHTML(const Report &R,
                                         const PlotOptions &O) {
  PlotBuilder B(R, O);
  std::string S;
  llvm::raw_string_ostream OS(S);
  // The SVG comes first, at the page's top-left corner: the browser test
  // finds the points at their SVG coordinates in the screenshot.
  OS << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
     << "<title>Roofline: " << esc(R.M->Description) << "</title>\n"
     << "<style>\n"
        "body { margin: 0; font-family: 'DejaVu Sans', Arial, sans-serif; "
        "font-size: 13px; color: #222; background: #fff; }\n"
        "svg.roofline { display: block; }\n"
        "#tip { position: absolute; display: none; pointer-events: none; "
        "white-space: pre; background: #fffff0; border: 1px solid #888; "
        "padding: 4px 6px; font-size: 12px; box-shadow: 2px 2px 4px #0003; }\n"
        "[data-tip] { cursor: default; }\n"
        "g.nest:hover circle, g.roof:hover line { stroke: #000; }\n"
        "main { padding: 0 16px 16px 16px; }\n"
        "table.nests { border-collapse: collapse; margin-top: 8px; }\n"
        "table.nests th, table.nests td { border: 1px solid #ccc; "
        "padding: 3px 8px; text-align: left; }\n"
        "table.nests th { background: #f3f3f3; }\n"
        "tr.skipped td { color: #777; }\n"
        "</style>\n</head>\n<body>\n";
  OS << B.svg(true);
  OS << "<div id=\"tip\"></div>\n<main>\n<h1 style=\"font-size:16px\">"
        "Loop nests on "
     << esc(R.M->Description) << " (" << trafficModelName(R.Model)
     << " traffic)</h1>\n";
  OS << B.table();
  for (const std::string &Section : O.HtmlSections)
    OS << Section;
  OS << "<p>Generated by roofline-lint. Hover a point or a roof for its "
        "numbers.</p>\n</main>\n";
  OS << "<script>\n"
        "(function () {\n"
        "  var tip = document.getElementById('tip');\n"
        "  var items = document.querySelectorAll('svg.roofline [data-tip]');\n"
        "  // The page's own tooltip replaces the SVG <title> ones.\n"
        "  document.querySelectorAll('svg.roofline [data-tip] > title')"
        ".forEach(function (t) { t.remove(); });\n"
        "  items.forEach(function (e) {\n"
        "    e.addEventListener('mousemove', function (ev) {\n"
        "      tip.textContent = e.getAttribute('data-tip');\n"
        "      tip.style.display = 'block';\n"
        "      tip.style.left = (ev.pageX + 14) + 'px';\n"
        "      tip.style.top = (ev.pageY + 14) + 'px';\n"
        "    });\n"
        "    e.addEventListener('mouseleave', function () {\n"
        "      tip.style.display = 'none';\n"
        "    });\n"
        "  });\n"
        "})();\n"
        "</script>\n</body>\n</html>\n";
  return S;
}

bool roofline::isPlotPath(llvm::StringRef Path) {
  llvm::StringRef Ext = llvm::sys::path::extension(Path);
  return Ext.equals_insensitive(".svg") || Ext.equals_insensitive(".html") ||
         Ext.equals_insensitive(".htm");
}

llvm::Error roofline::writeRooflinePlot(const Report &R, llvm::StringRef Path,
                                        const PlotOptions &O) {
  if (!isPlotPath(Path))
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "--plot file '%s' must end in .svg or .html", Path.str().c_str());
  llvm::StringRef Ext = llvm::sys::path::extension(Path);
  std::string Text = Ext.equals_insensitive(".svg") ? renderRooflineSVG(R, O)
                                                    : renderRooflineHTML(R, O);
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC, llvm::sys::fs::OF_Text);
  if (EC)
    return llvm::createStringError(EC, "cannot write '%s': %s",
                                   Path.str().c_str(), EC.message().c_str());
  OS << Text;
  return llvm::Error::success();
}
