//===- PointGatherTest.cpp - The gathers of a nest -------------------------===//

#include "roofline/IR/PointGather.h"

#include "gtest/gtest.h"

using namespace roofline;

namespace {

Access accessOf(const std::string &Array, const std::string &GatherIndex) {
  Access A;
  A.ArrayName = Array;
  A.Subscripts = {AffineExpr::var("i"), AffineExpr(0)};
  A.IsRead = true;
  A.Text = Array + "[i][" + (GatherIndex.empty() ? "0" : GatherIndex) + "]";
  A.GatherIndex = GatherIndex;
  return A;
}

Stmt stmtOf(std::vector<Access> Accesses) {
  Stmt S;
  S.Accesses = std::move(Accesses);
  return S;
}

Loop loopOf(const std::string &IV) {
  Loop L;
  L.IV = IV;
  L.First = Bound::single(AffineExpr(0));
  L.Last = Bound::single(AffineExpr(7));
  return L;
}

// for i { s0: x (no gather); for j { s1: y, p[ix] } ; s2: q[iy] }: the
// first gather in program order is p[ix], the second access of the inner
// loop's statement, not the outer loop's later q[iy].
TEST(PointGatherTest, FirstGatherInProgramOrder) {
  LoopNest N;
  N.Root = loopOf("i");
  N.Root.Body.push_back(Node::stmt(stmtOf({accessOf("x", "")})));
  Loop Inner = loopOf("j");
  Inner.Body.push_back(
      Node::stmt(stmtOf({accessOf("y", ""), accessOf("p", "ix")})));
  N.Root.Body.push_back(Node::loop(std::move(Inner)));
  N.Root.Body.push_back(Node::stmt(stmtOf({accessOf("q", "iy")})));

  const Access *G = firstGather(N);
  ASSERT_NE(G, nullptr);
  EXPECT_EQ(G, &N.Root.Body[1].loop().Body[0].S.Accesses[1]);
  EXPECT_EQ(G->Text, "p[i][ix]");
}

TEST(PointGatherTest, FirstGatherNoneWithoutGatherIndex) {
  LoopNest N;
  N.Root = loopOf("i");
  N.Root.Body.push_back(
      Node::stmt(stmtOf({accessOf("x", ""), accessOf("y", "")})));
  EXPECT_EQ(firstGather(N), nullptr);
}

// A point gather comes first in program order; the first row gather is the
// later one that names its pick loop.
TEST(PointGatherTest, FirstRowGatherSkipsPointGathers) {
  LoopNest N;
  N.Root = loopOf("i");
  N.Root.Body.push_back(Node::stmt(stmtOf({accessOf("p", "ix")})));
  Access Row = accessOf("w", "iw");
  Row.GatherLoop = "i";
  N.Root.Body.push_back(Node::stmt(stmtOf({accessOf("x", ""), Row})));

  EXPECT_EQ(firstGather(N), &N.Root.Body[0].S.Accesses[0]);
  const Access *G = firstRowGather(N);
  ASSERT_NE(G, nullptr);
  EXPECT_EQ(G, &N.Root.Body[1].S.Accesses[1]);
  EXPECT_EQ(G->GatherIndex, "iw");
}

TEST(PointGatherTest, FirstRowGatherNoneWithPointGathersOnly) {
  LoopNest N;
  N.Root = loopOf("i");
  N.Root.Body.push_back(Node::stmt(stmtOf({accessOf("p", "ix")})));
  EXPECT_EQ(firstRowGather(N), nullptr);
}

} // namespace
