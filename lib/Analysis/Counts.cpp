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

#include "roofline/IR/RenameIVs.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <cassert>
#include <optional>
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

/// Whether uniquifyIVs would rename anything (it copies nothing then).
bool needsRenaming(const Loop &L, llvm::SmallVectorImpl<const std::string *> &Scope) {
  for (const std::string *S : Scope)
    if (*S == L.IV)
      return true;
  Scope.push_back(&L.IV);
  for (const Node &N : L.Body)
    if (N.isLoop() && needsRenaming(N.loop(), Scope))
      return true;
  Scope.pop_back();
  return false;
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

  /// Sizes the lists for the nest (moving chains around costs more).
  void reserve(const Loop &L) {
    size_t NumLoops = 0, NumStmts = 0;
    countNodes(L, NumLoops, NumStmts);
    Loops.reserve(NumLoops);
    Stmts.reserve(NumStmts);
    StmtLoop.reserve(NumStmts);
  }

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

  static void countNodes(const Loop &L, size_t &NumLoops, size_t &NumStmts) {
    ++NumLoops;
    for (const Node &N : L.Body) {
      if (N.isLoop())
        countNodes(N.loop(), NumLoops, NumStmts);
      else
        ++NumStmts;
    }
  }
};

template <typename Key> Cnt &slot(std::map<Key, Cnt> &M, const Key &K) {
  auto It = M.lower_bound(K);
  if (It == M.end() || M.key_comp()(K, It->first))
    It = M.emplace_hint(It, K, Cnt::exactly(0));
  return It->second;
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

/// What Polynomial::str() prints for the linear polynomial with \p E's
/// variable terms and constant \p K: variables in name order, then K.
std::string linearText(const AffineExpr &E, Int128 K) {
  std::string S;
  auto Emit = [&](Int128 C, const std::string *Name) {
    bool Neg = C < 0;
    Int128 Mag = Neg ? -C : C;
    if (S.empty())
      S += Neg ? "-" : "";
    else
      S += Neg ? " - " : " + ";
    if (!Name || Mag != 1)
      S += int128ToString(Mag);
    if (Name) {
      if (Mag != 1)
        S += '*';
      S += *Name;
    }
  };
  for (const auto &[Name, C] : E.terms())
    if (C != 0)
      Emit(C, &Name);
  if (K != 0)
    Emit(K, nullptr);
  return S.empty() ? "0" : S;
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
      // Polynomial::fromAffine(D) (+ 1 for unit steps) printed.
      if (S == 1)
        return linearText(*D, static_cast<Int128>(D->constant()) + 1);
      if (D->isConstant())
        return int128ToString(floorDiv(D->constant(), S) + 1);
      std::string Text = linearText(*D, D->constant());
      if (D->terms().size() + (D->constant() != 0) > 1 || Text[0] == '-')
        Text = "(" + Text + ")";
      return Text + "/" + std::to_string(S) + " + 1";
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

/// The formulas divide a bound with floor(); C's '/' rounds toward zero,
/// which differs where the dividend is negative (with known sizes the
/// Frontend refuses that case; with unknown ones the formulas say it).
static std::optional<std::string>
truncationNote(const std::vector<LoopInfo> &Loops) {
  std::set<std::string> Dividends;
  for (const LoopInfo &LI : Loops)
    for (const Bound *B : {&LI.Orig->First, &LI.Orig->Last})
      for (const BoundTerm &T : B->Terms)
        if (T.Divisor > 1 && !T.Expr.isConstant())
          Dividends.insert(T.Expr.str());
  if (Dividends.empty())
    return std::nullopt;
  std::string List;
  for (const std::string &D : Dividends)
    List += (List.empty() ? "" : ", ") + D + " >= 0";
  return "formulas take '/' in a bound as floor(); C's '/' rounds toward "
         "zero, so they hold while " + List;
}

/// Values of the sizes defined by others (B*T, hs = C / NH) at the known
/// sizes, unless a value was given for them.
static void deriveSizes(const LoopNest &N, const ParamValues &Overrides,
                        Env &Known, std::map<std::string, int64_t> &Values) {
  auto SumOf = [&](const std::vector<SizeTerm> &Terms) -> std::optional<Int128> {
    Int128 S = 0;
    for (const SizeTerm &T : Terms) {
      Int128 P = T.Coeff;
      for (const std::string &F : T.Factors) {
        auto It = Known.find(F);
        if (It == Known.end() || __builtin_mul_overflow(P, It->second, &P))
          return std::nullopt;
      }
      if (__builtin_add_overflow(S, P, &S))
        return std::nullopt;
    }
    return S;
  };
  // A quotient's numerator may be a product defined earlier: two rounds.
  for (int Round = 0; Round < 2; ++Round)
    for (const Param &P : N.Params) {
      if (!P.Derived || Overrides.count(P.Name) ||
          (P.Origin != "derived" && P.Origin != "product"))
        continue;
      std::optional<Int128> Num = SumOf(P.Derived->Numerator);
      std::optional<Int128> Den = P.Derived->isProduct()
                                      ? std::optional<Int128>(1)
                                      : SumOf(P.Derived->Denominator);
      if (!Num || !Den || *Den <= 0)
        continue;
      Int128 V = *Num / *Den; // C's '/'
      if (V > INT64_MAX || V < INT64_MIN)
        continue;
      Known[P.Name] = V;
      Values[P.Name] = static_cast<int64_t>(V);
    }
}

static std::string countText(const Count &C) {
  if (C.Value)
    return int128ToString(*C.Value);
  if (C.Formula)
    return C.Formula->str();
  return "?";
}

/// Checks the nest's conditions on sizes: the reason the footprints are
/// wrong at these sizes, or "" (unknown ones become notes and conditions).
static std::string sizeConditions(const LoopNest &N, const Env &Known,
                                  NestCounts &R) {
  for (const SizeCondition &C : N.Conditions) {
    std::optional<Int128> V = evalAffine(C.Expr, Known);
    if (V && *V < 0)
      return "at these sizes " + C.What + " fails (" + C.Expr.str() +
             " >= 0), so elements cannot be counted as rows";
    if (V)
      continue;
    R.Notes.push_back("assumes " + C.What + ": " + C.Expr.str() + " >= 0");
    if (llvm::Expected<Polynomial> P = Polynomial::fromAffine(C.Expr))
      R.FootprintConditions.push_back(std::move(*P));
    else
      llvm::consumeError(P.takeError());
  }
  return "";
}

/// Formulas in products of sizes (B*T as one variable) written out in the
/// factors.
static llvm::Error expandProducts(const LoopNest &N, NestCounts &R) {
  std::vector<std::pair<std::string, Polynomial>> Subs;
  for (const Param &P : N.Params) {
    if (!P.Derived || !P.Derived->isProduct() || P.Origin != "product")
      continue;
    Polynomial Sum(Rational(0));
    for (const SizeTerm &T : P.Derived->Numerator) {
      Polynomial Term(Rational(T.Coeff));
      for (const std::string &F : T.Factors) {
        llvm::Expected<Polynomial> M = Term.mul(Polynomial::var(F));
        if (!M)
          return M.takeError();
        Term = std::move(*M);
      }
      llvm::Expected<Polynomial> S = Sum.add(Term);
      if (!S)
        return S.takeError();
      Sum = std::move(*S);
    }
    Subs.push_back({P.Name, std::move(Sum)});
  }
  if (Subs.empty())
    return llvm::Error::success();
  auto Fix = [&](std::optional<Polynomial> &F) -> llvm::Error {
    if (!F)
      return llvm::Error::success();
    for (const auto &[Name, By] : Subs) {
      if (!F->uses(Name))
        continue;
      llvm::Expected<Polynomial> E = F->substitute(Name, By);
      if (!E)
        return E.takeError();
      F = std::move(*E);
    }
    return llvm::Error::success();
  };
  std::vector<Count *> All{&R.Iterations, &R.Macs,   &R.Flops,
                           &R.IntOps,     &R.Loads,  &R.Stores,
                           &R.MacsMin,    &R.FlopsMin, &R.BytesNoReuse,
                           &R.BytesCompulsory};
  for (auto &[P, C] : R.MacsByType)
    All.push_back(&C);
  for (auto &[P, C] : R.FlopsByType)
    All.push_back(&C);
  for (auto &[Name, C] : R.Calls)
    All.push_back(&C);
  for (LoopTrip &T : R.Loops)
    All.push_back(&T.Total);
  for (ArrayTraffic &A : R.Arrays)
    for (Count *C : {&A.Loads, &A.Stores, &A.ElementsRead, &A.ElementsWritten})
      All.push_back(C);
  for (Count *C : All)
    if (llvm::Error E = Fix(C->Formula))
      return E;
  for (Polynomial &P : R.FootprintConditions) {
    std::optional<Polynomial> O = P;
    if (llvm::Error E = Fix(O))
      return E;
    P = std::move(*O);
  }
  return llvm::Error::success();
}

llvm::Expected<NestCounts> roofline::analyzeNest(const LoopNest &N,
                                                 const ParamValues &Overrides) {
  if (llvm::Error E = validate(N.Root))
    return std::move(E);

  NestCounts R;
  R.Notes.reserve(4);
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
  deriveSizes(N, Overrides, Known, R.Values);

  // Most nests shadow nothing: then the nest itself is the renamed one.
  std::optional<Loop> Renamed;
  {
    llvm::SmallVector<const std::string *, 16> Names;
    for (const Param &P : N.Params)
      Names.push_back(&P.Name);
    for (const auto &[Name, V] : Overrides)
      Names.push_back(&Name);
    size_t NumParams = Names.size();
    if (needsRenaming(N.Root, Names)) {
      std::set<std::string> Scope;
      for (size_t I = 0; I < NumParams; ++I)
        Scope.insert(*Names[I]);
      Renamed = N.Root;
      unsigned Counter = 0;
      uniquifyIVs(*Renamed, Scope, Counter);
    }
  }
  const Loop &Root = Renamed ? *Renamed : N.Root;
  NestWalker W;
  W.reserve(Root);
  W.walk(N.Root, Root, -1);

  ChainCounter CC(Known, EnumerationBudget);
  std::vector<Cnt> Totals;
  Totals.reserve(W.Loops.size());
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
      IntOps = Cnt::exactly(0), MacsMin = Cnt::exactly(0),
      FlopsMin = Cnt::exactly(0);
  std::map<Precision, Cnt> MacsBy, FlopsBy;
  std::map<std::string, Cnt> Calls;
  for (size_t I = 0; I < W.Stmts.size(); ++I) {
    const Stmt &S = *W.Stmts[I].S;
    const Cnt &Exec = Totals[W.StmtLoop[I]];
    // The sure work counts at both ends of the range, the maybe work only
    // at the upper one.
    for (int Maybe = 0; Maybe < 2; ++Maybe)
      for (const auto &[P, Ops] : Maybe ? S.MaybeOps : S.Ops) {
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
        if (!Maybe) {
          MacsMin.addScaled(Exec, Ops.Macs);
          FlopsMin.addScaled(Exec, F);
        }
      }
    R.WorkIsRange |= !S.MaybeOps.empty() || S.MaybeIntOps;
    IntOps.addScaled(Exec, S.IntOps + S.MaybeIntOps);
  }

  // The arrays: declared ones in order, then any only the accesses name.
  std::vector<std::string> Names;
  std::vector<Precision> Elem;
  Names.reserve(N.Arrays.size() + 2);
  Elem.reserve(N.Arrays.size() + 2);
  llvm::SmallDenseMap<VarName, unsigned, 16> Index;
  auto AddArray = [&](const std::string &Name, Precision P) {
    if (Index.try_emplace(internName(Name), Names.size()).second) {
      Names.push_back(Name);
      Elem.push_back(P);
    }
  };
  // Scratch arrays are registers and L1 for one iteration: no traffic.
  std::set<std::string> Scratch;
  for (const Array &A : N.Arrays)
    if (A.Scratch)
      Scratch.insert(A.Name);
    else
      AddArray(A.Name, A.Elem);
  for (const StmtSite &S : W.Stmts)
    for (const Access &A : S.S->Accesses)
      if (!Scratch.count(A.ArrayName))
        AddArray(A.ArrayName, Precision::Unknown);
  auto IndexOf = [&](const std::string &Name) {
    return Index.find(internName(Name))->second;
  };

  // No-reuse traffic.
  Cnt Loads = Cnt::exactly(0), Stores = Cnt::exactly(0);
  std::vector<Cnt> ArrLoads(Names.size(), Cnt::exactly(0)),
      ArrStores(Names.size(), Cnt::exactly(0));
  std::vector<char> Accessed(Names.size(), false);
  const Cnt Once = Cnt::exactly(1);
  for (size_t I = 0; I < W.Stmts.size(); ++I) {
    const LoopInfo &LI = W.Loops[W.StmtLoop[I]];
    const Cnt &Exec = Totals[W.StmtLoop[I]];
    // Entries of the innermost loop: executions of its parent's body.
    // A source loop run in groups (LoopNest.h, Loop::GroupInner) is the
    // innermost loop and its parent together.
    bool Group = LI.Orig->GroupInner && LI.Parent >= 0;
    const LoopInfo *Src = Group ? &W.Loops[LI.Parent] : &LI;
    const Cnt &Entries = Src->Parent >= 0 ? Totals[Src->Parent] : Once;
    for (const Access &A : W.Stmts[I].S->Accesses) {
      if (Scratch.count(A.ArrayName))
        continue;
      unsigned Arr = IndexOf(A.ArrayName);
      Accessed[Arr] = true;
      bool Hoisted = true;
      for (const auto &Sub : A.Subscripts)
        Hoisted &= Sub && !Sub->uses(LI.Ren->IV) &&
                   !(Group && Sub->uses(Src->Ren->IV));
      const Cnt &Moves = Hoisted ? Entries : Exec;
      if (A.IsRead) {
        ArrLoads[Arr].addScaled(Moves, 1);
        Loads.addScaled(Moves, 1);
      }
      if (A.IsWrite) {
        ArrStores[Arr].addScaled(Moves, 1);
        Stores.addScaled(Moves, 1);
      }
    }
  }

  // Compulsory traffic. Only the value of the body executions is used (the
  // value side of Cnt::addScaled, without the formula).
  std::optional<Int128> Sum = 0;
  for (const Cnt &T : Totals)
    if (Sum && (!T.V || __builtin_add_overflow(*Sum, *T.V, &*Sum)))
      Sum.reset();
  FootprintOptions Opts;
  Opts.LoopBodyExecutions = Sum;
  std::vector<FootprintResult> Fps =
      computeFootprints(Names, W.Stmts, Root, CC, Opts, R.Notes,
                        R.FootprintConditions);

  // The IR's split of linear indices rests on conditions on the sizes.
  std::string Broken = sizeConditions(N, Known, R);
  if (!Broken.empty())
    for (FootprintResult &F : Fps) {
      invalidate(F.Read, Broken);
      invalidate(F.Written, Broken);
    }

  Cnt NoReuse = Cnt::exactly(0), Compulsory = Cnt::exactly(0);
  R.Arrays.reserve(Names.size());
  for (size_t I = 0; I < Names.size(); ++I) {
    const std::string &Name = Names[I];
    ArrayTraffic T;
    T.Name = Name;
    T.Elem = Elem[I];
    T.ElemBytes = precisionBytes(T.Elem);
    const Cnt &L = ArrLoads[I], &St = ArrStores[I];
    const FootprintResult &F = Fps[I];
    T.Loads = L.toCount();
    T.Stores = St.toCount();
    T.ElementsRead = F.Read.toCount();
    T.ElementsWritten = F.Written.toCount();
    if (T.ElemBytes == 0) {
      if (Accessed[I]) {
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

  R.Loops.reserve(W.Loops.size());
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
  R.MacsMin = MacsMin.toCount();
  R.FlopsMin = FlopsMin.toCount();
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
    if (!A.Scratch && A.FromPointer && Accessed[IndexOf(A.Name)])
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
  if (Iterations.F)
    if (std::optional<std::string> N = truncationNote(W.Loops))
      R.Notes.push_back(*N);
  if (R.WorkIsRange)
    R.Notes.push_back("data-dependent branches: the work is a range, from " +
                      countText(R.FlopsMin) + " to " + countText(R.Flops) +
                      " FLOPs; the verdict takes the upper end");
  R.Notes.insert(R.Notes.begin(), N.Notes.begin(), N.Notes.end());
  if (llvm::Error E = expandProducts(N, R))
    return std::move(E);
  return R;
}
