//===- Counts.cpp - Exact operation, access and byte counts of a nest -----===//
//
// Assembles NestCounts from the trip-count engine (ChainCount.h) and the
// footprint methods (Footprint.h): every count is a sum of loop-chain
// counts times per-execution constants, so formulas and values stay exact.
//
//===----------------------------------------------------------------------===//

#include "roofline/Analysis/Counts.h"

#include "ChainCount.h"
#include "Footprint.h"

#include <cassert>
#include <set>

using namespace roofline;
using namespace roofline::detail;

/// Every special function (exp, tanh, sqrt, max, ...) is charged 1 FLOP per
/// call for now: a per-function cost depends on the machine and library, so
/// rather than guess we charge the minimum and report the calls by name
/// (NestCounts::Calls) for readers who want their own weights.
unsigned roofline::specialFunctionFlops(const std::string &Name) {
  (void)Name;
  return 1;
}

llvm::Expected<Rational>
roofline::evaluateFormula(const NestCounts &C, const Polynomial &F,
                          const std::map<std::string, int64_t> &Values) {
  Env Vals;
  for (const auto &[Name, V] : Values)
    Vals[Name] = V;
  for (const auto &[Name, T] : C.Atoms) {
    if (!F.uses(Name))
      continue;
    std::optional<Int128> V = evalAffine(T.Expr, Vals);
    if (!V)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "cannot evaluate '%s': a size has no "
                                     "value",
                                     Name.c_str());
    Vals[Name] = floorDiv(*V, T.Divisor);
  }
  return F.evaluate(Vals);
}

namespace {

/// Budget of loop values the numeric engine may enumerate per nest.
constexpr int64_t EnumerationBudget = 50000000;

llvm::Error irError(const std::string &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg);
}

llvm::Error validate(const Loop &L) {
  if (L.Step == 0)
    return irError("loop " + L.IV + " has step 0");
  for (const Bound *B : {&L.First, &L.Last}) {
    if (B->Terms.empty() || (B->Kind == Bound::Single && B->Terms.size() != 1))
      return irError("loop " + L.IV + " has a malformed bound");
    for (const BoundTerm &T : B->Terms)
      if (T.Divisor < 1)
        return irError("loop " + L.IV + " has a bound with divisor < 1");
  }
  for (const Node &N : L.Body)
    if (N.isLoop())
      if (llvm::Error E = validate(N.loop()))
        return E;
  return llvm::Error::success();
}

void renameUses(std::vector<Node> &Body, const std::string &Old,
                const std::string &New) {
  AffineExpr V = AffineExpr::var(New);
  auto Fix = [&](AffineExpr &E) {
    if (E.uses(Old))
      E = *E.substitute(Old, V); // coefficient * 1: cannot overflow
  };
  for (Node &N : Body) {
    if (!N.isLoop()) {
      for (Access &A : N.S.Accesses)
        for (auto &S : A.Subscripts)
          if (S)
            Fix(*S);
      continue;
    }
    Loop &L = N.loop();
    for (BoundTerm &T : L.First.Terms)
      Fix(T.Expr);
    for (BoundTerm &T : L.Last.Terms)
      Fix(T.Expr);
    if (L.IV != Old) // a redeclaration hides Old in its body
      renameUses(L.Body, Old, New);
  }
}

/// Renames IVs that shadow an enclosing IV or a parameter, so that names
/// identify variables along every chain (the engines substitute by name).
void uniquify(Loop &L, std::set<std::string> &Scope, unsigned &Counter) {
  if (Scope.count(L.IV)) {
    std::string New;
    do
      New = L.IV + "." + std::to_string(++Counter);
    while (Scope.count(New));
    renameUses(L.Body, L.IV, New);
    L.IV = New;
  }
  Scope.insert(L.IV);
  for (Node &N : L.Body)
    if (N.isLoop())
      uniquify(N.loop(), Scope, Counter);
  Scope.erase(L.IV);
}

bool hasLoop(const Loop &L) {
  for (const Node &N : L.Body)
    if (N.isLoop())
      return true;
  return false;
}

struct LoopInfo {
  const Loop *Orig;
  const Loop *Ren;
  Chain Loops; ///< renamed, root first, ending with Ren
  int Parent;  ///< index in the pre-order list, -1 for the root
  bool Innermost;
};

