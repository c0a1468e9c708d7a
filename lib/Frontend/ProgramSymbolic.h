//===- ProgramSymbolic.h - A pass's counts as polynomials -------*- C++ -*-===//
//
// Private to the Frontend. The program walk (ProgramWalk.cpp) runs a pass
// with numbers; beside them it keeps each integer as a polynomial in the
// entry's sizes (SymVal), and this class sums each nest's count formulas,
// with the callee's sizes bound to those polynomials, over the loops around
// the calls (docs/network-report.md, "Symbolic totals"). A loop's body is
// summed from its first iteration, the loop's variable kept symbolic; what
// could differ from one iteration to the next (a branch on the loop's
// variable, a variable the body updates) takes the loop's formulas away
// with a reason instead.
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_LIB_FRONTEND_PROGRAMSYMBOLIC_H
#define ROOFLINE_LIB_FRONTEND_PROGRAMSYMBOLIC_H

#include "roofline/Frontend/Program.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace roofline {
namespace frontend {

/// An integer of the program as a polynomial in the pass's sizes, or why
/// it has none.
struct SymVal {
  std::optional<Polynomial> P;
  std::string Why;
  /// With no polynomial: whether the value may differ from one iteration
  /// of an enclosing loop to the next (it uses the loop's variable or a
  /// variable the loop updates), not only from one size to another.
  bool Varying = false;
  static SymVal of(Polynomial P) { return {std::move(P), "", false}; }
  static SymVal none(std::string Why, bool Varying = false) {
    return {std::nullopt, std::move(Why), Varying};
  }
  bool known() const { return P.has_value(); }
  bool isConstant() const { return P && P->isConstant(); }
};

class SymbolicRollup {
public:
  explicit SymbolicRollup(ProgramSymbolic &Out) : Out(Out) {
    Scopes.emplace_back();
  }

  /// A size of the pass named \p Name (a parameter of the entry, a field
  /// by its own name), with the value the walk has for it.
  SymVal size(const std::string &Name, std::optional<int64_t> Value);
  static SymVal constant(int64_t V) { return SymVal::of(Polynomial(V)); }
  /// C's integer operators on sizes: + - * / % << >> (as '<' and '>');
  /// a quotient that is no polynomial becomes an atom "floor(N/D)".
  SymVal arith(char Op, const SymVal &L, const SymVal &R);

  /// Whether what the walk meets now counts (not in a loop's second or
  /// later iteration: the first one stands for them all).
  bool active() const { return Muted == 0; }
  void mute() { ++Muted; }
  void unmute() { --Muted; }

  /// A loop around calls whose body is summed over \p IV (a fresh name).
  void beginLoop(const std::string &IV);
  /// Sums the loop's rows over IV = First .. Last into the enclosing
  /// scope; a tainted loop's rows lose their formulas, with its reason.
  void endLoop(const SymVal &First, const SymVal &Last,
               const std::string &Where);
  /// The innermost loop's formulas are not its sum (its iterations differ).
  void taintLoop(const std::string &Why);
  /// A condition on \p P: taints the outermost loop whose variable it uses
  /// and returns true, or returns false when it uses none.
  bool taintLoopsUsing(const Polynomial &P, const std::string &Why);
  bool inLoop() const { return Scopes.size() > 1; }
  /// Whether \p P uses the variable of a loop being summed.
  bool usesLoopVariable(const Polynomial &P) const;

  /// One execution of a nest of \p Function: its formulas with each size
  /// bound to \p Bind's polynomial (sizes missing there have no closed form).
  void addNest(const std::string &Path, const std::string &Function,
               const SourceLoc &Loc, const NestFormulas &C,
               const std::map<std::string, SymVal> &Bind);
  void addUncounted(const std::string &Path, const std::string &Function,
                    const SourceLoc &Loc, const std::string &Why);

  void assume(const std::string &What);
  void leftOut(const std::string &What);
  /// Moves the top scope's rows to Out.
  void finish();

private:
  using RowKey = std::tuple<std::string, std::string, unsigned, unsigned>;
  struct Scope {
    std::string IV;
    std::vector<ProgramSymbolicRow> Rows;
    std::map<RowKey, size_t> Index;
    std::string Taint;
  };
  void addRow(Scope &S, ProgramSymbolicRow R);
  SymbolicCount bound(const SymbolicCount &C, const NestFormulas &NC,
                      const std::map<std::string, SymVal> &Bind,
                      const char *What);
  SymVal atom(const Polynomial &Num, const Polynomial &Den);
  SymVal arithKnown(char Op, const Polynomial &A, const Polynomial &B);
  /// floor(Num / Den), Den >= 1: an exact quotient, a constant, or an atom.
  SymVal floorOf(const Polynomial &Num, int64_t Den);

  ProgramSymbolic &Out;
  std::vector<Scope> Scopes;
  std::set<std::string> Conflicts; ///< sizes the walk gave two values
  int Muted = 0;
};

} // namespace frontend
} // namespace roofline

#endif // ROOFLINE_LIB_FRONTEND_PROGRAMSYMBOLIC_H
