//===- CpuEmitter.cpp - IR' to readable C++17 kernels ---------------------===//

#include "roofline/CodeGen/CpuEmitter.h"

#include "roofline/Analysis/Counts.h"
#include "roofline/Support/Error.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cassert>
#include <cstdio>
#include <functional>
#include <set>

using namespace roofline;

const ArgInfo *ArgLayout::find(const std::string &Name) const {
  for (const ArgInfo &A : Args)
    if (A.Name == Name)
      return &A;
  return nullptr;
}

int ArgLayout::indexOf(const std::string &Name) const {
  for (size_t I = 0; I < Args.size(); ++I)
    if (Args[I].Name == Name)
      return static_cast<int>(I);
  return -1;
}

std::string roofline::cExpr(const AffineExpr &E) { return E.str(); }

std::string roofline::parenthesized(const std::string &S) {
  return S.find_first_of("+- ") == std::string::npos ? S : "(" + S + ")";
}

std::string roofline::cBound(const Bound &B) {
  auto Term = [](const BoundTerm &T) {
    std::string E = cExpr(T.Expr);
    return T.Divisor == 1 ? E
                          : "rl::floordiv(" + E + ", " +
                                std::to_string(T.Divisor) + ")";
  };
  if (B.Kind == Bound::Single || B.Terms.size() == 1)
    return Term(B.Terms.front());
  std::string S = B.Kind == Bound::Min ? "rl::min(" : "rl::max(";
  for (size_t I = 0; I < B.Terms.size(); ++I)
    S += (I ? ", " : "") + Term(B.Terms[I]);
  return S + ")";
}

void roofline::usedArrays(const Stmt &S, std::set<std::string> &Used,
                          std::set<std::string> &Written) {
  for (const Access &A : S.Accesses) {
    Used.insert(A.ArrayName);
    if (A.IsWrite)
      Written.insert(A.ArrayName);
  }
  if (S.Value) {
    if (S.Value->Target == StmtValue::ScalarTarget) {
      Used.insert(S.Value->Scalar);
      Written.insert(S.Value->Scalar);
    }
    S.Value->Value.walk([&](const ValueExpr &E) {
      if (E.Kind == ValueExpr::Scalar)
        Used.insert(E.Name);
    });
  }
}

