//===- Polynomial.cpp - Multivariate polynomials with rational coefficients ===//

#include "roofline/Analysis/Polynomial.h"

#include <algorithm>
#include <mutex>
#include <vector>

using namespace roofline;

namespace {

llvm::Error overflowError(const char *What) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "%s exceeds 128-bit range", What);
}

unsigned totalDegree(const Monomial &M) {
  unsigned D = 0;
  for (const auto &[Name, E] : M)
    D += E;
  return D;
}

/// Print order: total degree descending, then graded-lexicographic with
/// variables in name order (the term with the higher exponent of the first
/// differing variable comes first): "M^2 + M*N + N^2 + M + N + 1".
bool printsBefore(const Monomial &A, const Monomial &B) {
  unsigned DA = totalDegree(A), DB = totalDegree(B);
  if (DA != DB)
    return DA > DB;
  auto IA = A.begin(), IB = B.begin();
  while (IA != A.end() || IB != B.end()) {
    // The smaller name is the variable compared next; absent means 0.
    if (IB == B.end() || (IA != A.end() && IA->first < IB->first))
      return true; // A has a positive exponent where B has 0
    if (IA == A.end() || IB->first < IA->first)
      return false;
    if (IA->second != IB->second)
      return IA->second > IB->second;
    ++IA;
    ++IB;
  }
  return false;
}

std::string monomialStr(const Monomial &M) {
  std::string S;
  for (const auto &[Name, E] : M) {
    if (!S.empty())
      S += "*";
    S += Name;
    if (E > 1)
      S += "^" + std::to_string(E);
  }
  return S;
}

/// "c*mono" for an integer magnitude c >= 1.
std::string termStr(const std::string &Mag, const Monomial &M) {
  if (M.empty())
    return Mag;
  if (Mag == "1")
    return monomialStr(M);
  return Mag + "*" + monomialStr(M);
}

Monomial mulMonomials(const Monomial &A, const Monomial &B) {
  Monomial R = A;
  for (const auto &[Name, E] : B)
    R[Name] += E;
  return R;
}

/// Lazily grown tables shared by every sumOver call.
struct FaulhaberTables {
  /// Bernoulli numbers B^+_j (B_1 = +1/2).
  std::vector<Rational> Bernoulli{Rational(1)};
  /// Coefficients of F_k(x) = sum_{v=1}^{x} v^k (F_0(x) = x), index = power.
  std::vector<std::vector<Rational>> F;

  static std::optional<Rational> binom(unsigned N, unsigned K) {
    Rational R(1);
    for (unsigned I = 1; I <= K; ++I) {
      auto Next = R.mul(Rational(static_cast<int64_t>(N - K + I)));
      if (!Next)
        return std::nullopt;
      Next = Next->div(Rational(static_cast<int64_t>(I)));
      if (!Next)
        return std::nullopt;
      R = *Next;
    }
    return R;
  }

  /// Extends Bernoulli to index M, using sum_{j=0}^{m} C(m+1, j) B^-_j = 0.
  bool growBernoulli(unsigned M) {
    while (Bernoulli.size() <= M) {
      unsigned N = static_cast<unsigned>(Bernoulli.size());
      Rational Sum(0);
      for (unsigned J = 0; J < N; ++J) {
        Rational BJ = J == 1 ? Bernoulli[1].neg() : Bernoulli[J]; // B^-
        auto C = binom(N + 1, J);
        if (!C)
          return false;
        auto T = C->mul(BJ);
        if (!T)
          return false;
        auto S = Sum.add(*T);
        if (!S)
          return false;
        Sum = *S;
      }
      auto BN = Sum.neg().div(Rational(static_cast<int64_t>(N + 1)));
      if (!BN)
        return false;
      Bernoulli.push_back(N == 1 ? BN->neg() : *BN); // store B^+
    }
    return true;
  }

  const std::vector<Rational> *faulhaber(unsigned K) {
    while (F.size() <= K) {
      unsigned P = static_cast<unsigned>(F.size());
      if (!growBernoulli(P))
        return nullptr;
      // F_p(x) = 1/(p+1) sum_{j=0}^{p} C(p+1, j) B^+_j x^{p+1-j}.
      std::vector<Rational> Coeffs(P + 2, Rational(0));
      for (unsigned J = 0; J <= P; ++J) {
        auto C = binom(P + 1, J);
        if (!C)
          return nullptr;
        auto T = C->mul(Bernoulli[J]);
        if (!T)
          return nullptr;
        T = T->div(Rational(static_cast<int64_t>(P + 1)));
        if (!T)
          return nullptr;
        Coeffs[P + 1 - J] = *T;
      }
      F.push_back(std::move(Coeffs));
    }
    return &F[K];
  }
};

/// Copy of F_k's coefficients; the shared tables grow under a lock so that
/// analyses may run on several threads.
std::optional<std::vector<Rational>> faulhaberCoefficients(unsigned K) {
  static std::mutex Lock;
  static FaulhaberTables T;
  std::lock_guard<std::mutex> Guard(Lock);
  const std::vector<Rational> *F = T.faulhaber(K);
  if (!F)
    return std::nullopt;
  return *F;
}

} // namespace

