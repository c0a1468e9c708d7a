//===- Affine.h - Affine expressions over loop variables and params -------===//
//
// An affine expression is Constant + sum(Coeff_v * v) where v names either a
// loop induction variable or a size parameter. Names, not pointers, identify
// variables so that the IR stays a plain value type that passes can copy.
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_IR_AFFINE_H
#define ROOFLINE_IR_AFFINE_H

#include "roofline/Support/SmallSortedMap.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace roofline {

/// An affine expression's terms: variable -> coefficient, sorted by name.
/// Nearly every expression has one or two, and the IR copies expressions
/// all the time: a sorted small vector, not a std::map (SmallSortedMap.h).
using AffineTerms = SmallSortedMap<std::string, int64_t, 2>;

class AffineExpr {
public:
  AffineExpr() = default;
  explicit AffineExpr(int64_t C) : Constant(C) {}
  static AffineExpr var(const std::string &Name, int64_t Coeff = 1);

  int64_t constant() const { return Constant; }
  /// Coefficient of \p Name (0 when absent).
  int64_t coeff(const std::string &Name) const;
  const AffineTerms &terms() const { return Terms; }

  bool isConstant() const { return Terms.empty(); }
  bool uses(const std::string &Name) const { return coeff(Name) != 0; }

  /// The arithmetic returns std::nullopt on int64 overflow; callers turn
  /// that into an "unanalyzable" reason rather than wrapping silently.
  std::optional<AffineExpr> add(const AffineExpr &O) const;
  std::optional<AffineExpr> sub(const AffineExpr &O) const;
  std::optional<AffineExpr> scale(int64_t K) const;
  std::optional<AffineExpr> addConstant(int64_t K) const;

  /// Replace variable \p Name by \p E.
  std::optional<AffineExpr> substitute(const std::string &Name,
                                       const AffineExpr &E) const;

  /// C-like infix: "2*i + N - 1", "0".
  std::string str() const;

  bool operator==(const AffineExpr &O) const {
    return Constant == O.Constant && Terms == O.Terms;
  }
  bool operator!=(const AffineExpr &O) const { return !(*this == O); }
  bool operator<(const AffineExpr &O) const {
    return Constant != O.Constant ? Constant < O.Constant : Terms < O.Terms;
  }

private:
  int64_t Constant = 0;
  AffineTerms Terms; ///< no zero coefficients stored
};

/// floor(Expr / Divisor) with Divisor >= 1.
struct BoundTerm {
  AffineExpr Expr;
  int64_t Divisor = 1;

  std::string str() const;
  bool operator==(const BoundTerm &O) const {
    return Expr == O.Expr && Divisor == O.Divisor;
  }
};

/// A loop bound: one term, or the min/max of several (tiled loops).
struct Bound {
  enum KindTy { Single, Min, Max };
  KindTy Kind = Single;
  std::vector<BoundTerm> Terms;

  static Bound single(AffineExpr E) {
    Bound B;
    B.Terms.push_back({std::move(E), 1});
    return B;
  }
  bool isAffine() const { return Kind == Single && Terms.size() == 1 &&
                                 Terms[0].Divisor == 1; }
  const AffineExpr &affine() const { return Terms.front().Expr; }
  bool uses(const std::string &Name) const;
  std::string str() const;
  bool operator==(const Bound &O) const {
    return Kind == O.Kind && Terms == O.Terms;
  }
};

} // namespace roofline

#endif // ROOFLINE_IR_AFFINE_H