class NestWalker {
public:
  std::vector<LoopInfo> Loops;
  std::vector<StmtSite> Stmts;
  std::vector<size_t> StmtLoop; ///< innermost enclosing loop of each stmt

  void walk(const Loop &O, const Loop &R, int Parent) {
    Stack.push_back(&R);
    int Me = static_cast<int>(Loops.size());
    Loops.push_back({&O, &R, Stack, Parent, !hasLoop(R)});
    assert(O.Body.size() == R.Body.size() && "renaming changed the shape");
    for (size_t I = 0; I < R.Body.size(); ++I) {
      if (R.Body[I].isLoop()) {
        walk(O.Body[I].loop(), R.Body[I].loop(), Me);
        continue;
      }
      Stmts.push_back({&R.Body[I].S, Stack});
      StmtLoop.push_back(static_cast<size_t>(Me));
    }
    Stack.pop_back();
  }

private:
  Chain Stack;
};

Cnt &slot(std::map<std::string, Cnt> &M, const std::string &K) {
  return M.try_emplace(K, Cnt::exactly(0)).first->second;
}
Cnt &slot(std::map<Precision, Cnt> &M, Precision K) {
  return M.try_emplace(K, Cnt::exactly(0)).first->second;
}

void invalidate(Cnt &C, const std::string &Why) {
  if (C.F) {
    C.F.reset();
    C.WhyF = Why;
  }
  if (C.V) {
    C.V.reset();
    C.WhyV = Why;
  }
}

std::string signedTail(const Polynomial &P) {
  std::string S = P.str();
  if (S == "0")
    return "";
  if (S[0] == '-')
    return " - " + S.substr(1);
  return " + " + S;
}

/// Iterations per entry, C-like: "N", "i + 1", "(N - 1)/2 + 1",
/// "min(ii + 31, N - 1) - ii + 1".
std::string tripText(const Loop &L) {
  const Bound &Hi = L.Step > 0 ? L.Last : L.First;
  const Bound &Lo = L.Step > 0 ? L.First : L.Last;
  int64_t S = L.Step > 0 ? L.Step : -L.Step;
  if (Hi.isAffine() && Lo.isAffine()) {
    std::optional<AffineExpr> D = Hi.affine().sub(Lo.affine());
    if (D) {
      llvm::Expected<Polynomial> DP = Polynomial::fromAffine(*D);
      if (DP) {
        if (S == 1) {
          llvm::Expected<Polynomial> T = DP->add(Polynomial(Rational(1)));
          if (T)
            return T->str();
          llvm::consumeError(T.takeError());
        } else if (D->isConstant()) {
          return int128ToString(floorDiv(D->constant(), S) + 1);
        } else {
          std::string Text = DP->str();
          if (DP->terms().size() > 1 || Text[0] == '-')
            Text = "(" + Text + ")";
          return Text + "/" + std::to_string(S) + " + 1";
        }
      } else {
        llvm::consumeError(DP.takeError());
      }
    }
  }
  std::string Diff = Hi.str();
  if (Lo.isAffine()) {
    llvm::Expected<Polynomial> LP = Polynomial::fromAffine(Lo.affine());
    llvm::Expected<Polynomial> Neg =
        LP ? LP->scale(Rational(-1)) : llvm::Expected<Polynomial>(LP.takeError());
    if (Neg) {
      if (S == 1) {
        llvm::Expected<Polynomial> T = Neg->add(Polynomial(Rational(1)));
        if (T)
          return Diff + signedTail(*T);
        llvm::consumeError(T.takeError());
      }
      Diff += signedTail(*Neg);
    } else {
      llvm::consumeError(Neg.takeError());
      Diff += " - (" + Lo.str() + ")";
    }
  } else {
    Diff += " - " + Lo.str();
  }
  if (S == 1)
    return Diff + " + 1";
  return "(" + Diff + ")/" + std::to_string(S) + " + 1";
}

} // namespace

