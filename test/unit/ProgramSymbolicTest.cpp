//===- ProgramSymbolicTest.cpp - A pass's counts as polynomials -----------===//
//
// SymbolicRollup (lib/Frontend/ProgramSymbolic.h) and the report's
// evaluation of its formulas (Report/ProgramFormulas.h), checked against
// sums worked out by brute force.

#include "ProgramSymbolic.h"
#include "roofline/Report/ProgramFormulas.h"

#include "gtest/gtest.h"

using namespace roofline;
using namespace roofline::frontend;

namespace {

Polynomial var(const char *N) { return Polynomial::var(std::string(N)); }

/// A nest whose FLOPs are its size `n` and bytes 8n (scale(x, n)), as the
/// walk's caller hands it over (nestFormulas).
NestFormulas scaleCounts() {
  NestCounts C;
  C.Flops.Formula = var("n");
  C.Macs.Formula = Polynomial();
  C.BytesCompulsory.Formula = *var("n").scale(Rational(8));
  return nestFormulas(C);
}

int64_t at(const ProgramSymbolic &P, const Polynomial &F,
           std::map<std::string, std::optional<int64_t>> Values) {
  ProgramSymbolic Q = P;
  Q.Variables = std::move(Values);
  llvm::Expected<Rational> V = evaluateProgramFormula(F, Q);
  EXPECT_TRUE(bool(V)) << (V ? "" : llvm::toString(V.takeError()));
  return V && V->isInteger() ? int64_t(V->num()) : -1;
}

TEST(ProgramSymbolicTest, ArithKeepsExactQuotientsAndNamesTheOthers) {
  ProgramSymbolic Out;
  SymbolicRollup R(Out);
  SymVal C = R.size("C", 8), NH = R.size("NH", 3);
  SymVal Four = SymbolicRollup::constant(4);
  // (4*C)/2 is 2*C for every C; C/NH is a size of its own.
  SymVal Half = R.arith('/', R.arith('*', Four, C), SymbolicRollup::constant(2));
  ASSERT_TRUE(Half.known());
  EXPECT_EQ(Half.P->str(), "2*C");
  SymVal Q = R.arith('/', C, NH);
  ASSERT_TRUE(Q.known());
  EXPECT_EQ(Q.P->str(), "floor(C/NH)");
  ASSERT_EQ(Out.Atoms.count("floor(C/NH)"), 1u);
  // Constants divide as C does; a remainder of sizes has no polynomial.
  EXPECT_EQ(R.arith('/', SymbolicRollup::constant(-7),
                    SymbolicRollup::constant(2)).P->str(), "-3");
  EXPECT_FALSE(R.arith('%', C, NH).known());
  EXPECT_EQ(R.arith('<', C, SymbolicRollup::constant(3)).P->str(), "8*C");
}

TEST(ProgramSymbolicTest, LoopSumsTheFirstIterationOverItsVariable) {
  // for (t = 0; t < T; t++) scale(x, t + 1): sum (t + 1) = (T^2 + T)/2.
  ProgramSymbolic Out;
  SymbolicRollup R(Out);
  SymVal T = R.size("T", std::nullopt);
  R.beginLoop("t#1");
  SymVal N = R.arith('+', SymVal::of(var("t#1")), SymbolicRollup::constant(1));
  R.addNest("f > scale", "scale", {"a.c", 3, 1}, scaleCounts(), {{"n", N}});
  R.endLoop(SymbolicRollup::constant(0),
            R.arith('-', T, SymbolicRollup::constant(1)), "line 1");
  R.finish();
  ASSERT_EQ(Out.Rows.size(), 1u);
  ASSERT_TRUE(Out.Rows[0].Flops.Formula);
  EXPECT_EQ(Out.Rows[0].Flops.Formula->str(), "(T^2 + T)/2");
  // Against the loop run by hand at several T.
  for (int64_t TV : {0, 1, 2, 7, 100}) {
    int64_t Flops = 0;
    for (int64_t I = 0; I < TV; ++I)
      Flops += I + 1;
    EXPECT_EQ(at(Out, *Out.Rows[0].Flops.Formula, {{"T", TV}}), Flops);
    EXPECT_EQ(at(Out, *Out.Rows[0].Bytes.Formula, {{"T", TV}}), 8 * Flops);
  }
}

TEST(ProgramSymbolicTest, NestedLoopsAndQuotients) {
  // for l < L: for h < NH: scale(x, C / NH): L * NH * floor(C/NH).
  ProgramSymbolic Out;
  SymbolicRollup R(Out);
  SymVal L = R.size("L", 2), C = R.size("C", 10), NH = R.size("NH", 3);
  SymVal Hs = R.arith('/', C, NH);
  R.beginLoop("l#1");
  R.beginLoop("h#2");
  R.addNest("f > scale", "scale", {"a.c", 3, 1}, scaleCounts(), {{"n", Hs}});
  R.endLoop(SymbolicRollup::constant(0),
            R.arith('-', NH, SymbolicRollup::constant(1)), "line 2");
  R.endLoop(SymbolicRollup::constant(0),
            R.arith('-', L, SymbolicRollup::constant(1)), "line 1");
  R.finish();
  ASSERT_TRUE(Out.Rows[0].Flops.Formula);
  for (int64_t LV : {0, 1, 3})
    for (int64_t CV : {0, 5, 12, 13})
      for (int64_t HV : {1, 2, 4}) {
        int64_t Flops = LV * HV * (CV / HV);
        EXPECT_EQ(at(Out, *Out.Rows[0].Flops.Formula,
                     {{"L", LV}, {"C", CV}, {"NH", HV}}),
                  Flops);
      }
}

TEST(ProgramSymbolicTest, ATaintedLoopKeepsNoFormulaAndSaysWhy) {
  ProgramSymbolic Out;
  SymbolicRollup R(Out);
  SymVal L = R.size("L", 3), N = R.size("n", 4);
  R.beginLoop("l#1");
  // A condition on l: the first iteration does not stand for the others.
  EXPECT_TRUE(R.taintLoopsUsing(*R.arith('-', SymVal::of(var("l#1")),
                                         SymbolicRollup::constant(0)).P,
                                "the branch on 'l == 0' depends on l"));
  R.addNest("f > scale", "scale", {"a.c", 3, 1}, scaleCounts(), {{"n", N}});
  R.endLoop(SymbolicRollup::constant(0),
            R.arith('-', L, SymbolicRollup::constant(1)), "line 1");
  R.finish();
  ASSERT_EQ(Out.Rows.size(), 1u);
  EXPECT_FALSE(Out.Rows[0].Flops.Formula);
  EXPECT_EQ(Out.Rows[0].Flops.WhyNot, "the branch on 'l == 0' depends on l");
  EXPECT_FALSE(Out.LeftOut.empty()); // the pass says so, not only the row
}

TEST(ProgramSymbolicTest, AMutedIterationAddsNothing) {
  ProgramSymbolic Out;
  SymbolicRollup R(Out);
  SymVal N = R.size("n", 4);
  R.mute();
  R.addNest("f > scale", "scale", {"a.c", 3, 1}, scaleCounts(), {{"n", N}});
  R.unmute();
  R.finish();
  EXPECT_TRUE(Out.Rows.empty());
}

} // namespace
