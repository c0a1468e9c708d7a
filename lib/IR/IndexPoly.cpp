//===- IndexPoly.cpp - Index expressions as polynomials in the sizes -------===//

#include "roofline/IR/IndexPoly.h"

#include <algorithm>
#include <iterator>

using namespace roofline;

std::string roofline::monomialName(const SizeMonomial &M) {
  std::string S;
  for (const std::string &F : M)
    S += (S.empty() ? "" : "*") + F;
  return S;
}

bool roofline::monomialDivides(const SizeMonomial &Small,
                               const SizeMonomial &Big) {
  return std::includes(Big.begin(), Big.end(), Small.begin(), Small.end());
}

SizeMonomial roofline::monomialQuotient(const SizeMonomial &Big,
                                        const SizeMonomial &Small) {
  SizeMonomial R;
  std::set_difference(Big.begin(), Big.end(), Small.begin(), Small.end(),
                      std::back_inserter(R));
  return R;
}

SizeMonomial roofline::monomialProduct(const SizeMonomial &A,
                                       const SizeMonomial &B) {
  SizeMonomial R;
  std::merge(A.begin(), A.end(), B.begin(), B.end(), std::back_inserter(R));
  return R;
}

IndexPoly IndexPoly::constant(int64_t C) {
  IndexPoly P;
  P.addPart({}, AffineExpr(C));
  return P;
}

IndexPoly IndexPoly::loopVar(const std::string &IV) {
  IndexPoly P;
  P.addPart({}, AffineExpr::var(IV));
  return P;
}

IndexPoly IndexPoly::size(const std::string &Name) {
  IndexPoly P;
  P.addPart({Name}, AffineExpr(1));
  return P;
}

AffineExpr IndexPoly::part(const SizeMonomial &M) const {
  auto It = Parts.find(M);
  return It == Parts.end() ? AffineExpr() : It->second;
}

bool IndexPoly::addPart(const SizeMonomial &M, const AffineExpr &E) {
  auto It = Parts.find(M);
  if (It == Parts.end()) {
    if (E != AffineExpr())
      Parts.emplace(M, E);
    return true;
  }
  std::optional<AffineExpr> Sum = It->second.add(E);
  if (!Sum)
    return false;
  if (*Sum == AffineExpr())
    Parts.erase(It);
  else
    It->second = *Sum;
  return true;
}

bool IndexPoly::usesLoopVars() const {
  for (const auto &[M, E] : Parts)
    if (!E.isConstant())
      return true;
  return false;
}

bool IndexPoly::isConstant() const {
  return Parts.empty() || (Parts.size() == 1 && Parts.begin()->first.empty() &&
                           Parts.begin()->second.isConstant());
}

int64_t IndexPoly::constantValue() const { return part({}).constant(); }

bool IndexPoly::isFlat() const {
  for (const auto &[M, E] : Parts)
    if (!M.empty() && !E.isConstant())
      return false;
  return true;
}

std::optional<IndexPoly> IndexPoly::add(const IndexPoly &O) const {
  IndexPoly R = *this;
  for (const auto &[M, E] : O.Parts)
    if (!R.addPart(M, E))
      return std::nullopt;
  return R;
}

std::optional<IndexPoly> IndexPoly::scale(int64_t K) const {
  IndexPoly R;
  for (const auto &[M, E] : Parts) {
    std::optional<AffineExpr> S = E.scale(K);
    if (!S)
      return std::nullopt;
    R.addPart(M, *S);
  }
  return R;
}

std::optional<IndexPoly> IndexPoly::sub(const IndexPoly &O) const {
  std::optional<IndexPoly> Neg = O.scale(-1);
  return Neg ? add(*Neg) : std::nullopt;
}

std::optional<IndexPoly> IndexPoly::mul(const IndexPoly &O,
                                        bool &LoopVarProduct) const {
  LoopVarProduct = false;
  const IndexPoly *Var = this, *Fixed = &O;
  if (Var->usesLoopVars() && Fixed->usesLoopVars()) {
    LoopVarProduct = true;
    return std::nullopt;
  }
  if (!Var->usesLoopVars())
    std::swap(Var, Fixed);
  // Every coefficient of Fixed is a constant.
  IndexPoly R;
  for (const auto &[MV, EV] : Var->Parts)
    for (const auto &[MF, EF] : Fixed->Parts) {
      std::optional<AffineExpr> T = EV.scale(EF.constant());
      if (!T || !R.addPart(monomialProduct(MV, MF), *T))
        return std::nullopt;
    }
  return R;
}

std::optional<AffineExpr>
IndexPoly::toAffine(std::vector<SizeMonomial> *Products) const {
  AffineExpr R;
  for (const auto &[M, E] : Parts) {
    std::optional<AffineExpr> Sum;
    if (M.empty()) {
      Sum = R.add(E);
    } else {
      if (!E.isConstant())
        return std::nullopt;
      if (M.size() > 1 && Products &&
          std::find(Products->begin(), Products->end(), M) == Products->end())
        Products->push_back(M);
      Sum = R.add(AffineExpr::var(monomialName(M), E.constant()));
    }
    if (!Sum)
      return std::nullopt;
    R = *Sum;
  }
  return R;
}

IndexPoly IndexPoly::fromAffine(const AffineExpr &E,
                                const std::vector<std::string> &IVs) {
  IndexPoly R;
  AffineExpr Loop(E.constant());
  for (const auto &[Name, C] : E.terms()) {
    if (std::find(IVs.begin(), IVs.end(), Name) != IVs.end())
      Loop = *Loop.add(AffineExpr::var(Name, C));
    else
      R.addPart({Name}, AffineExpr(C));
  }
  R.addPart({}, Loop);
  return R;
}

IndexPoly IndexPoly::rewrite(const SizeMonomial &From,
                             const SizeMonomial &To) const {
  IndexPoly R;
  for (const auto &[M, E] : Parts) {
    if (!From.empty() && monomialDivides(From, M))
      R.addPart(monomialProduct(monomialQuotient(M, From), To), E);
    else
      R.addPart(M, E);
  }
  return R;
}

std::string IndexPoly::str() const {
  if (Parts.empty())
    return "0";
  std::string S;
  // Highest degree first: the outermost stride leads, as people write it.
  for (auto It = Parts.rbegin(); It != Parts.rend(); ++It) {
    const auto &[M, E] = *It;
    std::string Coef = E.str();
    std::string Term;
    if (M.empty())
      Term = Coef;
    else if (Coef == "1")
      Term = monomialName(M);
    else if (E.isConstant() || (E.terms().size() == 1 && E.constant() == 0 &&
                                E.terms().begin()->second == 1))
      Term = Coef + "*" + monomialName(M);
    else
      Term = "(" + Coef + ")*" + monomialName(M);
    S += (S.empty() ? "" : " + ") + Term;
  }
  return S;
}
