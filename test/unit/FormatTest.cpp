//===- FormatTest.cpp - formatG is printf's %.*g --------------------------===//

#include "roofline/Report/Report.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <random>

using namespace roofline;

namespace {

std::string printfG(double V, int Digits) {
  char Buf[64];
  std::snprintf(Buf, sizeof(Buf), "%.*g", Digits, V);
  return Buf;
}

TEST(FormatTest, SameTextAsPrintf) {
  std::vector<double> Values = {0.0,
                                -0.0,
                                1.0,
                                0.5,
                                64.0,
                                50.4,
                                0.2495,
                                1e-12,
                                3.47e-6,
                                38.7e12,
                                123456789.0,
                                9.9995,
                                0.00012345,
                                1e21,
                                std::numeric_limits<double>::infinity(),
                                -std::numeric_limits<double>::infinity(),
                                std::numeric_limits<double>::quiet_NaN(),
                                std::numeric_limits<double>::denorm_min(),
                                std::numeric_limits<double>::max()};
  std::mt19937_64 Rng(7);
  std::uniform_real_distribution<double> Mantissa(-10, 10);
  std::uniform_int_distribution<int> Exp(-30, 30);
  for (int I = 0; I < 20000; ++I)
    Values.push_back(Mantissa(Rng) * std::pow(10.0, Exp(Rng)));
  for (double V : Values)
    for (int Digits : {1, 2, 3, 4, 6, 10, 17})
      ASSERT_EQ(formatG(V, Digits), printfG(V, Digits))
          << "value " << printfG(V, 17) << ", " << Digits << " digits";
}

} // namespace
