//===- AffineTest.cpp - AffineExpr and Bound -------------------------------===//

#include "roofline/IR/Affine.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <limits>

using namespace roofline;

namespace {

TEST(AffineTest, ArithmeticDropsZeroTerms) {
  AffineExpr I = AffineExpr::var("i");
  AffineExpr N = AffineExpr::var("N");
  AffineExpr E = *I.add(N)->addConstant(-1);
  EXPECT_EQ(E.str(), "N + i - 1");
  AffineExpr Back = *E.sub(I);
  EXPECT_FALSE(Back.uses("i"));
  EXPECT_EQ(Back.str(), "N - 1");
  EXPECT_EQ(AffineExpr().str(), "0");
  EXPECT_EQ(AffineExpr::var("k", -2).str(), "-2*k");
}

TEST(AffineTest, SubstituteAndScale) {
  AffineExpr E = *AffineExpr::var("i", 3).addConstant(2); // 3i + 2
  AffineExpr By = *AffineExpr::var("t", 2).addConstant(1); // i = 2t + 1
  AffineExpr R = *E.substitute("i", By);
  EXPECT_EQ(R.coeff("t"), 6);
  EXPECT_EQ(R.constant(), 5);
  EXPECT_EQ(R.scale(0)->str(), "0");
}

TEST(AffineTest, OverflowIsReportedNotWrapped) {
  AffineExpr Big(std::numeric_limits<int64_t>::max());
  EXPECT_FALSE(Big.addConstant(1).has_value());
  EXPECT_FALSE(AffineExpr::var("i", INT64_MAX / 2 + 1).scale(2).has_value());
  EXPECT_EQ(AffineExpr(std::numeric_limits<int64_t>::min()).str(),
            "-9223372036854775808");
}

TEST(AffineTest, BoundPrinting) {
  Bound B;
  B.Kind = Bound::Min;
  B.Terms.push_back({*AffineExpr::var("ii").addConstant(31), 1});
  B.Terms.push_back({*AffineExpr::var("N").addConstant(-1), 1});
  EXPECT_EQ(B.str(), "min(ii + 31, N - 1)");
  EXPECT_TRUE(B.uses("ii"));
  EXPECT_FALSE(B.isAffine());
  Bound D;
  D.Terms.push_back({*AffineExpr::var("N").addConstant(-2), 2});
  EXPECT_EQ(D.str(), "floor((N - 2)/2)");
  EXPECT_TRUE(Bound::single(AffineExpr(4)).isAffine());
}

} // namespace
