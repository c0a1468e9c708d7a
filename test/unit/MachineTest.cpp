//===- MachineTest.cpp - Machine files: builtins and validation -----------===//

#include "roofline/Machine/Machine.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <string>

using namespace roofline;

namespace {

std::string errorOf(llvm::Expected<Machine> M) {
  if (M)
    return "<no error>";
  return llvm::toString(M.takeError());
}

// A valid file; the bad-file tests each break one line of it.
const char *const GoodYaml = R"(name: test-gpu
description: A test GPU
kind: gpu
capacity_bytes: 1000000
line_bytes: 128
peaks:
  f32: 10e12
  f16-tensor: 100e12
memory:
  - {name: DRAM, bandwidth: 1e12}
  - {name: L2, bandwidth: 4e12, size: 4194304}
sources:
  f32: datasheet
)";

std::string replaceLine(const std::string &Text, unsigned Line,
                        const std::string &New) {
  std::string Out;
  unsigned L = 1;
  size_t Pos = 0;
  while (Pos <= Text.size()) {
    size_t End = Text.find('\n', Pos);
    if (End == std::string::npos)
      End = Text.size();
    Out += L == Line ? New : Text.substr(Pos, End - Pos);
    if (End < Text.size())
      Out += '\n';
    Pos = End + 1;
    ++L;
  }
  return Out;
}

TEST(MachineTest, GoodFileParses) {
  llvm::Expected<Machine> M = parseMachine(GoodYaml, "machines/x.yaml");
  ASSERT_TRUE(static_cast<bool>(M)) << llvm::toString(M.takeError());
  EXPECT_EQ(M->Name, "test-gpu");
  EXPECT_EQ(M->Kind, "gpu");
  EXPECT_EQ(M->LineBytes, 128u);
  EXPECT_FALSE(M->WriteAllocate); // GPU default
  EXPECT_DOUBLE_EQ(M->peakFor(Precision::F32), 10e12);
  EXPECT_DOUBLE_EQ(M->peakFor(Precision::F64), 10e12); // falls back to f32
  ASSERT_TRUE(M->tensorPeakFor(Precision::F16).has_value());
  EXPECT_DOUBLE_EQ(*M->tensorPeakFor(Precision::F16), 100e12);
  EXPECT_FALSE(M->tensorPeakFor(Precision::F32).has_value());
  ASSERT_EQ(M->Levels.size(), 2u);
  EXPECT_EQ(M->mainMemory().Name, "DRAM");
  EXPECT_FALSE(M->mainMemory().SizeBytes.has_value());
  ASSERT_NE(M->findLevel("L2"), nullptr);
  EXPECT_DOUBLE_EQ(*M->findLevel("L2")->SizeBytes, 4194304);
  EXPECT_DOUBLE_EQ(M->ridge(), 10.0);
  EXPECT_EQ(M->Sources.at("f32"), "datasheet");
}

TEST(MachineTest, BuiltinsLoadAndValidate) {
  std::vector<std::string> Names = builtinMachineNames();
  ASSERT_GE(Names.size(), 10u);
  EXPECT_TRUE(std::is_sorted(Names.begin(), Names.end()));
  for (const char *Required :
       {"t4", "rtx-a6000", "a100-40gb", "a100-80gb", "h100-sxm", "h200", "l4",
        "rtx-4090"})
    EXPECT_NE(std::find(Names.begin(), Names.end(), Required), Names.end())
        << Required;
  unsigned Cpus = 0;
  for (const std::string &Name : Names) {
    SCOPED_TRACE(Name);
    llvm::Expected<Machine> M = loadMachine(Name);
    ASSERT_TRUE(static_cast<bool>(M)) << llvm::toString(M.takeError());
    EXPECT_EQ(M->Name, Name); // file name and 'name:' agree
    EXPECT_EQ(M->Path, "<builtin>");
    EXPECT_FALSE(M->Description.empty());
    EXPECT_GT(M->CapacityBytes, 0);
    EXPECT_GT(M->ridge(), 0);
    EXPECT_EQ(M->LineBytes, M->Kind == "gpu" ? 128u : 64u);
    EXPECT_EQ(M->WriteAllocate, M->Kind == "cpu");
    Cpus += M->Kind == "cpu";
    // Every shipped figure says where it came from.
    for (const auto &[P, V] : M->Peak)
      EXPECT_TRUE(M->Sources.count(precisionName(P))) << precisionName(P);
    for (const auto &[K, V] : M->TensorPeak)
      EXPECT_TRUE(M->Sources.count(K)) << K;
    for (const MemoryLevel &L : M->Levels)
      EXPECT_TRUE(M->Sources.count(L.Name)) << L.Name;
    EXPECT_TRUE(M->Sources.count("capacity_bytes"));
    // Caches get faster and smaller towards the processor.
    for (size_t I = 1; I < M->Levels.size(); ++I) {
      EXPECT_TRUE(M->Levels[I].SizeBytes.has_value());
      EXPECT_GT(M->Levels[I].BandwidthBytesPerS,
                M->Levels[I - 1].BandwidthBytesPerS * 0.999)
          << M->Levels[I].Name;
    }
  }
  EXPECT_GE(Cpus, 2u);
}

