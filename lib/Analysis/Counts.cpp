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

#include "roofline/IR/GuardLoop.h"
#include "roofline/IR/PointGather.h"
#include "roofline/IR/RenameIVs.h"
#include "roofline/Support/Debug.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <cassert>
#include <deque>
#include <optional>
#include <set>

using namespace roofline;
using namespace roofline::detail;

// --debug-only=roofline-counts: each nest, its loops' counts, and why one
// is refused (docs/design.md, "Debug tracing").
#define DEBUG_TYPE "roofline-counts"

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

/// Whether \p L holds a source loop (a guard loop is none, but may hold one;
/// one that narrows \p L counts as one).
bool hasLoop(const Loop &L) {
  for (const Node &N : L.Body)
    if (N.isLoop() && (countsIterations(N.loop()) || hasLoop(N.loop())))
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
    Loops.push_back({&O, &R, Stack, Parent, countsIterations(O) && !hasLoop(O)});
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
        // Past 128 bits: the same difference, with the 1 kept apart.
        llvm::consumeError(T.takeError());
      }
      Diff += signedTail(*Neg);
    } else { // past 128 bits: the bound as written
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

/// The entries of a chain's innermost loop (or of its last two, a loop run
/// in groups) that run at least one iteration. A reference invariant in the
/// innermost loop moves once per such entry: a compiler keeps it in a
/// register, loaded in the loop's preheader behind its trip-count test
/// (docs/design.md, "no-reuse"). Values are exact (a chain of one-iteration
/// loops counts them). Formulas: the entries' where the loop always runs, 0
/// where it never does, the entries' with a stated assumption where whether
/// it runs depends on the sizes alone, the outer loop's range narrowed where
/// it depends on one outer loop variable with coefficient +-1 (`j < i`:
/// i from 1), else none, with the reason.
class NonEmptyEntries {
public:
  NonEmptyEntries(ChainCounter &CC, std::vector<std::string> &Notes)
      : CC(CC), Notes(Notes) {}

  /// \p C's loops at levels From.. are restricted; \p Entries counts the
  /// entries of level From (the executions of the body of C[From - 1]).
  Cnt count(const Chain &C, size_t From, const Cnt &Entries) {
    std::vector<size_t> Pending;
    for (size_t M = From; M < C.size(); ++M)
      if (!CC.tripAtLeast(C, M, 1))
        Pending.push_back(M);
    if (Pending.empty())
      return Entries;

    // A loop runs iff lo <= hi: with lo = max(f_i) and hi = min(l_j), iff
    // every span l_j - f_i is >= 0.
    std::string Opaque; // a loop whose spans are not affine expressions
    std::vector<Span> SizeOnly, OnIVs;
    for (size_t M : Pending) {
      const Loop &L = *C[M];
      std::optional<std::vector<AffineExpr>> Spans = spans(L);
      if (!Spans) {
        if (Opaque.empty())
          Opaque = L.IV;
        continue;
      }
      for (AffineExpr &D : *Spans) {
        if (D.isConstant()) {
          if (D.constant() < 0)
            return Cnt::exactly(0); // never runs
          continue;
        }
        (ivsUsed(C, M, D).empty() ? SizeOnly : OnIVs).push_back({&L, std::move(D)});
      }
    }

    Cnt R;
    if (Opaque.empty() && OnIVs.empty())
      sizeOnlyValue(SizeOnly, Entries, R);
    else
      syntheticValue(C, From, Pending, R);

    if (!Opaque.empty()) {
      R.WhyF = "loop " + Opaque + " may run no iteration on some entries, "
               "and its bounds (a '/', or a min/max the other way round) "
               "leave no no-reuse formula";
      return R;
    }
    if (OnIVs.size() > 1) {
      R.WhyF = "whether loop " + OnIVs[0].L->IV + " runs depends on several "
               "conditions on outer loop variables: no no-reuse formula";
      return R;
    }
    if (OnIVs.empty()) {
      R.F = Entries.F;
      R.WhyF = Entries.WhyF;
    } else {
      narrowedFormula(C, From, OnIVs[0], Entries, R);
    }
    if (R.F)
      for (const Span &S : SizeOnly)
        assume(S.D, "the no-reuse formulas assume loop " + S.L->IV +
                        " runs an iteration on every entry",
               "loop " + S.L->IV + " runs no iteration", R);
    return R;
  }

private:
  struct Span {
    const Loop *L;
    AffineExpr D; ///< L runs where D >= 0 (and its other spans are)
  };

  ChainCounter &CC;
  std::vector<std::string> &Notes;
  std::deque<Loop> Synthetic; ///< chains keep pointers into it

  /// A formula resting on \p D >= 0: noted where a size has no value,
  /// dropped with the reason where it fails at the sizes.
  void assume(const AffineExpr &D, const std::string &Note,
              const std::string &Fails, Cnt &R) {
    std::optional<Int128> V = evalAffine(D, CC.known());
    if (!V) {
      std::string N = Note + ": " + D.str() + " >= 0";
      if (std::find(Notes.begin(), Notes.end(), N) == Notes.end())
        Notes.push_back(N);
    } else if (*V < 0 && R.F) {
      R.F.reset();
      R.WhyF = "at these sizes " + Fails + " (" + D.str() +
               " < 0), which the no-reuse formula cannot say";
    }
  }

  /// lo and hi of \p L's iterations (First/Last, swapped downward).
  static const Bound &lo(const Loop &L) { return L.Step > 0 ? L.First : L.Last; }
  static const Bound &hi(const Loop &L) { return L.Step > 0 ? L.Last : L.First; }
  /// Whether lo is the max of its terms and hi the min of theirs.
  static bool conjunctive(const Loop &L) {
    return (lo(L).Terms.size() == 1 || lo(L).Kind == Bound::Max) &&
           (hi(L).Terms.size() == 1 || hi(L).Kind == Bound::Min);
  }

  /// l_j - f_i for every pair of terms (L runs iff all are >= 0); nullopt
  /// where a term has a divisor or the bounds are not conjunctive.
  static std::optional<std::vector<AffineExpr>> spans(const Loop &L) {
    if (!conjunctive(L))
      return std::nullopt;
    std::vector<AffineExpr> Out;
    for (const BoundTerm &H : hi(L).Terms)
      for (const BoundTerm &F : lo(L).Terms) {
        if (H.Divisor != 1 || F.Divisor != 1)
          return std::nullopt;
        std::optional<AffineExpr> D = H.Expr.sub(F.Expr);
        if (!D)
          return std::nullopt;
        Out.push_back(std::move(*D));
      }
    return Out;
  }

  /// The levels below \p M of \p C whose IVs \p D uses.
  static std::vector<size_t> ivsUsed(const Chain &C, size_t M,
                                     const AffineExpr &D) {
    std::vector<size_t> Out;
    for (size_t K = 0; K < M; ++K)
      if (D.uses(C[K]->IV))
        Out.push_back(K);
    return Out;
  }

  void sizeOnlyValue(const std::vector<Span> &SizeOnly, const Cnt &Entries,
                     Cnt &R) {
    R.V = Entries.V;
    R.WhyV = Entries.WhyV;
    for (const Span &S : SizeOnly) {
      std::optional<Int128> V = evalAffine(S.D, CC.known());
      if (!V) {
        R.V.reset();
        R.WhyV = "whether loop " + S.L->IV + " runs is unknown (" +
                 S.D.str() + " >= 0?)";
        return;
      }
      if (*V < 0) {
        R.V = 0;
        return;
      }
    }
  }

  /// Each restricted loop becomes one loop per lower term f_i, from f_i to
  /// min(hi, f_i): one iteration iff the loop runs, so the chain counts the
  /// entries that run.
  void syntheticValue(const Chain &C, size_t From,
                      const std::vector<size_t> &Pending, Cnt &R) {
    Chain S(C.begin(), C.begin() + From);
    for (size_t M : Pending) {
      const Loop &L = *C[M];
      for (size_t K = From; K < C.size(); ++K)
        if (K != M && (lo(L).uses(C[K]->IV) || hi(L).uses(C[K]->IV))) {
          R.WhyV = "loop " + L.IV + "'s bounds use " + C[K]->IV +
                   ": its entries that run cannot be counted";
          return;
        }
      if (!conjunctive(L)) {
        R.WhyV = "loop " + L.IV + " runs where one of several bounds holds: "
                 "its entries that run cannot be counted";
        return;
      }
      for (const BoundTerm &F : lo(L).Terms) {
        Loop &One = Synthetic.emplace_back();
        One.IV = L.IV + "#runs" + std::to_string(Synthetic.size());
        One.First.Terms = {F};
        One.Last.Kind = Bound::Min;
        One.Last.Terms = hi(L).Terms;
        One.Last.Terms.push_back(F);
        S.push_back(&One);
      }
    }
    Cnt N = CC.count(S);
    R.V = N.V;
    R.WhyV = N.WhyV;
  }

  /// The formula where the loop runs iff \p S.D = a*q + r >= 0 for one
  /// outer loop variable q (a = +-1, unit step): the chain with q's range
  /// cut to where it holds, resting on that range not being empty.
  void narrowedFormula(const Chain &C, size_t From, const Span &S,
                       const Cnt &Entries, Cnt &R) {
    std::string Why = "whether loop " + S.L->IV + " runs depends on " +
                      "outer loop variables in a way the formula does not "
                      "follow: no no-reuse formula";
    std::vector<size_t> Used = ivsUsed(C, From, S.D);
    if (Used.size() != 1) {
      R.WhyF = Why;
      return;
    }
    const Loop &Q = *C[Used[0]];
    int64_t A = S.D.coeff(Q.IV);
    if ((A != 1 && A != -1) || (Q.Step != 1 && Q.Step != -1) ||
        !lo(Q).isAffine() || !hi(Q).isAffine()) {
      R.WhyF = Why;
      return;
    }
    // a = 1: q >= -r; a = -1: q <= r.
    std::optional<AffineExpr> Rest = S.D.sub(AffineExpr::var(Q.IV, A));
    std::optional<AffineExpr> Cut = Rest ? (A > 0 ? Rest->scale(-1) : Rest)
                                         : std::nullopt;
    const AffineExpr &Old = A > 0 ? lo(Q).affine() : hi(Q).affine();
    std::optional<AffineExpr> Gain = Cut ? Cut->sub(Old) : std::nullopt;
    if (!Gain || !Gain->isConstant()) {
      R.WhyF = Why;
      return;
    }
    if (A > 0 ? Gain->constant() <= 0 : Gain->constant() >= 0) {
      R.F = Entries.F; // holds wherever q is
      R.WhyF = Entries.WhyF;
      return;
    }
    Loop &N = Synthetic.emplace_back();
    N.IV = Q.IV;
    N.Step = Q.Step;
    Bound NewLo = A > 0 ? Bound::single(*Cut) : lo(Q);
    Bound NewHi = A > 0 ? hi(Q) : Bound::single(*Cut);
    N.First = Q.Step > 0 ? NewLo : NewHi;
    N.Last = Q.Step > 0 ? NewHi : NewLo;
    std::optional<AffineExpr> Width = NewHi.affine().sub(NewLo.affine());
    std::optional<AffineExpr> Trip =
        Width ? Width->addConstant(1) : std::nullopt;
    if (!Trip || !ivsUsed(C, Used[0], *Trip).empty()) {
      R.WhyF = Why;
      return;
    }
    if (Trip->isConstant() && Trip->constant() < 0) {
      R.F = Polynomial(); // q's cut range is always empty
      return;
    }
    Chain P(C.begin(), C.begin() + From);
    P[Used[0]] = &N;
    Cnt Narrowed = CC.count(P);
    R.F = Narrowed.F;
    R.WhyF = Narrowed.WhyF;
    if (R.F && !Trip->isConstant())
      assume(*Trip,
             "the no-reuse formulas assume loop " + Q.IV + " has values "
             "where loop " + S.L->IV + " runs",
             "loop " + S.L->IV + " runs for no value of " + Q.IV, R);
  }
};

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
    else // past 128 bits: the note above still states the assumption
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
                           &R.BytesCompulsory, &R.BytesCompulsoryMin};
  for (auto &[P, C] : R.MacsByType)
    All.push_back(&C);
  for (auto &[P, C] : R.FlopsByType)
    All.push_back(&C);
  for (auto &[Name, C] : R.Calls)
    All.push_back(&C);
  for (LoopTrip &T : R.Loops)
    All.push_back(&T.Total);
  for (ArrayTraffic &A : R.Arrays)
    for (Count *C : {&A.Loads, &A.Stores, &A.ElementsRead, &A.ElementsWritten,
                     &A.ElementsReadMin, &A.ElementsWrittenMin})
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

