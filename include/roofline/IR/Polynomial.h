//===- Polynomial.h - Multivariate polynomials with rational coefficients -===//
//
// Symbolic counts are polynomials in the size parameters (and, while a sum
// is being taken, in loop variables). Variables are names; an "atom" name
// such as "floor((N-1)/2)" is just another variable to this class.
//
// A polynomial is an immutable, reference-counted block (copies are cheap)
// holding its terms sorted exactly as std::map<Monomial, Rational> would
// keep them, with interned variable names. Every operation combines
// coefficients in the same sequence a map-based implementation would, so
// results and overflow reports do not depend on the representation.
// terms() still offers the map form, built on first use.
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_IR_POLYNOMIAL_H
#define ROOFLINE_IR_POLYNOMIAL_H

#include "roofline/IR/Rational.h"
#include "roofline/IR/Affine.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <string>

namespace roofline {

/// Variable name -> exponent (> 0).
using Monomial = std::map<std::string, unsigned>;

/// A variable name interned for the life of the process: equal names are
/// the same object, so equality is a pointer comparison. Thread-safe.
using VarName = const std::string *;
VarName internName(llvm::StringRef Name);

class Polynomial {
public:
  /// One variable power of a monomial; a monomial is a list of them sorted
  /// by name (string order), empty for the constant term.
  struct Factor {
    VarName Name;
    unsigned Exp;
    bool operator==(const Factor &O) const {
      return Name == O.Name && Exp == O.Exp;
    }
    bool operator!=(const Factor &O) const { return !(*this == O); }
  };

  Polynomial() = default;
  Polynomial(Rational C);
  Polynomial(const Polynomial &O) : R(O.R) {
    if (R)
      retain();
  }
  Polynomial(Polynomial &&O) noexcept : R(O.R) { O.R = nullptr; }
  Polynomial &operator=(const Polynomial &O) {
    Polynomial(O).swap(*this);
    return *this;
  }
  Polynomial &operator=(Polynomial &&O) noexcept {
    Polynomial(std::move(O)).swap(*this);
    return *this;
  }
  ~Polynomial() {
    if (R)
      release();
  }
  void swap(Polynomial &O) noexcept { std::swap(R, O.R); }

  static Polynomial var(const std::string &Name);
  static Polynomial var(VarName Name);
  /// The single term C * M (zero when C is zero).
  static Polynomial monomial(const Monomial &M, const Rational &C);
  /// Exact conversion; fails only on overflow.
  static llvm::Expected<Polynomial> fromAffine(const AffineExpr &E);
  /// Constant + sum of C * V; \p Terms in name order, names distinct.
  static Polynomial
  linear(const Rational &Constant,
         llvm::ArrayRef<std::pair<VarName, Rational>> Terms);
  /// The sum of \p Terms, whose monomials are distinct (each a list of
  /// factors in name order with positive exponents); zeros are dropped.
  static Polynomial
  fromTerms(llvm::ArrayRef<std::pair<llvm::ArrayRef<Factor>, Rational>> Terms);

  /// The terms as a map, built once per polynomial on first use; hot code
  /// should use numTerms()/mono()/coef(), which list them in the same order.
  const std::map<Monomial, Rational> &terms() const;
  size_t numTerms() const;
  llvm::ArrayRef<Factor> mono(size_t I) const;
  const Rational &coef(size_t I) const;

  bool isZero() const { return R == nullptr; }
  bool isConstant() const;
  /// The constant term (0 when absent).
  Rational constant() const;
  bool uses(const std::string &Name) const;
  bool uses(VarName Name) const { return degreeIn(Name) > 0; }
  unsigned degreeIn(const std::string &Name) const;
  unsigned degreeIn(VarName Name) const;

  /// All fail with a clear message on 128-bit overflow.
  llvm::Expected<Polynomial> add(const Polynomial &O) const;
  llvm::Expected<Polynomial> sub(const Polynomial &O) const;
  llvm::Expected<Polynomial> mul(const Polynomial &O) const;
  llvm::Expected<Polynomial> scale(const Rational &K) const;
  llvm::Expected<Polynomial> pow(unsigned E) const;
  llvm::Expected<Polynomial> substitute(const std::string &Name,
                                        const Polynomial &By) const;
  llvm::Expected<Polynomial> substitute(VarName Name,
                                        const Polynomial &By) const;
  /// this + O.scale(K), computed as those two calls would (one pass).
  llvm::Expected<Polynomial> addScaled(const Polynomial &O,
                                       const Rational &K) const;
  /// *this = addScaled(O, K), updating the coefficients in place when this
  /// polynomial is not shared and already has every monomial of O. On
  /// failure *this is unchanged.
  llvm::Error addScaledInPlace(const Polynomial &O, const Rational &K);

  /// Evaluates with every variable bound; fails naming an unbound variable
  /// or on overflow.
  llvm::Expected<Rational>
  evaluate(const std::map<std::string, Int128> &Values) const;

  /// C-like infix, deterministic: "2*K*M*N", "N*(N+1)/2" style is not
  /// attempted; terms are printed expanded with a common denominator:
  /// "(N^2 + N)/2", "2*K*M*N", "0".
  std::string str() const;

  bool operator==(const Polynomial &O) const;
  bool operator!=(const Polynomial &O) const { return !(*this == O); }

  struct Rep; ///< defined in Polynomial.cpp

private:
  Rep *R = nullptr; ///< null for the zero polynomial

  explicit Polynomial(Rep *R) : R(R) {}
  void retain() const;
  void release();
  friend struct PolyAccess;
};

/// sum_{V = Lo}^{Hi} P, exact (Faulhaber), as a polynomial in the other
/// variables of P, Lo and Hi. Equals the true sum whenever Hi >= Lo - 1.
llvm::Expected<Polynomial> sumOver(const Polynomial &P, const std::string &V,
                                   const Polynomial &Lo, const Polynomial &Hi);
llvm::Expected<Polynomial> sumOver(const Polynomial &P, VarName V,
                                   const Polynomial &Lo, const Polynomial &Hi);

} // namespace roofline

#endif // ROOFLINE_IR_POLYNOMIAL_H
