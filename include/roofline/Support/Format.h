//===- Format.h - Numbers as the reports print them -------------*- C++ -*-===//
//
// Shared by the lint reports (lib/Report) and roofline-run's tables
// (lib/Runner), which must print a number the same way; it lives here so
// that neither library needs the other (docs/design.md, "Layers").
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_SUPPORT_FORMAT_H
#define ROOFLINE_SUPPORT_FORMAT_H

#include <string>

namespace roofline {

/// printf's "%.*g" of \p V (std::to_chars: the same text, several times
/// faster; the report formats thousands of numbers).
std::string formatG(double V, int Digits = 3);
/// "3.47 us", "64.7 ns", "1.2 s".
std::string formatSeconds(double S);
/// "38.7 TFLOP/s" style with a unit suffix ("B/s", "FLOP/s").
std::string formatRate(double V, const char *Unit);

} // namespace roofline

#endif // ROOFLINE_SUPPORT_FORMAT_H