/// Each loop's body executions, or why they are unknown.
static void traceLoopTotals(const NestWalker &W,
                            const std::vector<Cnt> &Totals) {
  for (size_t I = 0; I < W.Loops.size(); ++I) {
    Count C = Totals[I].toCount();
    llvm::dbgs() << "counts:   loop " << W.Loops[I].Orig->IV << ": "
                 << countText(C);
    if (!C.WhyNot.empty())
      llvm::dbgs() << " (" << C.WhyNot << ")";
    llvm::dbgs() << "\n";
  }
}

/// The sizes with values: the nest's, then \p Overrides, then those derived
/// from them; R.Values gets them too.
static Env knownSizes(const LoopNest &N, const ParamValues &Overrides,
                      NestCounts &R) {
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
  return Known;
}

/// The nest with every loop variable that shadows a size or an outer loop
/// variable renamed, or nothing when none does (most nests): then the nest
/// itself is the renamed one.
static std::optional<Loop> renamedRoot(const LoopNest &N,
                                       const ParamValues &Overrides) {
  llvm::SmallVector<const std::string *, 16> Names;
  for (const Param &P : N.Params)
    Names.push_back(&P.Name);
  for (const auto &[Name, V] : Overrides)
    Names.push_back(&Name);
  size_t NumParams = Names.size();
  if (!needsRenaming(N.Root, Names))
    return std::nullopt;
  std::set<std::string> Scope;
  for (size_t I = 0; I < NumParams; ++I)
    Scope.insert(*Names[I]);
  std::optional<Loop> Renamed = N.Root;
  unsigned Counter = 0;
  uniquifyIVs(*Renamed, Scope, Counter);
  return Renamed;
}

