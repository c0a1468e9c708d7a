//===- IndexPoly.h - Index expressions as polynomials in the sizes ---------===//
//
// What the Frontend lowers a subscript, a pointer offset or a loop bound to
// before it becomes IR: a sum over monomials of sizes (B*T*C, C, 1) whose
// coefficients are affine in the loop variables: `b*T*C + t*C + i` is
// {C*T: b, C: t, 1: i}. Keeping the strides symbolic is what
// lets Delinearize.h split a linear index into rows (docs/design.md,
// "Linearized indices").
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_IR_INDEXPOLY_H
#define ROOFLINE_IR_INDEXPOLY_H

#include "roofline/IR/Affine.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace roofline {

/// A product of sizes by name, sorted, repeats allowed ({T, T} is T^2);
/// empty for 1.
using SizeMonomial = std::vector<std::string>;

/// The name a product of sizes has as one variable: "B*T"; "N" for one.
std::string monomialName(const SizeMonomial &M);

class IndexPoly {
public:
  IndexPoly() = default;
  static IndexPoly constant(int64_t C);
  /// A loop variable.
  static IndexPoly loopVar(const std::string &IV);
  /// A size (a parameter).
  static IndexPoly size(const std::string &Name);

  /// Monomial -> its coefficient, affine in loop variables only. No zero
  /// coefficient is stored.
  const std::map<SizeMonomial, AffineExpr> &parts() const { return Parts; }
  /// The coefficient of \p M (zero when absent).
  AffineExpr part(const SizeMonomial &M) const;

  bool isZero() const { return Parts.empty(); }
  bool usesLoopVars() const;
  /// No sizes and no loop variables.
  bool isConstant() const;
  int64_t constantValue() const; ///< the constant term
  /// Every coefficient of a non-empty monomial is a constant: the index is
  /// affine with products of sizes as variables (see toAffine).
  bool isFlat() const;

  /// Arithmetic; nullopt on int64 overflow.
  std::optional<IndexPoly> add(const IndexPoly &O) const;
  std::optional<IndexPoly> sub(const IndexPoly &O) const;
  std::optional<IndexPoly> scale(int64_t K) const;
  /// Product. Sets \p LoopVarProduct (and returns nullopt) when both
  /// factors use loop variables: i*j is not an index we can count.
  std::optional<IndexPoly> mul(const IndexPoly &O, bool &LoopVarProduct) const;

  /// The affine form of a flat index: each monomial becomes one variable
  /// named by monomialName. Products it used are added to \p Products.
  std::optional<AffineExpr>
  toAffine(std::vector<SizeMonomial> *Products = nullptr) const;
  /// From an affine expression whose variables are loop variables (in
  /// \p IVs) or sizes.
  static IndexPoly fromAffine(const AffineExpr &E,
                              const std::vector<std::string> &IVs);

  /// Replaces one occurrence of the sub-monomial \p From in every monomial
  /// that contains it by \p To (C -> NH*hs).
  IndexPoly rewrite(const SizeMonomial &From, const SizeMonomial &To) const;

  /// "b*C*T + t*C + i".
  std::string str() const;

  bool operator==(const IndexPoly &O) const { return Parts == O.Parts; }
  bool operator!=(const IndexPoly &O) const { return !(*this == O); }
  bool operator<(const IndexPoly &O) const { return Parts < O.Parts; }

private:
  std::map<SizeMonomial, AffineExpr> Parts;
  bool addPart(const SizeMonomial &M, const AffineExpr &E);
};

/// Whether \p Small is a sub-multiset of \p Big (both sorted).
bool monomialDivides(const SizeMonomial &Small, const SizeMonomial &Big);
/// \p Big without \p Small (a sub-multiset of it).
SizeMonomial monomialQuotient(const SizeMonomial &Big, const SizeMonomial &Small);
SizeMonomial monomialProduct(const SizeMonomial &A, const SizeMonomial &B);

} // namespace roofline

#endif // ROOFLINE_IR_INDEXPOLY_H
