//===- UnivariateTest.cpp - Polynomials sampled along one size ------------===//

#include "roofline/Analysis/Univariate.h"

#include <gtest/gtest.h>

#include <random>

using namespace roofline;

namespace {

Polynomial ok(llvm::Expected<Polynomial> P) {
  if (!P) {
    ADD_FAILURE() << llvm::toString(P.takeError());
    return Polynomial();
  }
  return std::move(*P);
}

/// The oracle: the exact value of P with every variable bound.
double exactAt(const Polynomial &P, const std::map<std::string, Int128> &V) {
  llvm::Expected<Rational> R = P.evaluate(V);
  if (!R) {
    ADD_FAILURE() << llvm::toString(R.takeError());
    return 0;
  }
  return R->toDouble();
}

TEST(UnivariateTest, RandomPolynomialsAgreeWithExactEvaluation) {
  std::mt19937 Rng(7);
  const char *Names[] = {"K", "M", "N"};
  for (int Trial = 0; Trial < 300; ++Trial) {
    Polynomial P;
    for (int T = 0; T < 5; ++T) {
      Polynomial Term(*Rational::make(static_cast<int64_t>(Rng() % 19) - 9,
                                      1 + static_cast<int64_t>(Rng() % 4)));
      for (const char *Name : Names)
        Term = ok(Term.mul(ok(Polynomial::var(Name).pow(Rng() % 3))));
      P = ok(P.add(Term));
    }
    // N free, the others bound; then K and N free together (the plot's
    // case of several unbound sizes drawn at the same value).
    std::map<std::string, double> Bound = {{"K", 5}, {"M", 7}};
    std::optional<UnivariateApprox> U = UnivariateApprox::of(P, {"N"}, Bound);
    std::optional<UnivariateApprox> UK =
        UnivariateApprox::of(P, {"K", "N"}, {{"M", 7}});
    ASSERT_TRUE(U && UK);
    for (int64_t X : {1, 2, 3, 17, 1000}) {
      double Want = exactAt(P, {{"K", 5}, {"M", 7}, {"N", X}});
      EXPECT_NEAR((*U)(X), Want, 1e-9 * std::max(1.0, std::abs(Want)))
          << P.str() << " at N=" << X;
      double WantK = exactAt(P, {{"K", X}, {"M", 7}, {"N", X}});
      EXPECT_NEAR((*UK)(X), WantK, 1e-9 * std::max(1.0, std::abs(WantK)))
          << P.str() << " at K=N=" << X;
    }
  }
}

TEST(UnivariateTest, AnUnboundVariableGivesNothing) {
  Polynomial P = ok(Polynomial::var("N").mul(Polynomial::var("M")));
  EXPECT_FALSE(UnivariateApprox::of(P, {"N"}, {}));
  EXPECT_TRUE(UnivariateApprox::of(P, {"N"}, {{"M", 2}}));
  // The zero polynomial and constants are fine.
  std::optional<UnivariateApprox> Z = UnivariateApprox::of(Polynomial(), {"N"}, {});
  ASSERT_TRUE(Z);
  EXPECT_EQ((*Z)(3), 0);
  std::optional<UnivariateApprox> C =
      UnivariateApprox::of(Polynomial(*Rational::make(5, 2)), {"N"}, {});
  ASSERT_TRUE(C);
  EXPECT_EQ((*C)(100), 2.5);
  EXPECT_EQ(C->degree(), 0u);
}

} // namespace
