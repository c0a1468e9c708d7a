//===- RationalTest.cpp - Exact rationals ----------------------------------===//

#include "roofline/IR/Rational.h"

#include <gtest/gtest.h>

using namespace roofline;

namespace {

using UInt128 = unsigned __int128;
const Int128 Max128 = static_cast<Int128>((~static_cast<UInt128>(0)) >> 1);
const Int128 Min128 = -Max128 - 1;

Rational q(Int128 N, Int128 D = 1) {
  auto R = Rational::make(N, D);
  EXPECT_TRUE(R.has_value());
  return R.value_or(Rational());
}

TEST(RationalTest, Normalizes) {
  Rational R = q(6, -4);
  EXPECT_EQ(R.num(), -3);
  EXPECT_EQ(R.den(), 2);
  EXPECT_EQ(R.str(), "-3/2");
  EXPECT_EQ(q(0, -7).den(), 1);
  EXPECT_EQ(q(0, -7).str(), "0");
  EXPECT_EQ(q(10, 5).str(), "2");
  EXPECT_TRUE(q(10, 5).isInteger());
  EXPECT_FALSE(Rational::make(1, 0).has_value());
  EXPECT_EQ(q(-5).sign(), -1);
  EXPECT_EQ(Rational().sign(), 0);
}

TEST(RationalTest, Arithmetic) {
  EXPECT_EQ(*q(1, 2).add(q(1, 3)), q(5, 6));
  EXPECT_EQ(*q(1, 2).sub(q(1, 3)), q(1, 6));
  EXPECT_EQ(*q(2, 3).mul(q(9, 4)), q(3, 2));
  EXPECT_EQ(*q(2, 3).div(q(-4, 9)), q(-3, 2));
  EXPECT_FALSE(q(2, 3).div(Rational(0)).has_value());
  EXPECT_EQ(q(-7, 3).neg(), q(7, 3));
  EXPECT_DOUBLE_EQ(q(1, 4).toDouble(), 0.25);
}

TEST(RationalTest, OverflowIsReportedNotWrapped) {
  Rational Big = q(Max128);
  EXPECT_FALSE(Big.add(Rational(1)).has_value());
  EXPECT_FALSE(Big.mul(Rational(2)).has_value());
  EXPECT_FALSE(Big.neg().sub(Rational(2)).has_value());
  // -Max - 1 is INT128_MIN: not representable under the class invariant.
  EXPECT_FALSE(Big.neg().sub(Rational(1)).has_value());
  EXPECT_FALSE(Rational::make(Min128, 1).has_value());
  // Cross reduction avoids spurious overflow: (Max/3) * (3/Max) == 1.
  auto A = Rational::make(Max128, 3), B = Rational::make(3, Max128);
  ASSERT_TRUE(A && B);
  auto P = A->mul(*B);
  ASSERT_TRUE(P.has_value());
  EXPECT_EQ(*P, Rational(1));
  // Big denominators that do not share factors overflow when added.
  auto C = Rational::make(1, Max128), D = Rational::make(1, Max128 - 1);
  ASSERT_TRUE(C && D);
  EXPECT_FALSE(C->add(*D).has_value());
  // 2^64 * 2^64 = 2^128 does not fit, 2^63 * 2^63 does.
  Rational P64 = q(static_cast<Int128>(1) << 64);
  EXPECT_FALSE(P64.mul(P64).has_value());
  Rational P63 = q(static_cast<Int128>(1) << 63);
  EXPECT_EQ(P63.mul(P63)->num(), static_cast<Int128>(1) << 126);
}

TEST(RationalTest, ExactComparisonWithoutOverflow) {
  EXPECT_TRUE(q(1, 3) < q(1, 2));
  EXPECT_FALSE(q(1, 2) < q(1, 3));
  EXPECT_FALSE(q(1, 2) < q(1, 2));
  EXPECT_TRUE(q(-1, 2) < q(-1, 3));
  EXPECT_TRUE(q(-5) < q(3, 7));
  // Cross products would overflow here.
  auto A = Rational::make(Max128 - 1, Max128);
  auto B = Rational::make(Max128 - 2, Max128 - 1);
  ASSERT_TRUE(A && B);
  EXPECT_TRUE(*B < *A);
  EXPECT_FALSE(*A < *B);
  EXPECT_TRUE(A->neg() < B->neg());
}

TEST(RationalTest, Int128ToString) {
  EXPECT_EQ(int128ToString(0), "0");
  EXPECT_EQ(int128ToString(-42), "-42");
  EXPECT_EQ(int128ToString(Max128), "170141183460469231731687303715884105727");
  EXPECT_EQ(int128ToString(Min128), "-170141183460469231731687303715884105728");
  Int128 E21 = static_cast<Int128>(1000000000000LL) * 1000000000;
  EXPECT_EQ(int128ToString(E21), "1000000000000000000000");
}

} // namespace