// The costs of small work on a GPU (docs/machine-files.md): optional,
// sourced on every shipped GPU, absent on CPUs.
TEST(MachineTest, HostLinkAndLaunchLatency) {
  std::string Text = replaceLine(GoodYaml, 5,
                                 "line_bytes: 128\nhost_link_bandwidth: 31.5e9"
                                 "\nlaunch_latency: 5e-6");
  llvm::Expected<Machine> M = parseMachine(Text, "machines/x.yaml");
  ASSERT_TRUE(static_cast<bool>(M)) << llvm::toString(M.takeError());
  EXPECT_EQ(M->HostLinkBytesPerS, std::optional<double>(31.5e9));
  EXPECT_EQ(M->LaunchLatencyS, std::optional<double>(5e-6));
  llvm::Expected<Machine> Plain = parseMachine(GoodYaml, "machines/x.yaml");
  ASSERT_TRUE(static_cast<bool>(Plain));
  EXPECT_FALSE(Plain->HostLinkBytesPerS || Plain->LaunchLatencyS);
  for (const std::string &Name : builtinMachineNames()) {
    SCOPED_TRACE(Name);
    llvm::Expected<Machine> B = loadMachine(Name);
    ASSERT_TRUE(static_cast<bool>(B));
    bool Gpu = B->Kind == "gpu";
    EXPECT_EQ(B->HostLinkBytesPerS.has_value(), Gpu);
    EXPECT_EQ(B->LaunchLatencyS.has_value(), Gpu);
    if (Gpu) {
      EXPECT_TRUE(B->Sources.count("host_link_bandwidth"));
      EXPECT_TRUE(B->Sources.count("launch_latency"));
      // PCIe 3.0 to 5.0 x16, one way; a launch costs microseconds.
      EXPECT_GE(*B->HostLinkBytesPerS, 15e9);
      EXPECT_LE(*B->HostLinkBytesPerS, 64e9);
      EXPECT_GE(*B->LaunchLatencyS, 1e-6);
      EXPECT_LE(*B->LaunchLatencyS, 20e-6);
    }
  }
}

TEST(MachineTest, SeedFigures) {
  llvm::Expected<Machine> A6000 = loadMachine("rtx-a6000");
  ASSERT_TRUE(static_cast<bool>(A6000));
  // 10,752 cores x 2 FLOP x 1.8 GHz; 48 B x 16e9/s.
  EXPECT_DOUBLE_EQ(A6000->peakFor(Precision::F32), 10752.0 * 2 * 1.8e9);
  EXPECT_DOUBLE_EQ(A6000->mainMemory().BandwidthBytesPerS, 48.0 * 16e9);
  EXPECT_NEAR(A6000->ridge(), 50.4, 0.05);
  EXPECT_NEAR(A6000->ridge(), 50.4, 1e-9);
  EXPECT_EQ(std::string(defaultMachineName()), "rtx-a6000");

  llvm::Expected<Machine> T4 = loadMachine("t4");
  ASSERT_TRUE(static_cast<bool>(T4));
  EXPECT_DOUBLE_EQ(T4->peakFor(Precision::F32), 8.1e12);
}

