//===- RunnerTest.cpp - roofline-run's manifest, baseline and numbers -----===//

#include "roofline/Runner/Baseline.h"
#include "roofline/Runner/Manifest.h"
#include "roofline/Runner/Results.h"
#include "roofline/Runner/Process.h"
#include "roofline/Runner/Runner.h"
#include "roofline/Runner/Toolchain.h"

#include "gtest/gtest.h"

#include <algorithm>

using namespace roofline;

namespace {

/// A manifest of C[i][j] += A[i][k] * B[k][j] with the given strides.
std::string gemmManifest(const std::string &Kind, const std::string &AStrides,
                         const std::string &BStrides,
                         const std::string &CStrides, int Batch = 0,
                         int Epilogue = 0, const std::string &Elem = "f32") {
  return R"J({"version": 1, "unit": "gemm_L3", "kind": ")J" + Kind +
         R"J(", "function": "gemm", "file": "k.cpp", "lines": [3],
  "sizes": [{"name": "N", "value": 64, "fixed": false}],
  "args": [{"name": "A", "type": "float", "elem": "f32", "shape": ["N", "N"], "intent": "in"},
           {"name": "B", "type": "float", "elem": "f32", "shape": ["N", "N"], "intent": "in"},
           {"name": "C", "type": "float", "elem": "f32", "shape": ["N", "N"], "intent": "out"}],
  "build": {"cxx": "c++", "flags": ["-O3", "-I../runtime"], "ldflags": ["-fopenmp"]},
  "reference": {"file": "reference.cpp"}, "driver": "driver.cpp",
  "variants": [
    {"name": "naive", "file": "naive.cpp", "symbol": "rl_gemm_L3_naive", "threads": "1",
     "tolerance": {"rtol": 0, "rtol_per_term": 2.4e-7, "atol": 1e-30},
     "predicted": {"flops": 524288, "flops_by_type": {"f32": 524288},
                   "bytes": {"no_reuse": 2113536, "compulsory": 49152}}},
    {"name": "int8", "skipped": "not a contraction"},
    {"name": "parallel", "file": "parallel.cpp", "threads": "all (OpenMP)",
     "predicted": {"why_not": "a size has no value"}}],
  "contraction": {"kind": ")J" +
         Kind + R"J(", "elem": ")J" + Elem + R"J(", "batch": )J" +
         std::to_string(Batch) + R"J(, "init_zero": true, "epilogue": )J" +
         std::to_string(Epilogue) + R"J(,
    "extent": {"m": "N", "n": "N", "k": "N"}, "first": {"m": "0", "n": "0", "k": "0"},
    "out": {"array": "C", "strides": )J" +
         CStrides + R"J(},
    "l": {"array": "A", "strides": )J" +
         AStrides + R"J(},
    "r": {"array": "B", "strides": )J" +
         BStrides + R"J(}}})J";
}

UnitManifest parse(const std::string &Text) {
  llvm::Expected<UnitManifest> M = parseManifest(Text, "/tmp/u");
  if (!M) {
    ADD_FAILURE() << llvm::toString(M.takeError());
    return UnitManifest();
  }
  return std::move(*M);
}

const std::string RowMajorA = R"J({"m": "N", "n": "0", "k": "1"})J";
const std::string RowMajorB = R"J({"m": "0", "n": "1", "k": "N"})J";
const std::string RowMajorC = R"J({"m": "N", "n": "1", "k": "0"})J";

TEST(RunnerManifest, ReadsWhatTheRunnerNeeds) {
  UnitManifest M = parse(gemmManifest("gemm", RowMajorA, RowMajorB, RowMajorC));
  EXPECT_EQ(M.Unit, "gemm_L3");
  EXPECT_EQ(M.sizesText(), "N=64");
  ASSERT_EQ(M.Args.size(), 3u);
  EXPECT_EQ(M.Args[2].Intent, "out");
  ASSERT_EQ(M.Variants.size(), 3u);
  const ManifestVariant *N = M.find("naive");
  ASSERT_TRUE(N);
  EXPECT_TRUE(N->Predicted.Known);
  EXPECT_EQ(N->Predicted.Flops, 524288);
  EXPECT_EQ(N->Predicted.BytesCompulsory, 49152);
  EXPECT_EQ(N->Predicted.FlopsByType.at("f32"), 524288);
  EXPECT_DOUBLE_EQ(N->RTolPerTerm, 2.4e-7);
  EXPECT_FALSE(N->parallel());
  EXPECT_EQ(M.find("int8")->Skipped, "not a contraction");
  EXPECT_FALSE(M.find("parallel")->Predicted.Known);
  EXPECT_EQ(M.find("parallel")->Predicted.WhyNot, "a size has no value");
  EXPECT_TRUE(M.find("parallel")->parallel());
  ASSERT_TRUE(M.Contraction);
  EXPECT_EQ(M.Contraction->L.Strides.at("k"), "1");
}