namespace {

/// \p S as a factor of a product.
std::string factor(const std::string &S) {
  return S.find_first_of("+- ") == std::string::npos ? S : "(" + S + ")";
}

//===----------------------------------------------------------------------===//
// Shapes: declared extents, else the largest subscript + 1
//===----------------------------------------------------------------------===//

struct Range {
  const Loop *L;
};

/// An upper bound of \p E over the loops in \p Stack (innermost last):
/// each IV replaced by its last (first) value for a positive (negative)
/// coefficient, innermost first, so outer IVs in inner bounds resolve too.
std::optional<AffineExpr> upperBound(AffineExpr E,
                                     const std::vector<const Loop *> &Stack,
                                     bool Lower = false) {
  for (size_t I = Stack.size(); I-- > 0;) {
    const Loop &L = *Stack[I];
    int64_t C = E.coeff(L.IV);
    if (!C)
      continue;
    bool WantHigh = (C > 0) != Lower;
    // The IV's high end is Last for an increasing loop, First otherwise.
    const Bound &B = (WantHigh == (L.Step > 0)) ? L.Last : L.First;
    // Any term of a min bounds it above, any term of a max below.
    bool Usable = B.Kind == Bound::Single ||
                  (B.Kind == Bound::Min && WantHigh == (L.Step > 0)) ||
                  (B.Kind == Bound::Max && WantHigh != (L.Step > 0));
    if (!Usable || B.Terms.empty())
      return std::nullopt;
    const BoundTerm *Pick = nullptr;
    for (const BoundTerm &T : B.Terms)
      if (T.Divisor == 1 &&
          (!Pick || T.Expr.terms().size() < Pick->Expr.terms().size()))
        Pick = &T;
    if (!Pick)
      return std::nullopt;
    std::optional<AffineExpr> R = E.substitute(L.IV, Pick->Expr);
    if (!R)
      return std::nullopt;
    E = *R;
  }
  return E;
}

/// The larger of two affine extents when one dominates the other.
std::optional<AffineExpr> maxOf(const AffineExpr &A, const AffineExpr &B) {
  std::optional<AffineExpr> D = A.sub(B);
  if (!D)
    return std::nullopt;
  bool AllGe = D->constant() >= 0, AllLe = D->constant() <= 0;
  for (const auto &[N, C] : D->terms()) {
    AllGe &= C >= 0;
    AllLe &= C <= 0;
  }
  if (AllGe)
    return A;
  if (AllLe)
    return B;
  return std::nullopt;
}

/// Subscript-derived extents of \p Array over the statements of \p Nests.
llvm::Expected<std::vector<std::optional<AffineExpr>>>
subscriptExtents(const std::string &Array, size_t Dims,
                 const std::vector<const LoopNest *> &Nests) {
  std::vector<std::optional<AffineExpr>> Out(Dims);
  std::string Problem;
  for (const LoopNest *N : Nests)
    forEachStmt(N->Root, [&](const Stmt &S,
                             const std::vector<const Loop *> &Stack) {
      for (const Access &A : S.Accesses) {
        if (A.ArrayName != Array || A.Subscripts.size() != Dims)
          continue;
        for (size_t D = 0; D < Dims; ++D) {
          if (!A.Subscripts[D]) {
            Problem = "subscript of '" + A.Text + "' is not affine";
            continue;
          }
          std::optional<AffineExpr> U = upperBound(*A.Subscripts[D], Stack);
          if (U)
            U = U->addConstant(1);
          if (!U) {
            Problem = "cannot bound subscript " + std::to_string(D) +
                      " of '" + A.Text + "'";
            continue;
          }
          if (!Out[D])
            Out[D] = U;
          else if (std::optional<AffineExpr> M = maxOf(*Out[D], *U))
            Out[D] = M;
          else
            Problem = "extents of '" + Array + "' (" + Out[D]->str() +
                      ", " + U->str() + ") are not comparable";
        }
      }
    });
  if (!Problem.empty())
    return makeError(Problem);
  return Out;
}

std::string defaultCType(Precision P) {
  switch (P) {
  case Precision::F64: return "double";
  case Precision::F32: return "float";
  case Precision::F16: return "_Float16";
  case Precision::BF16: return "__bf16";
  case Precision::I8: return "signed char";
  case Precision::I16: return "short";
  case Precision::I32: return "int";
  case Precision::I64: return "long";
  default: return "float";
  }
}

bool isFloatCType(const std::string &T) {
  return T == "float" || T == "double" || T == "__bf16" || T == "_Float16" ||
         T == "rl_bf16" || T == "long double" || T == "__fp16";
}

enum class Use { Any, Read, Write };

/// Whether \p N accesses \p Array in the way \p U says.
bool uses(const LoopNest &N, const std::string &Array, Use U) {
  bool Found = false;
  forEachStmt(N.Root, [&](const Stmt &S, const std::vector<const Loop *> &) {
    for (const Access &A : S.Accesses)
      Found |= A.ArrayName == Array &&
               (U == Use::Any || (U == Use::Read ? A.IsRead : A.IsWrite));
  });
  return Found;
}

/// Whether nest \p N (counted as \p C) reads \p Array's incoming values:
/// some element is read before the nest writes it (distinct elements first
/// read, per the counts). Without counts the answer is yes: copying an array
/// in is always correct, only slower.
bool readsIncoming(const LoopNest &N, const std::optional<NestCounts> &C,
                   const std::string &Array) {
  if (!uses(N, Array, Use::Read))
    return false;
  if (!C)
    return true;
  for (const ArrayTraffic &T : C->Arrays) {
    if (T.Name != Array)
      continue;
    if (T.ElementsRead.Value)
      return *T.ElementsRead.Value > 0;
    if (T.ElementsRead.Formula)
      return !T.ElementsRead.Formula->isZero();
    return true;
  }
  return false;
}

llvm::Expected<std::vector<AffineExpr>>
shapeOfArray(const Array &A, const std::vector<const LoopNest *> &Nests,
             std::set<std::string> *Fixed) {
  llvm::Expected<std::vector<std::optional<AffineExpr>>> Sub =
      subscriptExtents(A.Name, A.Extents.size(), Nests);
  std::vector<AffineExpr> Shape;
  for (size_t D = 0; D < A.Extents.size(); ++D) {
    if (A.Extents[D]) {
      Shape.push_back(*A.Extents[D]);
      // A constant extent the loops reach through sizes pins those sizes.
      if (Fixed && A.Extents[D]->isConstant() && Sub && (*Sub)[D])
        for (const auto &[Name, C] : (*Sub)[D]->terms())
          Fixed->insert(Name);
      continue;
    }
    if (!Sub)
      return Sub.takeError();
    if (!(*Sub)[D])
      return makeError("no access bounds dimension " + std::to_string(D) +
                       " of '" + A.Name + "'");
    Shape.push_back(*(*Sub)[D]);
  }
  if (!Sub) // every dimension had a declared extent: the bounds were unneeded
    llvm::consumeError(Sub.takeError());
  return Shape;
}

} // namespace

