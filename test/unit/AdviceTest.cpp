//===- AdviceTest.cpp - Transforms and the what-if advice -----------------===//

#include "roofline/Roofline/Advice.h"
#include "roofline/Transform/Batch.h"
#include "roofline/Transform/Fusion.h"
#include "roofline/Transform/Interchange.h"
#include "roofline/Transform/Quantize.h"

#include "NestBuilder.h"

#include <gtest/gtest.h>

using namespace roofline;
using namespace roofline::testing;

namespace {

NestCounts counts(const LoopNest &N) {
  llvm::Expected<NestCounts> C = analyzeNest(N);
  if (!C) {
    ADD_FAILURE() << llvm::toString(C.takeError());
    return {};
  }
  return std::move(*C);
}

Int128 compulsory(const LoopNest &N) {
  return counts(N).BytesCompulsory.Value.value_or(-1);
}

Machine machine(const char *Name) {
  llvm::Expected<Machine> M = loadMachine(Name);
  if (!M) {
    ADD_FAILURE() << llvm::toString(M.takeError());
    return {};
  }
  return std::move(*M);
}

// ikj keeps i outside: the clearing of C gets its own j loop inside i.
TEST(TransformTest, InterchangeDistributesTheInit) {
  LoopNest G = gemmNest("ijk", 64, 64, 64, /*Init=*/true);
  llvm::Expected<std::vector<LoopNest>> X = interchangeNest(G, {"i", "k", "j"});
  ASSERT_TRUE(bool(X)) << llvm::toString(X.takeError());
  ASSERT_EQ(X->size(), 1u);
  const Loop &I = X->front().Root;
  ASSERT_EQ(I.Body.size(), 2u);
  EXPECT_EQ(I.Body[0].loop().IV, "j"); // for j: C[i][j] = 0
  EXPECT_EQ(I.Body[1].loop().IV, "k");
  EXPECT_EQ(I.Body[1].loop().Body[0].loop().IV, "j");
  // Same work, same compulsory bytes.
  EXPECT_EQ(counts(X->front()).Macs.Value, counts(G).Macs.Value);
  EXPECT_EQ(compulsory(X->front()), compulsory(G));
}

// kij moves the outermost loop: the clearing becomes a nest of its own.
TEST(TransformTest, InterchangeOfTheRootSplitsTheNest) {
  LoopNest G = gemmNest("ijk", 64, 64, 64, /*Init=*/true);
  llvm::Expected<std::vector<LoopNest>> X = interchangeNest(G, {"k", "i", "j"});
  ASSERT_TRUE(bool(X));
  ASSERT_EQ(X->size(), 2u);
  EXPECT_EQ((*X)[0].Root.IV, "i");
  EXPECT_EQ((*X)[1].Root.IV, "k");
  EXPECT_FALSE(bool(interchangeNest(G, {"k", "i"})));
  llvm::consumeError(interchangeNest(G, {"k", "i"}).takeError());
}

LoopNest step(const std::string &Out, const std::string &In) {
  AffineExpr I = v("i");
  return nest("f", {{"Count", 1 << 20}},
              {arr(Out, Precision::F32, {v("Count")}),
               arr(In, Precision::F32, {v("Count")})},
              upto("i", v("Count"), {stmt({wr(Out, {I}), rd(In, {I})}, add())}));
}

// Seed section 8: three steps fused with t1, t2 on chip move 8 MiB.
TEST(TransformTest, FusionContractsIntermediates) {
  LoopNest A = step("t1", "x"), B = step("t2", "t1"), C = step("y", "t2");
  EXPECT_EQ(compulsory(A) + compulsory(B) + compulsory(C), 25165824);
  llvm::Expected<LoopNest> F = fuseNests({&A, &B, &C}, {"t1", "t2"});
  ASSERT_TRUE(bool(F));
  EXPECT_EQ(F->Root.Body.size(), 3u);
  EXPECT_EQ(compulsory(*F), 8388608);
  llvm::Expected<LoopNest> Kept = fuseNests({&A, &B, &C}, {});
  ASSERT_TRUE(bool(Kept));
  EXPECT_EQ(compulsory(*Kept), 16777216);
}

LoopNest gemv() {
  AffineExpr I = v("i"), J = v("j");
  return nest("gemv", {{"N", 1024}},
              {arr("y", Precision::F32, {v("N")}),
               arr("A", Precision::F32, {v("N"), v("N")}),
               arr("x", Precision::F32, {v("N")})},
              upto("i", v("N"),
                   {stmt({wr("y", {I})}),
                    upto("j", v("N"), {stmt({rw("y", {I}), rd("A", {I, J}),
                                             rd("x", {J})},
                                            mac())})}));
}

// Seed section 8: int8 gemv moves a quarter of the bytes, same FLOPs, at
// the int8 peak.
TEST(TransformTest, QuantizeToInt8) {
  LoopNest G = gemv();
  EXPECT_EQ(compulsory(G), 4202496);
  ASSERT_TRUE(canQuantize(G, Precision::I8));
  LoopNest Q = quantizeNest(G, Precision::I8);
  EXPECT_EQ(compulsory(Q), 1050624);
  NestCounts C = counts(Q);
  EXPECT_EQ(C.FlopsByType[Precision::I8].Value, Int128(2097152));
  EXPECT_FALSE(canQuantize(Q, Precision::I8));
}

// Batching 64 inputs: A is read once for all of them.
TEST(TransformTest, BatchGemvIntoGemm) {
  LoopNest G = gemv();
  std::optional<BatchPlan> P = batchPlan(G);
  ASSERT_TRUE(P);
  EXPECT_EQ(P->Weights, "A");
  LoopNest B = batchNest(G, *P, 64);
  NestCounts C = counts(B);
  EXPECT_EQ(C.Macs.Value, Int128(64) * 1024 * 1024);
  EXPECT_EQ(C.BytesCompulsory.Value, Int128(4) * (1024 * 1024 + 64 * 2048));
  // An elementwise step has no weights to share.
  EXPECT_FALSE(batchPlan(step("t1", "x")));
}

std::vector<NestAdvice> advise(const std::vector<LoopNest> &Ns,
                               const Machine &M, TrafficModel Model) {
  static std::vector<NestCounts> Cs;
  static std::vector<NestVerdict> Js;
  Cs.clear();
  Js.clear();
  Cs.reserve(Ns.size());
  Js.reserve(Ns.size());
  std::vector<AdvisedNest> Refs;
  for (const LoopNest &N : Ns) {
    Cs.push_back(counts(N));
    Js.push_back(judgeNest(N, Cs.back(), M, Model));
    Refs.push_back({&N, &Cs.back(), &Js.back()});
  }
  return adviseNests(Refs, M, Model, {});
}

TEST(AdviceTest, MemoryBoundGemvGetsWhatIfs) {
  Machine M = machine("rtx-a6000");
  std::vector<NestAdvice> A = advise({gemv()}, M, TrafficModel::Compulsory);
  ASSERT_EQ(A.size(), 1u);
  EXPECT_TRUE(A[0].MemoryBound);
  std::vector<std::string> Kinds;
  for (const WhatIf &W : A[0].Advice) {
    Kinds.push_back(W.Transform);
    EXPECT_TRUE(W.Legal);
    EXPECT_GE(W.Speedup, 1.05);
  }
  EXPECT_EQ(Kinds, (std::vector<std::string>{"batch", "quantize", "quantize"}));
  EXPECT_NEAR(A[0].Advice[1].Speedup, 4, 1e-9); // int8
  for (size_t I = 1; I < A[0].Advice.size(); ++I)
    EXPECT_GE(A[0].Advice[I - 1].Speedup, A[0].Advice[I].Speedup);
}

TEST(AdviceTest, ComputeBoundGetsNone) {
  Machine M = machine("rtx-a6000");
  std::vector<NestAdvice> A =
      advise({gemmNest("ijk", 512, 256, 512, /*Init=*/true)}, M,
             TrafficModel::Compulsory);
  EXPECT_FALSE(A[0].MemoryBound);
  EXPECT_TRUE(A[0].Advice.empty());
  EXPECT_TRUE(A[0].Rejected.empty());
}

TEST(AdviceTest, FusionOfThreeSteps) {
  Machine M = machine("rtx-a6000");
  std::vector<NestAdvice> A = advise(
      {step("t1", "x"), step("t2", "t1"), step("y", "t2")}, M,
      TrafficModel::Compulsory);
  ASSERT_TRUE(A[0].Fusion);
  EXPECT_EQ(A[0].Fusion->Intermediates, (std::vector<std::string>{"t1", "t2"}));
  EXPECT_EQ(A[0].Fusion->BytesBefore, 25165824);
  EXPECT_EQ(A[0].Fusion->BytesFused, 8388608);
  EXPECT_FALSE(A[1].Fusion); // reported once, at the first loop
  bool Fuse = false;
  for (const WhatIf &W : A[1].Advice)
    if (W.Transform == "fuse") {
      Fuse = true;
      EXPECT_NEAR(W.Speedup, 3, 1e-9);
    }
  EXPECT_TRUE(Fuse);
}

// The cache model's strided access and its fix, on the seed's tri-loop.
TEST(AdviceTest, StridedAccessOnACpu) {
  Machine M = machine("xeon-8380");
  std::vector<NestAdvice> A = advise({gemmNest("ijk", 1024, 1024, 1024, true)},
                                     M, TrafficModel::Cache);
  ASSERT_EQ(A[0].Strided.size(), 1u);
  const StridedAccess &S = A[0].Strided[0];
  EXPECT_EQ(S.Access.Text, "B[k][j]");
  ASSERT_TRUE(S.Fix);
  EXPECT_EQ(S.Fix->Description, "loop order i, k, j");
  EXPECT_GT(S.Fix->Speedup, 3);
}

} // namespace