TEST(RunnerManifest, RejectsWhatItCannotRun) {
  EXPECT_FALSE(static_cast<bool>(parseManifest("{", "d")));
  llvm::Expected<UnitManifest> V = parseManifest(R"J({"version": 2})J", "d");
  ASSERT_FALSE(static_cast<bool>(V));
  EXPECT_NE(llvm::toString(V.takeError()).find("version"), std::string::npos);
  llvm::Expected<UnitManifest> F = parseManifest(
      R"J({"version": 1, "unit": "u", "variants": [{"name": "x"}]})J", "d");
  ASSERT_FALSE(static_cast<bool>(F));
  EXPECT_NE(llvm::toString(F.takeError()).find("no 'file'"), std::string::npos);
}

TEST(RunnerBaseline, RowMajorGemmIsOneSgemm) {
  BaselineSource B =
      blasBaseline(parse(gemmManifest("gemm", RowMajorA, RowMajorB, RowMajorC)));
  EXPECT_EQ(B.WhyNot, "");
  EXPECT_EQ(B.Call, "cblas_sgemm(RowMajor, NoTrans, NoTrans)");
  EXPECT_NE(B.Code.find("cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, "
                        "(N), (N), (N), 1, static_cast<const float *>(rl_a[0]), "
                        "(N), static_cast<const float *>(rl_a[1]), (N), 0, "
                        "static_cast<float *>(rl_a[2]), (N))"),
            std::string::npos)
      << B.Code;
  EXPECT_NE(B.Code.find("rl_harness_extra_variants"), std::string::npos);
  EXPECT_NE(B.Code.find("const int64_t N = rl_s[0];"), std::string::npos);
}

TEST(RunnerBaseline, TransposedOperandsAndColumnMajorOutput) {
  // A[k][i]: A(m, k) has the unit stride in m -> Trans with lda = N.
  BaselineSource T = blasBaseline(parse(gemmManifest(
      "gemm", R"J({"m": "1", "k": "N"})J", RowMajorB, RowMajorC)));
  EXPECT_EQ(T.Call, "cblas_sgemm(RowMajor, Trans, NoTrans)");
  // C[j][i]: column-major output; A, B row-major are transposed there.
  BaselineSource C = blasBaseline(parse(gemmManifest(
      "gemm", RowMajorA, RowMajorB, R"J({"m": "1", "n": "N"})J")));
  EXPECT_EQ(C.Call, "cblas_sgemm(ColMajor, Trans, Trans)");
  BaselineSource S = blasBaseline(parse(gemmManifest(
      "gemm", R"J({"m": "2", "k": "N"})J", RowMajorB, RowMajorC)));
  EXPECT_TRUE(S.Code.empty());
  EXPECT_EQ(S.WhyNot, "an operand has no unit stride");
}

TEST(RunnerBaseline, GemvAndRefusals) {
  BaselineSource V = blasBaseline(parse(gemmManifest(
      "gemv", R"J({"m": "N", "k": "1"})J", R"J({"m": "0", "k": "1"})J",
      R"J({"m": "1", "k": "0"})J")));
  EXPECT_EQ(V.Call, "cblas_sgemv(RowMajor, NoTrans)");
  EXPECT_NE(V.Code.find("cblas_sgemv(CblasRowMajor, CblasNoTrans, (N), (N), 1"),
            std::string::npos);
  EXPECT_NE(blasBaseline(parse(gemmManifest("gemm", RowMajorA, RowMajorB,
                                            RowMajorC, 1)))
                .WhyNot.find("batched"),
            std::string::npos);
  EXPECT_NE(blasBaseline(parse(gemmManifest("gemm", RowMajorA, RowMajorB,
                                            RowMajorC, 0, 1)))
                .WhyNot.find("epilogue"),
            std::string::npos);
  EXPECT_NE(blasBaseline(parse(gemmManifest("gemm", RowMajorA, RowMajorB,
                                            RowMajorC, 0, 0, "i8")))
                .WhyNot.find("i8"),
            std::string::npos);
  UnitManifest NoC = parse(gemmManifest("gemm", RowMajorA, RowMajorB, RowMajorC));
  NoC.Contraction.reset();
  EXPECT_EQ(blasBaseline(NoC).WhyNot, "not a contraction (gemm, gemv)");
}

