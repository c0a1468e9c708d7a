//===- CountsLookup.h - Finding an array's traffic in a NestCounts ---------===//
//
// Shared by the analysis tests: the counts of a nest that must be counted,
// and the ArrayTraffic of one array by name; a test failure (and an empty
// result) where there is none.
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_TEST_UNIT_COUNTSLOOKUP_H
#define ROOFLINE_TEST_UNIT_COUNTSLOOKUP_H

#include "roofline/Analysis/Counts.h"

#include <gtest/gtest.h>

#include <string>

namespace roofline {
namespace testing {

inline NestCounts analyzed(const LoopNest &N) {
  llvm::Expected<NestCounts> C = analyzeNest(N);
  EXPECT_TRUE(bool(C)) << llvm::toString(C.takeError());
  return C ? std::move(*C) : NestCounts();
}

inline const ArrayTraffic &trafficOf(const NestCounts &C, const std::string &Name) {
  for (const ArrayTraffic &A : C.Arrays)
    if (A.Name == Name)
      return A;
  static const ArrayTraffic None;
  ADD_FAILURE() << "no array " << Name;
  return None;
}

} // namespace testing
} // namespace roofline

#endif // ROOFLINE_TEST_UNIT_COUNTSLOOKUP_H
