//===- ReferenceTest.cpp - The reference's magnitudes (rl::mv) -------------===//
//
// roofline_reference.h carries each value's magnitude, the scale of the
// checker's tolerance. A select (a ReLU's `y > 0 ? y : 0`) decided by a
// comparison within rounding may go the other way in a variant, whose
// output is then the other branch: the magnitude must cover both.
//
//===----------------------------------------------------------------------===//

#include "roofline_reference.h"

#include <gtest/gtest.h>

namespace {

TEST(ReferenceMagnitude, SelectCoversTheBranchNotTaken) {
  // y = 1 - 1 - 1e-12: just below zero in the reference, its rounding error
  // in a variant scaled by y's magnitude (3), not by the 0 the ReLU picks.
  rl::mv Y = rl::mv_of(1.0) - rl::mv_of(1.0) - rl::mv_of(1e-12);
  rl::mv Out = rl::m_select(Y > rl::mv_of(0.0), Y, rl::mv_of(0.0));
  EXPECT_EQ(Out.v, 0.0);
  EXPECT_DOUBLE_EQ(Out.m, 2.0 + 1e-12);
  rl::mv Taken = rl::m_select(true, rl::mv_of(-5.0), rl::mv_of(2.0));
  EXPECT_EQ(Taken.v, -5.0);
  EXPECT_EQ(Taken.m, 5.0);
}

TEST(ReferenceMagnitude, ArithmeticAddsMagnitudes) {
  rl::mv X = rl::mv_of(3.0) * rl::mv_of(-2.0) + rl::mv_of(4.0);
  EXPECT_EQ(X.v, -2.0);
  EXPECT_EQ(X.m, 10.0);
  EXPECT_EQ((rl::mv_of(1.0) - rl::mv_of(1.0)).m, 2.0);
}

} // namespace