TEST(RunnerBaseline, OpenblasSaysItsCore) {
  BaselineSource B =
      blasBaseline(parse(gemmManifest("gemm", RowMajorA, RowMajorB, RowMajorC)));
  EXPECT_NE(B.Code.find("V.library = openblas_get_corename();"), std::string::npos)
      << B.Code;
}

TEST(RunnerBaseline, BlisTakesEveryStrideAsItIs) {
  BaselineSource B =
      blisBaseline(parse(gemmManifest("gemm", RowMajorA, RowMajorB, RowMajorC)));
  EXPECT_EQ(B.Name, "blis");
  EXPECT_EQ(B.WhyNot, "");
  EXPECT_EQ(B.Call, "bli_sgemm (general strides)");
  EXPECT_NE(B.Code.find("bli_sgemm(BLIS_NO_TRANSPOSE, BLIS_NO_TRANSPOSE, (N), (N), "
                        "(N), &rl_one, const_cast<float *>(static_cast<const "
                        "float *>(rl_a[0])), (N), (1), const_cast<float "
                        "*>(static_cast<const float *>(rl_a[1])), (N), (1), "
                        "&rl_beta, static_cast<float *>(rl_a[2]), (N), (1))"),
            std::string::npos)
      << B.Code;
  EXPECT_NE(B.Code.find("rl_beta = 0"), std::string::npos);
  EXPECT_NE(B.Code.find("V.library = bli_arch_string(bli_arch_query_id());"),
            std::string::npos);
  // The sub-configuration a run asks for by name, before BLIS initializes.
  EXPECT_LT(B.Code.find("RL_BLIS_ARCH"), B.Code.find("bli_init();"));
  // Strides CBLAS cannot take (no unit stride in A) are BLIS's to take.
  BaselineSource S = blisBaseline(parse(gemmManifest(
      "gemm", R"J({"m": "2", "k": "2 * N"})J", RowMajorB, RowMajorC)));
  EXPECT_EQ(S.WhyNot, "");
  EXPECT_NE(S.Code.find("(2), (2 * N)"), std::string::npos) << S.Code;
  BaselineSource V = blisBaseline(parse(gemmManifest(
      "gemv", R"J({"m": "N", "k": "1"})J", R"J({"m": "0", "k": "1"})J",
      R"J({"m": "1", "k": "0"})J")));
  EXPECT_NE(V.Code.find("bli_sgemv(BLIS_NO_TRANSPOSE, BLIS_NO_CONJUGATE, (N), (N), "
                        "&rl_one"),
            std::string::npos)
      << V.Code;
  EXPECT_NE(blisBaseline(parse(gemmManifest("gemm", RowMajorA, RowMajorB,
                                            RowMajorC, 0, 1)))
                .WhyNot.find("epilogue"),
            std::string::npos);
}

TEST(RunnerProcess, EnvironmentSetsReplacesAndRemoves) {
  setenv("RL_TEST_KEEP", "kept", 1);
  setenv("RL_TEST_GONE", "there", 1);
  setenv("RL_TEST_SET", "old", 1);
  ProcessResult R = runProcess("/usr/bin/env", {"env"}, 10,
                               {"RL_TEST_SET=new", "-RL_TEST_GONE"});
  ASSERT_TRUE(R.ok()) << R.Err;
  EXPECT_NE(R.Out.find("RL_TEST_KEEP=kept"), std::string::npos);
  EXPECT_NE(R.Out.find("RL_TEST_SET=new"), std::string::npos);
  EXPECT_EQ(R.Out.find("RL_TEST_SET=old"), std::string::npos);
  EXPECT_EQ(R.Out.find("RL_TEST_GONE"), std::string::npos);
}

