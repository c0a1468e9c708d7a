//===- TiledModelTest.cpp - The tiled(T) model, the seed's tiling numbers -===//

#include "roofline/Analysis/TiledModel.h"

#include "NestBuilder.h"
#include "RandomNest.h"

#include <gtest/gtest.h>

using namespace roofline;
using namespace roofline::testing;

namespace {

TiledTraffic run(const LoopNest &N, unsigned T) {
  llvm::Expected<NestCounts> C = analyzeNest(N);
  if (!C) {
    ADD_FAILURE() << llvm::toString(C.takeError());
    return {};
  }
  return tiledTraffic(N, *C, T);
}

// Seed section 8: N = 1024 float gemm, 32x32 tiles: A and B are each read
// N/32 times, C (cleared first) written once: AI = 2N^3 / (N^3/4 + 4N^2)
// = 7.88, the seed's ~8 (between no-reuse 0.25 and the ideal N/6 = 170).
TEST(TiledModelTest, SeedGemmTiles) {
  const double N = 1024;
  TiledTraffic T = run(gemmNest("ijk", 1024, 1024, 1024, /*Init=*/true), 32);
  ASSERT_TRUE(T.Bytes) << T.WhyNot;
  EXPECT_TRUE(T.Legal) << T.LegalityReason;
  EXPECT_EQ(T.Loops, (std::vector<std::string>{"i", "j", "k"}));
  EXPECT_DOUBLE_EQ(*T.Bytes, 4 * (2 * N * N * N / 32 + N * N));
  EXPECT_NEAR(2 * N * N * N / *T.Bytes, 7.88, 0.01);
  ASSERT_TRUE(T.Formula);
  EXPECT_EQ(T.Formula->str(), "(K*M*N + 16*M*N)/4");
}

// Without the clearing C is read and written once per (i, j) tile.
TEST(TiledModelTest, AccumulatingGemmReadsC) {
  const double N = 512;
  TiledTraffic T = run(gemmNest("ijk", 512, 512, 512), 16);
  ASSERT_TRUE(T.Bytes);
  EXPECT_DOUBLE_EQ(*T.Bytes, 4 * (2 * N * N * N / 16 + 2 * N * N));
}

// Partial tiles count as full ones: an upper bound.
TEST(TiledModelTest, PartialTiles) {
  TiledTraffic T = run(gemmNest("ijk", 100, 100, 100), 32);
  ASSERT_TRUE(T.Bytes);
  EXPECT_GE(*T.Bytes, 4 * (2.0 * 100 * 100 * 100 / 32 + 2 * 100 * 100));
}

// A band that is not fully permutable is reported as such.
TEST(TiledModelTest, IllegalTilingIsFlagged) {
  AffineExpr I = v("i"), J = v("j");
  LoopNest N = nest("skew", {{"N", 64}},
                    {arr("A", Precision::F32, {v("N"), v("N")})},
                    loop("i", k(1), v("N") - 1,
                         {loop("j", k(0), v("N") - 2,
                               {stmt({wr("A", {J, I}), rd("A", {J + 1, I - 1})},
                                     add())})}));
  TiledTraffic T = run(N, 8);
  EXPECT_FALSE(T.Legal);
  EXPECT_NE(T.LegalityReason.find("not fully permutable"), std::string::npos);
}

// A what-if asks for the number only: it must be the number the full model
// gives, on the seed's gemm and on random nests.
TEST(TiledModelTest, NumberWithoutFormulaIsTheSame) {
  std::vector<LoopNest> Nests = {gemmNest("ijk", 1024, 1024, 1024, true),
                                 gemmNest("ikj", 100, 60, 70)};
  for (int Seed = 1; Seed <= 300; ++Seed)
    Nests.push_back(unittest::NestGen(Seed).make());
  int WithBytes = 0;
  for (const LoopNest &N : Nests) {
    llvm::Expected<NestCounts> C = analyzeNest(N);
    if (!C) {
      llvm::consumeError(C.takeError());
      continue;
    }
    for (unsigned T : {1u, 4u, 32u}) {
      TiledTraffic Full = tiledTraffic(N, *C, T);
      TiledTraffic Number = tiledTraffic(N, *C, T, /*WithFormula=*/false);
      EXPECT_EQ(Full.Bytes, Number.Bytes) << printNest(N);
      EXPECT_EQ(Full.Legal, Number.Legal);
      EXPECT_EQ(Full.LegalityReason, Number.LegalityReason);
      EXPECT_EQ(Full.WhyNot, Number.WhyNot);
      EXPECT_EQ(Full.Loops, Number.Loops);
      EXPECT_FALSE(Number.Formula);
      WithBytes += Number.Bytes.has_value();
    }
  }
  EXPECT_GT(WithBytes, 300);
}

} // namespace
