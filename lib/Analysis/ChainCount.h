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
#include "roofline/IR/Polynomial.h"
#include "roofline/IR/AffineEval.h"
#include "roofline/IR/LoopNest.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace roofline {
namespace detail {

using Chain = std::vector<const Loop *>;
using Env = std::map<std::string, Int128>;


extern const char *const Over128Bits; ///< "count exceeds 128-bit range"

/// Why a count is missing: immutable text that copies share, since counts
/// (and their reasons) are copied into every total that uses them.
class Reason {
public:
  Reason() = default;
  Reason(const char *S) : Reason(std::string(S)) {}
  Reason(std::string S) {
    if (!S.empty())
      P = std::make_shared<const std::string>(std::move(S));
  }
  const std::string &str() const {
    static const std::string Empty;
    return P ? *P : Empty;
  }
  operator const std::string &() const { return str(); }
  bool empty() const { return !P; }
  void clear() { P.reset(); }
  bool operator==(const Reason &O) const {
    return P == O.P || str() == O.str();
  }
  bool operator!=(const Reason &O) const { return !(*this == O); }

private:
  std::shared_ptr<const std::string> P;
};

/// A count under construction: formula and value with separate reasons.
struct Cnt {
  std::optional<Polynomial> F;
  std::optional<Int128> V;
  Reason WhyF, WhyV;

  static Cnt exactly(Int128 K);
  /// this += K * O; a missing side stays missing with O's reason.
  void addScaled(const Cnt &O, Int128 K);
  /// A * B, both ways; a missing side or an overflow leaves it missing.
  static Cnt product(const Cnt &A, const Cnt &B);
  Count toCount() const;
};

/// Evaluates \p B with every name in \p Values (evalAffine, IR/Affine.h);
/// nullopt on an unbound name or overflow.
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
  ChainCounter(const ChainCounter &) = delete; // memo entries are pinned
  ChainCounter &operator=(const ChainCounter &) = delete;

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
  /// firstUnknown(freeNames(C)), without building the set.
  std::string firstUnknownOf(llvm::ArrayRef<const Loop *> C) const;
  /// !firstUnknownOf(C).empty(), remembered per chain.
  bool hasUnknown(llvm::ArrayRef<const Loop *> C) {
    return !missingOf(entry(C)).empty();
  }

  const Env &known() const { return Known; }
  const std::map<std::string, BoundTerm> &atoms() const { return Atoms; }
  int64_t budgetLeft() const { return Budget; }

  /// Lower bound of \p E over the domain of \p C (E may use the chain's
  /// IVs and known parameters); nullopt when none can be derived.
  std::optional<Rational> lowerBound(const Chain &C, const AffineExpr &E);

  /// The interned IV name of \p L.
  static VarName ivName(const Loop *L) { return internName(L->IV); }
  static VarName name(const std::string &Name) { return internName(Name); }

  /// A symbolic sum or its failure (Overflow: "exceeds 128-bit range").
  struct SymResult {
    std::optional<Polynomial> P;
    std::string Why;
    bool Overflow = false;
  };

private:
  struct NumResult {
    enum KindTy { Ok, NotClosed, Fail } Kind = Ok;
    Int128 Value = 0;
    Reason Why;
  };
  using SymCount = std::pair<std::optional<Polynomial>, Reason>;

  Env Known;
  int64_t Budget;
  std::map<std::string, BoundTerm> Atoms;

  /// Symbolic summation data of unit-step loops with affine bounds.
  struct PlainLoop {
    /// Hi - (Lo - 1) for the summation range [Lo, Hi] (First/Last, swapped
    /// downward): what sumOver multiplies a summand free of the IV by;
    /// absent when sumOver itself must run (and report its failure).
    std::optional<Polynomial> Span;
  };

  // Every query below is a pure function of its chain (and Known), so each
  // is computed once per nest: statements share their enclosing chains and
  // footprints query prefixes and projections of them again and again.
  struct ChainEntry {
    llvm::SmallVector<const Loop *, 6> Loops; ///< the key's storage
    std::optional<NumResult> Num;
    std::optional<SymCount> Sym;
    std::optional<std::string> Missing; ///< firstUnknownOf(Loops)
    std::optional<Cnt> Count;
    /// tripAtLeast of the last loop (as level M of any chain with this
    /// prefix), by MinTrip; -1 until computed.
    signed char Trip[2] = {-1, -1};
    /// Sum over this chain as a suffix of unit-step loops with affine
    /// bounds, which does not depend on the loops outside it.
    std::optional<SymResult> Suffix;
  };
  /// DenseMapInfo<ArrayRef> with a cheaper hash and comparison (chains are
  /// short).
  struct ChainKeyInfo : llvm::DenseMapInfo<llvm::ArrayRef<const Loop *>> {
    using Base = llvm::DenseMapInfo<llvm::ArrayRef<const Loop *>>;
    static unsigned getHashValue(llvm::ArrayRef<const Loop *> C) {
      uint64_t H = C.size();
      for (const Loop *L : C)
        H = (H ^ reinterpret_cast<uintptr_t>(L)) * 0x9E3779B97F4A7C15ull;
      return static_cast<unsigned>(H >> 32);
    }
    static bool isEqual(llvm::ArrayRef<const Loop *> A,
                        llvm::ArrayRef<const Loop *> B) {
      // The empty and tombstone keys differ from real keys by data pointer.
      if (A.data() == getEmptyKey().data() ||
          A.data() == getTombstoneKey().data() ||
          B.data() == getEmptyKey().data() ||
          B.data() == getTombstoneKey().data())
        return A.data() == B.data();
      if (A.size() != B.size())
        return false;
      for (size_t I = 0; I < A.size(); ++I)
        if (A[I] != B[I])
          return false;
      return true;
    }
  };
  /// Per loop, few per nest: a list is faster than hashing.
  llvm::SmallVector<std::pair<const Loop *, PlainLoop>, 8> PlainLoops;
  // Entries never move (callers keep references across insertions): the
  // first ones live here, the rest in a deque.
  static constexpr unsigned InlineEntries = 12;
  ChainEntry Inline[InlineEntries];
  unsigned NumInline = 0;
  std::deque<ChainEntry> EntryStore;
  llvm::SmallDenseMap<llvm::ArrayRef<const Loop *>, ChainEntry *, 16,
                      ChainKeyInfo>
      Entries;
  ChainEntry &entry(llvm::ArrayRef<const Loop *> C);
  const SymCount &symbolicOf(ChainEntry &E);
  std::optional<bool> knownTripAtLeast(const Bound &Hi, const Bound &Lo,
                                       int64_t Step, int MinTrip) const;
  const std::string &missingOf(ChainEntry &E);
  /// "size 'Name' has no value", shared by the counts that say it.
  Reason noValue(const std::string &Name);
  std::vector<std::pair<std::string, Reason>> NoValue;

  PlainLoop &plainLoop(const Loop *L);

  NumResult numeric(const Chain &C);
  NumResult numericGroup(const Chain &C);
  NumResult numericAt(const Chain &C, size_t Begin);
  const SymResult &suffixSum(llvm::ArrayRef<const Loop *> S);
};

} // namespace detail
} // namespace roofline

#endif // ROOFLINE_LIB_ANALYSIS_CHAINCOUNT_H
