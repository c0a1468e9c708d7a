//===- ConvolutionTest.cpp - recognizeConvolution on parsed nests ---------===//
//
// The nests come from C++ through the Frontend (in-memory files), so the
// linearized forms are delinearized exactly as roofline-lint sees them.
//
//===----------------------------------------------------------------------===//

#include "roofline/Frontend/Runner.h"
#include "roofline/Transform/Contraction.h"
#include "roofline/Transform/Convolution.h"

#include "gtest/gtest.h"

#include <functional>

using namespace roofline;

namespace {

/// The nests of \p Code, accumulators promoted (as makeProgram does).
std::vector<LoopNest> parse(const std::string &Code) {
  const std::string Path = "/rl-unit/conv.cpp";
  clang::tooling::CompileCommand Cmd(
      "/", Path, {"clang++", "-std=c++17", "-fsyntax-only", Path}, "");
  TUResult R = runFrontendOnFile(Cmd, FrontendOptions(), nullptr,
                                 {{Path, Code}});
  EXPECT_TRUE(R.Compiled) << R.Diagnostics;
  for (LoopNest &N : R.Nests.Nests)
    promoteAccumulators(N);
  return R.Nests.Nests;
}

std::optional<ConvInfo> recognizeOnly(const std::string &Code,
                                      std::string *Why = nullptr) {
  std::vector<LoopNest> Nests = parse(Code);
  if (Nests.size() != 1) {
    ADD_FAILURE() << "expected one nest, got " << Nests.size();
    return std::nullopt;
  }
  return recognizeConvolution(Nests.front(), Why);
}

using Names = std::vector<std::string>;

const char *const Conv2D = R"(
void conv(int N, int C, int K, int H, int W, int R, int S,
          const float In[][4][16][16], const float Wt[][4][3][3],
          float Out[][8][14][14]) {
  for (int n = 0; n < N; ++n)
    for (int k = 0; k < K; ++k)
      for (int p = 0; p < H - R + 1; ++p)
        for (int q = 0; q < W - S + 1; ++q) {
          float acc = 0;
          for (int c = 0; c < C; ++c)
            for (int r = 0; r < R; ++r)
              for (int s = 0; s < S; ++s)
                acc += In[n][c][p + r][q + s] * Wt[k][c][r][s];
          Out[n][k][p][q] = acc;
        }
}
)";

TEST(Convolution, NchwNestIsAnImplicitGemm) {
  std::string Why;
  std::optional<ConvInfo> C = recognizeOnly(Conv2D, &Why);
  ASSERT_TRUE(C) << Why;
  EXPECT_EQ(C->kind(), "convolution (implicit gemm)");
  EXPECT_EQ(C->Out.Array, "Out");
  EXPECT_EQ(C->In.Array, "In");
  EXPECT_EQ(C->W.Array, "Wt");
  EXPECT_EQ(C->M, "k");
  EXPECT_EQ(C->N, (Names{"n", "p", "q"}));
  EXPECT_EQ(C->K, (Names{"c", "r", "s"}));
  EXPECT_EQ(C->Pixel, (Names{"p", "q"}));
  EXPECT_EQ(C->Filter, (Names{"r", "s"}));
  EXPECT_TRUE(C->InitZero); // the promoted `acc = 0`
  EXPECT_EQ(C->Elem, Precision::F32);
  // A convolution is not a plain contraction: it keeps the generic path
  // there, so gemm and friends are unaffected.
  std::vector<LoopNest> Nests = parse(Conv2D);
  EXPECT_FALSE(recognizeContraction(Nests.front()));
}