llvm::Expected<NestCounts> roofline::analyzeNest(const LoopNest &N,
                                                 const ParamValues &Overrides) {
  if (llvm::Error E = validate(N.Root))
    return std::move(E);

  NestCounts R;
  Env Known;
  for (const Param &P : N.Params)
    if (P.Value) {
      Known[P.Name] = *P.Value;
      R.Values[P.Name] = *P.Value;
    }
  for (const auto &[Name, V] : Overrides) {
    Known[Name] = V;
    R.Values[Name] = V;
  }

  Loop Root = N.Root;
  {
    std::set<std::string> Scope;
    for (const Param &P : N.Params)
      Scope.insert(P.Name);
    for (const auto &[Name, V] : Overrides)
      Scope.insert(Name);
    unsigned Counter = 0;
    uniquify(Root, Scope, Counter);
  }
  NestWalker W;
  W.walk(N.Root, Root, -1);

  ChainCounter CC(Known, EnumerationBudget);
  std::vector<Cnt> Totals;
  for (const LoopInfo &LI : W.Loops)
    Totals.push_back(CC.count(LI.Loops));

  Cnt Iterations = Cnt::exactly(0);
  for (size_t I = 0; I < W.Loops.size(); ++I)
    if (W.Loops[I].Innermost)
      Iterations.addScaled(Totals[I], 1);
  // Fail only when not even one loop can be counted; otherwise partial
  // results carry their reasons.
  bool Anything = Iterations.F || Iterations.V;
  for (const Cnt &T : Totals)
    Anything |= T.F || T.V;
  if (!Anything)
    return irError("cannot count the iterations of the nest: " +
                   Iterations.toCount().WhyNot);

  // Operations: per-execution constants times executions.
  Cnt Macs = Cnt::exactly(0), Flops = Cnt::exactly(0),
      IntOps = Cnt::exactly(0);
  std::map<Precision, Cnt> MacsBy, FlopsBy;
  std::map<std::string, Cnt> Calls;
  for (size_t I = 0; I < W.Stmts.size(); ++I) {
    const Stmt &S = *W.Stmts[I].S;
    const Cnt &Exec = Totals[W.StmtLoop[I]];
    for (const auto &[P, Ops] : S.Ops) {
      Int128 F = 2 * static_cast<Int128>(Ops.Macs) + Ops.Adds + Ops.Muls +
                 Ops.Divs;
      for (const auto &[Name, K] : Ops.Calls) {
        F += static_cast<Int128>(specialFunctionFlops(Name)) * K;
        slot(Calls, Name).addScaled(Exec, K);
      }
      slot(MacsBy, P).addScaled(Exec, Ops.Macs);
      slot(FlopsBy, P).addScaled(Exec, F);
      Macs.addScaled(Exec, Ops.Macs);
      Flops.addScaled(Exec, F);
    }
    IntOps.addScaled(Exec, S.IntOps);
  }

  // The arrays: declared ones in order, then any only the accesses name.
  std::vector<std::string> Names;
  std::map<std::string, Precision> Elem;
  for (const Array &A : N.Arrays) {
    if (Elem.count(A.Name))
      continue;
    Names.push_back(A.Name);
    Elem[A.Name] = A.Elem;
  }
  for (const StmtSite &S : W.Stmts)
    for (const Access &A : S.S->Accesses)
      if (!Elem.count(A.ArrayName)) {
        Names.push_back(A.ArrayName);
        Elem[A.ArrayName] = Precision::Unknown;
      }

  // No-reuse traffic.
  Cnt Loads = Cnt::exactly(0), Stores = Cnt::exactly(0);
  std::map<std::string, Cnt> ArrLoads, ArrStores;
  std::set<std::string> Accessed;
  for (size_t I = 0; I < W.Stmts.size(); ++I) {
    const LoopInfo &LI = W.Loops[W.StmtLoop[I]];
    const Cnt &Exec = Totals[W.StmtLoop[I]];
    // Entries of the innermost loop: executions of its parent's body.
    Cnt Entries = LI.Parent >= 0 ? Totals[LI.Parent] : Cnt::exactly(1);
    for (const Access &A : W.Stmts[I].S->Accesses) {
      Accessed.insert(A.ArrayName);
      bool Hoisted = true;
      for (const auto &Sub : A.Subscripts)
        Hoisted &= Sub && !Sub->uses(LI.Ren->IV);
      const Cnt &Moves = Hoisted ? Entries : Exec;
      if (A.IsRead) {
        slot(ArrLoads, A.ArrayName).addScaled(Moves, 1);
        Loads.addScaled(Moves, 1);
      }
      if (A.IsWrite) {
        slot(ArrStores, A.ArrayName).addScaled(Moves, 1);
        Stores.addScaled(Moves, 1);
      }
    }
  }

  // Compulsory traffic.
  Cnt Sum = Cnt::exactly(0);
  for (const LoopInfo &LI : W.Loops)
    Sum.addScaled(Totals[&LI - W.Loops.data()], 1);
  FootprintOptions Opts;
  Opts.LoopBodyExecutions = Sum.V;
  std::map<std::string, FootprintResult> Fps =
      computeFootprints(Names, W.Stmts, Root, CC, Opts, R.Notes);

  Cnt NoReuse = Cnt::exactly(0), Compulsory = Cnt::exactly(0);
  for (const std::string &Name : Names) {
    ArrayTraffic T;
    T.Name = Name;
    T.Elem = Elem[Name];
    T.ElemBytes = precisionBytes(T.Elem);
    Cnt L = slot(ArrLoads, Name), St = slot(ArrStores, Name);
    const FootprintResult &F = Fps[Name];
    T.Loads = L.toCount();
    T.Stores = St.toCount();
    T.ElementsRead = F.Read.toCount();
    T.ElementsWritten = F.Written.toCount();
    if (T.ElemBytes == 0) {
      if (Accessed.count(Name)) {
        std::string Why = "the element size of " + Name + " is unknown";
        invalidate(NoReuse, Why);
        invalidate(Compulsory, Why);
      }
    } else {
      NoReuse.addScaled(L, T.ElemBytes);
      NoReuse.addScaled(St, T.ElemBytes);
      Compulsory.addScaled(F.Read, T.ElemBytes);
      Compulsory.addScaled(F.Written, T.ElemBytes);
    }
    R.Arrays.push_back(std::move(T));
  }

  for (size_t I = 0; I < W.Loops.size(); ++I) {
    const Loop &L = *W.Loops[I].Orig;
    LoopTrip T;
    T.IV = L.IV;
    T.First = L.First.str();
    T.Last = L.Last.str();
    T.Step = L.Step;
    T.TripPerEntry = tripText(L);
    T.Total = Totals[I].toCount();
    R.Loops.push_back(std::move(T));
  }

  R.Iterations = Iterations.toCount();
  R.Macs = Macs.toCount();
  R.Flops = Flops.toCount();
  R.IntOps = IntOps.toCount();
  R.Loads = Loads.toCount();
  R.Stores = Stores.toCount();
  for (const auto &[P, C] : MacsBy)
    R.MacsByType[P] = C.toCount();
  for (const auto &[P, C] : FlopsBy)
    R.FlopsByType[P] = C.toCount();
  for (const auto &[Name, C] : Calls)
    R.Calls[Name] = C.toCount();
  R.BytesNoReuse = NoReuse.toCount();
  R.BytesCompulsory = Compulsory.toCount();
  R.Atoms = CC.atoms();

  // Notes: aliasing, then the validity of the formulas.
  std::vector<std::string> Pointers;
  for (const Array &A : N.Arrays)
    if (A.FromPointer && Accessed.count(A.Name))
      Pointers.push_back(A.Name);
  if (!Pointers.empty()) {
    std::string List;
    for (size_t I = 0; I < Pointers.size(); ++I)
      List += (I ? ", " : "") + Pointers[I];
    R.Notes.insert(R.Notes.begin(),
                   Pointers.size() == 1
                       ? "array " + List +
                             " comes from a pointer and is assumed not to "
                             "alias"
                       : "arrays " + List +
                             " come from pointers and are assumed not to "
                             "alias");
  }
  bool SymbolicTrips = false;
  for (const LoopInfo &LI : W.Loops)
    for (const Bound *B : {&LI.Orig->First, &LI.Orig->Last})
      for (const BoundTerm &T : B->Terms)
        SymbolicTrips |= !T.Expr.isConstant();
  if (Iterations.F && SymbolicTrips)
    R.Notes.push_back("formulas valid while every trip count is >= 0");
  return R;
}