TEST(MachineTest, UnknownMachine) {
  std::string E = errorOf(loadMachine("foo"));
  EXPECT_NE(E.find("unknown machine 'foo' (known: a100-40gb, "),
            std::string::npos)
      << E;
  EXPECT_NE(E.find("rtx-a6000"), std::string::npos) << E;
  EXPECT_NE(E.find("or give a path to a YAML machine file"), std::string::npos)
      << E;
}

TEST(MachineTest, LoadsFromPath) {
  llvm::SmallString<128> Path;
  int FD;
  ASSERT_FALSE(
      llvm::sys::fs::createTemporaryFile("machine", "yaml", FD, Path));
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << replaceLine(GoodYaml, 7, "  f32: -3");
  }
  std::string E = errorOf(loadMachine(Path));
  EXPECT_NE(E.find((Path + ":7: 'f32' must be a positive number, got -3").str()),
            std::string::npos)
      << E;
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    OS << GoodYaml;
  }
  llvm::Expected<Machine> M = loadMachine(Path);
  ASSERT_TRUE(static_cast<bool>(M)) << llvm::toString(M.takeError());
  EXPECT_EQ(M->Path, Path.str());
  llvm::sys::fs::remove(Path);
}

struct BadCase {
  const char *What;
  unsigned Line;      // line to replace in GoodYaml (0: none)
  const char *NewLine;
  const char *Expect; // substring after "machines/x.yaml:"
};

class BadFileTest : public ::testing::TestWithParam<BadCase> {};

TEST_P(BadFileTest, ErrorNamesFileLineAndField) {
  const BadCase &C = GetParam();
  std::string Text = replaceLine(GoodYaml, C.Line, C.NewLine);
  std::string E = errorOf(parseMachine(Text, "machines/x.yaml"));
  EXPECT_NE(E.find(std::string("machines/x.yaml:") + C.Expect),
            std::string::npos)
      << C.What << ": " << E;
}

INSTANTIATE_TEST_SUITE_P(
    MachineTest, BadFileTest,
    ::testing::Values(
        BadCase{"missing kind", 3, "", "1: missing required field 'kind'"},
        BadCase{"missing f32", 7, "  f64: 1e12",
                "6: missing required field 'f32' in 'peaks'"},
        BadCase{"negative peak", 7, "  f32: -3",
                "7: 'f32' must be a positive number, got -3"},
        BadCase{"zero peak", 7, "  f32: 0",
                "7: 'f32' must be a positive number, got 0"},
        BadCase{"NaN peak", 7, "  f32: nan",
                "7: 'f32' must be a positive number, got nan"},
        BadCase{"YAML NaN", 7, "  f32: .nan",
                "7: 'f32' must be a positive number, got .nan"},
        BadCase{"infinite peak", 7, "  f32: inf",
                "7: 'f32' must be a positive number, got inf"},
        BadCase{"empty peak", 7, "  f32:",
                "7: 'f32' must be a positive number, got nothing"},
        BadCase{"text peak", 7, "  f32: fast",
                "7: 'f32' must be a positive number, got fast"},
        BadCase{"negative bandwidth", 10, "  - {name: DRAM, bandwidth: -3}",
                "10: 'bandwidth' must be a positive number, got -3 (in memory "
                "level 'DRAM')"},
        BadCase{"missing bandwidth", 11, "  - {name: L2, size: 4194304}",
                "11: missing required field 'bandwidth' in memory level 2"},
        BadCase{"cache without size", 11, "  - {name: L2, bandwidth: 4e12}",
                "11: missing required field 'size' in memory level 2"},
        BadCase{"fractional size", 11,
                "  - {name: L2, bandwidth: 4e12, size: 1.5}",
                "11: 'size' must be a whole number, got 1.5"},
        BadCase{"unknown top key", 5, "colour: green",
                "5: unknown field 'colour' (expected one of: name, "},
        BadCase{"unknown precision", 8, "  f128: 1e12",
                "8: unknown field 'f128' in 'peaks'"},
        BadCase{"unknown level key", 11,
                "  - {name: L2, bandwidth: 4e12, size: 1, assoc: 16}",
                "11: unknown field 'assoc' in memory level 2"},
        BadCase{"unknown source", 13, "  f64: typo",
                "13: unknown field 'f64' in 'sources'"},
        BadCase{"capacity wrong type", 4, "capacity_bytes: [1, 2]",
                "4: 'capacity_bytes' must be a positive number, got a "
                "sequence"},
        BadCase{"bad kind", 3, "kind: tpu",
                "3: 'kind' must be 'gpu' or 'cpu', got 'tpu'"},
        BadCase{"bad line size", 5, "line_bytes: 100",
                "5: 'line_bytes' must be a power of two, got 100"},
        BadCase{"bad bool", 5, "write_allocate: maybe",
                "5: 'write_allocate' must be true or false, got maybe"},
        BadCase{"duplicate key", 5, "kind: cpu",
                "5: duplicate field 'kind'"},
        BadCase{"negative launch latency", 5, "launch_latency: -5e-6",
                "5: 'launch_latency' must be a positive number, got -5e-6"},
        BadCase{"host link as text", 5, "host_link_bandwidth: fast",
                "5: 'host_link_bandwidth' must be a positive number, got "
                "fast"},
        BadCase{"source for a figure the file lacks", 13,
                "  launch_latency: guess",
                "13: unknown field 'launch_latency' in 'sources'"},
        BadCase{"main memory with size", 10,
                "  - {name: DRAM, bandwidth: 1e12, size: 5}",
                "10: 'size' does not apply to main memory 'DRAM'"}));

