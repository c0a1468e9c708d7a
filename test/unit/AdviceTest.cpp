//===- AdviceTest.cpp - Transforms and the what-if advice -----------------===//

#include "roofline/Roofline/Advice.h"
#include "roofline/Transform/Batch.h"
#include "roofline/Transform/Quantize.h"
#include "roofline/Transform/WhatIf.h"

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

llvm::Expected<std::vector<LoopNest>>
permuted(const LoopNest &N, const std::vector<std::string> &Order) {
  return whatIfNests(
      {N}, Schedule().then(TransformRecord::make(TransformRecord::Permute, Order)));
}

// ikj keeps i outside: the clearing of C gets its own j loop inside i
// (renamed j_d: every IV of a nest names one loop).
TEST(TransformTest, InterchangeDistributesTheInit) {
  LoopNest G = gemmNest("ijk", 64, 64, 64, /*Init=*/true);
  llvm::Expected<std::vector<LoopNest>> X = permuted(G, {"i", "k", "j"});
  ASSERT_TRUE(bool(X)) << llvm::toString(X.takeError());
  ASSERT_EQ(X->size(), 1u);
  const Loop &I = X->front().Root;
  ASSERT_EQ(I.Body.size(), 2u);
  EXPECT_EQ(I.Body[0].loop().IV, "j_d"); // for j_d: C[i][j_d] = 0
  EXPECT_EQ(I.Body[1].loop().IV, "k");
  EXPECT_EQ(I.Body[1].loop().Body[0].loop().IV, "j");
  // Same work, same compulsory bytes.
  EXPECT_EQ(counts(X->front()).Macs.Value, counts(G).Macs.Value);
  EXPECT_EQ(compulsory(X->front()), compulsory(G));
}

// kij moves the outermost loop: the clearing becomes a nest of its own.
TEST(TransformTest, InterchangeOfTheRootSplitsTheNest) {
  LoopNest G = gemmNest("ijk", 64, 64, 64, /*Init=*/true);
  llvm::Expected<std::vector<LoopNest>> X = permuted(G, {"k", "i", "j"});
  ASSERT_TRUE(bool(X)) << llvm::toString(X.takeError());
  ASSERT_EQ(X->size(), 2u);
  EXPECT_EQ((*X)[0].Root.IV, "i");
  EXPECT_EQ((*X)[1].Root.IV, "k");
  // k, i is not a contiguous piece of the chain (j lies between them).
  llvm::Expected<std::vector<LoopNest>> Bad = permuted(G, {"k", "i"});
  EXPECT_FALSE(bool(Bad));
  llvm::consumeError(Bad.takeError());
}

/// \p S computing access 0 \p Op \p E: the value code generation (and so
/// the transforms that rewrite values, like contract) reads.
Node valued(Node S, const std::string &Op, ValueExpr E) {
  StmtValue V;
  V.Target = StmtValue::ArrayTarget;
  V.TargetAccess = 0;
  V.Op = Op;
  V.Value = std::move(E);
  S.S.Value = std::move(V);
  return S;
}

/// Out[i] = In[i] + 1.
LoopNest step(const std::string &Out, const std::string &In) {
  AffineExpr I = v("i");
  return nest("f", {{"Count", 1 << 20}},
              {arr(Out, Precision::F32, {v("Count")}),
               arr(In, Precision::F32, {v("Count")})},
              upto("i", v("Count"),
                   {valued(stmt({wr(Out, {I}), rd(In, {I})}, add()), "=",
                           ValueExpr::binary("+", ValueExpr::load(1),
                                             ValueExpr::floatLit(1)))}));
}

// Seed section 8: three steps fused with t1, t2 on chip move 8 MiB.
TEST(TransformTest, FusionContractsIntermediates) {
  LoopNest A = step("t1", "x"), B = step("t2", "t1"), C = step("y", "t2");
  EXPECT_EQ(compulsory(A) + compulsory(B) + compulsory(C), 25165824);
  Schedule Fuse;
  Fuse.then(TransformRecord::make(TransformRecord::Fuse, {}));
  llvm::Expected<std::vector<LoopNest>> Kept = whatIfNests({A, B, C}, Fuse);
  ASSERT_TRUE(bool(Kept)) << llvm::toString(Kept.takeError());
  ASSERT_EQ(Kept->size(), 1u);
  EXPECT_EQ(compulsory(Kept->front()), 16777216);
  Fuse.then(TransformRecord::make(TransformRecord::Contract, {"t1", "t2"}));
  llvm::Expected<std::vector<LoopNest>> F = whatIfNests({A, B, C}, Fuse);
  ASSERT_TRUE(bool(F)) << llvm::toString(F.takeError());
  ASSERT_EQ(F->size(), 1u);
  EXPECT_EQ(F->front().Root.Body.size(), 3u);
  EXPECT_EQ(compulsory(F->front()), 8388608);
}

LoopNest gemv() {
  AffineExpr I = v("i"), J = v("j");
  return nest("gemv", {{"N", 1024}},
              {arr("y", Precision::F32, {v("N")}),
               arr("A", Precision::F32, {v("N"), v("N")}),
               arr("x", Precision::F32, {v("N")})},
              upto("i", v("N"),
                   {valued(stmt({wr("y", {I})}), "=", ValueExpr::floatLit(0)),
                    upto("j", v("N"),
                         {valued(stmt({rw("y", {I}), rd("A", {I, J}),
                                       rd("x", {J})},
                                      mac()),
                                 "+=",
                                 ValueExpr::binary("*", ValueExpr::load(1),
                                                   ValueExpr::load(2)))})}));
}

// Seed section 8: int8 gemv moves a quarter of the bytes, same FLOPs, at
// the int8 peak.
TEST(TransformTest, QuantizeToInt8) {
  LoopNest G = gemv();
  EXPECT_EQ(compulsory(G), 4202496);
  ASSERT_TRUE(canQuantize(G, Precision::I8));
  std::optional<LoopNest> QN = quantizedNest(G, Precision::I8);
  ASSERT_TRUE(QN);
  const LoopNest &Q = *QN;
  EXPECT_EQ(compulsory(Q), 1050624);
  NestCounts C = counts(Q);
  EXPECT_EQ(C.FlopsByType[Precision::I8].Value, Int128(2097152));
  EXPECT_FALSE(canQuantize(Q, Precision::I8));
  EXPECT_FALSE(quantizedNest(Q, Precision::I8));
}

// One quantize record, two scopes: code generation's re-synthesizes a
// contraction and refuses an elementwise step; the what-if narrows every
// operand of any nest.
TEST(TransformTest, QuantizeScopes) {
  LoopNest S = step("y", "x");
  Program P = makeProgram(S);
  llvm::Error E = applyRecord(P, TransformRecord::quantize("bf16"));
  EXPECT_EQ(llvm::toString(std::move(E)),
            "quantize(bf16): the nest is not a contraction (gemm, gemv, "
            "batched gemm) or a convolution");
  std::optional<LoopNest> Q = quantizedNest(S, Precision::BF16);
  ASSERT_TRUE(Q);
  EXPECT_EQ(compulsory(*Q), compulsory(S) / 2);
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
