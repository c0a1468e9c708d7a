//===- ChainCount.h - Exact iteration counts of loop chains ----*- C++ -*-===//
//
// Private to lib/Analysis. A "chain" is a list of loops, outermost first,
// each of whose bounds only use the IVs of earlier loops in the list and
// size parameters: the loops enclosing a statement, or a subset of them
// (the loops that index an array). Its count is the number of IV tuples the
// loops visit: sum over the domain of 1.
//
// Two engines:
//  - symbolic: nested Faulhaber sums over polynomial bounds, in every
//    parameter (those with values too) and in "atom" variables such as
//    floor((N - 1)/2); absent for min/max bounds, floors of loop variables
//    and strided loops whose span depends on an outer loop variable;
//  - numeric (every parameter has a value): closed forms where they are
//    provably valid (every trip count >= 0 over the domain, checked with
//    lower bounds derived by eliminating loop variables through their
//    bounds), else enumeration of the outermost loops down to the level
//    where the rest has a closed form, under a work budget. Never a guess.
//
// IV names must be unique along a chain (Counts.cpp renames shadowing IVs).
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_LIB_ANALYSIS_CHAINCOUNT_H
#define ROOFLINE_LIB_ANALYSIS_CHAINCOUNT_H

#include "roofline/Analysis/Counts.h"
#include "roofline/Analysis/Polynomial.h"
#include "roofline/IR/LoopNest.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace roofline {
namespace detail {

using Chain = std::vector<const Loop *>;
using Env = std::map<std::string, Int128>;

extern const char *const Over128Bits; ///< "count exceeds 128-bit range"

/// A count under construction: formula and value with separate reasons.
struct Cnt {
  std::optional<Polynomial> F;
  std::optional<Int128> V;
  std::string WhyF, WhyV;

  static Cnt exactly(Int128 K);
  /// this += K * O; a missing side stays missing with O's reason.
  void addScaled(const Cnt &O, Int128 K);
  Count toCount() const;
};

/// floor(A / B) for B > 0.
Int128 floorDiv(Int128 A, Int128 B);

/// Evaluates \p E with every name in \p Values; nullopt on an unbound name
/// or overflow.
std::optional<Int128> evalAffine(const AffineExpr &E, const Env &Values);
std::optional<Int128> evalBound(const Bound &B, const Env &Values);
/// Trip count of a loop with concrete bounds (negative when empty).
std::optional<Int128> tripOf(Int128 First, Int128 Last, int64_t Step);

/// Affine form over the slots of a value vector, parameters folded in
/// (for fast enumeration).
struct CAff {
  Int128 C = 0;
  std::vector<std::pair<unsigned, Int128>> T;
  /// False on overflow.
  bool eval(const Int128 *Vals, Int128 &Out) const;
};

struct CBnd {
  Bound::KindTy Kind = Bound::Single;
  std::vector<std::pair<CAff, Int128>> Terms; ///< floor(CAff / divisor)
  bool eval(const Int128 *Vals, Int128 &Out) const;
};

/// Names in \p Slots become slots, names in \p Known constants; false on
/// any other name or overflow.
bool compileAffine(const AffineExpr &E,
                   const std::map<std::string, unsigned> &Slots,
                   const Env &Known, CAff &Out);
bool compileBound(const Bound &B, const std::map<std::string, unsigned> &Slots,
                  const Env &Known, CBnd &Out);

class ChainCounter {
public:
  /// \p Known: parameter values. \p Budget: loop values the numeric engine
  /// may enumerate over all calls.
  ChainCounter(Env Known, int64_t Budget);

  /// Formula (validated at the known sizes when they are all known) and
  /// value (when every parameter the chain uses is known).
  Cnt count(const Chain &C);

  /// The symbolic closed form alone, not validated; atoms are recorded.
  std::optional<Polynomial> symbolic(const Chain &C, std::string &Why);

  /// Whether every loop at levels >= From of \p C provably runs at least
  /// \p MinTrip (0 or 1) times per entry, at the known sizes. False when
  /// unknown parameters are involved or the bound cannot be proved.
  bool tripsAtLeast(const Chain &C, size_t From, int MinTrip);
  /// The same for the loop at level \p Level only.
  bool tripAtLeast(const Chain &C, size_t Level, int MinTrip);

  /// Parameters the chain's bounds use (names that are not its IVs).
  std::set<std::string> freeNames(const Chain &C) const;
  /// The first of \p Names without a value, or "".
  std::string firstUnknown(const std::set<std::string> &Names) const;

  const Env &known() const { return Known; }
  const std::map<std::string, BoundTerm> &atoms() const { return Atoms; }
  int64_t budgetLeft() const { return Budget; }

  /// Lower bound of \p E over the domain of \p C (E may use the chain's
  /// IVs and known parameters); nullopt when none can be derived.
  std::optional<Rational> lowerBound(const Chain &C, const AffineExpr &E);

private:
  struct NumResult {
    enum KindTy { Ok, NotClosed, Fail } Kind = Ok;
    Int128 Value = 0;
    std::string Why;
  };

  Env Known;
  int64_t Budget;
  std::map<std::string, BoundTerm> Atoms;
  std::map<Chain, NumResult> NumMemo;
  std::map<Chain, std::pair<std::optional<Polynomial>, std::string>> SymMemo;

  NumResult numeric(const Chain &C);
  NumResult numericGroup(const Chain &C);
  NumResult numericAt(const Chain &C, size_t Begin);
};

} // namespace detail
} // namespace roofline

#endif // ROOFLINE_LIB_ANALYSIS_CHAINCOUNT_H
