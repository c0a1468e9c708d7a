//===- AffineTest.cpp - AffineExpr and Bound -------------------------------===//

#include "roofline/IR/Affine.h"

#include "roofline/Support/SmallSortedMap.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <limits>
#include <map>
#include <random>
#include <vector>

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

/// SmallSortedMap against std::map, the container it replaced in
/// AffineExpr: the same entries in the same order after any sequence of
/// inserts, updates and erases, and the same == and < between two maps.
TEST(AffineTest, SmallSortedMapActsAsStdMap) {
  std::mt19937 Rng(23);
  const std::vector<std::string> Names = {"N", "i", "j", "k", "K", "ii",
                                          "j_g", "B*T"};
  using Small = SmallSortedMap<std::string, int64_t, 2>;
  using Ref = std::map<std::string, int64_t>;
  auto Same = [](const Small &S, const Ref &R) {
    return std::vector<std::pair<std::string, int64_t>>(S.begin(), S.end()) ==
           std::vector<std::pair<std::string, int64_t>>(R.begin(), R.end());
  };
  for (int Round = 0; Round < 200; ++Round) {
    Small S[2];
    Ref R[2];
    for (int Step = 0; Step < 12; ++Step) {
      unsigned W = Rng() % 2;
      const std::string &Name = Names[Rng() % Names.size()];
      switch (Rng() % 4) {
      case 0:
        S[W][Name] += 1;
        R[W][Name] += 1;
        break;
      case 1:
        S[W].erase(Name);
        R[W].erase(Name);
        break;
      case 2:
        S[W].emplace(Name, 7);
        R[W].emplace(Name, 7);
        break;
      default:
        EXPECT_EQ(S[W].count(Name), R[W].count(Name));
        EXPECT_EQ(S[W].find(Name) == S[W].end(), R[W].find(Name) == R[W].end());
      }
      ASSERT_TRUE(Same(S[W], R[W]));
      EXPECT_EQ(S[0] == S[1], R[0] == R[1]);
      EXPECT_EQ(S[0] < S[1], R[0] < R[1]);
      EXPECT_EQ(S[1] < S[0], R[1] < R[0]);
    }
  }
}

TEST(AffineTest, TermsSortedByName) {
  AffineExpr E = *AffineExpr::var("k").add(AffineExpr::var("N", 2));
  E = *E.add(AffineExpr::var("i", -1));
  std::vector<std::string> Order;
  for (const auto &[Name, C] : E.terms())
    Order.push_back(Name);
  EXPECT_EQ(Order, (std::vector<std::string>{"N", "i", "k"}));
  EXPECT_EQ(E.str(), "2*N - i + k");
  EXPECT_TRUE(*E.sub(E) == AffineExpr());
}

} // namespace