TEST(RunnerBaseline, CublasIsTheSameCallColumnMajor) {
  // Row-major C = A B is column-major C^T = B^T A^T: B first, same flags.
  BaselineSource B = cublasBaseline(
      parse(gemmManifest("gemm", RowMajorA, RowMajorB, RowMajorC)));
  EXPECT_EQ(B.Name, "cublas");
  EXPECT_EQ(B.Call, "cublasSgemm(RowMajor, NoTrans, NoTrans)");
  EXPECT_NE(B.Code.find("cublasSgemm(rl_h, CUBLAS_OP_N, CUBLAS_OP_N, int(N), "
                        "int(N), int(N), &rl_one, static_cast<const float "
                        "*>(rl_a[1]), int(N), static_cast<const float "
                        "*>(rl_a[0]), int(N), &rl_beta, static_cast<float "
                        "*>(rl_a[2]), int(N))"),
            std::string::npos)
      << B.Code;
  // Checked through the host entry (copies), timed on the device.
  EXPECT_NE(B.Code.find("rl::cuda::host_call(3, rl_a, rl_bytes, rl_back"),
            std::string::npos);
  EXPECT_NE(B.Code.find("const bool rl_back[] = {false, false, true};"),
            std::string::npos);
  EXPECT_NE(B.Code.find("V.timer = rl_cublas_time;"), std::string::npos);
  EXPECT_NE(B.Code.find("CUBLAS_DEFAULT_MATH"), std::string::npos);
  // A[k][i] (Trans in CBLAS row-major) keeps its flag on the swapped side.
  BaselineSource T = cublasBaseline(parse(gemmManifest(
      "gemm", R"J({"m": "1", "k": "N"})J", RowMajorB, RowMajorC)));
  EXPECT_NE(T.Code.find("cublasSgemm(rl_h, CUBLAS_OP_N, CUBLAS_OP_T,"),
            std::string::npos)
      << T.Code;
  // A column-major output takes the operands in their own order.
  BaselineSource C = cublasBaseline(parse(gemmManifest(
      "gemm", RowMajorA, RowMajorB, R"J({"m": "1", "n": "N"})J")));
  EXPECT_NE(C.Code.find("cublasSgemm(rl_h, CUBLAS_OP_T, CUBLAS_OP_T, int(N), "
                        "int(N), int(N), &rl_one, static_cast<const float "
                        "*>(rl_a[0])"),
            std::string::npos)
      << C.Code;
  // A row-major gemv is a transposed column-major one.
  BaselineSource V = cublasBaseline(parse(gemmManifest(
      "gemv", R"J({"m": "N", "k": "1"})J", R"J({"m": "0", "k": "1"})J",
      R"J({"m": "1", "k": "0"})J")));
  EXPECT_EQ(V.Call, "cublasSgemv(RowMajor, NoTrans)");
  EXPECT_NE(V.Code.find("cublasSgemv(rl_h, CUBLAS_OP_T, int(N), int(N)"),
            std::string::npos)
      << V.Code;
  EXPECT_NE(cublasBaseline(parse(gemmManifest("gemm", RowMajorA, RowMajorB,
                                              RowMajorC, 1)))
                .WhyNot.find("batched"),
            std::string::npos);
  BaselineSource D = cublasBaseline(parse(gemmManifest(
      "gemm", RowMajorA, RowMajorB, RowMajorC, 0, 0, "f64")));
  EXPECT_EQ(D.Call, "cublasDgemm(RowMajor, NoTrans, NoTrans)");
}

TEST(RunnerTiming, RotationCoversTwiceTheCache) {
  EXPECT_EQ(rotationBuffers(64e6, 32e6), 1u);  // does not fit: no rotation
  EXPECT_EQ(rotationBuffers(8e6, 32e6), 9u);   // 2 * 32 / 8 + 1
  EXPECT_EQ(rotationBuffers(1e3, 32e6), 256u); // capped
  EXPECT_EQ(rotationBuffers(0, 32e6), 1u);     // unknown working set
  EXPECT_EQ(rotationBuffers(8e6, 0), 1u);      // unknown cache
}

