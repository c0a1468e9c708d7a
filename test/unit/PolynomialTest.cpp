//===- PolynomialTest.cpp - Polynomials and exact sums ---------------------===//

#include "roofline/IR/Polynomial.h"

#include <gtest/gtest.h>

#include <random>

using namespace roofline;

namespace {

Polynomial v(const char *N) { return Polynomial::var(N); }
Polynomial c(int64_t K) { return Polynomial(Rational(K)); }

Polynomial ok(llvm::Expected<Polynomial> P) {
  if (!P) {
    ADD_FAILURE() << llvm::toString(P.takeError());
    return Polynomial();
  }
  return std::move(*P);
}

Polynomial operator+(const Polynomial &A, const Polynomial &B) {
  return ok(A.add(B));
}
Polynomial operator-(const Polynomial &A, const Polynomial &B) {
  return ok(A.sub(B));
}
Polynomial operator*(const Polynomial &A, const Polynomial &B) {
  return ok(A.mul(B));
}

Rational eval(const Polynomial &P, std::map<std::string, Int128> Vals) {
  auto R = P.evaluate(Vals);
  if (!R) {
    ADD_FAILURE() << llvm::toString(R.takeError());
    return Rational();
  }
  return *R;
}

TEST(PolynomialTest, Arithmetic) {
  Polynomial N = v("N"), M = v("M");
  Polynomial P = (N + c(1)) * (N - c(1));
  EXPECT_EQ(P.str(), "N^2 - 1");
  EXPECT_EQ((P - P).str(), "0");
  EXPECT_TRUE((P - P).isZero());
  EXPECT_EQ(P.degreeIn("N"), 2u);
  EXPECT_TRUE(P.uses("N"));
  EXPECT_FALSE(P.uses("M"));
  EXPECT_EQ(P.constant(), Rational(-1));
  EXPECT_FALSE(P.isConstant());
  EXPECT_TRUE(c(3).isConstant());
  EXPECT_EQ(ok((N + M).pow(2)).str(), "M^2 + 2*M*N + N^2");
  EXPECT_EQ(ok((N + M).pow(0)).str(), "1");
  EXPECT_EQ(ok(P.scale(Rational(0))).str(), "0");
  EXPECT_EQ(ok(P.substitute("N", M + c(1))).str(), "M^2 + 2*M");
  EXPECT_EQ(ok(Polynomial::fromAffine(AffineExpr::var("i", 2).add(
                                          AffineExpr(-3))
                                          .value()))
                .str(),
            "2*i - 3");
}

TEST(PolynomialTest, DeterministicPrinting) {
  Polynomial K = v("K"), M = v("M"), N = v("N");
  EXPECT_EQ((c(2) * N * M * K).str(), "2*K*M*N");
  EXPECT_EQ((N * N + N + c(1)).str(), "N^2 + N + 1");
  EXPECT_EQ((c(1) - N).str(), "-N + 1");
  EXPECT_EQ((N * M + M * M + N * N * N).str(), "N^3 + M^2 + M*N");
  Polynomial Half = ok((N * N + N).scale(*Rational::make(1, 2)));
  EXPECT_EQ(Half.str(), "(N^2 + N)/2");
  EXPECT_EQ(ok(N.scale(*Rational::make(-3, 2))).str(), "-3*N/2");
  Polynomial Mixed =
      ok(N.scale(*Rational::make(1, 2))) + ok(M.scale(*Rational::make(1, 3)));
  EXPECT_EQ(Mixed.str(), "(2*M + 3*N)/6");
  EXPECT_EQ(Polynomial(*Rational::make(-1, 2)).str(), "-1/2");
  EXPECT_EQ(Polynomial().str(), "0");
}

TEST(PolynomialTest, EvaluateNamesUnboundVariable) {
  Polynomial P = v("N") * v("M");
  EXPECT_EQ(eval(P, {{"N", 3}, {"M", 4}}), Rational(12));
  auto R = P.evaluate({{"N", 3}});
  ASSERT_FALSE(R);
  EXPECT_NE(llvm::toString(R.takeError()).find("'M'"), std::string::npos);
}

TEST(PolynomialTest, OverflowIsAnError) {
  Polynomial Big(*Rational::make(static_cast<Int128>(1) << 100, 1));
  auto Sq = Big.mul(Big);
  ASSERT_FALSE(Sq);
  EXPECT_NE(llvm::toString(Sq.takeError()).find("128-bit"),
            std::string::npos);
  auto E = v("N").evaluate({{"N", static_cast<Int128>(1) << 100}});
  ASSERT_TRUE(bool(E));
  auto E2 = ok(v("N").pow(2)).evaluate({{"N", static_cast<Int128>(1) << 100}});
  EXPECT_FALSE(E2);
  llvm::consumeError(E2.takeError());
}

TEST(PolynomialTest, TriangularSum) {
  // sum_{i=0}^{N-1} sum_{j=0}^{i} 1 = (N^2 + N)/2
  Polynomial Inner = ok(sumOver(c(1), "j", c(0), v("i")));
  EXPECT_EQ(Inner.str(), "i + 1");
  Polynomial Outer = ok(sumOver(Inner, "i", c(0), v("N") - c(1)));
  EXPECT_EQ(Outer.str(), "(N^2 + N)/2");
  // gemm: sum over three rectangular loops.
  Polynomial G = ok(sumOver(
      ok(sumOver(ok(sumOver(c(1), "k", c(0), v("K") - c(1))), "j", c(0),
                 v("M") - c(1))),
      "i", c(0), v("N") - c(1)));
  EXPECT_EQ(G.str(), "K*M*N");
  // Empty range (Hi = Lo - 1) sums to zero.
  EXPECT_EQ(eval(Outer, {{"N", 0}}), Rational(0));
  // The summed variable in a bound is our bug, reported as an error.
  auto Bad = sumOver(c(1), "i", v("i"), v("N"));
  EXPECT_FALSE(Bad);
  llvm::consumeError(Bad.takeError());
}

TEST(PolynomialTest, SumOverMatchesBruteForce) {
  std::mt19937_64 Rng(12345);
  for (int Iter = 0; Iter < 200; ++Iter) {
    // Random polynomial in v and a with small coefficients, degree <= 6.
    Polynomial P;
    int NTerms = 1 + Rng() % 4;
    for (int T = 0; T < NTerms; ++T) {
      Monomial M;
      unsigned DV = Rng() % 7, DA = Rng() % 3;
      if (DV)
        M["v"] = DV;
      if (DA)
        M["a"] = DA;
      P = P + Polynomial::monomial(
                  M, *Rational::make(static_cast<int64_t>(Rng() % 11) - 5,
                                     1 + Rng() % 3));
    }
    int64_t A = static_cast<int64_t>(Rng() % 9) - 4;
    int64_t Lo = static_cast<int64_t>(Rng() % 21) - 10;
    int64_t Hi = Lo - 1 + static_cast<int64_t>(Rng() % 15);
    // Bounds as polynomials in a: Lo + a - A and Hi + 2a - 2A.
    Polynomial LoP = c(Lo) + v("a") - c(A);
    Polynomial HiP = c(Hi) + c(2) * v("a") - c(2 * A);
    Polynomial S = ok(sumOver(P, "v", LoP, HiP));
    EXPECT_FALSE(S.uses("v"));
    Rational Expect(0);
    for (int64_t X = Lo; X <= Hi; ++X)
      Expect = *Expect.add(eval(P, {{"v", X}, {"a", A}}));
    EXPECT_EQ(eval(S, {{"a", A}}), Expect)
        << "P = " << P.str() << " v=" << Lo << ".." << Hi;
  }
}

TEST(PolynomialTest, SumOfPowersIsExactForLargeValues) {
  // sum_{v=1}^{10^7} v^3 = (n(n+1)/2)^2
  Polynomial S = ok(sumOver(ok(v("v").pow(3)), "v", c(1), v("n")));
  Int128 N = 10000000;
  Int128 Tri = N * (N + 1) / 2;
  EXPECT_EQ(eval(S, {{"n", N}}), *Rational::make(Tri * Tri, 1));
}

} // namespace
