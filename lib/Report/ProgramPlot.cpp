//===- ProgramPlot.cpp - A pass's time breakdown beside its roofline ------===//

#include "roofline/Report/ProgramPlot.h"
#include "roofline/Report/AdviceReport.h"
#include "roofline/Report/Plot.h"
#include "roofline/Report/PlotAxis.h"
#include "roofline/Report/Report.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <map>

using namespace llvm;
using namespace roofline;

namespace {

constexpr double Width = 1000, Height = 380;
/// The roofline panel and the bar panel, in pixels.
constexpr double RoofLeft = 70, RoofRight = 500, Top = 50, Bottom = 320;
constexpr double BarLeft = 570, BarRight = 960, BarTop = 70, BarHeight = 34;

/// Colours of the bar's segments, by rank (largest share first); a legend
/// names them.
const char *const Palette[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2",
                               "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
                               "#9c755f", "#bab0ac"};
constexpr size_t PaletteSize = sizeof(Palette) / sizeof(Palette[0]);

std::string px(double V) {
  char Buf[32];
  snprintf(Buf, sizeof(Buf), "%.1f", V);
  return Buf;
}

std::string escaped(StringRef S) {
  std::string Out;
  raw_string_ostream OS(Out);
  printHTMLEscaped(S, OS);
  return Out;
}

std::string percent(double Share) { return formatG(100 * Share, 3) + "%"; }

/// Time of each function in memory-bound rows (its colour on the roofline).
std::map<std::string, double> memoryTimeOf(const ProgramSummary &S) {
  std::map<std::string, double> T;
  for (const ProgramRow &R : S.Rows)
    if (R.Known && R.Bound != BoundKind::ComputeBound)
      T[R.Function.substr(0, R.Function.find(" ["))] += R.Time;
  return T;
}

void rooflinePanel(raw_ostream &OS, const ProgramSummary &S, const Machine &M) {
  double Peak = M.peakFor(Precision::F32);
  double Bw = M.Levels.empty() ? 0 : M.mainMemory().BandwidthBytesPerS;
  double Ridge = Bw > 0 ? Peak / Bw : 1;
  double MinI = Ridge, MaxI = Ridge, MinP = Peak, MaxP = Peak;
  for (const ProgramCallee &C : S.Callees) {
    if (C.Flops <= 0 || C.Bytes <= 0 || C.Time <= 0)
      continue;
    MinI = std::min(MinI, C.Flops / C.Bytes);
    MaxI = std::max(MaxI, C.Flops / C.Bytes);
    MinP = std::min(MinP, C.Flops / C.Time);
  }
  auto [XLo, XHi] = decadeRange(MinI / 2, MaxI * 2);
  auto [YLo, YHi] = decadeRange(MinP / 2, MaxP * 2);
  LogAxis X{XLo, XHi, RoofLeft, RoofRight}, Y{YLo, YHi, Bottom, Top};
  OS << "<rect x=\"" << px(RoofLeft) << "\" y=\"" << px(Top) << "\" width=\""
     << px(RoofRight - RoofLeft) << "\" height=\"" << px(Bottom - Top)
     << "\" fill=\"none\" stroke=\"#999\"/>\n";
  for (const Tick &T : logTicks(XLo, XHi))
    if (!T.Label.empty())
      OS << "<text x=\"" << px(X.toPixel(T.Value)) << "\" y=\""
         << px(Bottom + 16) << "\" text-anchor=\"middle\" font-size=\"11\">"
         << T.Label << "</text>\n";
  for (const Tick &T : logTicks(YLo, YHi))
    if (!T.Label.empty())
      OS << "<text x=\"" << px(RoofLeft - 6) << "\" y=\""
         << px(Y.toPixel(T.Value) + 4)
         << "\" text-anchor=\"end\" font-size=\"11\">" << T.Label
         << "</text>\n";
  OS << "<text x=\"" << px((RoofLeft + RoofRight) / 2) << "\" y=\""
     << px(Bottom + 34)
     << "\" text-anchor=\"middle\" font-size=\"12\">FLOP/byte (compulsory)"
        "</text>\n<text x=\"16\" y=\"" << px((Top + Bottom) / 2)
     << "\" font-size=\"12\" transform=\"rotate(-90 16 " << px((Top + Bottom) / 2)
     << ")\" text-anchor=\"middle\">FLOP/s at the time floor</text>\n";
  // The roof: bandwidth up to the ridge, then the f32 peak.
  double I0 = std::max(XLo, YLo / Bw);
  OS << "<polyline class=\"roof\" fill=\"none\" stroke=\""
     << plotcolors::MainMemory << "\" stroke-width=\"2\" points=\""
     << px(X.toPixel(I0)) << "," << px(Y.toPixel(I0 * Bw)) << " "
     << px(X.toPixel(Ridge)) << "," << px(Y.toPixel(Peak)) << " "
     << px(X.toPixel(XHi)) << "," << px(Y.toPixel(Peak)) << "\"/>\n";
  std::map<std::string, double> MemoryTime = memoryTimeOf(S);
  // Largest first, so the small points are drawn over the large ones.
  for (size_t K = 0; K < S.Callees.size(); ++K) {
    const ProgramCallee &C = S.Callees[K];
    if (C.Flops <= 0 || C.Bytes <= 0 || C.Time <= 0)
      continue; // no place on a log axis; the bar has it
    double Share = S.Time > 0 ? C.Time / S.Time : 0;
    double I = C.Flops / C.Bytes, P = C.Flops / C.Time;
    bool Memory = MemoryTime[C.Function] * 2 >= C.Time;
    std::string Tip = C.Function + ": " + percent(Share) + " of the pass, " +
                      formatSeconds(C.Time) + ", " + formatG(I) +
                      " FLOP/B, " + (Memory ? "memory-bound" : "compute-bound");
    OS << "<g class=\"callee\" data-function=\"" << escaped(C.Function)
       << "\" data-share=\"" << formatG(Share, 6) << "\" data-tip=\""
       << escaped(Tip) << "\"><title>" << escaped(Tip)
       << "</title><circle cx=\"" << px(X.toPixel(I)) << "\" cy=\""
       << px(Y.toPixel(P)) << "\" r=\"" << px(4 + 26 * std::sqrt(Share))
       << "\" fill=\""
       << (Memory ? plotcolors::MemoryBound : plotcolors::ComputeBound)
       << "\" fill-opacity=\"0.55\" stroke=\"" << Palette[K % PaletteSize]
       << "\" stroke-width=\"2\"/></g>\n";
  }
}

void barPanel(raw_ostream &OS, const ProgramSummary &S) {
  OS << "<text x=\"" << px(BarLeft) << "\" y=\"" << px(BarTop - 10)
     << "\" font-size=\"12\">time floor by function: "
     << formatSeconds(S.Time) << " in all</text>\n";
  double XPos = BarLeft;
  for (size_t K = 0; K < S.Callees.size(); ++K) {
    const ProgramCallee &C = S.Callees[K];
    double Share = S.Time > 0 ? C.Time / S.Time : 0;
    double W = Share * (BarRight - BarLeft);
    std::string Tip = C.Function + ": " + percent(Share) + ", " +
                      formatSeconds(C.Time) + ", " +
                      std::to_string(C.Executions) + " runs";
    OS << "<g class=\"segment\" data-function=\"" << escaped(C.Function)
       << "\" data-share=\"" << formatG(Share, 6) << "\" data-tip=\""
       << escaped(Tip) << "\"><title>" << escaped(Tip) << "</title><rect x=\""
       << px(XPos) << "\" y=\"" << px(BarTop) << "\" width=\"" << px(W)
       << "\" height=\"" << px(BarHeight) << "\" fill=\""
       << Palette[K % PaletteSize] << "\"/></g>\n";
    XPos += W;
    // The legend: one line per function, in the bar's order.
    double LY = BarTop + BarHeight + 24 + 18 * double(K);
    if (LY > Height - 10)
      continue; // the bar and its tooltips still have it
    OS << "<rect x=\"" << px(BarLeft) << "\" y=\"" << px(LY - 10)
       << "\" width=\"12\" height=\"12\" fill=\"" << Palette[K % PaletteSize]
       << "\"/><text x=\"" << px(BarLeft + 18) << "\" y=\"" << px(LY)
       << "\" font-size=\"12\">" << escaped(C.Function) << "  "
       << percent(Share) << "  " << formatSeconds(C.Time) << "</text>\n";
  }
}

} // namespace