llvm::Expected<ArgLayout>
roofline::layoutOf(const std::vector<LoopNest> &Sources,
                   const std::vector<std::optional<NestCounts>> &Counts) {
  assert(Counts.size() == Sources.size() && "one count slot per source");
  ArgLayout L;
  std::vector<const LoopNest *> Ptrs;
  for (const LoopNest &N : Sources)
    Ptrs.push_back(&N);
  for (const LoopNest &N : Sources)
    for (const Param &P : N.Params)
      if (std::none_of(L.Sizes.begin(), L.Sizes.end(),
                       [&](const Param &X) { return X.Name == P.Name; }))
        L.Sizes.push_back(P);
  for (const LoopNest &N : Sources) {
    for (const Array &A : N.Arrays) {
      if (L.find(A.Name))
        continue;
      ArgInfo I;
      I.Name = A.Name;
      I.Elem = A.Elem;
      auto CT = N.Sem.ArrayCTypes.find(A.Name);
      I.CType = CT != N.Sem.ArrayCTypes.end() ? CT->second : defaultCType(A.Elem);
      llvm::Expected<std::vector<AffineExpr>> S = shapeOfArray(A, Ptrs, &L.Fixed);
      if (!S)
        return S.takeError();
      I.Shape = *S;
      // The first nest touching the array decides whether its incoming
      // values matter.
      bool Reads = false, Written = false, Seen = false;
      for (size_t K = 0; K < Sources.size(); ++K) {
        const LoopNest &X = Sources[K];
        if (!uses(X, A.Name, Use::Any))
          continue;
        if (!Seen)
          Reads = readsIncoming(X, Counts[K], A.Name);
        Seen = true;
        Written |= uses(X, A.Name, Use::Write);
      }
      bool Local = N.Sem.LocalArrays.count(A.Name) != 0;
      I.Intent = Local && Written ? ArgInfo::Temp
                 : !Written      ? ArgInfo::In
                 : Reads         ? ArgInfo::InOut
                                 : ArgInfo::Out;
      L.Args.push_back(std::move(I));
    }
  }
  for (const LoopNest &N : Sources)
    for (const ScalarVar &V : N.Sem.Scalars) {
      if (V.Kind == ScalarVar::Local || L.find(V.Name))
        continue;
      ArgInfo I;
      I.Name = V.Name;
      I.CType = V.CType;
      I.IsScalar = true;
      I.Elem = isFloatCType(V.CType) ? (V.CType == "double" ? Precision::F64
                                                            : Precision::F32)
                                     : Precision::I64;
      if (V.CType == "int" || V.CType == "unsigned int")
        I.Elem = Precision::I32;
      I.Intent = V.Kind == ScalarVar::InOut ? ArgInfo::InOut : ArgInfo::In;
      L.Args.push_back(std::move(I));
    }
  return L;
}

llvm::Expected<std::vector<ArgInfo>> roofline::extraArrays(const Program &P,
                                                           const ArgLayout &L) {
  std::vector<ArgInfo> Out;
  std::vector<const LoopNest *> Ptrs;
  for (const KernelNest &K : P.Nests)
    Ptrs.push_back(&K.Nest);
  std::vector<const LoopNest *> WithPrepare = Ptrs;
  if (P.Quant)
    for (const LoopNest &N : P.Quant->Prepare)
      WithPrepare.push_back(&N);
  for (const KernelNest &K : P.Nests)
    for (const Array &A : K.Nest.Arrays) {
      if (L.find(A.Name) ||
          std::any_of(Out.begin(), Out.end(),
                      [&](const ArgInfo &X) { return X.Name == A.Name; }))
        continue;
      ArgInfo I;
      I.Name = A.Name;
      I.Elem = A.Elem;
      auto CT = K.Nest.Sem.ArrayCTypes.find(A.Name);
      I.CType = CT != K.Nest.Sem.ArrayCTypes.end() ? CT->second
                                                   : defaultCType(A.Elem);
      llvm::Expected<std::vector<AffineExpr>> S =
          shapeOfArray(A, WithPrepare, nullptr);
      if (!S)
        return S.takeError();
      I.Shape = *S;
      bool Local = K.Nest.Sem.LocalArrays.count(A.Name) != 0;
      I.Intent = Local ? ArgInfo::Temp : ArgInfo::In;
      I.Prepared = P.Quant && std::find(P.Quant->Prepared.begin(),
                                        P.Quant->Prepared.end(),
                                        A.Name) != P.Quant->Prepared.end();
      // Kernel-local buffers are not arguments; quantized operands the
      // kernel makes itself are scratch the caller provides.
      if (Local && !I.Prepared)
        continue;
      if (!I.Prepared)
        I.Intent = ArgInfo::Temp;
      Out.push_back(std::move(I));
    }
  return Out;
}

