//===- RooflineTest.cpp - Verdicts and crossovers, the seed's numbers -----===//

#include "roofline/Roofline/Roofline.h"

#include "gtest/gtest.h"

#include <cmath>
#include <limits>

using namespace roofline;

namespace {

Machine load(const char *Name) {
  llvm::Expected<Machine> M = loadMachine(Name);
  if (!M) {
    ADD_FAILURE() << llvm::toString(M.takeError());
    return Machine();
  }
  return std::move(*M);
}

TEST(RooflineTest, BoundNames) {
  EXPECT_STREQ(boundKindName(BoundKind::ComputeBound), "compute-bound");
  EXPECT_STREQ(boundKindName(BoundKind::MemoryBound), "memory-bound");
  EXPECT_STREQ(boundKindName(BoundKind::DoesNotFit), "does-not-fit");
}

// Seed section 6: 512x256x512 gemm on the A6000.
TEST(RooflineTest, SeedGemmOnA6000) {
  Machine M = load("rtx-a6000");
  ASSERT_FALSE(M.Levels.empty());
  double Flops = 2.0 * 512 * 256 * 512;
  double Bytes = (512 * 256 + 256 * 512 + 512 * 512) * 4.0;
  ASSERT_EQ(Flops, 134217728.0);
  ASSERT_EQ(Bytes, 2097152.0);
  Verdict V = computeVerdict(M, Precision::F32, Flops, Bytes, Bytes,
                             "compulsory");
  EXPECT_EQ(V.MachineName, "rtx-a6000");
  EXPECT_EQ(V.Model, "compulsory");
  EXPECT_EQ(V.Prec, Precision::F32);
  EXPECT_DOUBLE_EQ(V.Intensity, 64.0);
  EXPECT_NEAR(V.Ridge, 50.4, 0.05);
  EXPECT_EQ(V.Bound, BoundKind::ComputeBound);
  EXPECT_NEAR(V.TimeMemory * 1e6, 2.73, 0.01);
  EXPECT_NEAR(V.TimeCompute * 1e6, 3.47, 0.01);
  EXPECT_DOUBLE_EQ(V.Time, V.TimeCompute);
  EXPECT_DOUBLE_EQ(V.Attainable, V.Peak); // above the ridge: on the flat roof
  EXPECT_DOUBLE_EQ(V.Peak, 38.7072e12);
  EXPECT_DOUBLE_EQ(V.Bandwidth, 768e9);
}

// Seed section 5: 64^3 gemm at the T4's 8.1 TFLOP/s.
TEST(RooflineTest, SeedGemmOnT4) {
  Machine M = load("t4");
  ASSERT_FALSE(M.Levels.empty());
  double Flops = 2.0 * 64 * 64 * 64;
  ASSERT_EQ(Flops, 524288.0);
  Verdict V = computeVerdict(M, Precision::F32, Flops, 3 * 64 * 64 * 4.0,
                             3 * 64 * 64 * 4.0, "compulsory");
  EXPECT_NEAR(V.TimeCompute * 1e9, 64.7, 0.05);
  EXPECT_DOUBLE_EQ(V.TimeCompute, 524288 / 8.1e12);
}

// Seed section 8: gemv N = 1024, fp32 and int8.
TEST(RooflineTest, SeedGemvIsMemoryBound) {
  Machine M = load("rtx-a6000");
  ASSERT_FALSE(M.Levels.empty());
  double Flops = 2.0 * 1024 * 1024;
  double Elems = 1024.0 * 1024 + 1024 + 1024;
  Verdict F32 = computeVerdict(M, Precision::F32, Flops, Elems * 4, Elems * 4,
                               "compulsory");
  EXPECT_NEAR(F32.Intensity, 0.5, 0.01);
  EXPECT_EQ(F32.Bound, BoundKind::MemoryBound);
  EXPECT_DOUBLE_EQ(F32.Attainable, F32.Intensity * F32.Bandwidth);
  EXPECT_DOUBLE_EQ(F32.Time, F32.TimeMemory);

  Verdict I8 =
      computeVerdict(M, Precision::I8, Flops, Elems, Elems, "compulsory");
  EXPECT_NEAR(I8.Intensity, 2.0, 0.01);
  EXPECT_EQ(I8.Bound, BoundKind::MemoryBound);
  EXPECT_NEAR(F32.TimeMemory / I8.TimeMemory, 4.0, 1e-12); // "up to 4x"
}

TEST(RooflineTest, CapacityOverflowDoesNotFit) {
  Machine M = load("t4");
  ASSERT_FALSE(M.Levels.empty());
  Verdict V = computeVerdict(M, Precision::F32, 1e12, 1e9,
                             M.CapacityBytes + 1, "compulsory");
  EXPECT_EQ(V.Bound, BoundKind::DoesNotFit);
  // The times are still reported: they say what it would cost if it fit.
  EXPECT_GT(V.Time, 0);
  Verdict Fits = computeVerdict(M, Precision::F32, 1e12, 1e9,
                                M.CapacityBytes, "compulsory");
  EXPECT_NE(Fits.Bound, BoundKind::DoesNotFit);
}

TEST(RooflineTest, ZeroBytesIsComputeBound) {
  Machine M = load("rtx-a6000");
  ASSERT_FALSE(M.Levels.empty());
  Verdict V = computeVerdict(M, Precision::F32, 1000, 0, 0, "no-reuse");
  EXPECT_TRUE(std::isinf(V.Intensity));
  EXPECT_EQ(V.Bound, BoundKind::ComputeBound);
  EXPECT_DOUBLE_EQ(V.Attainable, V.Peak);
  EXPECT_DOUBLE_EQ(V.TimeMemory, 0);
}

TEST(RooflineTest, PrecisionFallsBackToF32) {
  Machine M = load("t4"); // the T4 file has no bf16 peak
  ASSERT_FALSE(M.Levels.empty());
  Verdict V = computeVerdict(M, Precision::BF16, 1e9, 1e6, 1e6, "compulsory");
  EXPECT_DOUBLE_EQ(V.Peak, 8.1e12);
  Verdict H = computeVerdict(M, Precision::F16, 1e9, 1e6, 1e6, "compulsory");
  EXPECT_DOUBLE_EQ(H.Peak, 16.2e12);
}

// docs/design.md: gemm fp32 compulsory AI = N/6 crosses the A6000 ridge at 302.4.
TEST(RooflineTest, GemmCrossoverOnA6000) {
  Machine M = load("rtx-a6000");
  ASSERT_FALSE(M.Levels.empty());
  std::optional<Crossover> C = findCrossover(
      "N", [](double N) { return N / 6; }, M.ridge(Precision::F32));
  ASSERT_TRUE(C.has_value());
  EXPECT_EQ(C->Param, "N");
  EXPECT_NEAR(C->Value, 302.4, 302.4 * 1e-9);
  EXPECT_TRUE(C->ComputeBoundAbove);
  // bf16 halves the bytes: AI = N/3 (seed section 6), same ridge here.
  std::optional<Crossover> B = findCrossover(
      "N", [](double N) { return N / 3; }, M.ridge(Precision::BF16));
  ASSERT_TRUE(B.has_value());
  EXPECT_NEAR(B->Value, 151.2, 151.2 * 1e-9);
}

TEST(RooflineTest, CrossoverDecreasingAndNone) {
  // Falling intensity flips to memory-bound above the crossing.
  std::optional<Crossover> C =
      findCrossover("S", [](double S) { return 1000 / S; }, 50);
  ASSERT_TRUE(C.has_value());
  EXPECT_NEAR(C->Value, 20, 20 * 1e-9);
  EXPECT_FALSE(C->ComputeBoundAbove);
  // Constant intensities never flip.
  EXPECT_FALSE(findCrossover("S", [](double) { return 0.25; }, 50));
  EXPECT_FALSE(findCrossover("S", [](double) { return 100.0; }, 50));
  // Above the ridge already at S = 1 and rising: no flip in range.
  EXPECT_FALSE(findCrossover("S", [](double S) { return 60 + S; }, 50));
}

TEST(RooflineTest, CrossoverUnimodal) {
  // Rises then falls (a reuse that is lost once the tile leaves the cache):
  // the first crossing is reported.
  auto Hump = [](double S) { return S < 1000 ? S / 10 : 100 * 1000 / S; };
  std::optional<Crossover> C = findCrossover("T", Hump, 50.4);
  ASSERT_TRUE(C.has_value());
  EXPECT_NEAR(C->Value, 504, 504 * 1e-9);
  EXPECT_TRUE(C->ComputeBoundAbove);
  // A narrow hump that crosses only between scan samples is still found.
  auto Narrow = [](double S) {
    double X = std::log2(S) - 10.0625; // midway between two samples
    return 60 - 1e4 * X * X; // above 50 only for |X| < 0.0316
  };
  std::optional<Crossover> N = findCrossover("T", Narrow, 50);
  ASSERT_TRUE(N.has_value());
  EXPECT_NEAR(std::log2(N->Value), 10.0625 - std::sqrt(1e-3), 1e-6);
  EXPECT_TRUE(N->ComputeBoundAbove);
}

} // namespace