Polynomial::Polynomial(Rational C) {
  if (!C.isZero())
    Terms[Monomial()] = C;
}

Polynomial Polynomial::monomial(const Monomial &M, const Rational &C) {
  Polynomial P;
  if (!C.isZero())
    P.Terms[M] = C;
  return P;
}

Polynomial Polynomial::var(const std::string &Name) {
  Polynomial P;
  P.Terms[Monomial{{Name, 1}}] = Rational(1);
  return P;
}

llvm::Expected<Polynomial> Polynomial::fromAffine(const AffineExpr &E) {
  Polynomial P(Rational(E.constant()));
  for (const auto &[Name, C] : E.terms())
    if (C != 0)
      P.Terms[Monomial{{Name, 1}}] = Rational(C);
  return P;
}

bool Polynomial::isConstant() const {
  return Terms.empty() || (Terms.size() == 1 && Terms.begin()->first.empty());
}

Rational Polynomial::constant() const {
  auto It = Terms.find(Monomial());
  return It == Terms.end() ? Rational(0) : It->second;
}

bool Polynomial::uses(const std::string &Name) const {
  return degreeIn(Name) > 0;
}

unsigned Polynomial::degreeIn(const std::string &Name) const {
  unsigned D = 0;
  for (const auto &[M, C] : Terms) {
    auto It = M.find(Name);
    if (It != M.end())
      D = std::max(D, It->second);
  }
  return D;
}

llvm::Expected<Polynomial> Polynomial::add(const Polynomial &O) const {
  Polynomial R = *this;
  for (const auto &[M, C] : O.Terms) {
    auto It = R.Terms.find(M);
    if (It == R.Terms.end()) {
      R.Terms.emplace(M, C);
      continue;
    }
    auto Sum = It->second.add(C);
    if (!Sum)
      return overflowError("polynomial coefficient");
    if (Sum->isZero())
      R.Terms.erase(It);
    else
      It->second = *Sum;
  }
  return R;
}

llvm::Expected<Polynomial> Polynomial::sub(const Polynomial &O) const {
  auto Neg = O.scale(Rational(-1));
  if (!Neg)
    return Neg.takeError();
  return add(*Neg);
}

llvm::Expected<Polynomial> Polynomial::mul(const Polynomial &O) const {
  Polynomial R;
  for (const auto &[MA, CA] : Terms)
    for (const auto &[MB, CB] : O.Terms) {
      auto C = CA.mul(CB);
      if (!C)
        return overflowError("polynomial coefficient");
      Monomial M = mulMonomials(MA, MB);
      auto It = R.Terms.find(M);
      if (It == R.Terms.end()) {
        R.Terms.emplace(std::move(M), *C);
        continue;
      }
      auto Sum = It->second.add(*C);
      if (!Sum)
        return overflowError("polynomial coefficient");
      if (Sum->isZero())
        R.Terms.erase(It);
      else
        It->second = *Sum;
    }
  return R;
}

llvm::Expected<Polynomial> Polynomial::scale(const Rational &K) const {
  Polynomial R;
  if (K.isZero())
    return R;
  for (const auto &[M, C] : Terms) {
    auto V = C.mul(K);
    if (!V)
      return overflowError("polynomial coefficient");
    R.Terms.emplace(M, *V);
  }
  return R;
}

llvm::Expected<Polynomial> Polynomial::pow(unsigned E) const {
  Polynomial R(Rational(1)), Base = *this;
  // Square-and-multiply; E is small in practice (loop depth).
  while (E) {
    if (E & 1) {
      auto N = R.mul(Base);
      if (!N)
        return N.takeError();
      R = std::move(*N);
    }
    E >>= 1;
    if (E) {
      auto N = Base.mul(Base);
      if (!N)
        return N.takeError();
      Base = std::move(*N);
    }
  }
  return R;
}

llvm::Expected<Polynomial>
Polynomial::substitute(const std::string &Name, const Polynomial &By) const {
  if (!uses(Name))
    return *this;
  std::vector<Polynomial> Powers{Polynomial(Rational(1))};
  Polynomial R;
  for (const auto &[M, C] : Terms) {
    auto It = M.find(Name);
    if (It == M.end()) {
      Polynomial T;
      T.Terms.emplace(M, C);
      auto N = R.add(T);
      if (!N)
        return N.takeError();
      R = std::move(*N);
      continue;
    }
    unsigned E = It->second;
    while (Powers.size() <= E) {
      auto N = Powers.back().mul(By);
      if (!N)
        return N.takeError();
      Powers.push_back(std::move(*N));
    }
    Monomial Rest = M;
    Rest.erase(Name);
    Polynomial T;
    T.Terms.emplace(std::move(Rest), C);
    auto Prod = T.mul(Powers[E]);
    if (!Prod)
      return Prod.takeError();
    auto N = R.add(*Prod);
    if (!N)
      return N.takeError();
    R = std::move(*N);
  }
  return R;
}

