//===- Value.h - What a statement computes ---------------------------------===//
//
// The analysis needs only a statement's accesses and operation counts; code
// generation needs the computation itself. A StmtValue is that computation as
// a small expression tree whose leaves refer to the statement's accesses by
// index, so a transform that rewrites subscripts (tiling, interchange) does
// not touch the tree. Scalars the IR does not track as arrays (a local
// accumulator `acc`, a function argument `alpha`) appear by name.
//
// The Frontend fills these where it can express every statement of a nest;
// LoopNest::Sem says whether it did (and why not).
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_IR_VALUE_H
#define ROOFLINE_IR_VALUE_H

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace roofline {

struct ValueExpr {
  enum KindTy {
    Load,     ///< the value of Stmt::Accesses[Access]
    Scalar,   ///< a scalar variable, by Name (see NestSemantics::Scalars)
    Index,    ///< a loop induction variable or a size parameter, by Name
    FloatLit, ///< Float, typed float or double (CType)
    IntLit,   ///< Int
    Unary,    ///< Op is "-", "+", "!" or "~"; one operand
    Binary,   ///< Op is a C binary operator: + - * / % < <= > >= == != & | ^
    Call,     ///< a math function by its C name ("expf", "fmaxf", "fma")
    Select,   ///< Operands[0] ? Operands[1] : Operands[2]
    Cast,     ///< an explicit conversion to CType
  };
  KindTy Kind = IntLit;
  /// Load: index into the statement's accesses.
  unsigned Access = 0;
  /// Scalar / Index: variable name; Unary / Binary: operator; Call: callee.
  std::string Name;
  double Float = 0;
  int64_t Int = 0;
  /// C spelling of the result type where it matters for emission: FloatLit
  /// ("float" or "double"), Cast (the target type).
  std::string CType;
  std::vector<ValueExpr> Operands;

  static ValueExpr load(unsigned AccessIndex);
  static ValueExpr scalar(const std::string &Name);
  static ValueExpr index(const std::string &Name);
  static ValueExpr floatLit(double V, const std::string &CType = "float");
  static ValueExpr intLit(int64_t V);
  static ValueExpr unary(const std::string &Op, ValueExpr A);
  static ValueExpr binary(const std::string &Op, ValueExpr A, ValueExpr B);
  static ValueExpr call(const std::string &Fn, std::vector<ValueExpr> Args);
  static ValueExpr select(ValueExpr C, ValueExpr T, ValueExpr F);
  static ValueExpr cast(const std::string &CType, ValueExpr A);

  /// Calls \p F on this node and every node below it, pre-order.
  template <typename Fn> void walk(Fn &&F) const {
    F(*this);
    for (const ValueExpr &O : Operands)
      O.walk(F);
  }
  template <typename Fn> void walkMutable(Fn &&F) {
    F(*this);
    for (ValueExpr &O : Operands)
      O.walkMutable(F);
  }
};

/// One statement's effect: Target Op= Value.
struct StmtValue {
  enum TargetKind {
    ArrayTarget, ///< Stmt::Accesses[TargetAccess] (the write access)
    ScalarTarget,///< an existing scalar, by Scalar
    ScalarDecl,  ///< declares Scalar (type NestSemantics::Scalars) = Value
  };
  TargetKind Target = ArrayTarget;
  unsigned TargetAccess = 0;
  std::string Scalar;
  /// "=", "+=", "-=", "*=", "/=" (x++ is "+=" 1).
  std::string Op = "=";
  ValueExpr Value;
};

/// How a scalar the nest uses is bound.
struct ScalarVar {
  enum KindTy {
    Local,  ///< declared inside the nest: a temporary
    Input,  ///< declared outside and only read: an input of the kernel
    InOut,  ///< declared outside and written: read and written back
  };
  std::string Name;
  std::string CType; ///< "float", "int", ...
  KindTy Kind = Local;
};

/// Nest-level facts code generation needs beside the statements.
struct NestSemantics {
  /// Every statement has a Value: the nest can be emitted as code.
  bool Complete = false;
  /// Why not, "file:line:col: reason", when !Complete.
  std::string WhyNot;
  /// Exact C element type of each array ("float", "signed char", "__bf16").
  std::map<std::string, std::string> ArrayCTypes;
  /// Arrays with automatic storage in the function (dead when it returns):
  /// a fused kernel may keep them in registers.
  std::set<std::string> LocalArrays;
  std::vector<ScalarVar> Scalars;

  const ScalarVar *findScalar(const std::string &Name) const {
    for (const ScalarVar &S : Scalars)
      if (S.Name == Name)
        return &S;
    return nullptr;
  }
};

struct Stmt;
/// C-like text of a statement's value, accesses spelled from the IR:
/// "C[i][j] += A[i][k] * B[k][j]"; empty when the statement has none.
std::string printStmtValue(const Stmt &S);
/// The same for one expression of statement \p S.
std::string printValueExpr(const Stmt &S, const ValueExpr &E);

} // namespace roofline

#endif // ROOFLINE_IR_VALUE_H
