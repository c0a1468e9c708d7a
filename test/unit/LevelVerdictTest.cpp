//===- LevelVerdictTest.cpp - The roofline at every memory level ----------===//

#include "roofline/Machine/MachineYAML.h"
#include "roofline/Roofline/LevelVerdict.h"

#include "gtest/gtest.h"

#include <cmath>

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

NestCounts counts(Int128 Flops, Int128 Compulsory, Int128 NoReuse) {
  NestCounts C;
  C.Flops.Value = Flops;
  C.BytesCompulsory.Value = Compulsory;
  C.BytesNoReuse.Value = NoReuse;
  return C;
}

// Seed section 6: 512x256x512 gemm on the A6000. Its 2 MB footprint fits in
// the 6 MB L2 (compulsory bytes there) but not in a 128 KB L1 (no-reuse).
TEST(LevelVerdictTest, SeedGemmPerLevel) {
  Machine M = load("rtx-a6000");
  ASSERT_EQ(M.Levels.size(), 3u);
  NestCounts C = counts(134217728, 2097152, 537919488);
  Verdict V = computeVerdict(M, Precision::F32, 134217728, 2097152, 2097152,
                             "compulsory");
  std::vector<LevelBytes> B = bytesPerLevel(C, M, V);
  ASSERT_EQ(B.size(), 3u);
  EXPECT_EQ(B[0].Level, "DRAM");
  EXPECT_EQ(B[0].Bytes, 2097152);
  EXPECT_EQ(B[0].Rule, LevelRule::Model);
  EXPECT_EQ(B[1].Level, "L2");
  EXPECT_EQ(B[1].Bytes, 2097152);
  EXPECT_EQ(B[1].Rule, LevelRule::CompulsoryFits);
  EXPECT_EQ(B[2].Level, "L1");
  EXPECT_EQ(B[2].Bytes, 537919488);
  EXPECT_EQ(B[2].Rule, LevelRule::NoReuseExceeds);

  HierarchicalVerdict H = judgeLevels(C, M, V);
  ASSERT_EQ(H.Levels.size(), 3u);
  EXPECT_DOUBLE_EQ(H.Levels[0].Intensity, 64);
  EXPECT_DOUBLE_EQ(H.Levels[0].Time, 2097152 / 768e9);
  EXPECT_EQ(H.Levels[0].Bound, BoundKind::ComputeBound);
  EXPECT_DOUBLE_EQ(H.Levels[1].Time, 2097152 / 2.0e12);
  EXPECT_NEAR(H.Levels[2].Intensity, 0.2495, 1e-4);
  EXPECT_EQ(H.Levels[2].Bound, BoundKind::MemoryBound);
  EXPECT_DOUBLE_EQ(H.Levels[2].Ridge, 38.7072e12 / 19.3536e12);
  // Every load of the untiled loop reaching L1 takes longer than the math.
  ASSERT_TRUE(H.Bottleneck.has_value());
  EXPECT_EQ(*H.Bottleneck, 2u);
  EXPECT_EQ(H.bottleneckName(), "L1");
  EXPECT_DOUBLE_EQ(H.Time, 537919488 / 19.3536e12);
  EXPECT_DOUBLE_EQ(H.TimeCompute, V.TimeCompute);
}

// The no-reuse model at main memory: a cache never sees fewer bytes than
// the level outside it.
TEST(LevelVerdictTest, CachesNeverMoveLessThanTheLevelOutside) {
  Machine M = load("rtx-a6000");
  NestCounts C = counts(1000, 100, 5000);
  Verdict V = computeVerdict(M, Precision::F32, 1000, 5000, 100, "no-reuse");
  std::vector<LevelBytes> B = bytesPerLevel(C, M, V);
  ASSERT_EQ(B.size(), 3u);
  EXPECT_EQ(B[1].Bytes, 5000);
  EXPECT_EQ(B[1].Rule, LevelRule::OuterLevel);
  EXPECT_EQ(B[2].Bytes, 5000);
  EXPECT_EQ(B[2].Rule, LevelRule::OuterLevel);
  for (size_t I = 1; I < B.size(); ++I)
    EXPECT_GE(B[I].Bytes, B[I - 1].Bytes);
}

