//===- Univariate.h - A polynomial sampled along one size, in doubles -----===//
//
// The crossover search and the plot's AI range sample an intensity at
// hundreds of sizes. Binding every other variable once and keeping the
// coefficients by degree makes each sample a Horner evaluation instead of a
// walk over the terms with name lookups and pow().
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_ANALYSIS_UNIVARIATE_H
#define ROOFLINE_ANALYSIS_UNIVARIATE_H

#include "roofline/IR/Polynomial.h"

#include "llvm/ADT/ArrayRef.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace roofline {

class UnivariateApprox {
public:
  /// \p P with every variable in \p Free replaced by one unknown x and every
  /// other one by its value in \p Vals; nullopt when a variable is in
  /// neither.
  static std::optional<UnivariateApprox>
  of(const Polynomial &P, llvm::ArrayRef<std::string> Free,
     const std::map<std::string, double> &Vals);

  double operator()(double X) const;
  unsigned degree() const { return Coeffs.empty() ? 0 : Coeffs.size() - 1; }

private:
  std::vector<double> Coeffs; ///< Coeffs[D] multiplies x^D
};

} // namespace roofline

#endif // ROOFLINE_ANALYSIS_UNIVARIATE_H