TEST(RunnerTiming, RoundOrderRotates) {
  // Each round starts one later, so every variant takes every place once
  // in N rounds, and the baseline (last in the list) is not always last.
  EXPECT_EQ(roundOrder(0, 4), (std::vector<unsigned>{0, 1, 2, 3}));
  EXPECT_EQ(roundOrder(1, 4), (std::vector<unsigned>{1, 2, 3, 0}));
  EXPECT_EQ(roundOrder(3, 4), (std::vector<unsigned>{3, 0, 1, 2}));
  EXPECT_EQ(roundOrder(4, 4), roundOrder(0, 4));
  EXPECT_TRUE(roundOrder(2, 0).empty());
  for (unsigned N : {1u, 2u, 5u}) {
    std::vector<std::vector<unsigned>> Seen(N, std::vector<unsigned>(N, 0));
    for (unsigned R = 0; R < N; ++R) {
      std::vector<unsigned> O = roundOrder(R, N);
      std::vector<unsigned> Sorted = O;
      std::sort(Sorted.begin(), Sorted.end());
      for (unsigned I = 0; I < N; ++I) {
        EXPECT_EQ(Sorted[I], I) << "round " << R << " is not a permutation";
        ++Seen[O[I]][I];
      }
    }
    for (unsigned V = 0; V < N; ++V)
      for (unsigned P = 0; P < N; ++P)
        EXPECT_EQ(Seen[V][P], 1u) << "variant " << V << " place " << P;
  }
}

TEST(RunnerTiming, RoundsCombineAndRatiosArePerRound) {
  auto Block = [](double Median, double Min, double Max) {
    TimeResult T;
    T.Reps = 3;
    T.Median = Median;
    T.Min = Min;
    T.Max = Max;
    T.Q1 = Median * 0.9;
    T.Q3 = Median * 1.1;
    return T;
  };
  // The baseline and the variant share a slow second round (the machine
  // was busy): per round the variant takes twice the baseline's time.
  TimeResult B = combineRounds({Block(1, 0.9, 1.2), Block(4, 3, 9), Block(1.2, 1, 2)});
  TimeResult V = combineRounds({Block(2, 1.8, 2.2), Block(8, 7, 8.5), Block(2.4, 2, 3)});
  EXPECT_EQ(B.Rounds, (std::vector<double>{1, 4, 1.2}));
  EXPECT_DOUBLE_EQ(B.Median, 1.2); // the median round, not the mean
  EXPECT_DOUBLE_EQ(B.Min, 0.9);
  EXPECT_DOUBLE_EQ(B.Max, 9);
  EXPECT_DOUBLE_EQ(B.Q1, 1.2 * 0.9);
  EXPECT_EQ(B.Reps, 9u);
  std::optional<RatioSpread> R = roundRatio(B, V);
  ASSERT_TRUE(R);
  EXPECT_DOUBLE_EQ(R->Median, 0.5);
  EXPECT_DOUBLE_EQ(R->Min, 0.5);
  EXPECT_DOUBLE_EQ(R->Max, 0.5);
  // Rounds out of step give a ratio of the medians that is not any
  // round's: per-round ratios 0.5, 1, 0.5 (median 0.5), but the medians
  // are 2 and 2 (ratio 1).
  TimeResult B2 = combineRounds({Block(1, 1, 1), Block(2, 2, 2), Block(3, 3, 3)});
  TimeResult V2 = combineRounds({Block(2, 2, 2), Block(2, 2, 2), Block(6, 6, 6)});
  EXPECT_DOUBLE_EQ(B2.Median / V2.Median, 1);
  R = roundRatio(B2, V2);
  ASSERT_TRUE(R);
  EXPECT_DOUBLE_EQ(R->Median, 0.5);
  EXPECT_DOUBLE_EQ(R->Min, 0.5);
  EXPECT_DOUBLE_EQ(R->Max, 1);
  // An even number of rounds takes the middle two's mean.
  EXPECT_DOUBLE_EQ(combineRounds({Block(1, 1, 1), Block(3, 3, 3)}).Median, 2);
  // Without rounds (one block each), the ratio of the medians.
  R = roundRatio(Block(1, 1, 1), Block(4, 4, 4));
  ASSERT_TRUE(R);
  EXPECT_DOUBLE_EQ(R->Median, 0.25);
  EXPECT_FALSE(roundRatio(Block(1, 1, 1), Block(0, 0, 0)));
}