namespace {

/// The operations of a nest: per-execution constants times executions.
struct WorkCounts {
  Cnt Macs = Cnt::exactly(0), Flops = Cnt::exactly(0),
      IntOps = Cnt::exactly(0), MacsMin = Cnt::exactly(0),
      FlopsMin = Cnt::exactly(0);
  std::map<Precision, Cnt> MacsBy, FlopsBy;
  std::map<std::string, Cnt> Calls;
  bool IsRange = false;

  void count(const NestWalker &W, const std::vector<Cnt> &Totals) {
    for (size_t I = 0; I < W.Stmts.size(); ++I) {
      const Stmt &S = *W.Stmts[I].S;
      const Cnt &Exec = Totals[W.StmtLoop[I]];
      // The sure work counts at both ends of the range, the maybe work only
      // at the upper one.
      for (int Maybe = 0; Maybe < 2; ++Maybe)
        for (const auto &[P, Ops] : Maybe ? S.MaybeOps : S.Ops)
          add(Exec, P, Ops, !Maybe);
      IsRange |= !S.MaybeOps.empty() || S.MaybeIntOps;
      IntOps.addScaled(Exec, S.IntOps + S.MaybeIntOps);
    }
  }

  void add(const Cnt &Exec, Precision P, const OpCounts &Ops, bool Sure) {
    Int128 F =
        2 * static_cast<Int128>(Ops.Macs) + Ops.Adds + Ops.Muls + Ops.Divs;
    for (const auto &[Name, K] : Ops.Calls) {
      F += static_cast<Int128>(specialFunctionFlops(Name)) * K;
      slot(Calls, Name).addScaled(Exec, K);
    }
    slot(MacsBy, P).addScaled(Exec, Ops.Macs);
    slot(FlopsBy, P).addScaled(Exec, F);
    Macs.addScaled(Exec, Ops.Macs);
    Flops.addScaled(Exec, F);
    if (Sure) {
      MacsMin.addScaled(Exec, Ops.Macs);
      FlopsMin.addScaled(Exec, F);
    }
  }

