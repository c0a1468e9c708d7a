//===- QuantizeTest.cpp - Quantized counts without a second analysis ------===//
//
// quantizeCounts must give what analyzing quantizedNest gives: the oracle is
// the analysis itself, run on random nests of mixed precisions.
//
//===----------------------------------------------------------------------===//

#include "roofline/Transform/Quantize.h"
#include "roofline/Transform/WhatIf.h"

#include "RandomNest.h"

#include <gtest/gtest.h>

using namespace roofline;

namespace {

std::string show(const Count &C) {
  return (C.Value ? int128ToString(*C.Value) : "none") + " / " +
         (C.Formula ? C.Formula->str() : "none");
}

std::string show(const std::map<Precision, Count> &M) {
  std::string S;
  for (const auto &[P, C] : M)
    S += std::string(precisionName(P)) + "=" + show(C) + " ";
  return S;
}

TEST(QuantizeTest, CountsMatchAnalysisOfQuantizedNest) {
  int Compared = 0, Narrowed = 0;
  for (int Seed = 1; Seed <= 400; ++Seed) {
    LoopNest N = unittest::NestGen(Seed).make();
    llvm::Expected<NestCounts> C = analyzeNest(N);
    if (!C) {
      llvm::consumeError(C.takeError());
      continue;
    }
    for (Precision To : {Precision::BF16, Precision::I8}) {
      std::optional<LoopNest> Q = quantizedNest(N, To);
      if (!Q)
        continue;
      llvm::Expected<NestCounts> Fresh = analyzeNest(*Q);
      ASSERT_TRUE(static_cast<bool>(Fresh)) << llvm::toString(Fresh.takeError());
      NestCounts Derived = quantizeCounts(*C, To);
      SCOPED_TRACE("seed " + std::to_string(Seed) + " to " + precisionName(To));
      EXPECT_EQ(show(Derived.BytesNoReuse), show(Fresh->BytesNoReuse));
      EXPECT_EQ(show(Derived.BytesCompulsory), show(Fresh->BytesCompulsory));
      EXPECT_EQ(show(Derived.FlopsByType), show(Fresh->FlopsByType));
      EXPECT_EQ(show(Derived.MacsByType), show(Fresh->MacsByType));
      ASSERT_EQ(Derived.Arrays.size(), Fresh->Arrays.size());
      for (size_t I = 0; I < Derived.Arrays.size(); ++I) {
        EXPECT_EQ(Derived.Arrays[I].Elem, Fresh->Arrays[I].Elem);
        EXPECT_EQ(Derived.Arrays[I].ElemBytes, Fresh->Arrays[I].ElemBytes);
      }
      ++Compared;
      Narrowed += show(Derived.BytesCompulsory) != show(C->BytesCompulsory);
    }
  }
  // The comparison must have had something to compare.
  EXPECT_GT(Compared, 300);
  EXPECT_GT(Narrowed, 100);
}

} // namespace