TEST(RunnerProtocol, ParsesDriverLines) {
  bool Ok = true;
  CheckResult C;
  EXPECT_EQ(parseCheckLine(R"J({"unit": "u", "variant": "tiled", "sizes": {"N": 8}, )J"
                           R"J("ok": false, "checked": 64, "bad": 3, "max_ratio": 0.5, )J"
                           R"J("seed": 7, "first": "C[1] = 2, want 1 (bound 1e-06)"})J",
                           Ok, C),
            "tiled");
  EXPECT_FALSE(Ok);
  EXPECT_EQ(C.Checked, 64u);
  EXPECT_EQ(C.Bad, 3u);
  EXPECT_EQ(C.First, "C[1] = 2, want 1 (bound 1e-06)");
  EXPECT_EQ(C.Library, "");
  EXPECT_EQ(parseCheckLine(R"J({"unit": "u", "variant": "openblas", "ok": true, )J"
                           R"J("checked": 4, "bad": 0, "library": "Cooperlake"})J",
                           Ok, C),
            "openblas");
  EXPECT_EQ(C.Library, "Cooperlake");
  EXPECT_EQ(parseCheckLine("garbage", Ok, C), "");
  std::optional<TimeResult> T = parseTimeLine(
      R"J({"unit": "u", "variant": "v", "sizes": {}, "reps": 9, "median_s": 0.002, )J"
      R"J("min_s": 0.001, "max_s": 0.004, "q1_s": 0.0015, "q3_s": 0.003})J");
  ASSERT_TRUE(T);
  EXPECT_EQ(T->Reps, 9u);
  EXPECT_DOUBLE_EQ(T->Median, 0.002);
  EXPECT_DOUBLE_EQ(T->Q3, 0.003);
  EXPECT_EQ(T->Clock, "host");
  EXPECT_FALSE(parseTimeLine("{}"));
  // A device timer says how many copies it rotated among.
  std::optional<TimeResult> D = parseTimeLine(
      R"J({"unit": "u", "variant": "cuda_naive", "reps": 5, "median_s": 1e-5, )J"
      R"J("buffers": 7, "clock": "device"})J");
  ASSERT_TRUE(D);
  EXPECT_EQ(D->Buffers, 7u);
  EXPECT_EQ(D->Clock, "device");
}

