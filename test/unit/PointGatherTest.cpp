//===- PointGatherTest.cpp - The point gathers of a nest -------------------===//

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
TEST(PointGatherTest, FirstPointGatherInProgramOrder) {
  LoopNest N;
  N.Root = loopOf("i");
  N.Root.Body.push_back(Node::stmt(stmtOf({accessOf("x", "")})));
  Loop Inner = loopOf("j");
  Inner.Body.push_back(
      Node::stmt(stmtOf({accessOf("y", ""), accessOf("p", "ix")})));
  N.Root.Body.push_back(Node::loop(std::move(Inner)));
  N.Root.Body.push_back(Node::stmt(stmtOf({accessOf("q", "iy")})));

  const Access *G = firstPointGather(N);
  ASSERT_NE(G, nullptr);
  EXPECT_EQ(G, &N.Root.Body[1].loop().Body[0].S.Accesses[1]);
  EXPECT_EQ(G->Text, "p[i][ix]");
}

TEST(PointGatherTest, FirstPointGatherNoneWithoutGatherIndex) {
  LoopNest N;
  N.Root = loopOf("i");
  N.Root.Body.push_back(
      Node::stmt(stmtOf({accessOf("x", ""), accessOf("y", "")})));
  EXPECT_EQ(firstPointGather(N), nullptr);
}

} // namespace