std::string roofline::cTypeFor(const std::string &T, EmitMode Mode) {
  if (Mode == EmitMode::Magnitude && (isFloatCType(T)))
    return "rl::mv";
  if (Mode != EmitMode::AsWritten && isFloatCType(T))
    return "double";
  if (T == "__bf16" || T == "rl_bf16")
    return "rl::bf16";
  if (T == "_Bool" || T == "bool")
    return "bool";
  return T;
}

//===----------------------------------------------------------------------===//
// Kernel emission
//===----------------------------------------------------------------------===//

std::string roofline::mathBaseName(std::string Name) {
  static const char *Known[] = {
      "exp",  "exp2", "expm1", "log",   "log2",  "log10", "log1p", "sqrt",
      "cbrt", "pow",  "sin",   "cos",   "tan",   "asin",  "acos",  "atan",
      "atan2", "sinh", "cosh", "tanh",  "erf",   "erfc",  "fabs",  "floor",
      "ceil", "round", "trunc", "fmin", "fmax",  "fmod",  "hypot", "copysign",
      "lrint", "rint", "fma",  "abs",   "max",   "min"};
  if (llvm::StringRef(Name).starts_with("std::"))
    Name = Name.substr(5);
  if (llvm::StringRef(Name).starts_with("__builtin_"))
    Name = Name.substr(10);
  for (const char *K : Known) {
    if (Name == K)
      return K;
    if (Name.size() == strlen(K) + 1 && llvm::StringRef(Name).starts_with(K) &&
        (Name.back() == 'f' || Name.back() == 'l'))
      return K;
  }
  return "";
}

namespace {

std::string floatLiteral(double V, bool AsFloat) {
  char Buf[64];
  for (int Digits = 1; Digits <= 17; ++Digits) {
    std::snprintf(Buf, sizeof Buf, "%.*g", Digits, V);
    double Back = std::strtod(Buf, nullptr);
    if (AsFloat ? static_cast<float>(Back) == static_cast<float>(V)
                : Back == V)
      break;
  }
  std::string S = Buf;
  if (S == "inf" || S == "-inf" || S == "nan")
    return AsFloat ? "std::numeric_limits<float>::infinity()"
                   : "std::numeric_limits<double>::infinity()";
  if (S.find_first_of(".e") == std::string::npos)
    S += ".0";
  return AsFloat ? S + "f" : S;
}

class KernelWriter {
public:
  KernelWriter(const Program &P, const ArgLayout &L,
               const std::vector<ArgInfo> &Extra, EmitMode Mode)
      : P(P), L(L), Extra(Extra), Mode(Mode) {}

  llvm::Expected<std::string> run(const std::string &Symbol);
  /// Just \p K's loops, for a template that declared the arrays itself.
  llvm::Expected<std::string> body(const KernelNest &K, unsigned Indent);

private:
  struct ArrayView {
    std::string Var;               ///< the C variable holding elements
    std::vector<AffineExpr> Shape; ///< row-major extents
    std::string CType;
  };

  llvm::Error prepare();
  llvm::Error emitLoop(const KernelNest &K, const Loop &Lp, unsigned Indent);
  llvm::Error emitStmt(const KernelNest &K, const Stmt &S, unsigned Indent);
  llvm::Expected<std::string> value(const KernelNest &K, const Stmt &S,
                                    const ValueExpr &E);
  std::string access(const Access &A);
  std::string bound(const Bound &B) const;
  std::string ind(unsigned N) const { return std::string(2 * N, ' '); }

