//===- Polynomial.h - Multivariate polynomials with rational coefficients -===//
//
// Symbolic counts are polynomials in the size parameters (and, while a sum
// is being taken, in loop variables). Variables are names; an "atom" name
// such as "floor((N-1)/2)" is just another variable to this class.
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_ANALYSIS_POLYNOMIAL_H
#define ROOFLINE_ANALYSIS_POLYNOMIAL_H

#include "roofline/Analysis/Rational.h"
#include "roofline/IR/Affine.h"

#include "llvm/Support/Error.h"

#include <map>
#include <string>

namespace roofline {

/// Variable name -> exponent (> 0).
using Monomial = std::map<std::string, unsigned>;

class Polynomial {
public:
  Polynomial() = default;
  Polynomial(Rational C);
  static Polynomial var(const std::string &Name);
  /// The single term C * M (zero when C is zero).
  static Polynomial monomial(const Monomial &M, const Rational &C);
  /// Exact conversion; fails only on overflow.
  static llvm::Expected<Polynomial> fromAffine(const AffineExpr &E);

  const std::map<Monomial, Rational> &terms() const { return Terms; }
  bool isZero() const { return Terms.empty(); }
  bool isConstant() const;
  /// The constant term (0 when absent).
  Rational constant() const;
  bool uses(const std::string &Name) const;
  unsigned degreeIn(const std::string &Name) const;

  /// All fail with a clear message on 128-bit overflow.
  llvm::Expected<Polynomial> add(const Polynomial &O) const;
  llvm::Expected<Polynomial> sub(const Polynomial &O) const;
  llvm::Expected<Polynomial> mul(const Polynomial &O) const;
  llvm::Expected<Polynomial> scale(const Rational &K) const;
  llvm::Expected<Polynomial> pow(unsigned E) const;
  llvm::Expected<Polynomial> substitute(const std::string &Name,
                                        const Polynomial &By) const;

  /// Evaluates with every variable bound; fails naming an unbound variable
  /// or on overflow.
  llvm::Expected<Rational>
  evaluate(const std::map<std::string, Int128> &Values) const;

  /// C-like infix, deterministic: "2*K*M*N", "N*(N+1)/2" style is not
  /// attempted; terms are printed expanded with a common denominator:
  /// "(N^2 + N)/2", "2*K*M*N", "0".
  std::string str() const;

  bool operator==(const Polynomial &O) const { return Terms == O.Terms; }

private:
  std::map<Monomial, Rational> Terms; ///< no zero coefficients stored
};

/// sum_{V = Lo}^{Hi} P, exact (Faulhaber), as a polynomial in the other
/// variables of P, Lo and Hi. Equals the true sum whenever Hi >= Lo - 1.
llvm::Expected<Polynomial> sumOver(const Polynomial &P, const std::string &V,
                                   const Polynomial &Lo, const Polynomial &Hi);

} // namespace roofline

#endif // ROOFLINE_ANALYSIS_POLYNOMIAL_H
