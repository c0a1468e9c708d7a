//===- BruteForce.h - Reference interpreter for concrete loop nests -------===//
//
// The test oracle: runs a LoopNest whose sizes all have values, iteration by
// iteration, and counts what analyzeNest must derive. Deliberately naive and
// independent of the analysis code (std::map keys, int64 arithmetic).
//
// Semantics it encodes (docs/design.md "Counting rules", "Traffic models"):
//  - a loop runs IV = First, First+Step, ... while <= Last (>= for Step < 0);
//  - no-reuse: an access whose subscripts are all affine and do not use the
//    IV of its statement's innermost loop is counted once per entry of that
//    loop that runs an iteration, every other access once per execution of
//    its statement;
//  - compulsory: within one statement execution reads happen before writes;
//    an element counts as read when its first access reads it.
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_TEST_UNIT_BRUTEFORCE_H
#define ROOFLINE_TEST_UNIT_BRUTEFORCE_H

#include "roofline/Analysis/Counts.h"
#include "roofline/IR/LoopNest.h"

#include <cassert>
#include <map>
#include <string>
#include <vector>

namespace roofline {
namespace brute {

struct ArrayCounts {
  Int128 Loads = 0, Stores = 0, Read = 0, Written = 0;
  bool FootprintKnown = true; ///< false when a subscript is not affine
  unsigned ElemBytes = 0;
};

struct Counts {
  Int128 Iterations = 0, Macs = 0, Flops = 0, IntOps = 0, Loads = 0,
         Stores = 0;
  std::map<Precision, Int128> MacsByType, FlopsByType;
  std::map<std::string, Int128> Calls;
  std::vector<Int128> LoopTotals; ///< pre-order
  std::map<std::string, ArrayCounts> Arrays;
  Int128 BytesNoReuse = 0, BytesCompulsory = 0;
  bool CompulsoryKnown = true;
};

class Interpreter {
public:
  Interpreter(const LoopNest &N, const ParamValues &Overrides) : Nest(N) {
    for (const Param &P : N.Params)
      if (P.Value)
        Env[P.Name] = *P.Value;
    for (const auto &[Name, V] : Overrides)
      Env[Name] = V;
    numberLoops(N.Root);
    R.LoopTotals.assign(LoopIndex.size(), 0);
    for (const Array &A : N.Arrays)
      R.Arrays[A.Name].ElemBytes = precisionBytes(A.Elem);
    // A non-affine subscript anywhere makes the footprint unknowable, even
    // if its statement never runs at these sizes.
    forEachStmt(N.Root, [&](const Stmt &S, const std::vector<const Loop *> &) {
      for (const Access &A : S.Accesses)
        for (const auto &Sub : A.Subscripts)
          if (!Sub)
            R.Arrays[A.ArrayName].FootprintKnown = false;
    });
  }

  Counts run() {
    // The nest itself is entered once.
    enterLoop(Nest.Root);
    for (auto &[Name, A] : R.Arrays) {
      R.BytesNoReuse += (A.Loads + A.Stores) * A.ElemBytes;
      if (!A.FootprintKnown)
        R.CompulsoryKnown = false;
      R.BytesCompulsory += (A.Read + A.Written) * A.ElemBytes;
    }
    return R;
  }

private:
  struct ElemState {
    bool Written = false;
  };

  const LoopNest &Nest;
  std::map<std::string, int64_t> Env;
  std::map<const Loop *, size_t> LoopIndex;
  std::map<std::string, std::map<std::vector<int64_t>, ElemState>> Seen;
  Counts R;

  void numberLoops(const Loop &L) {
    size_t I = LoopIndex.size();
    LoopIndex[&L] = I;
    for (const Node &N : L.Body)
      if (N.isLoop())
        numberLoops(N.loop());
  }

  int64_t eval(const AffineExpr &E) const {
    int64_t V = E.constant();
    for (const auto &[Name, C] : E.terms()) {
      auto It = Env.find(Name);
      assert(It != Env.end() && "unbound name in a concrete nest");
      V += C * It->second;
    }
    return V;
  }

  static int64_t floorDiv(int64_t A, int64_t B) {
    int64_t Q = A / B;
    return (A % B != 0 && A < 0) ? Q - 1 : Q;
  }