TEST(RunnerResults, PercentOfRoofAndSpeedups) {
  llvm::Expected<Machine> M = loadMachine("epyc-7763");
  ASSERT_TRUE(static_cast<bool>(M)) << llvm::toString(M.takeError());
  UnitResult U;
  U.Manifest = parse(gemmManifest("gemm", RowMajorA, RowMajorB, RowMajorC));
  VariantResult Naive, Fast, Blas, Bad;
  Naive.Name = "naive";
  Naive.Threads = "1";
  Naive.Predicted = U.Manifest.find("naive")->Predicted;
  Naive.Time = TimeResult{5, 1e-3, 1e-3, 1e-3, 1e-3, 1e-3, 1};
  Fast = Naive;
  Fast.Name = "tiled";
  Fast.Time->Median = 1e-4;
  Blas = Naive;
  Blas.Name = "openblas";
  Blas.Baseline = true;
  Blas.Time->Median = 5e-5;
  Bad = Naive;
  Bad.Name = "parallel";
  Bad.Status = VariantStatus::Wrong;
  U.Variants = {Naive, Fast, Blas, Bad};
  Derived D = derive(U, U.Variants[1], &*M);
  ASSERT_TRUE(D.BoundS && D.Percent && D.VsReference && D.VsBaseline);
  double Bound = std::max(524288 / M->peakFor(Precision::F32),
                          49152 / M->mainMemory().BandwidthBytesPerS);
  EXPECT_DOUBLE_EQ(*D.BoundS, Bound);
  EXPECT_DOUBLE_EQ(*D.Percent, 100 * Bound / 1e-4);
  EXPECT_DOUBLE_EQ(*D.FlopsPerS, 524288 / 1e-4);
  EXPECT_DOUBLE_EQ(*D.BytesPerS, 49152 / 1e-4);
  EXPECT_DOUBLE_EQ(*D.VsReference, 10);
  EXPECT_DOUBLE_EQ(*D.VsBaseline, 0.5);
  EXPECT_DOUBLE_EQ(D.Intensity, 524288.0 / 49152);
  // A wrong variant has no speed, whatever its time.
  EXPECT_FALSE(derive(U, U.Variants[3], &*M).FlopsPerS);
  EXPECT_TRUE(U.failed());
  std::string S;
  llvm::raw_string_ostream OS(S);
  printTable(OS, U, &*M);
  for (const char *Col : {"variant", "threads", "check", "median", "min..max",
                          "GFLOP/s", "GB/s", "% roof", "vs naive", "vs openblas",
                          "WRONG", "parallel: wrong"})
    EXPECT_NE(S.find(Col), std::string::npos) << Col << "\n" << S;
  llvm::json::Object J = unitJSON(U, &*M);
  EXPECT_TRUE(J.getBoolean("failed").value_or(false));
  std::vector<MeasuredPoint> P = measuredPoints({U}, *M);
  ASSERT_EQ(P.size(), 3u); // naive, tiled, openblas; not the wrong one
  EXPECT_DOUBLE_EQ(P[1].Measured, 524288 / 1e-4);
  EXPECT_DOUBLE_EQ(P[1].Predicted, 524288 / Bound);
  // A 1-thread variant's roof is one core's where the machine gives it;
  // without, the table says the all-core peak was used.
  EXPECT_TRUE(D.AllCorePeak);
  EXPECT_NE(S.find("the all-core peak (epyc-7763 gives no core_peaks"),
            std::string::npos)
      << S;
  Machine One = *M;
  One.CorePeak[Precision::F32] = M->peakFor(Precision::F32) / 64;
  Derived D1 = derive(U, U.Variants[1], &One);
  EXPECT_FALSE(D1.AllCorePeak);
  EXPECT_DOUBLE_EQ(*D1.BoundS, std::max(524288 / (M->peakFor(Precision::F32) / 64),
                                        49152 / M->mainMemory().BandwidthBytesPerS));
  // An all-threads variant keeps the machine's peak.
  VariantResult Par = Fast;
  Par.Threads = "all (OpenMP)";
  U.Variants.push_back(Par);
  EXPECT_DOUBLE_EQ(*derive(U, U.Variants.back(), &One).BoundS, Bound);
  U.Variants.pop_back();
  // With cuBLAS in the run, CUDA variants are read against it and CPU
  // variants still against OpenBLAS.
  VariantResult Gpu = Fast, Cublas = Blas;
  Gpu.Name = "cuda_blocktiled";
  Gpu.Cuda = true;
  Gpu.Time->Median = 1e-5;
  Cublas.Name = "cublas";
  Cublas.Cuda = true;
  Cublas.Time->Median = 8e-6;
  U.Variants = {Naive, Fast, Blas, Gpu, Cublas};
  EXPECT_DOUBLE_EQ(*derive(U, U.Variants[3], &*M).VsBaseline, 0.8);
  EXPECT_DOUBLE_EQ(*derive(U, U.Variants[1], &*M).VsBaseline, 0.5);
  S.clear();
  printTable(OS, U, &*M);
  EXPECT_NE(S.find("vs library"), std::string::npos) << S;
  EXPECT_NE(S.find("CUDA variants against cublas"), std::string::npos) << S;
  // Timed in rounds, the speedups are the per-round ratios' median, the
  // table says so and gives their spread, and the JSON has both.
  U.Variants = {Naive, Fast, Blas};
  U.Variants[0].Time->Rounds = {1e-3, 4e-3, 1e-3};
  U.Variants[1].Time->Rounds = {1e-4, 1e-4, 2e-4};
  U.Variants[2].Time->Rounds = {5e-5, 2e-4, 5e-5};
  Derived DR = derive(U, U.Variants[1], &*M);
  EXPECT_DOUBLE_EQ(*DR.VsReference, 10); // 10, 40, 5
  EXPECT_DOUBLE_EQ(DR.VsReferenceSpread->Max, 40);
  EXPECT_DOUBLE_EQ(*DR.VsBaseline, 0.5); // 0.5, 2, 0.25
  EXPECT_DOUBLE_EQ(DR.VsBaselineSpread->Min, 0.25);
  EXPECT_DOUBLE_EQ(DR.VsBaselineSpread->Max, 2);
  S.clear();
  printTable(OS, U, &*M);
  EXPECT_NE(S.find("timing: 3 rounds, one block of each variant per round in "
                   "rotating order"),
            std::string::npos)
      << S;
  EXPECT_NE(S.find("vs openblas over the rounds (min..max): naive 0.050..0.050, "
                   "tiled 0.250..2.00\n"),
            std::string::npos)
      << S;
  llvm::json::Object JR = unitJSON(U, &*M);
  const llvm::json::Object *Tiled =
      (*JR.getArray("variants"))[1].getAsObject();
  EXPECT_EQ(Tiled->getNumber("speedup_vs_baseline"), 0.5);
  const llvm::json::Array *Range = Tiled->getArray("speedup_vs_baseline_range");
  ASSERT_TRUE(Range && Range->size() == 2);
  EXPECT_EQ((*Range)[1].getAsNumber(), 2.0);
  EXPECT_EQ(Tiled->getObject("time")->getArray("rounds_s")->size(), 3u);
}