// Replaces lines First..Last (1-based, inclusive) of GoodYaml with \p New.
std::string replaceLines(unsigned First, unsigned Last, const std::string &New) {
  std::string Text = GoodYaml;
  for (unsigned L = Last; L > First; --L)
    Text = replaceLine(Text, L, "#");
  return replaceLine(Text, First, New);
}

TEST(MachineTest, WrongTypes) {
  std::string E =
      errorOf(parseMachine(replaceLines(6, 8, "peaks: 10e12"), "machines/x.yaml"));
  EXPECT_NE(E.find("machines/x.yaml:6: 'peaks' must be a mapping"),
            std::string::npos)
      << E;
  E = errorOf(
      parseMachine(replaceLines(9, 11, "memory: 1e12"), "machines/x.yaml"));
  EXPECT_NE(E.find("machines/x.yaml:9: 'memory' must be a non-empty sequence"),
            std::string::npos)
      << E;
  E = errorOf(
      parseMachine(replaceLines(9, 11, "memory: []"), "machines/x.yaml"));
  EXPECT_NE(E.find("machines/x.yaml:9: 'memory' must be a non-empty sequence"),
            std::string::npos)
      << E;
  E = errorOf(parseMachine(replaceLines(12, 13, "sources: none"),
                           "machines/x.yaml"));
  EXPECT_NE(E.find("machines/x.yaml:12: 'sources' must be a mapping"),
            std::string::npos)
      << E;
}

TEST(MachineTest, SyntaxErrorHasFileAndLine) {
  std::string E = errorOf(parseMachine(
      replaceLine(GoodYaml, 8, "  f16-tensor: [1, 2"), "machines/x.yaml"));
  // The scanner notices the unclosed sequence a few lines on.
  EXPECT_EQ(E.rfind("machines/x.yaml:", 0), 0u) << E;
  EXPECT_TRUE(E.size() > 16 && std::isdigit(E[16])) << E;
}

TEST(MachineTest, NotAMapping) {
  EXPECT_NE(errorOf(parseMachine("- 1\n- 2\n", "m.yaml"))
                .find("m.yaml:1: a machine file must be a mapping"),
            std::string::npos);
  EXPECT_NE(errorOf(parseMachine("", "m.yaml")).find("m.yaml:1: "),
            std::string::npos);
}

} // namespace
