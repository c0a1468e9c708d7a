//===- VectorEpilogue.cpp - A contraction's epilogue on C in registers ----===//

#include "roofline/CodeGen/VectorEpilogue.h"
#include "roofline/Support/Error.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>

using namespace roofline;

namespace {


/// What a value is in the vector form: a vector of floats, or a comparison
/// (only a select may take one).
enum class Kind { Vec, Bool };

class Writer {
public:
  Writer(const ContractionInfo &C, const ArgLayout &L,
         const std::vector<ArgInfo> &Extra)
      : C(C), L(L), Extra(Extra) {}

  llvm::Expected<VectorEpilogue> run(const std::string &Name);

private:
  llvm::Error statement(const Stmt &S);
  llvm::Expected<std::string> value(const Stmt &S, const ValueExpr &E,
                                    Kind &K);
  llvm::Expected<std::string> load(const Access &A);
  const ArgInfo *arg(const std::string &Name) const;
  /// Records the sizes and loops \p E names (members or locals of apply).
  llvm::Error names(const AffineExpr &E);
  bool isLocal(const std::string &Name) const {
    return Locals.count(Name) != 0;
  }

  const ContractionInfo &C;
  const ArgLayout &L;
  const std::vector<ArgInfo> &Extra;
  std::set<std::string> Arrays, Scalars, Sizes, Loops, Locals;
  std::string Body;
};

const ArgInfo *Writer::arg(const std::string &Name) const {
  return findArg(L, Extra, Name);
}

llvm::Error Writer::names(const AffineExpr &E) {
  for (const auto &[Name, Coeff] : E.terms()) {
    (void)Coeff;
    bool Loop = Name == C.M || Name == C.N ||
                std::find(C.Batch.begin(), C.Batch.end(), Name) != C.Batch.end();
    bool Size = std::any_of(L.Sizes.begin(), L.Sizes.end(),
                            [&](const Param &P) { return P.Name == Name; });
    if (Loop)
      Loops.insert(Name);
    else if (Size)
      Sizes.insert(Name);
    else
      return makeError("'" + Name + "' is neither a loop of the output nor a size");
  }
  return llvm::Error::success();
}

llvm::Expected<std::string> Writer::load(const Access &A) {
  if (A.ArrayName == C.Out.Array)
    return std::string("rl_x");
  const ArgInfo *Arg = arg(A.ArrayName);
  if (!Arg || Arg->IsScalar)
    return makeError("'" + A.ArrayName + "' is not an array argument");
  if (cTypeFor(Arg->CType, EmitMode::AsWritten) != "float")
    return makeError("'" + A.ArrayName + "' is not f32");
  if (A.Subscripts.size() != Arg->Shape.size())
    return makeError("'" + A.Text + "' does not index every dimension");
  std::vector<std::string> Terms;
  bool Vector = false;
  for (size_t D = 0; D < A.Subscripts.size(); ++D) {
    if (!A.Subscripts[D])
      return makeError("a subscript of '" + A.Text + "' is not affine");
    const AffineExpr &Sub = *A.Subscripts[D];
    if (llvm::Error E = names(Sub))
      return std::move(E);
    int64_t AlongN = C.N.empty() ? 0 : Sub.coeff(C.N);
    bool Last = D + 1 == A.Subscripts.size();
    // A tile's vector is consecutive columns: a load is a vector only where
    // the column loop steps the last dimension by one.
    if (AlongN != 0 && (!Last || AlongN != 1))
      return makeError("'" + A.Text + "' is not contiguous along '" + C.N +
                    "' (a gather)");
    Vector |= AlongN == 1;
    std::vector<std::string> Stride;
    for (size_t X = D + 1; X < Arg->Shape.size(); ++X) {
      Stride.push_back(parenthesized(cExpr(Arg->Shape[X])));
      if (llvm::Error E = names(Arg->Shape[X]))
        return std::move(E);
    }
    std::string S = cExpr(Sub);
    if (S == "0")
      continue;
    Terms.push_back(Stride.empty() ? parenthesized(S)
                                   : parenthesized(S) + " * " + llvm::join(Stride, " * "));
  }
  Arrays.insert(A.ArrayName);
  std::string At = A.ArrayName + (Terms.empty() ? "" : " + " + llvm::join(Terms, " + "));
  return Vector ? "rl_T::load(" + At + ", rl_m)" : "rl_T::set1(*(" + At + "))";
}

/// rl::v's name of a math function, or "".
std::string vectorFunction(const std::string &Callee, size_t Args) {
  std::string B = mathBaseName(Callee);
  if (Args == 2 && (B == "fmax" || B == "max"))
    return "max";
  if (Args == 2 && (B == "fmin" || B == "min"))
    return "min";
  if (Args == 1 && (B == "fabs" || B == "abs"))
    return "abs";
  if (Args == 1 && (B == "sqrt" || B == "exp" || B == "tanh"))
    return B;
  return "";
}

llvm::Expected<std::string> Writer::value(const Stmt &S, const ValueExpr &E,
                                          Kind &K) {
  K = Kind::Vec;
  auto Vec = [&](size_t I) -> llvm::Expected<std::string> {
    Kind X;
    llvm::Expected<std::string> V = value(S, E.Operands[I], X);
    if (V && X != Kind::Vec)
      return makeError("a comparison used as a value");
    return V;
  };
  switch (E.Kind) {
  case ValueExpr::Load:
    if (E.Access >= S.Accesses.size())
      return makeError("a value refers to a missing access");
    return load(S.Accesses[E.Access]);
  case ValueExpr::Scalar: {
    if (isLocal(E.Name))
      return E.Name;
    const ArgInfo *A = arg(E.Name);
    if (!A || !A->IsScalar || cTypeFor(A->CType, EmitMode::AsWritten) != "float")
      return makeError("scalar '" + E.Name + "' is not a local or an f32 argument");
    Scalars.insert(E.Name);
    return "rl_T::set1(" + E.Name + ")";
  }
  case ValueExpr::Index:
    if (llvm::Error Err = names(AffineExpr::var(E.Name)))
      return std::move(Err);
    return "rl_T::set1(static_cast<float>(" + E.Name + "))";
  case ValueExpr::FloatLit: {
    char Buf[64];
    for (int Digits = 6; Digits <= 9; ++Digits) {
      std::snprintf(Buf, sizeof Buf, "%.*g", Digits, E.Float);
      if (static_cast<float>(std::strtod(Buf, nullptr)) == static_cast<float>(E.Float))
        break;
    }
    std::string Lit = Buf;
    if (Lit.find_first_of(".e") == std::string::npos)
      Lit += ".0";
    if (Lit.find_first_of("in") != std::string::npos)
      return makeError("a literal that is not finite");
    return "rl_T::set1(" + Lit + "f)";
  }
  case ValueExpr::IntLit:
    return "rl_T::set1(" + std::to_string(E.Int) + ".0f)";
  case ValueExpr::Unary: {
    llvm::Expected<std::string> A = Vec(0);
    if (!A)
      return A.takeError();
    if (E.Name == "+")
      return *A;
    if (E.Name == "-")
      return "rl_T::neg(" + *A + ")";
    return makeError("operator '" + E.Name + "'");
  }
  case ValueExpr::Binary: {
    static const std::map<std::string, std::pair<const char *, Kind>> Ops = {
        {"+", {"add", Kind::Vec}}, {"-", {"sub", Kind::Vec}},
        {"*", {"mul", Kind::Vec}}, {"/", {"div", Kind::Vec}},
        {"<", {"lt", Kind::Bool}}, {"<=", {"le", Kind::Bool}},
        {">", {"gt", Kind::Bool}}, {">=", {"ge", Kind::Bool}},
        {"==", {"eq", Kind::Bool}}, {"!=", {"ne", Kind::Bool}}};
    auto It = Ops.find(E.Name);
    if (It == Ops.end())
      return makeError("operator '" + E.Name + "'");
    llvm::Expected<std::string> A = Vec(0);
    if (!A)
      return A.takeError();
    llvm::Expected<std::string> B = Vec(1);
    if (!B)
      return B.takeError();
    K = It->second.second;
    return std::string("rl_T::") + It->second.first + "(" + *A + ", " + *B + ")";
  }
  case ValueExpr::Call: {
    std::string F = vectorFunction(E.Name, E.Operands.size());
    if (F.empty())
      return makeError("call to '" + E.Name + "'");
    std::vector<std::string> Args;
    for (size_t I = 0; I < E.Operands.size(); ++I) {
      llvm::Expected<std::string> A = Vec(I);
      if (!A)
        return A.takeError();
      Args.push_back(*A);
    }
    return "rl_T::" + F + "(" + llvm::join(Args, ", ") + ")";
  }
  case ValueExpr::Select: {
    Kind CK;
    llvm::Expected<std::string> Cond = value(S, E.Operands[0], CK);
    if (!Cond)
      return Cond.takeError();
    if (CK != Kind::Bool)
      return makeError("a select on a value that is not a comparison");
    llvm::Expected<std::string> T = Vec(1);
    if (!T)
      return T.takeError();
    llvm::Expected<std::string> F = Vec(2);
    if (!F)
      return F.takeError();
    return "rl_T::select(" + *Cond + ", " + *T + ", " + *F + ")";
  }
  case ValueExpr::Cast:
    if (E.CType != "float")
      return makeError("a conversion to '" + E.CType + "'");
    return Vec(0);
  }
  return makeError("an unknown value");
}

llvm::Error Writer::statement(const Stmt &S) {
  if (!S.Value)
    return makeError("a statement without a value");
  const StmtValue &V = *S.Value;
  std::string Target;
  switch (V.Target) {
  case StmtValue::ArrayTarget:
    if (S.Accesses[V.TargetAccess].ArrayName != C.Out.Array)
      return makeError("the epilogue writes '" +
                    S.Accesses[V.TargetAccess].ArrayName + "'");
    Target = "rl_x";
    break;
  case StmtValue::ScalarTarget:
    if (!isLocal(V.Scalar))
      return makeError("the epilogue writes scalar '" + V.Scalar + "'");
    Target = V.Scalar;
    break;
  case StmtValue::ScalarDecl:
    if (V.Op.empty()) {
      Locals.insert(V.Scalar);
      Body += "  rl_T::V " + V.Scalar + " = rl_T::zero();\n";
      return llvm::Error::success();
    }
    break;
  }
  Kind K;
  llvm::Expected<std::string> X = value(S, V.Value, K);
  if (!X)
    return X.takeError();
  if (K != Kind::Vec)
    return makeError("a comparison stored as a value");
  static const std::map<std::string, const char *> Compound = {
      {"+=", "add"}, {"-=", "sub"}, {"*=", "mul"}, {"/=", "div"}};
  if (V.Target == StmtValue::ScalarDecl) {
    Locals.insert(V.Scalar);
    Body += "  rl_T::V " + V.Scalar + " = " + *X + ";\n";
    return llvm::Error::success();
  }
  if (V.Op == "=") {
    Body += "  " + Target + " = " + *X + ";\n";
    return llvm::Error::success();
  }
  auto It = Compound.find(V.Op);
  if (It == Compound.end())
    return makeError("assignment '" + V.Op + "'");
  Body += "  " + Target + " = rl_T::" + It->second + "(" + Target + ", " + *X + ");\n";
  return llvm::Error::success();
}

llvm::Expected<VectorEpilogue> Writer::run(const std::string &Name) {
  if (C.N.empty())
    return makeError("not a gemm");
  std::vector<std::string> Lines;
  for (const Stmt &S : C.Epilogue) {
    if (llvm::Error E = statement(S))
      return std::move(E);
    Lines.push_back(printStmtValue(S));
  }
  for (const std::string &IV : {C.M, C.N})
    if (Loops.count(IV))
      if (llvm::Error E = names(C.First.at(IV)))
        return std::move(E);
  // The loops of the tile's element; the batch loops are members.
  std::string Locate;
  if (Loops.count(C.M))
    Locate += "  const int64_t " + C.M + " = " +
              (cExpr(C.First.at(C.M)) == "0" ? "" : parenthesized(cExpr(C.First.at(C.M))) + " + ") +
              "rl_i;\n";
  if (Loops.count(C.N))
    Locate += "  const int64_t " + C.N + " = " +
              (cExpr(C.First.at(C.N)) == "0" ? "" : parenthesized(cExpr(C.First.at(C.N))) + " + ") +
              "rl_j;\n";
  VectorEpilogue R;
  std::string S = "// The epilogue, on each vector of a finished tile of " + C.Out.Array +
                  " while it is in\n// registers (roofline_gemm.h, rl::v):\n";
  for (const std::string &Line : Lines)
    S += "//   " + Line + "\n";
  S += "struct " + Name + " {\n  static constexpr bool active = true;\n";
  for (const std::string &A : Arrays) {
    S += "  const float *" + A + ";\n";
    R.Init.push_back(A);
  }
  for (const std::string &X : Scalars) {
    S += "  float " + X + ";\n";
    R.Init.push_back(X);
  }
  for (const std::string &X : Sizes) {
    S += "  int64_t " + X + ";\n";
    R.Init.push_back(X);
  }
  for (const std::string &B : C.Batch)
    if (Loops.count(B)) {
      S += "  int64_t " + B + ";\n";
      R.Init.push_back(B);
    }
  S += "  template <typename rl_T>\n  typename rl_T::V apply(typename rl_T::V rl_x, "
       "int64_t rl_i, int64_t rl_j,\n                         typename rl_T::M rl_m) "
       "const;\n};\n";
  std::string Full = "  (void)rl_i;\n  (void)rl_j;\n  (void)rl_m;\n" + Locate + Body +
                     "  return rl_x;\n}\n";
  auto Def = [&](const std::string &Attr, const std::string &T, const std::string &V,
                 const std::string &M) {
    return "template <>\n" + Attr + "inline " + V + " " + Name + "::apply<" + T + ">(" +
           V + " rl_x, int64_t rl_i, int64_t rl_j,\n    " + M +
           " rl_m) const {\n  typedef " + T + " rl_T;\n" + Full;
  };
  S += Def("", "rl::v::f32x1", "float", "bool");
  S += "#if RL_X86\n" + Def("RL_AVX2 ", "rl::v::f32x8", "__m256", "__m256i") +
       Def("RL_AVX512 ", "rl::v::f32x16", "__m512", "__mmask16") + "#endif\n";
  R.Definition = std::move(S);
  return R;
}

} // namespace

llvm::Expected<VectorEpilogue>
roofline::vectorEpilogue(const ContractionInfo &C, const ArgLayout &L,
                         const std::vector<ArgInfo> &Extra, const std::string &Name) {
  Writer W(C, L, Extra);
  return W.run(Name);
}

const ArgInfo *roofline::findArg(const ArgLayout &L,
                                 const std::vector<ArgInfo> &Extra,
                                 const std::string &Name) {
  if (const ArgInfo *A = L.find(Name))
    return A;
  for (const ArgInfo &A : Extra)
    if (A.Name == Name)
      return &A;
  return nullptr;
}
