//===- Value.cpp - Statement values: constructors and printing -------------===//

#include "roofline/IR/LoopNest.h"

#include <cstdio>
#include <cstdlib>

using namespace roofline;

namespace {

/// A node of kind \p K: \p Name (a scalar, index, operator or function)
/// over \p Ops. The factories below differ only in what they fill in.
ValueExpr node(ValueExpr::KindTy K, std::string Name = "",
               std::vector<ValueExpr> Ops = {}) {
  ValueExpr E;
  E.Kind = K;
  E.Name = std::move(Name);
  E.Operands = std::move(Ops);
  return E;
}

/// The operands \p X, moved into a vector (an initializer list would copy).
template <class... T> std::vector<ValueExpr> operands(T... X) {
  std::vector<ValueExpr> V;
  V.reserve(sizeof...(X));
  (V.push_back(std::move(X)), ...);
  return V;
}

} // namespace

ValueExpr ValueExpr::load(unsigned AccessIndex) {
  ValueExpr E = node(Load);
  E.Access = AccessIndex;
  return E;
}

ValueExpr ValueExpr::scalar(const std::string &Name) {
  return node(Scalar, Name);
}

ValueExpr ValueExpr::index(const std::string &Name) { return node(Index, Name); }

ValueExpr ValueExpr::floatLit(double V, const std::string &CType) {
  ValueExpr E = node(FloatLit);
  E.Float = V;
  E.CType = CType;
  return E;
}

ValueExpr ValueExpr::intLit(int64_t V) {
  ValueExpr E = node(IntLit);
  E.Int = V;
  return E;
}

ValueExpr ValueExpr::unary(const std::string &Op, ValueExpr A) {
  return node(Unary, Op, operands(std::move(A)));
}

ValueExpr ValueExpr::binary(const std::string &Op, ValueExpr A, ValueExpr B) {
  return node(Binary, Op, operands(std::move(A), std::move(B)));
}

ValueExpr ValueExpr::call(const std::string &Fn, std::vector<ValueExpr> Args) {
  return node(Call, Fn, std::move(Args));
}

ValueExpr ValueExpr::select(ValueExpr C, ValueExpr T, ValueExpr F) {
  return node(Select, "", operands(std::move(C), std::move(T), std::move(F)));
}

ValueExpr ValueExpr::cast(const std::string &CType, ValueExpr A) {
  ValueExpr E = node(Cast, "", operands(std::move(A)));
  E.CType = CType;
  return E;
}

namespace {

std::string accessStr(const Access &A) {
  std::string S = A.ArrayName;
  for (const auto &Sub : A.Subscripts)
    S += "[" + (Sub ? Sub->str() : std::string("?")) + "]";
  return S;
}

std::string floatStr(double V, const std::string &CType) {
  // Shortest spelling that reads back to the same value.
  char Buf[64];
  for (int Digits = 1; Digits <= 17; ++Digits) {
    std::snprintf(Buf, sizeof Buf, "%.*g", Digits, V);
    if (CType == "float" ? static_cast<float>(std::strtod(Buf, nullptr)) ==
                               static_cast<float>(V)
                         : std::strtod(Buf, nullptr) == V)
      break;
  }
  std::string S = Buf;
  if (S.find_first_of(".en") == std::string::npos)
    S += ".0";
  return CType == "float" ? S + "f" : S;
}

std::string exprStr(const Stmt &S, const ValueExpr &E, bool Top) {
  auto Paren = [&](const std::string &X) { return Top ? X : "(" + X + ")"; };
  switch (E.Kind) {
  case ValueExpr::Load:
    return E.Access < S.Accesses.size() ? accessStr(S.Accesses[E.Access])
                                        : std::string("<bad access>");
  case ValueExpr::Scalar:
  case ValueExpr::Index:
    return E.Name;
  case ValueExpr::FloatLit:
    return floatStr(E.Float, E.CType);
  case ValueExpr::IntLit:
    return std::to_string(E.Int);
  case ValueExpr::Unary:
    return E.Name + exprStr(S, E.Operands[0], false);
  case ValueExpr::Binary:
    return Paren(exprStr(S, E.Operands[0], false) + " " + E.Name + " " +
                 exprStr(S, E.Operands[1], false));
  case ValueExpr::Call: {
    std::string R = E.Name + "(";
    for (size_t I = 0; I < E.Operands.size(); ++I)
      R += (I ? ", " : "") + exprStr(S, E.Operands[I], true);
    return R + ")";
  }
  case ValueExpr::Select:
    return Paren(exprStr(S, E.Operands[0], false) + " ? " +
                 exprStr(S, E.Operands[1], false) + " : " +
                 exprStr(S, E.Operands[2], false));
  case ValueExpr::Cast:
    return "(" + E.CType + ")" + exprStr(S, E.Operands[0], false);
  }
  return "?";
}

} // namespace

std::string roofline::printValueExpr(const Stmt &S, const ValueExpr &E) {
  return exprStr(S, E, true);
}

std::string roofline::printStmtValue(const Stmt &S) {
  if (!S.Value)
    return "";
  const StmtValue &V = *S.Value;
  std::string Target;
  switch (V.Target) {
  case StmtValue::ArrayTarget:
    Target = V.TargetAccess < S.Accesses.size()
                 ? accessStr(S.Accesses[V.TargetAccess])
                 : std::string("<bad access>");
    break;
  case StmtValue::ScalarTarget:
    Target = V.Scalar;
    break;
  case StmtValue::ScalarDecl:
    Target = "decl " + V.Scalar;
    break;
  }
  return Target + " " + V.Op + " " + exprStr(S, V.Value, true);
}