// A cache-model verdict given no analysis uses the rule: the levels never
// run the cache model themselves (judgeNest hands down the nest's).
TEST(LevelVerdictTest, CacheVerdictWithoutAnalysisUsesTheRule) {
  Machine M = load("rtx-a6000");
  NestCounts C = counts(134217728, 2097152, 537919488);
  Verdict V = computeVerdict(M, Precision::F32, 134217728, 2097152, 2097152,
                             "cache");
  std::vector<LevelBytes> B = bytesPerLevel(C, M, V);
  ASSERT_EQ(B.size(), 3u);
  EXPECT_EQ(B[1].Rule, LevelRule::CompulsoryFits);
  EXPECT_EQ(B[2].Rule, LevelRule::NoReuseExceeds);
}

TEST(LevelVerdictTest, MathWinsTies) {
  Machine M = load("t4");
  // Flops such that math takes exactly as long as DRAM.
  double Bytes = 320e9, Flops = 8.1e12;
  NestCounts C = counts(static_cast<Int128>(Flops), 320000000000,
                        320000000000);
  Verdict V = computeVerdict(M, Precision::F32, Flops, Bytes, 1, "compulsory");
  HierarchicalVerdict H = judgeLevels(C, M, V);
  EXPECT_FALSE(H.Bottleneck.has_value());
  EXPECT_EQ(H.bottleneckName(), "compute");
  EXPECT_DOUBLE_EQ(H.Time, 1.0);
}

TEST(LevelVerdictTest, NoBytesIsInfiniteIntensity) {
  Machine M = load("t4");
  NestCounts C = counts(100, 0, 0);
  Verdict V = computeVerdict(M, Precision::F32, 100, 0, 0, "compulsory");
  HierarchicalVerdict H = judgeLevels(C, M, V);
  for (const LevelVerdict &L : H.Levels) {
    EXPECT_TRUE(std::isinf(L.Intensity));
    EXPECT_EQ(L.Bound, BoundKind::ComputeBound);
    EXPECT_EQ(L.Time, 0);
  }
  EXPECT_FALSE(H.Bottleneck.has_value());
}

TEST(LevelVerdictTest, RuleNames) {
  EXPECT_STREQ(levelRuleName(LevelRule::Model), "model");
  EXPECT_STREQ(levelRuleName(LevelRule::CompulsoryFits), "compulsory-fits");
  EXPECT_STREQ(levelRuleName(LevelRule::NoReuseExceeds), "no-reuse-exceeds");
  EXPECT_STREQ(levelRuleName(LevelRule::OuterLevel), "outer-level");
}

// roofline-probe writes machine files with machineToYAML: every shipped
// machine survives the round trip.
TEST(MachineYAMLTest, RoundTripsEveryBuiltin) {
  for (const std::string &Name : builtinMachineNames()) {
    Machine M = load(Name.c_str());
    std::string Text = machineToYAML(M, "a comment\nover two lines");
    llvm::Expected<Machine> Back = parseMachine(Text, "round-trip.yaml");
    ASSERT_TRUE(static_cast<bool>(Back))
        << Name << ": " << llvm::toString(Back.takeError()) << "\n"
        << Text;
    EXPECT_EQ(Back->Name, M.Name);
    EXPECT_EQ(Back->Description, M.Description);
    EXPECT_EQ(Back->Kind, M.Kind);
    EXPECT_EQ(Back->CapacityBytes, M.CapacityBytes);
    EXPECT_EQ(Back->LineBytes, M.LineBytes);
    EXPECT_EQ(Back->WriteAllocate, M.WriteAllocate);
    EXPECT_EQ(Back->Sources, M.Sources);
    EXPECT_EQ(Back->HostLinkBytesPerS, M.HostLinkBytesPerS) << Name;
    EXPECT_EQ(Back->LaunchLatencyS, M.LaunchLatencyS) << Name;
    ASSERT_EQ(Back->Peak.size(), M.Peak.size()) << Name;
    for (const auto &[P, V] : M.Peak)
      EXPECT_NEAR(Back->Peak.at(P), V, V * 1e-9) << Name;
    ASSERT_EQ(Back->TensorPeak.size(), M.TensorPeak.size()) << Name;
    for (const auto &[K, V] : M.TensorPeak)
      EXPECT_NEAR(Back->TensorPeak.at(K), V, V * 1e-9) << Name << " " << K;
    ASSERT_EQ(Back->Levels.size(), M.Levels.size()) << Name;
    for (size_t I = 0; I < M.Levels.size(); ++I) {
      EXPECT_EQ(Back->Levels[I].Name, M.Levels[I].Name);
      EXPECT_NEAR(Back->Levels[I].BandwidthBytesPerS,
                  M.Levels[I].BandwidthBytesPerS,
                  M.Levels[I].BandwidthBytesPerS * 1e-9);
      EXPECT_EQ(Back->Levels[I].SizeBytes, M.Levels[I].SizeBytes);
      EXPECT_EQ(Back->Levels[I].Instances, M.Levels[I].Instances);
      EXPECT_EQ(Back->Levels[I].LineBytes, M.Levels[I].LineBytes);
    }
  }
}