TEST(Convolution, LinearizedPointersAndStride) {
  std::string Why;
  std::optional<ConvInfo> C = recognizeOnly(R"(
void conv(int N, int C, int K, int H, int W, int R, int S, const float *In,
          const float *Wt, float *Out) {
  const int P = (H - R) / 2 + 1, Q = (W - S) / 2 + 1;
  for (int n = 0; n < N; ++n)
    for (int k = 0; k < K; ++k)
      for (int p = 0; p < P; ++p)
        for (int q = 0; q < Q; ++q) {
          Out[((n * K + k) * P + p) * Q + q] = 0;
          for (int c = 0; c < C; ++c)
            for (int r = 0; r < R; ++r)
              for (int s = 0; s < S; ++s)
                Out[((n * K + k) * P + p) * Q + q] +=
                    In[((n * C + c) * H + 2 * p + r) * W + 2 * q + s] *
                    Wt[((k * C + c) * R + r) * S + s];
        }
}
)",
                                            &Why);
  ASSERT_TRUE(C) << Why;
  EXPECT_EQ(C->M, "k");
  EXPECT_EQ(C->N, (Names{"n", "p", "q"}));
  EXPECT_EQ(C->K, (Names{"c", "r", "s"}));
  EXPECT_TRUE(C->InitZero);
  // The stride stays on the pixel side of In's windows.
  int64_t Strides = 0;
  for (const auto &D : C->In.Dims)
    for (const ConvTerm &T : D)
      if (T.IV == "p" || T.IV == "q")
        Strides += T.Coeff;
  EXPECT_EQ(Strides, 4);
}

TEST(Convolution, OneDimensionalAccumulating) {
  std::string Why;
  std::optional<ConvInfo> C = recognizeOnly(R"(
void conv1d(int K, int C, int L, int R, const float *x, const float *w,
            float *y) {
  for (int k = 0; k < K; ++k)
    for (int c = 0; c < C; ++c)
      for (int t = 0; t < L - R + 1; ++t)
        for (int r = 0; r < R; ++r)
          y[k * L + t] += x[c * L + t + r] * w[(k * C + c) * R + r];
}
)",
                                            &Why);
  ASSERT_TRUE(C) << Why;
  EXPECT_EQ(C->M, "k");
  EXPECT_EQ(C->N, (Names{"t"}));
  EXPECT_EQ(C->K, (Names{"c", "r"}));
  EXPECT_FALSE(C->InitZero);
}

/// The 2-D nest with In's and W's subscripts replaced.
std::string variant(const std::string &InSub, const std::string &WSub) {
  return R"(
void conv(int N, int C, int K, int P, int Q, int R, int S,
          const float In[][4][16][16], const float Wt[][4][3][3],
          float Out[][8][14][14]) {
  for (int n = 0; n < N; ++n)
    for (int k = 0; k < K; ++k)
      for (int p = 0; p < P; ++p)
        for (int q = 0; q < Q; ++q)
          for (int c = 0; c < C; ++c)
            for (int r = 0; r < R; ++r)
              for (int s = 0; s < S; ++s)
                Out[n][k][p][q] += In[)" +
         InSub + "] * Wt[" + WSub + R"(];
}
)";
}

TEST(Convolution, NearMissesSayWhy) {
  struct Case {
    std::string In, W, Why;
  } Cases[] = {
      // A flipped window (true convolution, not correlation).
      {"n][c][p - r][q + s", "k][c][r][s", "is not `stride*p + r`"},
      // The channel loop missing from the weights (a constant there).
      {"n][c][p + r][q + s", "k][0][r][s", "indexes no loop"},
      {"n][c][p + r][q + s", "k][r][s][r",
       "loop 'r' indexes one operand twice"},
      // A padded window.
      {"n][c][p + r + 1][q + s", "k][c][r][s", "constant offset"},
      // No window at all: a contraction, not a convolution.
      {"n][c][p][q", "k][c][r][s", "no operand is indexed by a window"},
  };
  for (const Case &X : Cases) {
    std::string Why;
    EXPECT_FALSE(recognizeOnly(variant(X.In, X.W), &Why)) << X.In;
    EXPECT_NE(Why.find(X.Why), std::string::npos)
        << X.In << " * " << X.W << ": " << Why;
  }
}

