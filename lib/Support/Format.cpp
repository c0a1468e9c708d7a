//===- Format.cpp - Numbers as the reports print them ---------------------===//

#include "roofline/Support/Format.h"

#include <cassert>
#include <charconv>
#include <cmath>
#include <utility>

using namespace roofline;

std::string roofline::formatG(double V, int Digits) {
  char Buf[64];
  std::to_chars_result R = std::to_chars(
      Buf, Buf + sizeof(Buf), V, std::chars_format::general, Digits);
  assert(R.ec == std::errc() && "64 chars hold any %g of a double");
  return std::string(Buf, R.ptr);
}

std::string roofline::formatSeconds(double S) {
  if (!std::isfinite(S))
    return "inf s";
  static const std::pair<double, const char *> Units[] = {
      {1, "s"}, {1e-3, "ms"}, {1e-6, "us"}, {1e-9, "ns"}, {1e-12, "ps"}};
  for (const auto &[Scale, Name] : Units)
    if (S >= Scale || Scale == 1e-12)
      return formatG(S / Scale) + " " + Name;
  return formatG(S) + " s";
}

std::string roofline::formatRate(double V, const char *Unit) {
  static const std::pair<double, const char *> Prefixes[] = {
      {1e15, "P"}, {1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}, {1, ""}};
  for (const auto &[Scale, Name] : Prefixes)
    if (V >= Scale)
      return formatG(V / Scale) + " " + Name + Unit;
  return formatG(V) + " " + Unit;
}
