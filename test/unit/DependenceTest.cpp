//===- DependenceTest.cpp - Dependence vectors and transform legality -----===//

#include "roofline/Analysis/Dependence.h"

#include "NestBuilder.h"

#include "llvm/ADT/StringExtras.h"

#include <gtest/gtest.h>

using namespace roofline;
using namespace roofline::testing;

namespace {

std::vector<const Dependence *> on(const DependenceGraph &G,
                                   const std::string &Array) {
  std::vector<const Dependence *> Out;
  for (const Dependence &D : G.Deps)
    if (D.Array == Array)
      Out.push_back(&D);
  return Out;
}

// C[i][j] += A[i][k] * B[k][j]: C carries the k loop only, distance (0,0,*).
TEST(DependenceTest, GemmAccumulatorCarriedByK) {
  LoopNest N = gemmNest("ijk", 64, 64, 64);
  DependenceGraph G = computeDependences(N);
  std::vector<const Dependence *> C = on(G, "C");
  ASSERT_EQ(C.size(), 1u);
  EXPECT_EQ(C[0]->Vectors, std::vector<std::string>{"==<"});
  EXPECT_EQ(C[0]->directions(), "(=, =, <)");
  EXPECT_TRUE(C[0]->Uniform);
  EXPECT_EQ(C[0]->distanceStr(), "(0, 0, *)");
  EXPECT_EQ(C[0]->Kinds, unsigned(DepFlow | DepAnti | DepOutput));
  EXPECT_TRUE(on(G, "A").empty()); // read-only arrays carry nothing
  EXPECT_TRUE(on(G, "B").empty());
}

TEST(DependenceTest, GemmEveryOrderIsLegal) {
  LoopNest N = gemmNest("ijk", 64, 64, 64);
  for (std::vector<std::string> O :
       {std::vector<std::string>{"i", "k", "j"}, {"k", "i", "j"},
        {"j", "k", "i"}, {"k", "j", "i"}, {"j", "i", "k"}})
    EXPECT_TRUE(isInterchangeLegal(N, O).Legal) << llvm::join(O, ",");
  EXPECT_TRUE(isTilingLegal(N).Legal);
}

// The seed's tri-loop clears C[i][j] beside the k loop: ikj distributes the
// clearing out first, which is legal (it precedes every update).
TEST(DependenceTest, GemmWithInitDistributes) {
  LoopNest N = gemmNest("ijk", 64, 64, 64, /*Init=*/true);
  EXPECT_EQ(permutableBand(N).size(), 3u);
  Legality L = isInterchangeLegal(N, {"i", "k", "j"});
  EXPECT_TRUE(L.Legal) << L.Reason;
  EXPECT_TRUE(isInterchangeLegal(N, {"k", "i", "j"}).Legal);
  EXPECT_TRUE(isTilingLegal(N).Legal);
  // The init -> update dependence is loop-independent over (i, j).
  bool Found = false;
  DependenceGraph G = computeDependences(N);
  for (const Dependence *D : on(G, "C"))
    if (D->Source != D->Sink) {
      Found = true;
      EXPECT_EQ(D->Loops.size(), 2u);
      EXPECT_EQ(D->directions(), "(=, =)");
      EXPECT_EQ(D->Kinds, unsigned(DepFlow | DepOutput));
    }
  EXPECT_TRUE(Found);
}

// for i in [1, N), j in [0, N-1): A[j][i] = A[j+1][i-1] + 1
// The value written at (i, j) is read at (i+1, j-1): distance (1, -1).
LoopNest skewedNest(int64_t Size) {
  AffineExpr I = v("i"), J = v("j");
  return nest("skew", {{"N", Size}}, {arr("A", Precision::F32, {v("N"), v("N")})},
              loop("i", k(1), v("N") - 1,
                   {loop("j", k(0), v("N") - 2,
                         {stmt({wr("A", {J, I}), rd("A", {J + 1, I - 1})},
                               add())})}));
}

TEST(DependenceTest, UniformDistanceOneMinusOne) {
  // The graph points into the nest's accesses: keep the nest alive.
  LoopNest N = skewedNest(100);
  DependenceGraph G = computeDependences(N);
  std::vector<const Dependence *> A = on(G, "A");
  ASSERT_EQ(A.size(), 1u);
  EXPECT_TRUE(A[0]->Uniform);
  EXPECT_EQ(A[0]->distanceStr(), "(1, -1)");
  EXPECT_EQ(A[0]->directions(), "(<, >)");
  EXPECT_EQ(A[0]->Kinds, unsigned(DepFlow));
  EXPECT_EQ(A[0]->SourceAccess->Text, "A[j][i]");
}

TEST(DependenceTest, InterchangeThatReversesIsIllegal) {
  LoopNest N = skewedNest(100);
  Legality L = isInterchangeLegal(N, {"j", "i"});
  EXPECT_FALSE(L.Legal);
  EXPECT_NE(L.Reason.find("distance (1, -1)"), std::string::npos) << L.Reason;
  Legality T = isTilingLegal(N);
  EXPECT_FALSE(T.Legal);
  EXPECT_NE(T.Reason.find("not fully permutable"), std::string::npos);
  EXPECT_TRUE(isInterchangeLegal(N, {"i", "j"}).Legal); // unchanged
  EXPECT_FALSE(isInterchangeLegal(N, {"i", "k"}).Legal); // not the band
}

// A[2i] = A[2i+1]: the GCD test proves independence.
TEST(DependenceTest, GcdIndependence) {
  AffineExpr I = v("i");
  LoopNest N = nest("gcd", {{"N", 100}}, {arr("A", Precision::F32, {k(200)})},
                    upto("i", v("N"),
                         {stmt({wr("A", {2 * I}), rd("A", {2 * I + 1})})}));
  EXPECT_TRUE(on(computeDependences(N), "A").empty());
}

// A[i] = A[i + N] for i < N: Banerjee's bounds prove independence; with N
// unknown nothing is proved... except that N cancels only if it is equal on
// both sides, so the dependence is (conservatively) assumed.
TEST(DependenceTest, BanerjeeIndependenceNeedsTheSize) {
  AffineExpr I = v("i");
  auto Make = [&](std::optional<int64_t> Size) {
    LoopNest N = nest("ban", {}, {arr("A", Precision::F32, {2 * v("N")})},
                      upto("i", v("N"),
                           {stmt({wr("A", {I}), rd("A", {I + v("N")})})}));
    N.Params.push_back({"N", Size, "test"});
    return N;
  };
  EXPECT_TRUE(on(computeDependences(Make(100)), "A").empty());
  EXPECT_FALSE(on(computeDependences(Make(std::nullopt)), "A").empty());
}

// A[i + 5] = A[i] over 3 iterations: distance 5 cannot occur.
TEST(DependenceTest, DistanceBeyondTheTripCount) {
  AffineExpr I = v("i");
  LoopNest N = nest("far", {}, {arr("A", Precision::F32, {k(16)})},
                    upto("i", k(3), {stmt({wr("A", {I + 5}), rd("A", {I})})}));
  EXPECT_TRUE(on(computeDependences(N), "A").empty());
  LoopNest M = nest("near", {}, {arr("A", Precision::F32, {k(16)})},
                    upto("i", k(8), {stmt({wr("A", {I + 5}), rd("A", {I})})}));
  DependenceGraph GM = computeDependences(M);
  std::vector<const Dependence *> D = on(GM, "A");
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(D[0]->distanceStr(), "(5)");
}

// A[i][j] = A[j][i]: not uniform; the dependence is kept, conservatively.
TEST(DependenceTest, NonUniformIsConservative) {
  AffineExpr I = v("i"), J = v("j");
  LoopNest N = nest("tr", {{"N", 32}}, {arr("A", Precision::F32, {v("N"), v("N")})},
                    upto("i", v("N"),
                         {upto("j", v("N"),
                               {stmt({wr("A", {I, J}), rd("A", {J, I})})})}));
  DependenceGraph G = computeDependences(N);
  std::vector<const Dependence *> D = on(G, "A");
  ASSERT_FALSE(D.empty());
  for (const Dependence *X : D)
    EXPECT_FALSE(X->Uniform);
  EXPECT_FALSE(isInterchangeLegal(N, {"j", "i"}).Legal);
}

// Counting down: for (i = N-1; i >= 1; --i) A[i] = A[i-1]: the read of A[m]
// (at i = m+1) runs before its write (at i = m): an anti dependence '<'.
TEST(DependenceTest, DownwardLoopOrientsByIteration) {
  AffineExpr I = v("i");
  LoopNest N = nest("down", {{"N", 50}}, {arr("A", Precision::F32, {v("N")})},
                    loop("i", v("N") - 1, k(1),
                         {stmt({wr("A", {I}), rd("A", {I - 1})})}, -1));
  DependenceGraph G = computeDependences(N);
  std::vector<const Dependence *> D = on(G, "A");
  ASSERT_EQ(D.size(), 1u);
  EXPECT_EQ(D[0]->Kinds, unsigned(DepAnti));
  EXPECT_EQ(D[0]->Vectors, std::vector<std::string>{"<"});
  EXPECT_EQ(D[0]->SourceAccess->Text, "A[i - 1]");
}

// A statement that writes no array updates a scalar the IR cannot see
// (float acc = 0; acc += A*B; C = acc): nothing may be reordered.
TEST(DependenceTest, ScalarAccumulatorBlocksInterchange) {
  AffineExpr I = v("i"), J = v("j"), K = v("k");
  LoopNest N = nest(
      "acc", {{"N", 64}},
      {arr("A", Precision::F32, {v("N"), v("N")}),
       arr("B", Precision::F32, {v("N"), v("N")}),
       arr("C", Precision::F32, {v("N"), v("N")})},
      upto("i", v("N"),
           {upto("j", v("N"),
                 {upto("k", v("N"), {stmt({rd("A", {I, K}), rd("B", {K, J})},
                                          mac(), 7)}),
                  stmt({wr("C", {I, J})}, {}, 8)})}));
  DependenceGraph G = computeDependences(N);
  ASSERT_FALSE(G.Notes.empty());
  EXPECT_NE(G.Notes[0].find("line 7"), std::string::npos);
  Legality L = isInterchangeLegal(N, {"i", "k", "j"});
  EXPECT_FALSE(L.Legal);
  EXPECT_NE(L.Reason.find("scalar"), std::string::npos) << L.Reason;
  EXPECT_FALSE(isTilingLegal(N).Legal);
}

// With the statements' values the scalar is known by name and scope:
// `float acc = 0` inside j makes acc private to each (i, j); i and j cannot
// move inside k without expanding it.
TEST(DependenceTest, NamedScalarAccumulator) {
  AffineExpr I = v("i"), J = v("j"), K = v("k");
  Node Decl = stmt({}, {}, 6);
  StmtValue DV;
  DV.Target = StmtValue::ScalarDecl;
  DV.Scalar = "acc";
  DV.Value = ValueExpr::floatLit(0);
  Decl.S.Value = DV;
  Node Red = stmt({rd("A", {I, K}), rd("B", {K, J})}, mac(), 7);
  StmtValue RV;
  RV.Target = StmtValue::ScalarTarget;
  RV.Scalar = "acc";
  RV.Op = "+=";
  RV.Value = ValueExpr::binary("*", ValueExpr::load(0), ValueExpr::load(1));
  Red.S.Value = RV;
  Node Store = stmt({wr("C", {I, J})}, {}, 8);
  StmtValue SV;
  SV.Value = ValueExpr::scalar("acc");
  Store.S.Value = SV;
  LoopNest N = nest("acc", {{"N", 64}},
                    {arr("A", Precision::F32, {v("N"), v("N")}),
                     arr("B", Precision::F32, {v("N"), v("N")}),
                     arr("C", Precision::F32, {v("N"), v("N")})},
                    upto("i", v("N"),
                         {upto("j", v("N"),
                               {Decl, upto("k", v("N"), {Red}), Store})}));
  EXPECT_EQ(scalarScopeDepth(N, N.Root.Body[0].loop().Body[1].loop().Body[0].S),
            2u);
  DependenceGraph G = computeDependences(N);
  EXPECT_TRUE(G.Notes.empty());
  bool Private = false;
  for (const Dependence &D : G.Deps)
    if (D.Scalar == "acc" && D.Source == D.Sink) {
      Private = true;
      EXPECT_EQ(D.directions(), "(=, =, <)");
    }
  EXPECT_TRUE(Private);
  Legality L = isInterchangeLegal(N, {"i", "k", "j"});
  EXPECT_FALSE(L.Legal);
  EXPECT_NE(L.Reason.find("'acc' is declared inside loop 'j'"),
            std::string::npos)
      << L.Reason;
  EXPECT_FALSE(isTilingLegal(N).Legal);
}

LoopNest pointwise(const std::string &Out, const std::string &In,
                   int64_t Offset = 0, const std::string &Size = "Count") {
  AffineExpr I = v("i");
  return nest("f", {{"Count", 1024}, {"Half", 512}},
              {arr(Out, Precision::F32, {v("Count")}),
               arr(In, Precision::F32, {v("Count")})},
              upto("i", v(Size),
                   {stmt({wr(Out, {I}), rd(In, {I + Offset})}, add())}));
}

TEST(DependenceTest, ElementwiseFusionIsLegal) {
  LoopNest A = pointwise("t1", "x"), B = pointwise("t2", "t1");
  EXPECT_EQ(fusableDepth(A, B), 1u);
  Legality L = isFusionLegal(A, B);
  EXPECT_TRUE(L.Legal) << L.Reason;
  // Reading behind the writer (t1[i-1]) is fine too.
  EXPECT_TRUE(isFusionLegal(A, pointwise("t2", "t1", -1)).Legal);
}

// b[i] = a[i+1] after a[i] = ...: fused, a[i+1] would be read before the
// first loop writes it.
TEST(DependenceTest, FusionReadingAheadIsIllegal) {
  LoopNest A = pointwise("a", "x"), B = pointwise("b", "a", 1);
  Legality L = isFusionLegal(A, B);
  EXPECT_FALSE(L.Legal);
  EXPECT_NE(L.Reason.find("'a'"), std::string::npos) << L.Reason;
}

TEST(DependenceTest, FusionNeedsTheSameBounds) {
  LoopNest A = pointwise("a", "x"), B = pointwise("b", "a", 0, "Half");
  EXPECT_EQ(fusableDepth(A, B), 0u);
  EXPECT_FALSE(isFusionLegal(A, B).Legal);
}

} // namespace