  const Program &P;
  const ArgLayout &L;
  const std::vector<ArgInfo> &Extra;
  EmitMode Mode;
  std::map<std::string, ArrayView> Views;
  std::map<std::string, std::string> ScalarTypes; ///< source C types
  /// Kernel-local buffers, and the parallel loop they must be private to.
  std::map<std::string, std::string> LocalAt;
  std::string Body;
  std::set<std::string> UsedSizes;
};

std::string KernelWriter::bound(const Bound &B) const { return cBound(B); }

std::string KernelWriter::access(const Access &A) {
  const ArrayView &V = Views[A.ArrayName];
  if (A.Subscripts.empty())
    return V.Var + "[0]";
  std::string Idx;
  for (size_t D = 0; D < A.Subscripts.size(); ++D) {
    std::string S = cExpr(*A.Subscripts[D]);
    bool Compound = S.find_first_of("+-") != std::string::npos &&
                    !(S.size() > 1 && S[0] == '-' &&
                      S.find_first_of("+-", 1) == std::string::npos);
    if (D == 0) {
      Idx = S;
      continue;
    }
    std::string Ext = cExpr(V.Shape[D]);
    bool ExtCompound = Ext.find_first_of("+-") != std::string::npos;
    bool IdxCompound = Idx.find_first_of("+-") != std::string::npos;
    Idx = (IdxCompound ? "(" + Idx + ")" : Idx) + " * " +
          (ExtCompound ? "(" + Ext + ")" : Ext) + " + " +
          (Compound ? "(" + S + ")" : S);
  }
  return V.Var + "[" + Idx + "]";
}

llvm::Expected<std::string> KernelWriter::value(const KernelNest &K,
                                                const Stmt &S,
                                                const ValueExpr &E) {
  bool Mag = Mode == EmitMode::Magnitude;
  auto Sub = [&](size_t I) { return value(K, S, E.Operands[I]); };
  switch (E.Kind) {
  case ValueExpr::Load:
    if (E.Access >= S.Accesses.size())
      return makeError("value refers to a missing access");
    return access(S.Accesses[E.Access]);
  case ValueExpr::Scalar:
    return E.Name;
  case ValueExpr::Index:
    UsedSizes.insert(E.Name);
    return Mag ? "rl::mv_of(static_cast<double>(" + E.Name + "))" : E.Name;
  case ValueExpr::FloatLit: {
    std::string Lit = floatLiteral(E.Float, E.CType == "float" &&
                                                Mode == EmitMode::AsWritten);
    return Mag ? "rl::mv_of(" + Lit + ")" : Lit;
  }
  case ValueExpr::IntLit:
    return Mag ? "rl::mv_of(" + std::to_string(E.Int) + ".0)"
               : std::to_string(E.Int);
  case ValueExpr::Unary: {
    llvm::Expected<std::string> A = Sub(0);
    if (!A)
      return A.takeError();
    if (Mag && E.Name != "-" && E.Name != "+")
      return makeError("operator '" + E.Name + "' has no magnitude form");
    return "(" + E.Name + *A + ")";
  }
  case ValueExpr::Binary: {
    llvm::Expected<std::string> A = Sub(0);
    if (!A)
      return A.takeError();
    llvm::Expected<std::string> B = Sub(1);
    if (!B)
      return B.takeError();
    static const std::set<std::string> MagOps = {"+", "-", "*", "/", "<",
                                                 "<=", ">", ">=", "==", "!="};
    if (Mag && !MagOps.count(E.Name))
      return makeError("operator '" + E.Name + "' has no magnitude form");
    return "(" + *A + " " + E.Name + " " + *B + ")";
  }
  case ValueExpr::Call: {
    std::vector<std::string> Args;
    for (size_t I = 0; I < E.Operands.size(); ++I) {
      llvm::Expected<std::string> A = Sub(I);
      if (!A)
        return A.takeError();
      Args.push_back(*A);
    }
    std::string Base = mathBaseName(E.Name);
    std::string Fn = E.Name;
    if (Mode == EmitMode::Double) {
      if (Base.empty())
        return makeError("call to '" + E.Name + "' has no double form");
      Fn = Base == "max"   ? "std::fmax"
           : Base == "min" ? "std::fmin"
           : Base == "abs" ? "std::fabs"
                           : "std::" + Base;
    } else if (Mag) {
      if (Base.empty())
        return makeError("call to '" + E.Name + "' has no magnitude form");
      Fn = "rl::m_" + Base;
    }
    return Fn + "(" + llvm::join(Args, ", ") + ")";
  }
  case ValueExpr::Select: {
    llvm::Expected<std::string> C = Sub(0);
    if (!C)
      return C.takeError();
    llvm::Expected<std::string> T = Sub(1);
    if (!T)
      return T.takeError();
    llvm::Expected<std::string> F = Sub(2);
    if (!F)
      return F.takeError();
    if (Mag)
      return "rl::m_select(" + *C + ", " + *T + ", " + *F + ")";
    return "(" + *C + " ? " + *T + " : " + *F + ")";
  }
  case ValueExpr::Cast: {
    llvm::Expected<std::string> A = Sub(0);
    if (!A)
      return A.takeError();
    if (Mag)
      return isFloatCType(E.CType) ? *A
                                   : "rl::m_cast<" + E.CType + ">(" + *A + ")";
    return "static_cast<" + cTypeFor(E.CType, Mode) + ">(" + *A + ")";
  }
  }
  return makeError("unknown value kind");
}

llvm::Error KernelWriter::emitStmt(const KernelNest &K, const Stmt &S,
                                   unsigned Indent) {
  if (!S.Value)
    return makeError("statement at line " + std::to_string(S.Loc.Line) +
                     " has no value (" + K.Nest.Sem.WhyNot + ")");
  const StmtValue &V = *S.Value;
  std::string Target;
  switch (V.Target) {
  case StmtValue::ArrayTarget:
    Target = access(S.Accesses[V.TargetAccess]);
    break;
  case StmtValue::ScalarTarget:
    Target = V.Scalar;
    break;
  case StmtValue::ScalarDecl: {
    const ScalarVar *SV = K.Nest.Sem.findScalar(V.Scalar);
    std::string T = SV ? SV->CType : "float";
    Target = cTypeFor(T, Mode) + " " + V.Scalar;
    break;
  }
  }
  if (V.Op.empty()) {
    Body += ind(Indent) + Target + "{};\n";
    return llvm::Error::success();
  }
  llvm::Expected<std::string> Val = value(K, S, V.Value);
  if (!Val)
    return Val.takeError();
  std::string X = *Val;
  if (X.size() > 2 && X.front() == '(' && X.back() == ')') {
    // Drop one redundant pair of outer parentheses.
    int Depth = 0;
    bool Outer = true;
    for (size_t I = 0; I + 1 < X.size(); ++I) {
      Depth += X[I] == '(' ? 1 : X[I] == ')' ? -1 : 0;
      if (Depth == 0) {
        Outer = false;
        break;
      }
    }
    if (Outer)
      X = X.substr(1, X.size() - 2);
  }
  Body += ind(Indent) + Target + " " + V.Op + " " + X + ";\n";
  return llvm::Error::success();
}

llvm::Error KernelWriter::emitLoop(const KernelNest &K, const Loop &Lp,
                                   unsigned Indent) {
  auto A = K.Attrs.find(Lp.IV);
  if (A != K.Attrs.end()) {
    if (A->second.Parallel)
      Body += ind(Indent) + "RL_OMP(parallel for schedule(static))\n";
    if (A->second.Vector)
      Body += ind(Indent) + "RL_OMP(simd)\n";
    if (A->second.Unroll > 1)
      Body += ind(Indent) + "RL_UNROLL(" + std::to_string(A->second.Unroll) +
              ")\n";
  }
  std::string Step = Lp.Step == 1    ? "++" + Lp.IV
                     : Lp.Step == -1 ? "--" + Lp.IV
                                     : Lp.IV + " += " + std::to_string(Lp.Step);
  Body += ind(Indent) + "for (int64_t " + Lp.IV + " = " + bound(Lp.First) +
          "; " + Lp.IV + (Lp.Step > 0 ? " <= " : " >= ") + bound(Lp.Last) +
          "; " + Step + ") {\n";
  // Buffers private to this (parallel) loop's iterations.
  for (const auto &[Name, At] : LocalAt)
    if (At == Lp.IV) {
      const ArrayView &V = Views[Name];
      std::string Size;
      for (const AffineExpr &E : V.Shape)
        Size += (Size.empty() ? "" : " * ") + factor(cExpr(E));
      Body += ind(Indent + 1) + "rl::buffer<" + V.CType + "> " + Name +
              "_buf(" + Size + ");\n" + ind(Indent + 1) + V.CType + " *" +
              Name + " = " + Name + "_buf.data();\n";
    }
  for (const Node &N : Lp.Body) {
    llvm::Error E = N.isLoop() ? emitLoop(K, N.loop(), Indent + 1)
                               : emitStmt(K, N.S, Indent + 1);
    if (E)
      return E;
  }
  Body += ind(Indent) + "}\n";
  return llvm::Error::success();
}

llvm::Error KernelWriter::prepare() {
  // Where each kernel-local buffer lives: inside the outermost parallel
  // loop that encloses its accesses, else at function scope.
  for (const KernelNest &K : P.Nests)
    for (const std::string &Name : K.Nest.Sem.LocalArrays) {
      if (L.find(Name) || !K.Nest.findArray(Name))
        continue;
      bool IsExtra = std::any_of(Extra.begin(), Extra.end(),
                                 [&](const ArgInfo &X) { return X.Name == Name; });
      if (IsExtra)
        continue;
      std::string At;
      std::function<void(const Loop &, const std::string &)> Walk =
          [&](const Loop &Lp, const std::string &Par) {
            std::string Here = Par;
            auto A = K.Attrs.find(Lp.IV);
            if (Here.empty() && A != K.Attrs.end() && A->second.Parallel)
              Here = Lp.IV;
            for (const Node &N : Lp.Body) {
              if (N.isLoop()) {
                Walk(N.loop(), Here);
                continue;
              }
              for (const Access &X : N.S.Accesses)
                if (X.ArrayName == Name && !Here.empty())
                  At = Here;
            }
          };
      Walk(K.Nest.Root, "");
      LocalAt[Name] = At;
    }
  return llvm::Error::success();
}

llvm::Expected<std::string> KernelWriter::run(const std::string &Symbol) {
  if (llvm::Error E = prepare())
    return std::move(E);
  bool Mag = Mode == EmitMode::Magnitude;
  std::string Head = "RL_EXPORT void " + Symbol +
                     "(void *const *rl_args, const int64_t *rl_sizes) {\n";
  for (size_t I = 0; I < L.Sizes.size(); ++I)
    Head += "  const int64_t " + L.Sizes[I].Name + " = rl_sizes[" +
            std::to_string(I) + "];\n";
  // Which arrays and scalars the nests use.
  std::set<std::string> Used, Written;
  for (const KernelNest &K : P.Nests)
    forEachStmt(K.Nest.Root,
                [&](const Stmt &S, const std::vector<const Loop *> &) {
                  usedArrays(S, Used, Written);
                });
  if (Mag)
    for (const std::string &W : Written) {
      const ArgInfo *A = L.find(W);
      if (A && !isFloatCType(A->CType))
        return makeError("'" + W + "' is an integer output: compared exactly");
    }
  std::string Tail;
  auto Declare = [&](const ArgInfo &A, size_t Index) {
    if (!Used.count(A.Name))
      return;
    std::string T = cTypeFor(A.CType, Mode == EmitMode::Double
                                          ? EmitMode::Double
                                          : (Mag ? EmitMode::Double
                                                 : EmitMode::AsWritten));
    std::string Arg = "rl_args[" + std::to_string(Index) + "]";
    bool W = Written.count(A.Name) != 0;
    std::string Size;
    for (const AffineExpr &E : A.Shape)
      Size += (Size.empty() ? "" : " * ") + factor(cExpr(E));
    if (A.IsScalar) {
      if (Mag && isFloatCType(A.CType)) {
        Head += "  double &" + A.Name + "_arg = *static_cast<double *>(" + Arg +
                ");\n  rl::mv " + A.Name + " = rl::mv_of(" + A.Name +
                "_arg);\n";
        if (W)
          Tail += "  " + A.Name + "_arg = " + A.Name + ".m;\n";
        return;
      }
      Head += W ? "  " + T + " &" + A.Name + " = *static_cast<" + T + " *>(" +
                      Arg + ");\n"
                : "  const " + T + " " + A.Name + " = *static_cast<const " + T +
                      " *>(" + Arg + ");\n";
      return;
    }
    Views[A.Name] = {A.Name, A.Shape, cTypeFor(A.CType, Mode)};
    if (Mag && isFloatCType(A.CType)) {
      // Values and magnitudes side by side; written arrays report .m.
      Head += "  double *" + A.Name + "_arg = static_cast<double *>(" + Arg +
              ");\n  std::vector<rl::mv> " + A.Name + "_mv(" + Size +
              ");\n  for (size_t rl_i = 0; rl_i < " + A.Name +
              "_mv.size(); ++rl_i)\n    " + A.Name + "_mv[rl_i] = rl::mv_of(" +
              A.Name + "_arg[rl_i]);\n  rl::mv *RL_RESTRICT " + A.Name + " = " +
              A.Name + "_mv.data();\n";
      if (W)
        Tail += "  for (size_t rl_i = 0; rl_i < " + A.Name +
                "_mv.size(); ++rl_i)\n    " + A.Name + "_arg[rl_i] = " +
                A.Name + "[rl_i].m;\n";
      return;
    }
    if (Mag) // integer data: read as values
      Views[A.Name].CType = T;
    Head += W ? "  " + T + " *RL_RESTRICT " + A.Name + " = static_cast<" + T +
                    " *>(" + Arg + ");\n"
              : "  const " + T + " *RL_RESTRICT " + A.Name +
                    " = static_cast<const " + T + " *>(" + Arg + ");\n";
  };
  for (size_t I = 0; I < L.Args.size(); ++I)
    Declare(L.Args[I], I);
  for (size_t I = 0; I < Extra.size(); ++I)
    Declare(Extra[I], L.Args.size() + I);
  // Kernel-local buffers.
  for (const KernelNest &K : P.Nests)
    for (const Array &A : K.Nest.Arrays) {
      if (Views.count(A.Name) || !LocalAt.count(A.Name))
        continue;
      std::vector<AffineExpr> Shape;
      for (const auto &E : A.Extents) {
        if (!E)
          return makeError("buffer '" + A.Name + "' has no fixed shape");
        Shape.push_back(*E);
      }
      auto CT = K.Nest.Sem.ArrayCTypes.find(A.Name);
      std::string T = cTypeFor(CT != K.Nest.Sem.ArrayCTypes.end()
                                   ? CT->second
                                   : defaultCType(A.Elem),
                               Mode);
      Views[A.Name] = {A.Name, Shape, T};
      if (!LocalAt[A.Name].empty())
        continue; // declared inside its parallel loop
      std::string Size;
      for (const AffineExpr &E : Shape)
        Size += (Size.empty() ? "" : " * ") + factor(cExpr(E));
      Head += "  rl::buffer<" + T + "> " + A.Name + "_buf(" + Size + ");\n  " +
              T + " *RL_RESTRICT " + A.Name + " = " + A.Name + "_buf.data();\n";
    }
  for (const std::string &N : Used)
    if (!Views.count(N) && !L.find(N) &&
        std::none_of(Extra.begin(), Extra.end(),
                     [&](const ArgInfo &X) { return X.Name == N; })) {
      bool Local = false;
      for (const KernelNest &K : P.Nests)
        if (const ScalarVar *V = K.Nest.Sem.findScalar(N))
          Local |= V->Kind == ScalarVar::Local;
      if (!Local)
        return makeError("'" + N + "' is neither an argument nor local");
    }
  for (const KernelNest &K : P.Nests)
    if (llvm::Error E = emitLoop(K, K.Nest.Root, 1))
      return std::move(E);
  // Silence unused sizes: the ABI passes them all.
  std::string Unused;
  for (const Param &S : L.Sizes)
    Unused += "  (void)" + S.Name + ";\n";
  return Head + Unused + Body + Tail + "}\n";
}

llvm::Expected<std::string> KernelWriter::body(const KernelNest &K,
                                               unsigned Indent) {
  for (const ArgInfo &A : L.Args)
    Views[A.Name] = {A.Name, A.Shape, cTypeFor(A.CType, Mode)};
  for (const ArgInfo &A : Extra)
    Views[A.Name] = {A.Name, A.Shape, cTypeFor(A.CType, Mode)};
  if (llvm::Error E = emitLoop(K, K.Nest.Root, Indent))
    return std::move(E);
  return Body;
}

} // namespace

llvm::Expected<std::string>
roofline::emitLoopCode(const KernelNest &K, const ArgLayout &L,
                       const std::vector<ArgInfo> &Extra, unsigned Indent) {
  if (!K.Nest.Sem.Complete)
    return makeError("nest at line " + std::to_string(K.Nest.Loc.Line) +
                     " cannot be emitted: " + K.Nest.Sem.WhyNot);
  Program Empty;
  KernelWriter W(Empty, L, Extra, EmitMode::AsWritten);
  return W.body(K, Indent);
}

llvm::Expected<std::string>
roofline::emitGenericKernel(const Program &P, const ArgLayout &L,
                            const std::vector<ArgInfo> &Extra,
                            const std::string &Symbol, EmitMode Mode) {
  for (const KernelNest &K : P.Nests)
    if (!K.Nest.Sem.Complete)
      return makeError("nest at line " + std::to_string(K.Nest.Loc.Line) +
                       " cannot be emitted: " + K.Nest.Sem.WhyNot);
  KernelWriter W(P, L, Extra, Mode);
  return W.run(Symbol);
}
