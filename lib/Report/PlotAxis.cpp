//===- PlotAxis.cpp - Logarithmic axes and their ticks --------------------===//

#include "roofline/Report/PlotAxis.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

using namespace roofline;

double LogAxis::toPixel(double V) const {
  double A = std::log10(Lo), B = std::log10(Hi);
  return PixLo + (std::log10(V) - A) / (B - A) * (PixHi - PixLo);
}

double LogAxis::fromPixel(double P) const {
  double A = std::log10(Lo), B = std::log10(Hi);
  return std::pow(10.0, A + (P - PixLo) / (PixHi - PixLo) * (B - A));
}

bool LogAxis::contains(double V) const {
  return V >= Lo * (1 - 1e-9) && V <= Hi * (1 + 1e-9);
}

std::pair<double, double> roofline::decadeRange(double Min, double Max) {
  if (!(Min > 0) || !(Max > 0) || !std::isfinite(Min) || !std::isfinite(Max))
    return {1, 10};
  if (Min > Max)
    std::swap(Min, Max);
  // A value a rounding error off a decade (1e3 computed as 999.9999999)
  // belongs to that decade, not to the one below.
  auto Floor = [](double V) { return std::floor(std::log10(V) + 1e-9); };
  auto Ceil = [](double V) { return std::ceil(std::log10(V) - 1e-9); };
  double A = Floor(Min), B = Ceil(Max);
  if (B <= A)
    B = A + 1;
  return {std::pow(10.0, A), std::pow(10.0, B)};
}

std::pair<double, double> roofline::niceLogRange(double Min, double Max) {
  if (!(Min > 0) || !(Max > 0) || !std::isfinite(Min) || !std::isfinite(Max))
    return {1, 10};
  if (Min > Max)
    std::swap(Min, Max);
  static const double Steps[] = {1, 2, 5};
  auto Down = [](double V) {
    double D = std::pow(10.0, std::floor(std::log10(V) + 1e-9));
    double Best = D;
    for (double S : Steps)
      if (D * S <= V * (1 + 1e-9))
        Best = D * S;
    return Best;
  };
  auto Up = [](double V) {
    double D = std::pow(10.0, std::floor(std::log10(V) - 1e-9));
    for (double S : Steps)
      if (D * S >= V * (1 - 1e-9))
        return D * S;
    return D * 10;
  };
  double Lo = Down(Min), Hi = Up(Max);
  while (Hi < Lo * 10 * (1 - 1e-9))
    Hi = Up(Hi * 1.5);
  return {Lo, Hi};
}

std::string roofline::tickLabel(double V) {
  char Buf[64];
  double A = std::fabs(V);
  if (A == 0)
    return "0";
  if (A < 1e-3 - 1e-15 || A >= 1e15) {
    snprintf(Buf, sizeof(Buf), "%.0e", V);
    return Buf;
  }
  if (A < 1) {
    // Shortest of %.1g .. %.3g that reads back as V.
    for (int P = 1; P <= 3; ++P) {
      snprintf(Buf, sizeof(Buf), "%.*g", P, V);
      if (std::fabs(std::strtod(Buf, nullptr) - V) <= 1e-9 * A)
        break;
    }
    return Buf;
  }
  static const std::pair<double, const char *> Suffixes[] = {
      {1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e4, "k"}};
  for (const auto &[Scale, Name] : Suffixes) {
    if (A >= Scale) {
      double Div = Scale == 1e4 ? 1e3 : Scale;
      snprintf(Buf, sizeof(Buf), "%.3g%s", V / Div, Name);
      return Buf;
    }
  }
  // 1 .. 9999: whole numbers with a thousands separator.
  snprintf(Buf, sizeof(Buf), "%.0f", V);
  std::string Digits = Buf, Out;
  bool Neg = Digits[0] == '-';
  if (Neg)
    Digits.erase(0, 1);
  for (size_t I = 0; I < Digits.size(); ++I) {
    if (I && (Digits.size() - I) % 3 == 0)
      Out += ',';
    Out += Digits[I];
  }
  if (std::fabs(V - std::round(V)) > 1e-9 * A) {
    snprintf(Buf, sizeof(Buf), "%.3g", V);
    return Buf;
  }
  return (Neg ? "-" : "") + Out;
}

std::vector<Tick> roofline::logTicks(double Lo, double Hi) {
  std::vector<Tick> Out;
  if (!(Lo > 0) || !(Hi > Lo) || !std::isfinite(Hi))
    return Out;
  int First = static_cast<int>(std::floor(std::log10(Lo) + 1e-9));
  int Last = static_cast<int>(std::ceil(std::log10(Hi) - 1e-9));
  double Span = std::log10(Hi / Lo);
  bool Short = Span < 2.5;
  int LabelEvery = Span > 12 ? 2 : 1;
  auto In = [&](double V) { return V >= Lo * (1 - 1e-9) && V <= Hi * (1 + 1e-9); };
  for (int D = First; D <= Last; ++D) {
    double Base = std::pow(10.0, D);
    for (int M = 1; M <= 9; ++M) {
      double V = Base * M;
      if (!In(V))
        continue;
      Tick T;
      T.Value = V;
      if (M == 1) {
        T.Major = true;
        if ((D - First) % LabelEvery == 0)
          T.Label = tickLabel(V);
      } else if (Short && (M == 2 || M == 5)) {
        T.Major = true;
        T.Label = tickLabel(V);
      }
      Out.push_back(std::move(T));
    }
  }
  return Out;
}