  void store(NestCounts &R) const {
    R.WorkIsRange |= IsRange;
    R.Macs = Macs.toCount();
    R.Flops = Flops.toCount();
    R.MacsMin = MacsMin.toCount();
    R.FlopsMin = FlopsMin.toCount();
    R.IntOps = IntOps.toCount();
    for (const auto &[P, C] : MacsBy)
      R.MacsByType[P] = C.toCount();
    for (const auto &[P, C] : FlopsBy)
      R.FlopsByType[P] = C.toCount();
    for (const auto &[Name, C] : Calls)
      R.Calls[Name] = C.toCount();
  }
};

/// The arrays of a nest: declared ones in order, then any only the
/// accesses name. Scratch arrays are registers and L1 for one iteration:
/// no traffic, so none of them.
struct NestArrays {
  std::vector<std::string> Names;
  std::vector<Precision> Elem;
  llvm::SmallDenseMap<VarName, unsigned, 16> Index;
  std::set<std::string> Scratch;

  NestArrays(const LoopNest &N, const NestWalker &W) {
    Names.reserve(N.Arrays.size() + 2);
    Elem.reserve(N.Arrays.size() + 2);
    for (const Array &A : N.Arrays)
      if (A.Scratch)
        Scratch.insert(A.Name);
      else
        add(A.Name, A.Elem);
    for (const StmtSite &S : W.Stmts)
      for (const Access &A : S.S->Accesses)
        if (!Scratch.count(A.ArrayName))
          add(A.ArrayName, Precision::Unknown);
  }
  void add(const std::string &Name, Precision P) {
    if (Index.try_emplace(internName(Name), Names.size()).second) {
      Names.push_back(Name);
      Elem.push_back(P);
    }
  }
  unsigned indexOf(const std::string &Name) const {
    return Index.find(internName(Name))->second;
  }
};

/// No-reuse traffic: every access moves its element on every execution,
/// a hoisted one once per entry of its loop that runs.
/// The loop of \p W around statement \p Stmt whose variable (as written)
/// is \p IV; -1 when none is, or when two are (a loop of an inlined call
/// shadowing it: which one picks would be a guess).
static int enclosingLoop(const NestWalker &W, size_t Stmt,
                         const std::string &IV) {
  int Found = -1;
  for (int L = static_cast<int>(W.StmtLoop[Stmt]); L >= 0;
       L = W.Loops[L].Parent)
    if (W.Loops[L].Orig->IV == IV) {
      if (Found >= 0)
        return -1;
      Found = L;
    }
  return Found;
}

struct NoReuseTraffic {
  Cnt Loads = Cnt::exactly(0), Stores = Cnt::exactly(0);
  std::vector<Cnt> ArrLoads, ArrStores;
  std::vector<char> Accessed;

  NoReuseTraffic(const NestArrays &A, const NestWalker &W,
                 const std::vector<Cnt> &Totals, ChainCounter &CC,
                 std::vector<std::string> &Notes)
      : ArrLoads(A.Names.size(), Cnt::exactly(0)),
        ArrStores(A.Names.size(), Cnt::exactly(0)),
        Accessed(A.Names.size(), false) {
    NonEmptyEntries NonEmpty(CC, Notes);
    std::vector<std::optional<Cnt>> Runs(W.Loops.size());
    for (size_t I = 0; I < W.Stmts.size(); ++I)
      countStmt(A, W, Totals, I, NonEmpty, Runs[W.StmtLoop[I]]);
  }