std::string roofline::renderProgramSVG(const ProgramSummary &S,
                                       const Machine &M) {
  if (!S.Found || S.Callees.empty() || S.Time <= 0)
    return "";
  std::string Out;
  raw_string_ostream OS(Out);
  OS << "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"roofline pass\" "
        "data-entry=\""
     << escaped(S.Entry) << "\" width=\"" << px(Width) << "\" height=\""
     << px(Height) << "\" viewBox=\"0 0 " << px(Width) << " " << px(Height)
     << "\" font-family=\"DejaVu Sans, Arial, sans-serif\">\n"
     << "<text x=\"" << px(RoofLeft) << "\" y=\"24\" font-size=\"14\">pass '"
     << escaped(S.Entry) << "' on " << escaped(S.MachineName)
     << ": each function at its FLOPs / bytes, area = share of the time "
        "floor</text>\n";
  rooflinePanel(OS, S, M);
  barPanel(OS, S);
  OS << "</svg>\n";
  return Out;
}

std::string roofline::programPlotSection(const ProgramSummary &S,
                                         const Machine &M) {
  std::string SVG = renderProgramSVG(S, M);
  if (SVG.empty())
    return "";
  return "<h2 style=\"font-size:15px\">Pass '" + escaped(S.Entry) +
         "': time breakdown</h2>\n" + SVG +
         (S.Complete ? std::string()
                     : "<p>Incomplete: the text report lists what was left "
                       "out.</p>\n");
}

std::string roofline::programSVGPath(StringRef PlotFile, StringRef Entry) {
  std::string Name;
  for (char C : Entry)
    Name += isAlnum(C) || C == '_' || C == '.' || C == '-' ? C : '_';
  SmallString<256> Path(PlotFile);
  sys::path::replace_extension(Path, "");
  return (Path + ".pass-" + Name + ".svg").str();
}

Expected<std::string> roofline::writeProgramSVG(const ProgramSummary &S,
                                                const Machine &M,
                                                StringRef PlotFile) {
  std::string SVG = renderProgramSVG(S, M);
  if (SVG.empty())
    return std::string();
  std::string Path = programSVGPath(PlotFile, S.Entry);
  std::error_code EC;
  raw_fd_ostream OS(Path, EC, sys::fs::OF_Text);
  if (EC)
    return createStringError(EC, "cannot write '%s': %s", Path.c_str(),
                             EC.message().c_str());
  OS << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" << SVG;
  return Path;
}
