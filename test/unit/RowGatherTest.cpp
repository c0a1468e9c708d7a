//===- RowGatherTest.cpp - Rows picked by a loaded index ------------------===//
//
// A row gather's compulsory bytes are a range (docs/design.md, "Row
// gathers"). The oracle is the brute-force interpreter run on the two nests
// that realize the ends: every pick the same row (the accesses within the
// row, no gather) and every pick a new row (the table indexed by the pick
// loops too).
//
//===----------------------------------------------------------------------===//

#include "roofline/Analysis/Counts.h"

#include "BruteForce.h"
#include "CountsLookup.h"
#include "NestBuilder.h"

#include <gtest/gtest.h>

using namespace roofline;
using namespace roofline::testing;

namespace {

const Precision F32 = Precision::F32, I32 = Precision::I32;

Access gathered(Access A) {
  A.GatherIndex = "ix";
  A.GatherLoop = "t";
  return A;
}

/// llm.c's encoder: for b, t { ix = inp[b][t]; for i out[b][t][i] =
/// wte(row ix)[i] + wpe[t][i]; }, and with \p Backward dwte's rows are
/// updated (`dwte_ix[i] += dout[b][t][i]`). \p Table: "gather" (the row
/// gather), "same" (every pick row 0), "distinct" (row b*T + t).
LoopNest encoder(const std::string &Table, bool Backward) {
  AffineExpr B = v("b"), T = v("t"), I = v("i");
  std::vector<AffineExpr> Row = {I};
  if (Table == "distinct")
    Row = {B, T, I};
  std::string W = Backward ? "dwte" : "wte";
  Access Wt = Backward ? rw(W, Row) : rd(W, Row);
  if (Table == "gather")
    Wt = gathered(Wt);
  Node Inner = upto(
      "i", v("C"),
      {Backward ? stmt({rd("dout", {B, T, I}), Wt}, add())
                : stmt({wr("out", {B, T, I}), Wt, rd("wpe", {T, I})}, add())});
  Node Root = upto("b", v("B"),
                   {upto("t", v("T"), {stmt({rd("inp", {B, T})}), Inner})});
  std::vector<AffineExpr> WExt = {v("C")};
  if (Table == "distinct")
    WExt = {v("B"), v("T"), v("C")};
  return nest("encoder", {{"B", 3}, {"T", 5}, {"C", 7}},
              {arr(Backward ? "dout" : "out", F32, {v("B"), v("T"), v("C")}),
               arr("inp", I32, {v("B"), v("T")}), arr(W, F32, WExt),
               arr("wpe", F32, {v("T"), v("C")})},
              std::move(Root));
}

TEST(RowGatherTest, EndsAreTheSameRowAndDistinctRows) {
  for (bool Backward : {false, true}) {
    SCOPED_TRACE(Backward ? "backward" : "forward");
    std::string W = Backward ? "dwte" : "wte";
    NestCounts C = analyzed(encoder("gather", Backward));
    brute::Counts Same = brute::run(encoder("same", Backward));
    brute::Counts Distinct = brute::run(encoder("distinct", Backward));
    ASSERT_TRUE(C.BytesIsRange);
    ASSERT_TRUE(C.BytesCompulsoryMin.Value && C.BytesCompulsory.Value);
    EXPECT_EQ(*C.BytesCompulsoryMin.Value, Same.BytesCompulsory);
    EXPECT_EQ(*C.BytesCompulsory.Value, Distinct.BytesCompulsory);
    const ArrayTraffic &T = trafficOf(C, W);
    EXPECT_TRUE(T.ElementsAreRange);
    EXPECT_EQ(*T.ElementsReadMin.Value, Same.Arrays[W].Read);
    EXPECT_EQ(*T.ElementsRead.Value, Distinct.Arrays[W].Read);
    EXPECT_EQ(*T.ElementsWrittenMin.Value, Same.Arrays[W].Written);
    EXPECT_EQ(*T.ElementsWritten.Value, Distinct.Arrays[W].Written);
    // The moves do not depend on the rows.
    EXPECT_EQ(*C.BytesNoReuse.Value, Distinct.BytesNoReuse);
    EXPECT_EQ(*C.Flops.Value, Same.Flops);
    EXPECT_FALSE(trafficOf(C, "wpe").ElementsAreRange);
  }
}

/// darknet's maxpool backward: for i { index = indexes[i]; delta[index] +=
/// ldelta[i]; }, one element picked per iteration of the loop that loads
/// the index. \p Table as in encoder().
LoopNest scatter(const std::string &Table) {
  Access D = rw("delta", {Table == "distinct" ? v("i") : k(0)});
  if (Table == "gather") {
    D.GatherIndex = "index";
    D.GatherLoop = "i";
  }
  Node Root = upto("i", v("N"),
                   {stmt({rd("indexes", {v("i")})}),
                    stmt({D, rd("ldelta", {v("i")})}, add())});
  return nest("backward_maxpool", {{"N", 6}},
              {arr("indexes", I32, {v("N")}), arr("delta", F32, {v("N")}),
               arr("ldelta", F32, {v("N")})},
              std::move(Root));
}

// The picked element changes every iteration of the pick loop: its loads
// and stores are never held across it (no-reuse), and the elements range
// from one to one a pick.
TEST(RowGatherTest, ElementPickedInThePickLoopBody) {
  NestCounts C = analyzed(scatter("gather"));
  brute::Counts Same = brute::run(scatter("same"));
  brute::Counts Distinct = brute::run(scatter("distinct"));
  EXPECT_EQ(*C.BytesNoReuse.Value, Distinct.BytesNoReuse);
  EXPECT_EQ(*C.Loads.Value, Distinct.Loads);
  EXPECT_EQ(*C.Stores.Value, Distinct.Stores);
  EXPECT_EQ(*C.BytesCompulsoryMin.Value, Same.BytesCompulsory);
  EXPECT_EQ(*C.BytesCompulsory.Value, Distinct.BytesCompulsory);
  EXPECT_EQ(*trafficOf(C, "delta").ElementsWrittenMin.Value, 1);
  EXPECT_EQ(*trafficOf(C, "delta").ElementsWritten.Value, 6);
}

TEST(RowGatherTest, FormulasOfBothEnds) {
  LoopNest N = encoder("gather", false);
  for (Param &P : N.Params)
    P.Value.reset();
  NestCounts C = analyzed(N);
  ASSERT_TRUE(C.BytesCompulsoryMin.Formula && C.BytesCompulsory.Formula);
  // out and wte's picks B*T*C each, inp B*T, wpe T*C; one row of C at least.
  EXPECT_EQ(C.BytesCompulsory.Formula->str(), "8*B*C*T + 4*B*T + 4*C*T");
  EXPECT_EQ(C.BytesCompulsoryMin.Formula->str(), "4*B*C*T + 4*B*T + 4*C*T + 4*C");
}

TEST(RowGatherTest, RefusedWhenTheRowPartUsesThePickLoop) {
  LoopNest N = encoder("gather", false);
  // wte(row ix)[i + t]: the pattern moves from pick to pick.
  Access &A = N.Root.Body[0].loop().Body[1].loop().Body[0].S.Accesses[1];
  A.Subscripts[0] = v("i") + v("t");
  llvm::Expected<NestCounts> C = analyzeNest(N);
  ASSERT_FALSE(bool(C));
  EXPECT_NE(llvm::toString(C.takeError()).find("the picks do not touch alike"),
            std::string::npos);
}

TEST(RowGatherTest, RefusedWithAnotherAccessOfTheTable) {
  LoopNest N = encoder("gather", false);
  Loop &Inner = N.Root.Body[0].loop().Body[1].loop();
  Inner.Body.push_back(stmt({rd("wte", {v("i")})}));
  llvm::Expected<NestCounts> C = analyzeNest(N);
  ASSERT_FALSE(bool(C));
  EXPECT_NE(llvm::toString(C.takeError()).find("another access"),
            std::string::npos);
}

TEST(RowGatherTest, RefusedWhenPicksRunDifferently) {
  LoopNest N = encoder("gather", false);
  // for i <= t: a pick reads a prefix of its row as long as t.
  Loop &Inner = N.Root.Body[0].loop().Body[1].loop();
  Inner.Last = Bound::single(v("t"));
  llvm::Expected<NestCounts> C = analyzeNest(N);
  ASSERT_FALSE(bool(C));
  EXPECT_NE(llvm::toString(C.takeError()).find("runs differently"),
            std::string::npos);
}

} // namespace
