//===- PlotAxisTest.cpp - Log scales and tick generation for the plot -----===//

#include "roofline/Report/PlotAxis.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace roofline;

namespace {

std::vector<std::string> labels(const std::vector<Tick> &T) {
  std::vector<std::string> Out;
  for (const Tick &K : T)
    if (!K.Label.empty())
      Out.push_back(K.Label);
  return Out;
}

TEST(PlotAxisTest, DecadeRangeCoversTheData) {
  EXPECT_EQ(decadeRange(0.3, 700), std::make_pair(0.1, 1000.0));
  EXPECT_EQ(decadeRange(700, 0.3), std::make_pair(0.1, 1000.0)); // swapped
  // Exactly on a decade stays there; at least one decade wide.
  EXPECT_EQ(decadeRange(10, 100), std::make_pair(10.0, 100.0));
  EXPECT_EQ(decadeRange(10, 10), std::make_pair(10.0, 100.0));
  // A value a rounding error below a decade belongs to it.
  auto [Lo, Hi] = decadeRange(0.1, 999.9999999999);
  EXPECT_DOUBLE_EQ(Lo, 0.1);
  EXPECT_DOUBLE_EQ(Hi, 1000.0);
  // Garbage in: a harmless default.
  EXPECT_EQ(decadeRange(0, 10), std::make_pair(1.0, 10.0));
  EXPECT_EQ(decadeRange(-1, 10), std::make_pair(1.0, 10.0));
  EXPECT_EQ(decadeRange(1, INFINITY), std::make_pair(1.0, 10.0));
  EXPECT_EQ(decadeRange(NAN, 10), std::make_pair(1.0, 10.0));
}

TEST(PlotAxisTest, NiceRangeEndsOnOneTwoFive) {
  auto [Lo, Hi] = niceLogRange(0.031, 1365);
  EXPECT_DOUBLE_EQ(Lo, 0.02);
  EXPECT_DOUBLE_EQ(Hi, 2000);
  auto [Lo2, Hi2] = niceLogRange(25.6e9, 61.9e12);
  EXPECT_DOUBLE_EQ(Lo2, 20e9);
  EXPECT_DOUBLE_EQ(Hi2, 100e12);
  // Always at least a decade.
  auto [Lo3, Hi3] = niceLogRange(3, 4);
  EXPECT_DOUBLE_EQ(Lo3, 2);
  EXPECT_GE(Hi3 / Lo3, 10 - 1e-9);
  EXPECT_DOUBLE_EQ(Hi3, 20);
  auto [Lo4, Hi4] = niceLogRange(5, 5);
  EXPECT_DOUBLE_EQ(Lo4, 5);
  EXPECT_DOUBLE_EQ(Hi4, 50);
}

TEST(PlotAxisTest, AxisMapsDecadesToEqualSteps) {
  LogAxis X{0.1, 1000, 100, 400};
  EXPECT_DOUBLE_EQ(X.toPixel(0.1), 100);
  EXPECT_DOUBLE_EQ(X.toPixel(1), 175);
  EXPECT_DOUBLE_EQ(X.toPixel(10), 250);
  EXPECT_DOUBLE_EQ(X.toPixel(1000), 400);
  EXPECT_NEAR(X.fromPixel(325), 100, 1e-9);
  // SVG's y axis points down: PixHi above PixLo works the same way.
  LogAxis Y{1e9, 1e13, 560, 60};
  EXPECT_DOUBLE_EQ(Y.toPixel(1e9), 560);
  EXPECT_DOUBLE_EQ(Y.toPixel(1e11), 310);
  EXPECT_DOUBLE_EQ(Y.toPixel(1e13), 60);
  // The seed's ridge lands where log-scaling puts it.
  EXPECT_NEAR(X.toPixel(50.4), 250 + 75 * std::log10(5.04), 1e-9);
  EXPECT_TRUE(X.contains(0.1));
  EXPECT_TRUE(X.contains(1000));
  EXPECT_FALSE(X.contains(0.09));
  EXPECT_FALSE(X.contains(1001));
}

TEST(PlotAxisTest, TicksLabelEveryDecade) {
  std::vector<Tick> T = logTicks(0.1, 1000);
  EXPECT_EQ(labels(T),
            (std::vector<std::string>{"0.1", "1", "10", "100", "1,000"}));
  // Minor ticks 2..9 in each of the four decades, and five decade ticks.
  EXPECT_EQ(T.size(), 4u * 8 + 5);
  unsigned Majors = 0;
  for (const Tick &K : T)
    Majors += K.Major;
  EXPECT_EQ(Majors, 5u);
  // Ascending and inside the range.
  for (size_t I = 1; I < T.size(); ++I)
    EXPECT_LT(T[I - 1].Value, T[I].Value);
  EXPECT_DOUBLE_EQ(T.front().Value, 0.1);
  EXPECT_DOUBLE_EQ(T.back().Value, 1000);
}

TEST(PlotAxisTest, ShortAxesLabelTwosAndFives) {
  // 0.02 .. 2: two decades, so 2x and 5x are labelled too.
  std::vector<Tick> T = logTicks(0.02, 2);
  EXPECT_EQ(labels(T), (std::vector<std::string>{"0.02", "0.05", "0.1", "0.2",
                                                 "0.5", "1", "2"}));
}

TEST(PlotAxisTest, LongAxesThinTheirLabels) {
  std::vector<Tick> T = logTicks(1e-3, 1e12);
  std::vector<std::string> L = labels(T);
  ASSERT_FALSE(L.empty());
  EXPECT_EQ(L.front(), "0.001");
  EXPECT_EQ(L.size(), 8u); // every other of 16 decades
}

TEST(PlotAxisTest, NiceEndsNeedNoDecadeAtTheEnds) {
  std::vector<Tick> T = logTicks(20, 200000);
  EXPECT_EQ(labels(T),
            (std::vector<std::string>{"100", "1,000", "10k", "100k"}));
  EXPECT_DOUBLE_EQ(T.front().Value, 20);
  EXPECT_DOUBLE_EQ(T.back().Value, 200000);
}

TEST(PlotAxisTest, TickLabelsAreReadable) {
  EXPECT_EQ(tickLabel(1), "1");
  EXPECT_EQ(tickLabel(10), "10");
  EXPECT_EQ(tickLabel(1000), "1,000");
  EXPECT_EQ(tickLabel(5000), "5,000");
  EXPECT_EQ(tickLabel(10000), "10k");
  EXPECT_EQ(tickLabel(200000), "200k");
  EXPECT_EQ(tickLabel(1e6), "1M");
  EXPECT_EQ(tickLabel(2.5e6), "2.5M");
  EXPECT_EQ(tickLabel(1e9), "1G");
  EXPECT_EQ(tickLabel(0.5), "0.5");
  EXPECT_EQ(tickLabel(0.1), "0.1");
  EXPECT_EQ(tickLabel(0.02), "0.02");
  EXPECT_EQ(tickLabel(0.001), "0.001");
  EXPECT_EQ(tickLabel(0.0001), "1e-04");
  EXPECT_EQ(tickLabel(0), "0");
  EXPECT_EQ(tickLabel(2.5), "2.5");
  EXPECT_EQ(tickLabel(16384), "16.4k");
}

TEST(PlotAxisTest, DegenerateAxesHaveNoTicks) {
  EXPECT_TRUE(logTicks(0, 10).empty());
  EXPECT_TRUE(logTicks(10, 10).empty());
  EXPECT_TRUE(logTicks(10, 1).empty());
  EXPECT_TRUE(logTicks(1, INFINITY).empty());
}

} // namespace
