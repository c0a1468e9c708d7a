//===- Univariate.cpp - A polynomial sampled along one size, in doubles ---===//

#include "roofline/Analysis/Univariate.h"

#include <algorithm>
#include <cmath>

using namespace roofline;

std::optional<UnivariateApprox>
UnivariateApprox::of(const Polynomial &P, llvm::ArrayRef<std::string> Free,
                     const std::map<std::string, double> &Vals) {
  UnivariateApprox U;
  for (size_t I = 0, E = P.numTerms(); I < E; ++I) {
    double Term = P.coef(I).toDouble();
    unsigned Degree = 0;
    for (const Polynomial::Factor &F : P.mono(I)) {
      if (llvm::is_contained(Free, *F.Name)) {
        Degree += F.Exp;
        continue;
      }
      auto It = Vals.find(*F.Name);
      if (It == Vals.end())
        return std::nullopt;
      Term *= std::pow(It->second, F.Exp);
    }
    if (U.Coeffs.size() <= Degree)
      U.Coeffs.resize(Degree + 1, 0.0);
    U.Coeffs[Degree] += Term;
  }
  return U;
}

double UnivariateApprox::operator()(double X) const {
  double Sum = 0;
  for (auto It = Coeffs.rbegin(); It != Coeffs.rend(); ++It)
    Sum = Sum * X + *It;
  return Sum;
}