llvm::Expected<Rational>
Polynomial::evaluate(const std::map<std::string, Int128> &Values) const {
  Rational Sum(0);
  for (const auto &[M, C] : Terms) {
    std::optional<Rational> T = C;
    for (const auto &[Name, E] : M) {
      auto It = Values.find(Name);
      if (It == Values.end())
        return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                       "'%s' has no value", Name.c_str());
      auto V = Rational::make(It->second, 1);
      if (!V)
        return overflowError("value");
      for (unsigned I = 0; I < E && T; ++I)
        T = T->mul(*V);
      if (!T)
        return overflowError("value");
    }
    auto S = Sum.add(*T);
    if (!S)
      return overflowError("value");
    Sum = *S;
  }
  return Sum;
}

std::string Polynomial::str() const {
  if (Terms.empty())
    return "0";
  std::vector<std::pair<Monomial, Rational>> Sorted(Terms.begin(),
                                                    Terms.end());
  std::stable_sort(Sorted.begin(), Sorted.end(),
                   [](const auto &A, const auto &B) {
                     return printsBefore(A.first, B.first);
                   });

  // Common denominator L = lcm of the coefficient denominators.
  std::optional<Int128> L = 1;
  for (const auto &[M, C] : Sorted) {
    Int128 A = *L, B = C.den();
    while (B != 0) {
      Int128 T = A % B;
      A = B;
      B = T;
    }
    Int128 Lcm;
    if (__builtin_mul_overflow(*L / A, C.den(), &Lcm)) {
      L = std::nullopt;
      break;
    }
    L = Lcm;
  }
  // Numerators over L; when L or a numerator overflows, print each term as
  // its own fraction rather than wrong text.
  std::vector<Rational> Numerators;
  if (L) {
    Rational LR = *Rational::make(*L, 1);
    for (const auto &[M, C] : Sorted) {
      std::optional<Rational> N = C.mul(LR);
      if (!N) {
        L = std::nullopt;
        break;
      }
      Numerators.push_back(*N);
    }
  }
  if (!L) {
    Numerators.clear();
    for (const auto &[M, C] : Sorted)
      Numerators.push_back(C);
  }

  std::string S;
  for (size_t I = 0; I < Sorted.size(); ++I) {
    const Rational &C = Numerators[I];
    Rational Mag = C.sign() < 0 ? C.neg() : C;
    if (I == 0)
      S += C.sign() < 0 ? "-" : "";
    else
      S += C.sign() < 0 ? " - " : " + ";
    S += termStr(int128ToString(Mag.num()), Sorted[I].first);
    if (!Mag.isInteger())
      S += "/" + int128ToString(Mag.den());
  }
  if (!L || *L == 1)
    return S;
  if (Terms.size() > 1)
    S = "(" + S + ")";
  return S + "/" + int128ToString(*L);
}

llvm::Expected<Polynomial> roofline::sumOver(const Polynomial &P,
                                             const std::string &V,
                                             const Polynomial &Lo,
                                             const Polynomial &Hi) {
  if (Lo.uses(V) || Hi.uses(V))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "summation bound uses the summed "
                                   "variable '%s'",
                                   V.c_str());
  // P = sum_k C_k * V^k with C_k free of V.
  std::map<unsigned, Polynomial> ByPower;
  for (const auto &[M, C] : P.terms()) {
    auto It = M.find(V);
    unsigned K = It == M.end() ? 0 : It->second;
    Monomial Rest = M;
    Rest.erase(V);
    Polynomial Scaled = Polynomial::monomial(Rest, C);
    auto Sum = ByPower[K].add(Scaled);
    if (!Sum)
      return Sum.takeError();
    ByPower[K] = std::move(*Sum);
  }

  auto LoM1 = Lo.sub(Polynomial(Rational(1)));
  if (!LoM1)
    return LoM1.takeError();

  // F_k evaluated at a polynomial argument, by Horner's rule.
  auto EvalF = [](const std::vector<Rational> &Coeffs,
                  const Polynomial &X) -> llvm::Expected<Polynomial> {
    Polynomial R;
    for (size_t I = Coeffs.size(); I-- > 0;) {
      auto M = R.mul(X);
      if (!M)
        return M.takeError();
      auto A = M->add(Polynomial(Coeffs[I]));
      if (!A)
        return A.takeError();
      R = std::move(*A);
    }
    return R;
  };

  Polynomial Result;
  for (const auto &[K, C] : ByPower) {
    if (C.isZero())
      continue;
    std::optional<std::vector<Rational>> F = faulhaberCoefficients(K);
    if (!F)
      return overflowError("Faulhaber coefficient");
    auto AtHi = EvalF(*F, Hi);
    if (!AtHi)
      return AtHi.takeError();
    auto AtLo = EvalF(*F, *LoM1);
    if (!AtLo)
      return AtLo.takeError();
    auto Diff = AtHi->sub(*AtLo);
    if (!Diff)
      return Diff.takeError();
    auto Term = C.mul(*Diff);
    if (!Term)
      return Term.takeError();
    auto Sum = Result.add(*Term);
    if (!Sum)
      return Sum.takeError();
    Result = std::move(*Sum);
  }
  return Result;
}