/// A padded convolution: the filter loops' bounds keep the input's
/// subscript inside 0 .. H - 1 (and W), \p Hi the upper bound of r's loop.
std::string padded(const std::string &Hi, const std::string &If = "") {
  return R"(
#include <algorithm>
void conv(int C, int K, int H, int W, const float *In, const float *Wt,
          float *Out) {
  for (int k = 0; k < K; ++k)
    for (int p = 0; p < H; ++p)
      for (int q = 0; q < W; ++q) {
        float acc = 0;
        for (int c = 0; c < C; ++c)
          for (int r = std::max(0, 1 - p); r < std::min(3, )" +
         Hi + R"(); ++r)
            for (int s = std::max(0, 1 - q); s < std::min(3, W + 1 - q); ++s)
              acc += In[(c * H + p + r - 1) * W + q + s - 1] *
                     Wt[((k * C + c) * 3 + r) * 3 + s];
        Out[(k * H + p) * W + q] = acc;
      }
}
)";
}

TEST(Convolution, ZeroPaddingByTheFilterBounds) {
  std::string Why;
  std::optional<ConvInfo> C = recognizeOnly(padded("H + 1 - p"), &Why);
  ASSERT_TRUE(C) << Why;
  ASSERT_EQ(C->Pads.size(), 2u);
  EXPECT_EQ(C->Pads[0].Dim, 1u);
  EXPECT_EQ(C->Pads[0].Extent.str(), "H");
  EXPECT_EQ(C->Pads[1].Extent.str(), "W");
  EXPECT_EQ(C->In.Offset, (std::vector<int64_t>{0, -1, -1}));
  // Rectangular again: r from 0, 3 taps.
  EXPECT_EQ(C->First.at("r").str(), "0");
  EXPECT_EQ(C->Extent.at("r").str(), "3");
}

TEST(Convolution, BoundsThatAreNotTheInputsAreRefused) {
  // One row short (H - p: row H - 1 is never read): not zero padding.
  for (const char *Hi : {"H - p"}) {
    std::string Why;
    EXPECT_FALSE(recognizeOnly(padded(Hi), &Why)) << Hi;
    EXPECT_NE(Why.find("is not kept inside 0 .. H by a guard"), std::string::npos)
        << Hi << ": " << Why;
  }
}

TEST(Convolution, ProductIsNotAWindow) {
  // In[n][c][p * r][q + s]: the Frontend refuses the nest (a non-affine
  // subscript); on the IR it is an unknown subscript.
  std::vector<LoopNest> Nests = parse(Conv2D);
  ASSERT_EQ(Nests.size(), 1u);
  bool Changed = false;
  std::function<void(Loop &)> Visit = [&](Loop &L) {
    for (Node &X : L.Body) {
      if (X.isLoop()) {
        Visit(X.loop());
        continue;
      }
      for (Access &A : X.S.Accesses)
        if (A.ArrayName == "In") {
          A.Subscripts[2] = std::nullopt;
          A.Text = "In[n][c][p * r][q + s]";
          Changed = true;
        }
    }
  };
  Visit(Nests.front().Root);
  ASSERT_TRUE(Changed);
  std::string Why;
  EXPECT_FALSE(recognizeConvolution(Nests.front(), &Why));
  EXPECT_EQ(Why, "a subscript of In[n][c][p * r][q + s] is not affine");
}

TEST(Convolution, ReductionLoopMissingFromAnOperand) {
  std::string Why;
  // c indexes the input only: the sum over it has no weight operand.
  EXPECT_FALSE(recognizeOnly(R"(
void conv(int K, int C, int P, int R, const float x[][32],
          const float w[][5], float y[][32]) {
  for (int k = 0; k < K; ++k)
    for (int c = 0; c < C; ++c)
      for (int p = 0; p < P; ++p)
        for (int r = 0; r < R; ++r)
          y[k][p] += x[c][p + r] * w[k][r];
}
)",
                             &Why));
  EXPECT_NE(Why.find("loop 'c' has no convolution role (it indexes the "
                     "input only)"),
            std::string::npos)
      << Why;
}

} // namespace