TEST(RunnerResults, PlotOverlaysMeasuredPoints) {
  llvm::Expected<Machine> M = loadMachine("epyc-7763");
  ASSERT_TRUE(static_cast<bool>(M));
  Report R;
  R.M = &*M;
  PlotOptions O;
  O.Measured = {{"gemm tiled", 10.7, 5e11, 5e10, Precision::F32},
                {"gemm naive", 10.7, 5e11, 1e9, Precision::F32}};
  std::string S = renderRooflineSVG(R, O);
  auto Count = [&](const std::string &Needle) {
    unsigned N = 0;
    for (size_t P = S.find(Needle); P != std::string::npos;
         P = S.find(Needle, P + 1))
      ++N;
    return N;
  };
  EXPECT_EQ(Count("class=\"measured-kernel\""), 2u);
  EXPECT_EQ(Count("class=\"predicted-point\""), 2u);
  EXPECT_EQ(Count("class=\"measured-point\""), 2u);
  EXPECT_EQ(Count("marker-end=\"url(#measured-arrow)\""), 2u);
  EXPECT_EQ(Count("kernel: measured"), 1u);
  EXPECT_EQ(Count("no analyzed loop nests"), 0u);
  EXPECT_NE(S.find("data-measured=\"5e+10\""), std::string::npos);
  // Without measurements the chart is what roofline-lint draws.
  EXPECT_EQ(renderRooflineSVG(R, PlotOptions()).find("measured"),
            std::string::npos);
}

} // namespace

TEST(RunnerToolchain, NvccLibraryDirsWithoutStubs) {
  const char *DryRun =
      "#$ _NVVM_BRANCH_=nvvm\n"
      "#$ TOP=/opt/cuda/bin/..\n"
      "#$ LIBRARIES=  \"-L/opt/cuda/bin/../targets/x86_64-linux/lib/stubs\" "
      "\"-L/opt/cuda/bin/../targets/x86_64-linux/lib\"\n"
      "#$ cicc --c++17 ...\n";
  EXPECT_EQ(parseNvccLibraryDirs(DryRun),
            std::vector<std::string>{"/opt/cuda/targets/x86_64-linux/lib"});
  EXPECT_TRUE(parseNvccLibraryDirs("nvcc fatal: no input files").empty());
  EXPECT_EQ(parseNvccLibraryDirs("#$ LIBRARIES= -L/a/lib -L/b/lib64\n"),
            (std::vector<std::string>{"/a/lib", "/b/lib64"}));
}

TEST(RunnerToolchain, FirstErrorLineSkipsTheLinkSummary) {
  EXPECT_EQ(firstErrorLine("/usr/bin/ld: cannot find -lcudart: No such file\n"
                           "collect2: error: ld returned 1 exit status\n"),
            "/usr/bin/ld: cannot find -lcudart: No such file");
  EXPECT_EQ(firstErrorLine("/usr/bin/ld: a.o: in function `f':\n"
                           "a.cpp:(.text+0x5): undefined reference to `g'\n"
                           "collect2: error: ld returned 1 exit status\n"),
            "a.cpp:(.text+0x5): undefined reference to `g'");
  EXPECT_EQ(firstErrorLine("collect2: error: ld returned 1 exit status\n"),
            "collect2: error: ld returned 1 exit status");
  EXPECT_EQ(firstErrorLine("x.cu(3): error: identifier \"y\" is undefined\n"),
            "x.cu(3): error: identifier \"y\" is undefined");
}
