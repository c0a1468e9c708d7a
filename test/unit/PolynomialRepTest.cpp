//===- PolynomialRepTest.cpp - Polynomial storage against a map reference -===//
//
// Polynomial keeps its terms in a shared, sorted block and promises the
// results (and overflow reports) of the straightforward
// std::map<Monomial, Rational> implementation it replaced. The reference
// below is that implementation; random operations, many with coefficients
// near the 128-bit limit, must agree with it term for term.
//
//===----------------------------------------------------------------------===//

#include "roofline/IR/Polynomial.h"

#include <gtest/gtest.h>

#include <atomic>
#include <random>
#include <thread>

using namespace roofline;

namespace {

//===----------------------------------------------------------------------===//
// Reference: map-based polynomials (the former implementation)
//===----------------------------------------------------------------------===//

using Terms = std::map<Monomial, Rational>;
using RefResult = std::optional<Terms>; ///< nullopt: overflow

Monomial mulMono(const Monomial &A, const Monomial &B) {
  Monomial R = A;
  for (const auto &[Name, E] : B)
    R[Name] += E;
  return R;
}

RefResult refAdd(const Terms &A, const Terms &B) {
  Terms R = A;
  for (const auto &[M, C] : B) {
    auto It = R.find(M);
    if (It == R.end()) {
      R.emplace(M, C);
      continue;
    }
    auto S = It->second.add(C);
    if (!S)
      return std::nullopt;
    if (S->isZero())
      R.erase(It);
    else
      It->second = *S;
  }
  return R;
}

RefResult refScale(const Terms &A, const Rational &K) {
  Terms R;
  if (K.isZero())
    return R;
  for (const auto &[M, C] : A) {
    auto V = C.mul(K);
    if (!V)
      return std::nullopt;
    R.emplace(M, *V);
  }
  return R;
}

RefResult refSub(const Terms &A, const Terms &B) {
  RefResult N = refScale(B, Rational(-1));
  return N ? refAdd(A, *N) : std::nullopt;
}

RefResult refMul(const Terms &A, const Terms &B) {
  Terms R;
  for (const auto &[MA, CA] : A)
    for (const auto &[MB, CB] : B) {
      auto C = CA.mul(CB);
      if (!C)
        return std::nullopt;
      Monomial M = mulMono(MA, MB);
      auto It = R.find(M);
      if (It == R.end()) {
        R.emplace(std::move(M), *C);
        continue;
      }
      auto S = It->second.add(*C);
      if (!S)
        return std::nullopt;
      if (S->isZero())
        R.erase(It);
      else
        It->second = *S;
    }
  return R;
}

RefResult refSubstitute(const Terms &A, const std::string &Name,
                        const Terms &By) {
  bool Uses = false;
  for (const auto &[M, C] : A)
    Uses |= M.count(Name) != 0;
  if (!Uses)
    return A;
  std::vector<Terms> Powers{Terms{{Monomial(), Rational(1)}}};
  Terms R;
  for (const auto &[M, C] : A) {
    auto It = M.find(Name);
    if (It == M.end()) {
      RefResult N = refAdd(R, Terms{{M, C}});
      if (!N)
        return std::nullopt;
      R = *N;
      continue;
    }
    unsigned E = It->second;
    while (Powers.size() <= E) {
      RefResult N = refMul(Powers.back(), By);
      if (!N)
        return std::nullopt;
      Powers.push_back(*N);
    }
    Monomial Rest = M;
    Rest.erase(Name);
    RefResult P = refMul(Terms{{Rest, C}}, Powers[E]);
    RefResult N = P ? refAdd(R, *P) : std::nullopt;
    if (!N)
      return std::nullopt;
    R = *N;
  }
  return R;
}

std::optional<Rational> refEvaluate(const Terms &A,
                                    const std::map<std::string, Int128> &V) {
  Rational Sum(0);
  for (const auto &[M, C] : A) {
    std::optional<Rational> T = C;
    for (const auto &[Name, E] : M) {
      auto X = Rational::make(V.at(Name), 1);
      if (!X)
        return std::nullopt;
      for (unsigned I = 0; I < E && T; ++I)
        T = T->mul(*X);
      if (!T)
        return std::nullopt;
    }
    auto S = Sum.add(*T);
    if (!S)
      return std::nullopt;
    Sum = *S;
  }
  return Sum;
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

Polynomial fromRef(const Terms &T) {
  std::vector<std::vector<Polynomial::Factor>> Monos;
  for (const auto &[M, C] : T) {
    Monos.emplace_back();
    for (const auto &[Name, E] : M)
      Monos.back().push_back({internName(Name), E});
  }
  std::vector<std::pair<llvm::ArrayRef<Polynomial::Factor>, Rational>> List;
  size_t I = 0;
  for (const auto &[M, C] : T)
    List.push_back({Monos[I++], C});
  return Polynomial::fromTerms(List);
}

/// Compares a result with the reference's: both fail, or both give the
/// same terms (in the same order) and the same text.
::testing::AssertionResult same(llvm::Expected<Polynomial> P,
                                const RefResult &R) {
  if (!P) {
    llvm::consumeError(P.takeError());
    if (!R)
      return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "failed, reference did not";
  }
  if (!R)
    return ::testing::AssertionFailure() << "succeeded, reference failed";
  if (P->terms() != *R)
    return ::testing::AssertionFailure() << "terms differ: " << P->str();
  // The fast accessors list the same terms in the same order.
  size_t I = 0;
  for (const auto &[M, C] : *R) {
    if (P->coef(I) != C || P->mono(I).size() != M.size())
      return ::testing::AssertionFailure() << "term " << I << " differs";
    size_t J = 0;
    for (const auto &[Name, E] : M) {
      const Polynomial::Factor &F = P->mono(I)[J++];
      if (*F.Name != Name || F.Exp != E)
        return ::testing::AssertionFailure() << "factor differs";
    }
    ++I;
  }
  if (fromRef(*R).str() != P->str() || !(fromRef(*R) == *P))
    return ::testing::AssertionFailure() << "text or equality differs";
  return ::testing::AssertionSuccess();
}

class Gen {
public:
  explicit Gen(uint64_t Seed) : Rng(Seed) {}

  Rational coef() {
    static const Int128 Big[] = {
        1, 2, 3, 5, 7, 12, (Int128)1 << 40, ((Int128)1 << 62) + 1,
        (Int128)1 << 100, ((Int128)1 << 126) - 3, ((Int128)1 << 126) + 5};
    Int128 N = Rng() % 4 ? static_cast<Int128>(Rng() % 9) + 1
                         : Big[Rng() % (sizeof(Big) / sizeof(Big[0]))];
    if (Rng() % 2)
      N = -N;
    Int128 D = Rng() % 5 ? 1 : static_cast<Int128>(Rng() % 6) + 2;
    return *Rational::make(N, D);
  }

  Terms poly() {
    static const char *Vars[] = {"N", "M", "i", "floor((N - 1)/2)"};
    Terms T;
    unsigned NT = Rng() % 5;
    for (unsigned K = 0; K < NT; ++K) {
      Monomial M;
      for (const char *V : Vars)
        if (Rng() % 3 == 0)
          M[V] = 1 + Rng() % 3;
      T[M] = coef();
    }
    return T;
  }

  std::mt19937_64 Rng;
};

TEST(PolynomialRepTest, MatchesMapReference) {
  int Failures = 0, Overflows = 0;
  for (uint64_t Seed = 1; Seed <= 3000 && Failures < 10; ++Seed) {
    Gen G(Seed);
    Terms A = G.poly(), B = G.poly();
    Polynomial PA = fromRef(A), PB = fromRef(B);
    ASSERT_EQ(PA.terms(), A);
    Rational K = G.coef();
    auto Check = [&](const char *What, llvm::Expected<Polynomial> P,
                     const RefResult &R) {
      Overflows += !R;
      ::testing::AssertionResult Ok = same(std::move(P), R);
      if (!Ok) {
        ++Failures;
        ADD_FAILURE() << What << " seed " << Seed << ": " << Ok.message();
      }
    };
    Check("add", PA.add(PB), refAdd(A, B));
    Check("sub", PA.sub(PB), refSub(A, B));
    Check("mul", PA.mul(PB), refMul(A, B));
    Check("scale", PA.scale(K), refScale(A, K));
    RefResult Scaled = refScale(B, K);
    Check("addScaled", PA.addScaled(PB, K),
          Scaled ? refAdd(A, *Scaled) : std::nullopt);
    Check("substitute", PA.substitute("N", PB), refSubstitute(A, "N", B));

    // In place: the same result, the other owner of a shared block
    // untouched, and no change on failure.
    Polynomial Acc = PA, Keep = PA;
    llvm::Error E = Acc.addScaledInPlace(PB, K);
    RefResult Expect = Scaled ? refAdd(A, *Scaled) : std::nullopt;
    if (E) {
      llvm::consumeError(std::move(E));
      EXPECT_FALSE(Expect) << "in place failed, seed " << Seed;
      EXPECT_EQ(Acc.terms(), A);
    } else {
      EXPECT_TRUE(Expect && Acc.terms() == *Expect) << "seed " << Seed;
    }
    EXPECT_EQ(Keep.terms(), A);
    Polynomial Own = fromRef(A); // not shared: may be updated in place
    if (llvm::Error E2 = Own.addScaledInPlace(PA, Rational(1))) {
      llvm::consumeError(std::move(E2));
      EXPECT_FALSE(refAdd(A, A));
      EXPECT_EQ(Own.terms(), A);
    } else {
      EXPECT_EQ(Own.terms(), *refAdd(A, A));
    }

    std::map<std::string, Int128> Vals{
        {"N", 7}, {"M", -3}, {"i", (Int128)1 << 40}, {"floor((N - 1)/2)", 3}};
    llvm::Expected<Rational> V = PA.evaluate(Vals);
    std::optional<Rational> RV = refEvaluate(A, Vals);
    EXPECT_EQ(bool(V), bool(RV)) << "evaluate, seed " << Seed;
    if (!V) {
      llvm::consumeError(V.takeError());
    } else if (RV) {
      EXPECT_EQ(*V, *RV);
    }
  }
  EXPECT_EQ(Failures, 0);
  // The comparison must cover failures too.
  EXPECT_GT(Overflows, 100);
}

TEST(PolynomialRepTest, SumOverMatchesNestedSums) {
  // sumOver against explicit summation of the reference at small ranges.
  for (uint64_t Seed = 1; Seed <= 300; ++Seed) {
    Gen G(Seed);
    Terms A;
    unsigned NT = 1 + G.Rng() % 4;
    for (unsigned K = 0; K < NT; ++K) {
      Monomial M;
      if (unsigned E = G.Rng() % 4)
        M["v"] = E;
      if (G.Rng() % 2)
        M["N"] = 1;
      A[M] = *Rational::make(static_cast<int64_t>(G.Rng() % 7) - 3,
                             1 + G.Rng() % 3);
    }
    Polynomial P = fromRef(A);
    int64_t Lo = static_cast<int64_t>(G.Rng() % 7) - 3;
    int64_t Hi = Lo - 1 + static_cast<int64_t>(G.Rng() % 6);
    llvm::Expected<Polynomial> S =
        sumOver(P, "v", Polynomial(Rational(Lo)), Polynomial(Rational(Hi)));
    ASSERT_TRUE(bool(S));
    Rational Expect(0);
    for (int64_t X = Lo; X <= Hi; ++X)
      Expect = *Expect.add(*refEvaluate(A, {{"v", X}, {"N", 5}}));
    llvm::Expected<Rational> Got = S->evaluate({{"N", 5}});
    ASSERT_TRUE(bool(Got));
    EXPECT_EQ(*Got, Expect) << P.str();
  }
}

TEST(PolynomialRepTest, ConstructionAndQueries) {
  EXPECT_EQ(internName("N"), internName(std::string("N")));
  EXPECT_NE(internName("N"), internName("M"));
  Polynomial L = Polynomial::linear(
      Rational(-1), {{internName("K"), Rational(2)}, {internName("N"), Rational(1)}});
  EXPECT_EQ(L.str(), "2*K + N - 1");
  ASSERT_EQ(L.numTerms(), 3u);
  EXPECT_TRUE(L.mono(0).empty()); // the constant sorts first
  EXPECT_EQ(L.coef(0), Rational(-1));
  EXPECT_TRUE(L.uses(internName("K")));
  EXPECT_EQ(L.degreeIn("N"), 1u);
  EXPECT_EQ(Polynomial::linear(Rational(0), {}).str(), "0");
  // A copy shares the block; changing one in place leaves the other.
  Polynomial C = L;
  EXPECT_TRUE(C == L);
  ASSERT_FALSE(bool(C.addScaledInPlace(L, Rational(1))));
  EXPECT_EQ(C.str(), "4*K + 2*N - 2");
  EXPECT_EQ(L.str(), "2*K + N - 1");
  // The map view survives moves and is rebuilt for copies.
  const std::map<Monomial, Rational> &View = L.terms();
  Polynomial Moved = std::move(L);
  EXPECT_EQ(&Moved.terms(), &View);
}

TEST(PolynomialRepTest, ConcurrentUse) {
  // Threads share polynomials (copies, map views, interned names) while
  // building their own.
  Polynomial Shared = Polynomial::linear(
      Rational(3), {{internName("N"), Rational(2)}});
  std::atomic<int> Bad{0};
  std::vector<std::thread> Threads;
  for (int T = 0; T < 4; ++T)
    Threads.emplace_back([&, T] {
      for (int I = 0; I < 2000; ++I) {
        Polynomial Copy = Shared;
        if (Copy.terms().size() != 2)
          ++Bad;
        std::string Name = "t" + std::to_string(T) + "_" + std::to_string(I % 50);
        llvm::Expected<Polynomial> P = Copy.mul(Polynomial::var(Name));
        if (!P || P->numTerms() != 2 || !P->uses(internName(Name)))
          ++Bad;
        if (!P)
          llvm::consumeError(P.takeError());
      }
    });
  for (std::thread &T : Threads)
    T.join();
  EXPECT_EQ(Bad.load(), 0);
  EXPECT_EQ(Shared.str(), "2*N + 3");
}

} // namespace