  int64_t eval(const Bound &B) const {
    int64_t V = 0;
    for (size_t I = 0; I < B.Terms.size(); ++I) {
      int64_t T = floorDiv(eval(B.Terms[I].Expr), B.Terms[I].Divisor);
      if (I == 0 || (B.Kind == Bound::Min && T < V) ||
          (B.Kind == Bound::Max && T > V))
        V = T;
    }
    return V;
  }

  static bool hasLoop(const Loop &L) {
    for (const Node &N : L.Body)
      if (N.isLoop())
        return true;
    return false;
  }

  static bool hoisted(const Access &A, const std::string &InnerIV) {
    for (const auto &S : A.Subscripts)
      if (!S || S->uses(InnerIV))
        return false;
    return true;
  }

  void countAccess(const Access &A) {
    ArrayCounts &AC = R.Arrays[A.ArrayName];
    if (A.IsRead) {
      ++AC.Loads;
      ++R.Loads;
    }
    if (A.IsWrite) {
      ++AC.Stores;
      ++R.Stores;
    }
  }

  void enterLoop(const Loop &L) {
    bool Innermost = !hasLoop(L);
    size_t Index = LoopIndex.at(&L);
    int64_t First = eval(L.First), Last = eval(L.Last);
    // Accesses invariant in L of the statements directly inside L move once
    // per entry of L that runs an iteration (loaded in its preheader, behind
    // the trip-count test).
    if (L.Step > 0 ? First <= Last : First >= Last)
      for (const Node &N : L.Body)
        if (!N.isLoop())
          for (const Access &A : N.S.Accesses)
            if (hoisted(A, L.IV))
              countAccess(A);
    auto Saved = Env.find(L.IV) == Env.end()
                     ? std::optional<int64_t>()
                     : std::optional<int64_t>(Env[L.IV]);
    for (int64_t V = First; L.Step > 0 ? V <= Last : V >= Last; V += L.Step) {
      Env[L.IV] = V;
      ++R.LoopTotals[Index];
      if (Innermost)
        ++R.Iterations;
      for (const Node &N : L.Body) {
        if (N.isLoop())
          enterLoop(N.loop());
        else
          execute(N.S, L.IV);
      }
    }
    if (Saved)
      Env[L.IV] = *Saved;
    else
      Env.erase(L.IV);
  }

  void touch(const Access &A, bool Write) {
    std::vector<int64_t> Key;
    for (const auto &S : A.Subscripts) {
      if (!S) {
        R.Arrays[A.ArrayName].FootprintKnown = false;
        return;
      }
      Key.push_back(eval(*S));
    }
    auto &Elems = Seen[A.ArrayName];
    auto It = Elems.find(Key);
    ArrayCounts &AC = R.Arrays[A.ArrayName];
    if (It == Elems.end()) {
      It = Elems.emplace(Key, ElemState()).first;
      if (!Write)
        ++AC.Read;
    }
    if (Write && !It->second.Written) {
      It->second.Written = true;
      ++AC.Written;
    }
  }

  void execute(const Stmt &S, const std::string &InnerIV) {
    for (const auto &[P, Ops] : S.Ops) {
      Int128 Flops = 2 * Ops.Macs + Ops.Adds + Ops.Muls + Ops.Divs;
      for (const auto &[Name, N] : Ops.Calls) {
        Flops += static_cast<Int128>(specialFunctionFlops(Name)) * N;
        R.Calls[Name] += N;
      }
      R.Macs += Ops.Macs;
      R.Flops += Flops;
      R.MacsByType[P] += Ops.Macs;
      R.FlopsByType[P] += Flops;
    }
    R.IntOps += S.IntOps;
    for (const Access &A : S.Accesses)
      if (!hoisted(A, InnerIV))
        countAccess(A);
    for (const Access &A : S.Accesses)
      if (A.IsRead)
        touch(A, /*Write=*/false);
    for (const Access &A : S.Accesses)
      if (A.IsWrite)
        touch(A, /*Write=*/true);
  }
};

inline Counts run(const LoopNest &N, const ParamValues &Overrides = {}) {
  return Interpreter(N, Overrides).run();
}

} // namespace brute
} // namespace roofline

#endif // ROOFLINE_TEST_UNIT_BRUTEFORCE_H