  void countStmt(const NestArrays &Arrays, const NestWalker &W,
                 const std::vector<Cnt> &Totals, size_t I,
                 NonEmptyEntries &NonEmpty, std::optional<Cnt> &Run) {
    const Cnt Once = Cnt::exactly(1);
    const LoopInfo &LI = W.Loops[W.StmtLoop[I]];
    const Cnt &Exec = Totals[W.StmtLoop[I]];
    // Entries of the innermost loop: executions of its parent's body; a
    // hoisted reference moves on those that run an iteration.
    // A source loop run in groups (LoopNest.h, Loop::GroupInner) is the
    // innermost loop and its parents up to the group loop together (one
    // parent for i / G, two for Caffe's c / K / K).
    std::vector<const LoopInfo *> Source{&LI};
    while (Source.back()->Orig->GroupInner && Source.back()->Parent >= 0)
      Source.push_back(&W.Loops[Source.back()->Parent]);
    const LoopInfo *Src = Source.back();
    const Cnt &Entries = Src->Parent >= 0 ? Totals[Src->Parent] : Once;
    for (const Access &A : W.Stmts[I].S->Accesses) {
      if (Arrays.Scratch.count(A.ArrayName))
        continue;
      unsigned Arr = Arrays.indexOf(A.ArrayName);
      Accessed[Arr] = true;
      bool Hoisted = true;
      for (const auto &Sub : A.Subscripts)
        for (const LoopInfo *L : Source)
          Hoisted &= Sub && !Sub->uses(L->Ren->IV);
      // A row gather moves with its pick, a new index every iteration of
      // the pick loop: never held across it.
      if (int Pick = A.GatherLoop.empty() ? -1 : enclosingLoop(W, I, A.GatherLoop);
          Pick >= 0)
        for (const LoopInfo *L : Source)
          Hoisted &= L != &W.Loops[Pick];
      if (Hoisted && !Run)
        Run = NonEmpty.count(LI.Loops, LI.Loops.size() - Source.size(),
                             Entries);
      const Cnt &Moves = Hoisted ? *Run : Exec;
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
};

} // namespace

/// The footprints of the arrays (compulsory traffic), void where the
/// nest's conditions on sizes fail at these sizes.
static std::vector<FootprintResult>
arrayFootprints(const LoopNest &N, const NestArrays &A, const NestWalker &W,
                const Loop &Root, const std::vector<Cnt> &Totals,
                ChainCounter &CC, const Env &Known, NestCounts &R) {
  // Only the value of the body executions is used (the value side of
  // Cnt::addScaled, without the formula).
  std::optional<Int128> Sum = 0;
  for (const Cnt &T : Totals)
    if (Sum && (!T.V || __builtin_add_overflow(*Sum, *T.V, &*Sum)))
      Sum.reset();
  FootprintOptions Opts;
  Opts.LoopBodyExecutions = Sum;
  std::vector<FootprintResult> Fps =
      computeFootprints(A.Names, W.Stmts, Root, CC, Opts, R.Notes,
                        R.FootprintConditions);

  // The IR's split of linear indices rests on conditions on the sizes.
  std::string Broken = sizeConditions(N, Known, R);
  if (!Broken.empty())
    for (FootprintResult &F : Fps) {
      invalidate(F.Read, Broken);
      invalidate(F.Written, Broken);
    }
  return Fps;
}

/// A point gather (Access::GatherIndex) reads one element of each row its
/// access starts from: exact when the access is its array's only one and
/// those rows are distinct on every execution, that is when the distinct
/// elements (counted at element 0 of the row) equal the executions. Returns
/// why not, which refuses the nest; a formula that does not match is
/// dropped (docs/design.md, "Point gathers").
static std::string checkPointGathers(const LoopNest &N, const NestArrays &A,
                                     const NestWalker &W,
                                     const std::vector<Cnt> &Totals,
                                     std::vector<FootprintResult> &Fps) {
  // Most nests have none: no map of every array's accesses for them.
  if (!firstGather(N))
    return "";
  std::map<std::string, unsigned> AccessesOf;
  for (const StmtSite &S : W.Stmts)
    for (const Access &Acc : S.S->Accesses)
      ++AccessesOf[Acc.ArrayName];
  for (size_t I = 0; I < W.Stmts.size(); ++I)
    for (const Access &Acc : W.Stmts[I].S->Accesses) {
      if (Acc.GatherIndex.empty() || !Acc.GatherLoop.empty() ||
          A.Scratch.count(Acc.ArrayName))
        continue;
      FootprintResult &F = Fps[A.indexOf(Acc.ArrayName)];
      const Cnt &Exec = Totals[W.StmtLoop[I]];
      std::string Why = "gather: the element of '" + Acc.ArrayName +
                        "' that '" + Acc.GatherIndex + "' picks ";
      if (AccessesOf[Acc.ArrayName] != 1)
        return Why + "may be touched by another access too";
      const Cnt &Moved = Acc.IsRead ? F.Read : F.Written;
      if (!Moved.V || !Exec.V || *Moved.V != *Exec.V)
        return Why + "may repeat: the rows it starts from are not distinct "
                     "on every execution";
      if (Moved.F && Exec.F && *Moved.F == *Exec.F)
        continue;
      for (Cnt *C : {&F.Read, &F.Written})
        if (C->F) {
          C->F.reset();
          C->WhyF = Why + "is counted at these sizes only";
        }
    }
  return "";
}

/// Whether \p E (renamed) uses the variable of loop \p L or of a loop
/// around it.
static bool usesPickOrOuter(const NestWalker &W, int L, const AffineExpr &E) {
  for (; L >= 0; L = W.Loops[L].Parent)
    if (E.uses(W.Loops[L].Ren->IV))
      return true;
  return false;
}

/// Why the loops inside pick loop \p P do not run the same on every pick
/// (a bound that uses P's variable or an outer one); empty when they do.
static std::string pickDependentLoop(const NestWalker &W, int P) {
  for (size_t I = static_cast<size_t>(P) + 1; I < W.Loops.size(); ++I) {
    int Up = W.Loops[I].Parent;
    while (Up > P)
      Up = W.Loops[Up].Parent;
    if (Up != P)
      continue;
    const Loop &L = *W.Loops[I].Ren;
    for (const Bound *B : {&L.First, &L.Last})
      for (const BoundTerm &T : B->Terms)
        if (usesPickOrOuter(W, P, T.Expr))
          return "the loop over '" + W.Loops[I].Orig->IV +
                 "' inside it runs differently from pick to pick";
  }
  return "";
}

/// Rows picked by a loaded index (Access::GatherLoop): the footprint
/// counted within the row is what every pick touches, and also the fewest
/// elements (every pick the same row); each pick touches at most that many
/// new ones, so picks * footprint is the most. Requires every access of the
/// array to be in the rows the same index picks in the same loop, and the
/// picks to run alike (no subscript or inner bound using the pick loop's
/// variable or an outer one). Moves the upper end into \p Fps and returns
/// the lower ends by array (docs/design.md, "Row gathers"); fails with the
/// reason, which refuses the nest.
static llvm::Expected<std::vector<std::optional<FootprintResult>>>
rowGatherRanges(const NestArrays &A, const NestWalker &W,
                const std::vector<Cnt> &Totals,
                std::vector<FootprintResult> &Fps) {
  std::vector<std::optional<FootprintResult>> Mins(Fps.size());
  // Per array: the loop and index of its first access's pick (-1, "": none),
  // and whether another access differs in either.
  struct Picks {
    int Loop;
    std::string Index;
    bool Mixed = false;
  };
  std::map<unsigned, Picks> Pick;
  for (size_t I = 0; I < W.Stmts.size(); ++I)
    for (const Access &Acc : W.Stmts[I].S->Accesses) {
      if (A.Scratch.count(Acc.ArrayName))
        continue;
      unsigned Arr = A.indexOf(Acc.ArrayName);
      int P = Acc.GatherLoop.empty() ? -1
                                     : enclosingLoop(W, I, Acc.GatherLoop);
      // A loop regrouped or renamed on the way: no count rests on a guess.
      if (!Acc.GatherLoop.empty() && P < 0)
        return irError("gather: the loop over '" + Acc.GatherLoop +
                       "' that picks the rows of '" + Acc.ArrayName +
                       "' is not one loop around '" + Acc.Text +
                       "' in the nest (none, or shadowed by another)");
      auto [It, New] = Pick.try_emplace(Arr, Picks{P, Acc.GatherIndex});
      if (!New && (It->second.Loop != P || It->second.Index != Acc.GatherIndex))
        It->second.Mixed = true;
      if (P >= 0)
        for (const auto &Sub : Acc.Subscripts)
          if (Sub && usesPickOrOuter(W, P, *Sub))
            return irError("gather: '" + Acc.Text + "' moves with the loop "
                           "over '" + Acc.GatherLoop + "' (where '" +
                           Acc.GatherIndex + "' is loaded) or one around it, "
                           "besides the row '" + Acc.GatherIndex +
                           "' picks: the picks do not touch alike");
    }
  for (const auto &[Arr, Info] : Pick) {
    const auto &[P, Index, Mixed] = Info;
    if (P < 0 && !Mixed)
      continue;
    std::string Why = "gather: the rows of '" + A.Names[Arr] + "' that '" +
                      Index + "' picks ";
    if (Mixed)
      return irError(Why + "may be touched by another access too");
    if (std::string Loop = pickDependentLoop(W, P); !Loop.empty())
      return irError(Why + "are not read alike: " + Loop);
    FootprintResult &F = Fps[Arr];
    Mins[Arr] = F;
    F.Read = Cnt::product(Totals[P], F.Read);
    F.Written = Cnt::product(Totals[P], F.Written);
  }
  return Mins;
}

/// R.Arrays and the nest's byte totals, from the accesses and footprints.
static void storeArrayTraffic(const NestArrays &A, const NoReuseTraffic &T,
                              const std::vector<FootprintResult> &Fps,
                              const std::vector<std::optional<FootprintResult>> &Mins,
                              NestCounts &R) {
  Cnt NoReuse = Cnt::exactly(0), Compulsory = Cnt::exactly(0),
      CompulsoryMin = Cnt::exactly(0);
  R.Arrays.reserve(A.Names.size());
  for (size_t I = 0; I < A.Names.size(); ++I) {
    const std::string &Name = A.Names[I];
    ArrayTraffic AT;
    AT.Name = Name;
    AT.Elem = A.Elem[I];
    AT.ElemBytes = precisionBytes(AT.Elem);
    const Cnt &L = T.ArrLoads[I], &St = T.ArrStores[I];
    const FootprintResult &F = Fps[I];
    AT.Loads = L.toCount();
    AT.Stores = St.toCount();
    AT.ElementsRead = F.Read.toCount();
    AT.ElementsWritten = F.Written.toCount();
    const FootprintResult &Min = Mins[I] ? *Mins[I] : F;
    if (Mins[I]) {
      AT.ElementsAreRange = R.BytesIsRange = true;
      AT.ElementsReadMin = Min.Read.toCount();
      AT.ElementsWrittenMin = Min.Written.toCount();
    }
    if (AT.ElemBytes == 0) {
      if (T.Accessed[I]) {
        std::string Why = "the element size of " + Name + " is unknown";
        invalidate(NoReuse, Why);
        invalidate(Compulsory, Why);
        invalidate(CompulsoryMin, Why);
      }
    } else {
      NoReuse.addScaled(L, AT.ElemBytes);
      NoReuse.addScaled(St, AT.ElemBytes);
      Compulsory.addScaled(F.Read, AT.ElemBytes);
      Compulsory.addScaled(F.Written, AT.ElemBytes);
      CompulsoryMin.addScaled(Min.Read, AT.ElemBytes);
      CompulsoryMin.addScaled(Min.Written, AT.ElemBytes);
    }
    R.Arrays.push_back(std::move(AT));
  }
  R.Loads = T.Loads.toCount();
  R.Stores = T.Stores.toCount();
  R.BytesNoReuse = NoReuse.toCount();
  R.BytesCompulsory = Compulsory.toCount();
  if (R.BytesIsRange)
    R.BytesCompulsoryMin = CompulsoryMin.toCount();
}

static void storeLoopTrips(const NestWalker &W, const std::vector<Cnt> &Totals,
                           NestCounts &R) {
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
}

/// The note that says the compulsory bytes are a range, and why.
static std::string rowGatherNote(const NestCounts &R) {
  std::string Names;
  for (const ArrayTraffic &AT : R.Arrays)
    if (AT.ElementsAreRange)
      Names += (Names.empty() ? "'" : ", '") + AT.Name + "'";
  return "rows of " + Names +
         " are picked by indices loaded from memory: the compulsory bytes "
         "are a range, from " + countText(R.BytesCompulsoryMin) +
         " (every pick the same row) to " + countText(R.BytesCompulsory) +
         " (every pick a new row); the verdict takes the upper end";
}

/// The notes on aliasing, then on the validity of the formulas, then the
/// nest's own notes first of all.
static void addNotes(const LoopNest &N, const NestArrays &A,
                     const NoReuseTraffic &T, const NestWalker &W,
                     const Cnt &Iterations, NestCounts &R) {
  std::vector<std::string> Pointers;
  for (const Array &Arr : N.Arrays)
    if (!Arr.Scratch && Arr.FromPointer && T.Accessed[A.indexOf(Arr.Name)])
      Pointers.push_back(Arr.Name);
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
      for (const BoundTerm &BT : B->Terms)
        SymbolicTrips |= !BT.Expr.isConstant();
  // Any formula over a symbolic trip count needs it (a MACs formula can
  // stand where a guard left the iteration count without one).
  bool AnyFormula = Iterations.F || R.Macs.Formula || R.Flops.Formula ||
                    R.IntOps.Formula;
  if (AnyFormula && SymbolicTrips)
    R.Notes.push_back("formulas valid while every trip count is >= 0");
  if (Iterations.F)
    if (std::optional<std::string> Note = truncationNote(W.Loops))
      R.Notes.push_back(*Note);
  if (R.BytesIsRange)
    R.Notes.push_back(rowGatherNote(R));
  if (R.WorkIsRange)
    R.Notes.push_back("data-dependent branches: the work is a range, from " +
                      countText(R.FlopsMin) + " to " + countText(R.Flops) +
                      " FLOPs; the verdict takes the upper end");
  R.Notes.insert(R.Notes.begin(), N.Notes.begin(), N.Notes.end());
}

static llvm::Expected<NestCounts> countNest(const LoopNest &N,
                                            const ParamValues &Overrides) {
  ROOFLINE_DEBUG(llvm::dbgs() << "counts: nest " << N.Function << " at "
                              << N.Loc.File << ":" << N.Loc.Line << "\n");
  if (llvm::Error E = validate(N.Root)) {
    ROOFLINE_DEBUG(llvm::dbgs() << "counts:   refused: invalid IR\n");
    return std::move(E);
  }

  NestCounts R;
  R.Notes.reserve(4);
  Env Known = knownSizes(N, Overrides, R);
  std::optional<Loop> Renamed = renamedRoot(N, Overrides);
  const Loop &Root = Renamed ? *Renamed : N.Root;
  NestWalker W;
  W.reserve(Root);
  W.walk(N.Root, Root, -1);

  ChainCounter CC(Known, EnumerationBudget);
  std::vector<Cnt> Totals;
  Totals.reserve(W.Loops.size());
  for (const LoopInfo &LI : W.Loops)
    Totals.push_back(CC.count(LI.Loops));
  ROOFLINE_DEBUG(traceLoopTotals(W, Totals));

  Cnt Iterations = Cnt::exactly(0);
  for (size_t I = 0; I < W.Loops.size(); ++I)
    if (W.Loops[I].Innermost)
      Iterations.addScaled(Totals[I], 1);
  // Fail only when not even one loop can be counted; otherwise partial
  // results carry their reasons.
  bool Anything = Iterations.F || Iterations.V;
  for (const Cnt &T : Totals)
    Anything |= T.F || T.V;
  if (!Anything) {
    ROOFLINE_DEBUG(llvm::dbgs() << "counts:   refused: no loop counted: "
                                << Iterations.toCount().WhyNot << "\n");
    return irError("cannot count the iterations of the nest: " +
                   Iterations.toCount().WhyNot);
  }

  WorkCounts Work;
  Work.count(W, Totals);
  NestArrays Arrays(N, W);
  NoReuseTraffic Traffic(Arrays, W, Totals, CC, R.Notes);
  std::vector<FootprintResult> Fps =
      arrayFootprints(N, Arrays, W, Root, Totals, CC, Known, R);
  if (std::string Why = checkPointGathers(N, Arrays, W, Totals, Fps);
      !Why.empty())
    return irError(Why);
  auto Mins = rowGatherRanges(Arrays, W, Totals, Fps);
  if (!Mins)
    return Mins.takeError();
  storeArrayTraffic(Arrays, Traffic, Fps, *Mins, R);
  storeLoopTrips(W, Totals, R);
  R.Iterations = Iterations.toCount();
  Work.store(R);
  R.Atoms = CC.atoms();

  addNotes(N, Arrays, Traffic, W, Iterations, R);
  if (llvm::Error E = expandProducts(N, R))
    return std::move(E);
  return R;
}

//===----------------------------------------------------------------------===//
// Early exits (docs/design.md, "Early exits")
//===----------------------------------------------------------------------===//

/// Why the loops that may stop early cannot be counted as a range: one whose
/// bounds move with an outer loop may run no iteration on some entries,
/// where the lower end would still count one. Empty where they can.
static std::string exitBoundsMove(const Loop &L,
                                  std::vector<std::string> &Outer) {
  if (L.ExitsEarly)
    for (const std::string &IV : Outer)
      if (L.First.uses(IV) || L.Last.uses(IV))
        return "the loop at line " + std::to_string(L.Loc.Line) +
               " stops early on the data and its bounds move with loop " +
               IV + ": no lower end is known";
  Outer.push_back(L.IV);
  for (const Node &N : L.Body)
    if (N.isLoop())
      if (std::string Why = exitBoundsMove(N.loop(), Outer); !Why.empty())
        return Why;
  Outer.pop_back();
  return "";
}

static void withdraw(Count &C, const std::string &Why) {
  C.Formula.reset();
  C.Value.reset();
  C.WhyNot = Why;
}

/// Hi (no exit taken) becomes the range whose lower end is Lo (every exit
/// taken at its loop's first iteration). Executed loads and stores, the
/// no-reuse bytes and the iterations depend on where the exits fall, and
/// are withdrawn rather than given as one end.
static void mergeExitRange(const NestCounts &Lo, NestCounts &Hi,
                           const std::string &Line) {
  Hi.MacsMin = Lo.WorkIsRange ? Lo.MacsMin : Lo.Macs;
  Hi.FlopsMin = Lo.WorkIsRange ? Lo.FlopsMin : Lo.Flops;
  Hi.BytesCompulsoryMin =
      Lo.BytesIsRange ? Lo.BytesCompulsoryMin : Lo.BytesCompulsory;
  Hi.WorkIsRange = Hi.BytesIsRange = true;
  std::string Why =
      "where the loop at line " + Line + " stops depends on the data";
  for (size_t I = 0; I < Hi.Arrays.size(); ++I) {
    ArrayTraffic &H = Hi.Arrays[I];
    const ArrayTraffic &L = Lo.Arrays[I];
    H.ElementsReadMin =
        L.ElementsAreRange ? L.ElementsReadMin : L.ElementsRead;
    H.ElementsWrittenMin =
        L.ElementsAreRange ? L.ElementsWrittenMin : L.ElementsWritten;
    H.ElementsAreRange = true;
    withdraw(H.Loads, Why);
    withdraw(H.Stores, Why);
  }
  for (Count *C : {&Hi.Loads, &Hi.Stores, &Hi.BytesNoReuse, &Hi.Iterations})
    withdraw(*C, Why);
  for (size_t I = 0; I < Hi.Loops.size(); ++I)
    if (Hi.Loops[I].Total.Value != Lo.Loops[I].Total.Value ||
        Hi.Loops[I].Total.Formula != Lo.Loops[I].Total.Formula)
      withdraw(Hi.Loops[I].Total, Why);
  Hi.Notes.push_back(
      "early exit: the loop at line " + Line +
      " may stop after any iteration; the work is a range, from " +
      countText(Hi.FlopsMin) + " FLOPs (it stops at its first iteration) to " +
      countText(Hi.Flops) + " (it never stops), and the compulsory bytes from " +
      countText(Hi.BytesCompulsoryMin) + " to " +
      countText(Hi.BytesCompulsory) +
      "; the lower end assumes it runs at least once; the verdict takes "
      "the upper end");
}

/// Unmarks the loops that may stop early but run no iteration at these
/// sizes (their total in \p Hi is 0, by pre-order index \p Next): nothing
/// stops there, and one iteration per entry would count work that never
/// runs.
static void unmarkEmptyExits(Loop &L, const NestCounts &Hi, size_t &Next) {
  size_t I = Next++;
  if (L.ExitsEarly && I < Hi.Loops.size() && Hi.Loops[I].Total.Value &&
      *Hi.Loops[I].Total.Value == 0)
    L.ExitsEarly = false;
  for (Node &N : L.Body)
    if (N.isLoop())
      unmarkEmptyExits(N.loop(), Hi, Next);
}

llvm::Expected<NestCounts> roofline::analyzeNest(const LoopNest &N,
                                                 const ParamValues &Overrides) {
  const Loop *Exit = earlyExitLoop(N.Root);
  if (!Exit)
    return countNest(N, Overrides);
  std::vector<std::string> Outer;
  if (std::string Why = exitBoundsMove(N.Root, Outer); !Why.empty())
    return irError(Why);
  llvm::Expected<NestCounts> Hi = countNest(N, Overrides);
  if (!Hi)
    return Hi.takeError();
  LoopNest First = N;
  size_t Next = 0;
  unmarkEmptyExits(First.Root, *Hi, Next);
  assert(Next == Hi->Loops.size() && "the walker's loops are the IR's");
  First.Root = firstIterationsOnly(First.Root);
  llvm::Expected<NestCounts> Lo = countNest(First, Overrides);
  if (!Lo)
    return Lo.takeError();
  mergeExitRange(*Lo, *Hi, std::to_string(Exit->Loc.Line));
  return std::move(*Hi);
}
