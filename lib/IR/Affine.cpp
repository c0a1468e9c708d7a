//===- Affine.cpp - Affine expressions -------------------------------------===//

#include "roofline/IR/Affine.h"
#include "roofline/IR/AffineEval.h"


using namespace roofline;

std::optional<__int128> roofline::evalAffine(
    const AffineExpr &E,
    llvm::function_ref<std::optional<__int128>(const std::string &)> ValueOf) {
  __int128 V = E.constant();
  for (const auto &[Name, C] : E.terms()) {
    std::optional<__int128> X = ValueOf(Name);
    __int128 P;
    if (!X || __builtin_mul_overflow(static_cast<__int128>(C), *X, &P) ||
        __builtin_add_overflow(V, P, &V))
      return std::nullopt;
  }
  return V;
}

std::optional<__int128>
roofline::evalAffine(const AffineExpr &E,
                     const std::map<std::string, __int128> &Values) {
  return evalAffine(E, [&](const std::string &Name) -> std::optional<__int128> {
    auto It = Values.find(Name);
    if (It == Values.end())
      return std::nullopt;
    return It->second;
  });
}

AffineExpr AffineExpr::var(const std::string &Name, int64_t Coeff) {
  AffineExpr E;
  if (Coeff != 0)
    E.Terms[Name] = Coeff;
  return E;
}

int64_t AffineExpr::coeff(const std::string &Name) const {
  auto It = Terms.find(Name);
  return It == Terms.end() ? 0 : It->second;
}

std::optional<AffineExpr> AffineExpr::add(const AffineExpr &O) const {
  AffineExpr R = *this;
  if (__builtin_add_overflow(R.Constant, O.Constant, &R.Constant))
    return std::nullopt;
  for (const auto &[Name, C] : O.Terms) {
    int64_t &Slot = R.Terms[Name];
    if (__builtin_add_overflow(Slot, C, &Slot))
      return std::nullopt;
    if (Slot == 0)
      R.Terms.erase(Name);
  }
  return R;
}

std::optional<AffineExpr> AffineExpr::scale(int64_t K) const {
  AffineExpr R;
  if (K == 0)
    return R;
  if (__builtin_mul_overflow(Constant, K, &R.Constant))
    return std::nullopt;
  for (const auto &[Name, C] : Terms) {
    int64_t V;
    if (__builtin_mul_overflow(C, K, &V))
      return std::nullopt;
    R.Terms[Name] = V;
  }
  return R;
}

std::optional<AffineExpr> AffineExpr::sub(const AffineExpr &O) const {
  std::optional<AffineExpr> Neg = O.scale(-1);
  if (!Neg)
    return std::nullopt;
  return add(*Neg);
}

std::optional<AffineExpr> AffineExpr::addConstant(int64_t K) const {
  return add(AffineExpr(K));
}

std::optional<AffineExpr>
AffineExpr::substitute(const std::string &Name, const AffineExpr &E) const {
  int64_t C = coeff(Name);
  if (C == 0)
    return *this;
  AffineExpr Rest = *this;
  Rest.Terms.erase(Name);
  std::optional<AffineExpr> Scaled = E.scale(C);
  if (!Scaled)
    return std::nullopt;
  return Rest.add(*Scaled);
}

std::string AffineExpr::str() const {
  // Plain string appends: this runs for every subscript the Frontend sees.
  std::string OS;
  bool First = true;
  auto EmitSigned = [&](int64_t V, const std::string &Var) {
    // Print "a - b" rather than "a + -b"; magnitudes via unsigned so that
    // INT64_MIN prints correctly.
    uint64_t Mag = V < 0 ? 0 - static_cast<uint64_t>(V) : V;
    if (First)
      OS += V < 0 ? "-" : "";
    else
      OS += V < 0 ? " - " : " + ";
    First = false;
    if (Var.empty()) {
      OS += std::to_string(Mag);
    } else if (Mag == 1) {
      OS += Var;
    } else {
      OS += std::to_string(Mag);
      OS += '*';
      OS += Var;
    }
  };
  for (const auto &[Name, C] : Terms)
    EmitSigned(C, Name);
  if (Constant != 0 || First)
    EmitSigned(Constant, "");
  return OS;
}

std::string BoundTerm::str() const {
  if (Divisor == 1)
    return Expr.str();
  std::string Inner = Expr.str();
  if (!Expr.isConstant() && Expr.terms().size() + (Expr.constant() != 0) > 1)
    Inner = "(" + Inner + ")";
  return "floor(" + Inner + "/" + std::to_string(Divisor) + ")";
}

bool Bound::uses(const std::string &Name) const {
  for (const BoundTerm &T : Terms)
    if (T.Expr.uses(Name))
      return true;
  return false;
}

std::string Bound::str() const {
  if (Kind == Single)
    return Terms.front().str();
  std::string S = Kind == Min ? "min(" : "max(";
  for (size_t I = 0; I < Terms.size(); ++I)
    S += (I ? ", " : "") + Terms[I].str();
  return S + ")";
}