// Numbers are written with as many digits as the double needs to read back
// exactly, so writing a parsed file again gives the same text (fuzz-machine
// found '%.10g' drifting: 3.8555555555555556e13 -> 3.855555556e+13 -> ...).
TEST(MachineYAMLTest, NumbersReadBackExactly) {
  Machine M = load("rtx-a6000");
  M.Peak[Precision::F32] = 38.555555555555555555e12;
  M.Levels[0].BandwidthBytesPerS = 1.0 / 3.0 * 1e12;
  std::string Text = machineToYAML(M);
  llvm::Expected<Machine> Back = parseMachine(Text, "n.yaml");
  ASSERT_TRUE(static_cast<bool>(Back)) << llvm::toString(Back.takeError());
  EXPECT_EQ(Back->Peak.at(Precision::F32), M.Peak.at(Precision::F32));
  EXPECT_EQ(Back->Levels[0].BandwidthBytesPerS, M.Levels[0].BandwidthBytesPerS);
  EXPECT_EQ(machineToYAML(*Back), Text);
}

// One core's peaks (roofline-probe's 1-core medians) read back, and are the
// roof of a single thread; a file without them gives the machine's.
TEST(MachineYAMLTest, CorePeaksReadBackAndRoofOneThread) {
  Machine M = load("epyc-7763");
  EXPECT_DOUBLE_EQ(M.peakFor(Precision::F32, 1), M.peakFor(Precision::F32));
  bool Assumed = false;
  M.peakFor(Precision::F32, 1, &Assumed);
  EXPECT_TRUE(Assumed);
  M.CorePeak[Precision::F32] = 1e11;
  M.CorePeak[Precision::F64] = 5e10;
  std::string Text = machineToYAML(M);
  EXPECT_NE(Text.find("core_peaks:\n  f64: 50000000000\n  f32: 100000000000\n"),
            std::string::npos)
      << Text;
  llvm::Expected<Machine> Back = parseMachine(Text, "c.yaml");
  ASSERT_TRUE(static_cast<bool>(Back)) << llvm::toString(Back.takeError());
  EXPECT_EQ(Back->CorePeak, M.CorePeak);
  EXPECT_DOUBLE_EQ(Back->peakFor(Precision::F32, 1, &Assumed), 1e11);
  EXPECT_FALSE(Assumed);
  EXPECT_DOUBLE_EQ(Back->peakFor(Precision::F64, 1), 5e10);
  EXPECT_DOUBLE_EQ(Back->peakFor(Precision::F32, 0), M.peakFor(Precision::F32));
  // A precision the core peaks omit while the machine has it: the
  // machine's figure, said to be assumed.
  ASSERT_TRUE(M.Peak.count(Precision::I8));
  EXPECT_DOUBLE_EQ(Back->peakFor(Precision::I8, 1, &Assumed), M.peakFor(Precision::I8));
  EXPECT_TRUE(Assumed);
  std::string Wrong = Text;
  Wrong.replace(Wrong.find("  f64: 50000000000"), 18, "  f65: 50000000000");
  llvm::Expected<Machine> W = parseMachine(Wrong, "w.yaml");
  ASSERT_FALSE(static_cast<bool>(W));
  EXPECT_NE(llvm::toString(W.takeError()).find("core_peaks"), std::string::npos);
}

TEST(MachineYAMLTest, QuotesAwkwardText) {
  Machine M = load("t4");
  M.Description = "a \"quoted\" name: with \\ and # marks";
  M.Sources["f32"] = "measured: \"x\" # not a comment";
  llvm::Expected<Machine> Back = parseMachine(machineToYAML(M), "q.yaml");
  ASSERT_TRUE(static_cast<bool>(Back)) << llvm::toString(Back.takeError());
  EXPECT_EQ(Back->Description, M.Description);
  EXPECT_EQ(Back->Sources.at("f32"), M.Sources.at("f32"));
}

} // namespace
