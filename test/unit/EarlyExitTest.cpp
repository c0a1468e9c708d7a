//===- EarlyExitTest.cpp - Loops that stop early on the data --------------===//
//
// A loop that may stop after any iteration (Loop::ExitsEarly) makes the
// work and the compulsory bytes a range (docs/design.md, "Early exits"). The
// oracle is the brute-force interpreter run on the two nests that realize
// the ends, written out by hand: the loop run once per entry (every exit
// taken at once) and run whole (none taken).
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

const Precision F32 = Precision::F32;

/// A row's running sum stopped at a limit: for r { for i { s += x[r][i];
/// if (s > lim) break; } out[r] = s; }. \p End: "exit" (the inner loop
/// marked), "first" (it runs i = 0 only), "all" (it runs whole).
LoopNest cappedSums(const std::string &End, int64_t R = 3, int64_t C = 5) {
  AffineExpr Rv = v("r"), I = v("i");
  Node Inner = End == "first"
                   ? loop("i", k(0), k(0), {stmt({rd("x", {Rv, I})}, add())})
                   : upto("i", v("C"), {stmt({rd("x", {Rv, I})}, add())});
  Inner.loop().ExitsEarly = End == "exit";
  Node Root = upto("r", v("R"), {Inner, stmt({wr("out", {Rv})})});
  return nest("capped_sums", {{"R", R}, {"C", C}},
              {arr("x", F32, {v("R"), v("C")}), arr("out", F32, {v("R")})},
              std::move(Root));
}

TEST(EarlyExitTest, EndsAreTheFirstIterationAndAll) {
  NestCounts C = analyzed(cappedSums("exit"));
  brute::Counts First = brute::run(cappedSums("first"));
  brute::Counts All = brute::run(cappedSums("all"));
  ASSERT_TRUE(C.WorkIsRange && C.BytesIsRange);
  EXPECT_EQ(*C.FlopsMin.Value, First.Flops);
  EXPECT_EQ(*C.Flops.Value, All.Flops);
  EXPECT_EQ(*C.BytesCompulsoryMin.Value, First.BytesCompulsory);
  EXPECT_EQ(*C.BytesCompulsory.Value, All.BytesCompulsory);
  const ArrayTraffic &X = trafficOf(C, "x");
  EXPECT_TRUE(X.ElementsAreRange);
  EXPECT_EQ(*X.ElementsReadMin.Value, First.Arrays["x"].Read);
  EXPECT_EQ(*X.ElementsRead.Value, All.Arrays["x"].Read);
  EXPECT_EQ(*trafficOf(C, "out").ElementsWrittenMin.Value, 3);
  // What depends on where the loop stops is withdrawn, with the reason.
  EXPECT_FALSE(C.Loads.Value || C.BytesNoReuse.Value || C.Iterations.Value);
  EXPECT_NE(C.Loads.WhyNot.find("stops"), std::string::npos);
  EXPECT_FALSE(X.Loads.Value);
  // The outer loop's total does not depend on it; the inner loop's does.
  ASSERT_EQ(C.Loops.size(), 2u);
  EXPECT_EQ(*C.Loops[0].Total.Value, 3);
  EXPECT_FALSE(C.Loops[1].Total.Value);
}

TEST(EarlyExitTest, FormulasOfBothEnds) {
  LoopNest N = cappedSums("exit");
  for (Param &P : N.Params)
    P.Value.reset();
  NestCounts C = analyzed(N);
  ASSERT_TRUE(C.FlopsMin.Formula && C.Flops.Formula);
  EXPECT_EQ(C.FlopsMin.Formula->str(), "R");
  EXPECT_EQ(C.Flops.Formula->str(), "C*R");
  EXPECT_EQ(C.BytesCompulsoryMin.Formula->str(), "8*R");
  EXPECT_EQ(C.BytesCompulsory.Formula->str(), "4*C*R + 4*R");
}

// At sizes where the loop runs no iteration, nothing stops: the lower end
// is the upper one, not "one iteration".
TEST(EarlyExitTest, LoopThatRunsNoIteration) {
  NestCounts C = analyzed(cappedSums("exit", 3, 0));
  brute::Counts All = brute::run(cappedSums("all", 3, 0));
  EXPECT_EQ(*C.FlopsMin.Value, All.Flops);
  EXPECT_EQ(*C.BytesCompulsoryMin.Value, All.BytesCompulsory);
}

// Two loops that may stop, one of them empty at these sizes (as when a
// condition splits the loop around them into parts, one empty): the other
// still stops at its first iteration at the lower end. A first version took
// any empty one as "nothing stops" and gave the upper end for both.
TEST(EarlyExitTest, OneOfTwoExitLoopsIsEmpty) {
  auto TwoLoops = [](bool First) {
    Node A = First ? loop("i", k(0), k(0), {stmt({rd("x", {v("i")})}, add())})
                   : upto("i", v("C"), {stmt({rd("x", {v("i")})}, add())});
    Node B = upto("j", v("Z"), {stmt({rd("y", {v("j")})}, add())});
    A.loop().ExitsEarly = B.loop().ExitsEarly = !First;
    Node Root = upto("r", v("R"), {A, B});
    return nest("two", {{"R", 2}, {"C", 5}, {"Z", 0}},
                {arr("x", F32, {v("C")}), arr("y", F32, {v("Z")})},
                std::move(Root));
  };
  NestCounts C = analyzed(TwoLoops(false));
  brute::Counts First = brute::run(TwoLoops(true));
  EXPECT_EQ(*C.FlopsMin.Value, First.Flops);
  EXPECT_EQ(*C.BytesCompulsoryMin.Value, First.BytesCompulsory);
  EXPECT_EQ(*C.Flops.Value, 10);
}

// A triangular loop may be empty on some entries and not on others: no
// lower end is known, so the nest is refused.
TEST(EarlyExitTest, RefusedWhenTheBoundsMoveWithAnOuterLoop) {
  LoopNest N = cappedSums("exit");
  N.Root.Body[0].loop().Last = Bound::single(v("r") - 1);
  llvm::Expected<NestCounts> C = analyzeNest(N);
  ASSERT_FALSE(bool(C));
  EXPECT_NE(llvm::toString(C.takeError()).find("bounds move with loop r"),
            std::string::npos);
}

// A return from the outermost loop: the nest stops at its first iteration
// at least, and the inner loop runs whole in it.
TEST(EarlyExitTest, OutermostLoopStops) {
  LoopNest N = cappedSums("all");
  N.Root.ExitsEarly = true;
  NestCounts C = analyzed(N);
  LoopNest Once = cappedSums("all");
  Once.Root.Last = Bound::single(k(0));
  brute::Counts First = brute::run(Once);
  EXPECT_EQ(*C.FlopsMin.Value, First.Flops);
  EXPECT_EQ(*C.BytesCompulsoryMin.Value, First.BytesCompulsory);
  EXPECT_EQ(*C.Flops.Value, brute::run(cappedSums("all")).Flops);
  EXPECT_FALSE(C.Loops[0].Total.Value);
}

} // namespace
