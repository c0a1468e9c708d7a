//===- FuzzCounts.cpp - libFuzzer target: the counting engine -------------===//
//
// Decodes the fuzzer's bytes into a small, well-formed LoopNest (depth 1-4;
// bounds that are affine in the sizes and the outer IVs, min/max of two such
// terms, floor division by 1-3; steps -3..3 but 0; statements beside and in
// the innermost loop with affine accesses and op counts), runs analyzeNest
// with the sizes known, and compares every count it gives a value with a
// brute-force execution of the same IR (docs/design.md counting rules; the
// no-reuse rule that a reference invariant in its innermost loop moves once
// per entry; compulsory = distinct elements whose first access reads, plus
// distinct elements written, reads before writes in a statement). Then the
// same nest with the sizes unknown: every formula, evaluated at the sizes,
// must equal the brute force too, where its documented preconditions hold
// (every trip count >= 0; for footprints with the "runs at least once" note,
// every loop ran at least once per entry; for footprints, every condition on
// the sizes in NestCounts::FootprintConditions).
//
// Any disagreement aborts with the nest printed: a crash for libFuzzer.
//
//===----------------------------------------------------------------------===//

#include "roofline/Analysis/Counts.h"
#include "roofline/IR/LoopNest.h"

#include "llvm/Support/Error.h"

#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace roofline;

namespace {

const char *const ParamNames[] = {"N", "M"};
const char *const IVNames[] = {"i", "j", "k", "l"};

struct ArrayDef {
  const char *Name;
  Precision Elem;
  unsigned Dims;
};
const ArrayDef Arrays[] = {{"A", Precision::F32, 1},
                           {"B", Precision::F64, 2},
                           {"C", Precision::I8, 1},
                           {"D", Precision::I32, 3}};

class Decoder {
public:
  explicit Decoder(FuzzedDataProvider &FDP) : FDP(FDP) {}

  /// const + a*(N|M) + b*(an outer IV), small coefficients.
  AffineExpr affine(unsigned NumIVs) {
    AffineExpr E(FDP.ConsumeIntegralInRange<int64_t>(-3, 3));
    int64_t A = FDP.ConsumeIntegralInRange<int64_t>(-2, 2);
    if (A)
      E = *E.add(AffineExpr::var(ParamNames[FDP.ConsumeBool()], A));
    if (NumIVs) {
      int64_t B = FDP.ConsumeIntegralInRange<int64_t>(-2, 2);
      unsigned V = FDP.ConsumeIntegralInRange<unsigned>(0, NumIVs - 1);
      if (B)
        E = *E.add(AffineExpr::var(IVNames[V], B));
    }
    return E;
  }

  Bound bound(unsigned NumIVs) {
    Bound B;
    unsigned K = FDP.ConsumeIntegralInRange<unsigned>(0, 9);
    B.Kind = K < 7 ? Bound::Single : K < 8 ? Bound::Min : Bound::Max;
    unsigned Terms = B.Kind == Bound::Single ? 1 : 2;
    for (unsigned T = 0; T < Terms; ++T) {
      BoundTerm BT;
      BT.Expr = affine(NumIVs);
      BT.Divisor = FDP.ConsumeIntegralInRange<unsigned>(0, 4) < 4
                       ? 1
                       : FDP.ConsumeIntegralInRange<int64_t>(2, 3);
      B.Terms.push_back(BT);
    }
    return B;
  }

  Stmt stmt(unsigned NumIVs) {
    Stmt S;
    unsigned NumAcc = FDP.ConsumeIntegralInRange<unsigned>(1, 3);
    for (unsigned A = 0; A < NumAcc; ++A) {
      const ArrayDef &D = Arrays[FDP.ConsumeIntegralInRange<unsigned>(0, 3)];
      Access Acc;
      Acc.ArrayName = D.Name;
      for (unsigned Dim = 0; Dim < D.Dims; ++Dim) {
        // Subscripts: the IVs of the statement and the sizes.
        AffineExpr E(FDP.ConsumeIntegralInRange<int64_t>(-2, 2));
        for (unsigned V = 0; V < NumIVs; ++V)
          if (int64_t C = FDP.ConsumeIntegralInRange<int64_t>(-1, 2) *
                          FDP.ConsumeBool())
            E = *E.add(AffineExpr::var(IVNames[V], C));
        if (FDP.ConsumeIntegralInRange<unsigned>(0, 5) == 0)
          E = *E.add(AffineExpr::var(ParamNames[FDP.ConsumeBool()]));
        Acc.Subscripts.push_back(E);
      }
      unsigned RW = FDP.ConsumeIntegralInRange<unsigned>(0, 2);
      Acc.IsRead = RW != 1;
      Acc.IsWrite = RW != 0;
      Acc.Text = Acc.ArrayName;
      S.Accesses.push_back(Acc);
    }
    OpCounts &F = S.Ops[FDP.ConsumeBool() ? Precision::F32 : Precision::F64];
    F.Macs = FDP.ConsumeIntegralInRange<int64_t>(0, 2);
    F.Adds = FDP.ConsumeIntegralInRange<int64_t>(0, 2);
    F.Muls = FDP.ConsumeIntegralInRange<int64_t>(0, 1);
    F.Divs = FDP.ConsumeIntegralInRange<int64_t>(0, 1);
    if (FDP.ConsumeBool())
      S.Ops[Precision::I8].Macs = 1;
    S.IntOps = FDP.ConsumeIntegralInRange<int64_t>(0, 2);
    return S;
  }

  Loop loop(unsigned Level, unsigned Depth) {
    Loop L;
    L.IV = IVNames[Level];
    L.First = bound(Level);
    L.Last = bound(Level);
    int64_t Step = FDP.ConsumeIntegralInRange<int64_t>(1, 3);
    L.Step = FDP.ConsumeBool() ? Step : -Step;
    bool Innermost = Level + 1 == Depth;
    unsigned Before = Innermost ? FDP.ConsumeIntegralInRange<unsigned>(1, 3)
                                : FDP.ConsumeIntegralInRange<unsigned>(0, 1);
    for (unsigned S = 0; S < Before; ++S)
      L.Body.push_back(Node::stmt(stmt(Level + 1)));
    if (!Innermost) {
      L.Body.push_back(Node::loop(loop(Level + 1, Depth)));
      if (FDP.ConsumeIntegralInRange<unsigned>(0, 3) == 0)
        L.Body.push_back(Node::stmt(stmt(Level + 1)));
    }
    return L;
  }

private:
  FuzzedDataProvider &FDP;
};

/// Brute-force execution of the IR, with the counting rules.
struct Oracle {
  std::map<std::string, int64_t> Env;
  int64_t Budget = 200000; ///< loop body executions; beyond: no check
  bool OverBudget = false;
  bool NegativeTrip = false, EmptyEntry = false;
  std::vector<int64_t> Totals; ///< body executions per loop, pre-order
  int64_t Iterations = 0, Macs = 0, Flops = 0, IntOps = 0;
  struct Arr {
    int64_t Loads = 0, Stores = 0;
    std::map<std::vector<int64_t>, bool> FirstRead;
    std::set<std::vector<int64_t>> Written;
  };
  std::map<std::string, Arr> Arrs;

  int64_t eval(const AffineExpr &E) {
    int64_t V = E.constant();
    for (const auto &[Name, C] : E.terms())
      V += C * Env.at(Name);
    return V;
  }
  static int64_t floorDiv(int64_t A, int64_t B) {
    int64_t Q = A / B;
    return (A % B != 0 && ((A < 0) != (B < 0))) ? Q - 1 : Q;
  }
  int64_t eval(const Bound &B) {
    int64_t R = 0;
    for (size_t I = 0; I < B.Terms.size(); ++I) {
      int64_t V = floorDiv(eval(B.Terms[I].Expr), B.Terms[I].Divisor);
      if (I == 0 || (B.Kind == Bound::Min && V < R) ||
          (B.Kind == Bound::Max && V > R))
        R = V;
    }
    return R;
  }

  void stmt(const Stmt &S, const Loop &Encl, int64_t EnclEntries,
            bool FirstEntryExec, int64_t) {
    (void)EnclEntries;
    (void)FirstEntryExec;
    for (const auto &[P, O] : S.Ops) {
      Macs += O.Macs;
      Flops += 2 * O.Macs + O.Adds + O.Muls + O.Divs;
    }
    IntOps += S.IntOps;
    for (const Access &A : S.Accesses) {
      std::vector<int64_t> Idx;
      for (const auto &Sub : A.Subscripts)
        Idx.push_back(eval(*Sub));
      if (A.IsRead)
        Arrs[A.ArrayName].FirstRead.emplace(Idx, true);
    }
    for (const Access &A : S.Accesses) {
      if (!A.IsWrite)
        continue;
      std::vector<int64_t> Idx;
      for (const auto &Sub : A.Subscripts)
        Idx.push_back(eval(*Sub));
      Arrs[A.ArrayName].FirstRead.emplace(Idx, false);
      Arrs[A.ArrayName].Written.insert(Idx);
    }
    (void)Encl;
  }

  /// Runs loop \p L (pre-order index \p Me); returns false over budget.
  bool run(const Loop &L, size_t &Next) {
    size_t Me = Next++;
    if (Totals.size() <= Me)
      Totals.resize(Me + 1, 0);
    int64_t F = eval(L.First), La = eval(L.Last);
    int64_t Trip = floorDiv(L.Step > 0 ? La - F : F - La,
                            L.Step > 0 ? L.Step : -L.Step) + 1;
    NegativeTrip |= Trip < 0;
    EmptyEntry |= Trip <= 0;
    bool HasLoop = false;
    for (const Node &N : L.Body)
      HasLoop |= N.isLoop();
    size_t BodyStart = Next;
    for (int64_t V = F; L.Step > 0 ? V <= La : V >= La; V += L.Step) {
      if (--Budget < 0)
        return false;
      Env[L.IV] = V;
      ++Totals[Me];
      if (!HasLoop)
        ++Iterations;
      Next = BodyStart;
      for (const Node &N : L.Body) {
        if (N.isLoop()) {
          if (!run(N.loop(), Next))
            return false;
        } else {
          stmt(N.S, L, 0, false, 0);
        }
      }
    }
    // Skip the pre-order indices of the body when it never ran.
    if (Trip <= 0) {
      Next = BodyStart;
      countLoops(L, Next, /*Self=*/false);
    }
    Env.erase(L.IV);
    return true;
  }

  void countLoops(const Loop &L, size_t &Next, bool Self) {
    if (Self) {
      if (Totals.size() <= Next)
        Totals.resize(Next + 1, 0);
      ++Next;
    }
    for (const Node &N : L.Body)
      if (N.isLoop())
        countLoops(N.loop(), Next, true);
  }
};

/// The no-reuse moves: per statement reference, body executions of its
/// innermost loop, or entries of that loop when the reference is invariant
/// in it (computed from the per-loop totals, as the rule is stated).
void noReuse(const Loop &L, int64_t Entries, const std::vector<int64_t> &Totals,
             size_t &Next, std::map<std::string, Oracle::Arr> &Arrs) {
  size_t Me = Next++;
  int64_t Exec = Totals[Me];
  for (const Node &N : L.Body) {
    if (N.isLoop()) {
      noReuse(N.loop(), Exec, Totals, Next, Arrs);
      continue;
    }
    for (const Access &A : N.S.Accesses) {
      bool Hoisted = true;
      for (const auto &Sub : A.Subscripts)
        Hoisted &= !Sub->uses(L.IV);
      int64_t Moves = Hoisted ? Entries : Exec;
      if (A.IsRead)
        Arrs[A.ArrayName].Loads += Moves;
      if (A.IsWrite)
        Arrs[A.ArrayName].Stores += Moves;
    }
  }
}

[[noreturn]] void fail(const LoopNest &N, const std::string &What,
                       const std::string &Got, int64_t Want) {
  std::fprintf(stderr, "count mismatch: %s = %s, brute force %lld\n%s\n",
               What.c_str(), Got.c_str(), static_cast<long long>(Want),
               printNest(N).c_str());
  std::abort();
}

void checkValue(const LoopNest &N, const std::string &What, const Count &C,
                int64_t Want) {
  if (C.Value && *C.Value != Want)
    fail(N, What, int128ToString(*C.Value), Want);
}

void checkFormula(const LoopNest &N, const NestCounts &NC,
                  const std::string &What, const Count &C, int64_t Want,
                  const std::map<std::string, int64_t> &Values) {
  if (!C.Formula)
    return;
  llvm::Expected<Rational> V = evaluateFormula(NC, *C.Formula, Values);
  if (!V) {
    llvm::consumeError(V.takeError());
    return;
  }
  if (!V->isInteger() || V->num() != Want) {
    std::string At;
    for (const auto &[Name, Value] : Values)
      At += " " + Name + "=" + std::to_string(Value);
    // The notes state the formula's preconditions: print them with it.
    for (const std::string &Note : NC.Notes)
      std::fprintf(stderr, "note: %s\n", Note.c_str());
    fail(N, What + " formula " + C.Formula->str() + " at" + At, V->str(),
         Want);
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  FuzzedDataProvider FDP(Data, Size);
  LoopNest N;
  N.Function = "fuzz";
  std::map<std::string, int64_t> Values;
  for (const char *P : ParamNames) {
    int64_t V = FDP.ConsumeIntegralInRange<int64_t>(0, 12);
    Values[P] = V;
    N.Params.push_back({P, V, "literal"});
  }
  for (const ArrayDef &D : Arrays) {
    Array A;
    A.Name = D.Name;
    A.Elem = D.Elem;
    for (unsigned Dim = 0; Dim < D.Dims; ++Dim)
      A.Extents.push_back(AffineExpr(64));
    N.Arrays.push_back(A);
  }
  Decoder Dec(FDP);
  unsigned Depth = FDP.ConsumeIntegralInRange<unsigned>(1, 4);
  N.Root = Dec.loop(0, Depth);

  Oracle O;
  O.Env = Values;
  size_t Next = 0;
  if (!O.run(N.Root, Next))
    return 0; // too many iterations to check by brute force
  size_t NumLoops = Next;
  {
    size_t I = 0;
    noReuse(N.Root, 1, O.Totals, I, O.Arrs);
  }

  llvm::Expected<NestCounts> C = analyzeNest(N);
  if (!C) {
    std::fprintf(stderr, "refused with every size known: %s\n%s\n",
                 llvm::toString(C.takeError()).c_str(), printNest(N).c_str());
    std::abort();
  }
  int64_t Loads = 0, Stores = 0, NoReuse = 0, Compulsory = 0;
  for (const ArrayTraffic &T : C->Arrays) {
    Oracle::Arr &A = O.Arrs[T.Name];
    int64_t Read = 0;
    for (const auto &[Idx, R] : A.FirstRead)
      Read += R;
    int64_t Written = static_cast<int64_t>(A.Written.size());
    checkValue(N, T.Name + ".loads", T.Loads, A.Loads);
    checkValue(N, T.Name + ".stores", T.Stores, A.Stores);
    checkValue(N, T.Name + ".elements_read", T.ElementsRead, Read);
    checkValue(N, T.Name + ".elements_written", T.ElementsWritten, Written);
    Loads += A.Loads;
    Stores += A.Stores;
    NoReuse += (A.Loads + A.Stores) * T.ElemBytes;
    Compulsory += (Read + Written) * T.ElemBytes;
  }
  checkValue(N, "iterations", C->Iterations, O.Iterations);
  checkValue(N, "macs", C->Macs, O.Macs);
  checkValue(N, "flops", C->Flops, O.Flops);
  checkValue(N, "intops", C->IntOps, O.IntOps);
  checkValue(N, "loads", C->Loads, Loads);
  checkValue(N, "stores", C->Stores, Stores);
  checkValue(N, "bytes_no_reuse", C->BytesNoReuse, NoReuse);
  checkValue(N, "bytes_compulsory", C->BytesCompulsory, Compulsory);
  if (C->Loops.size() != NumLoops)
    fail(N, "number of loops", std::to_string(C->Loops.size()),
         static_cast<int64_t>(NumLoops));
  for (size_t I = 0; I < NumLoops; ++I)
    checkValue(N, "loop " + C->Loops[I].IV + " total", C->Loops[I].Total,
               O.Totals[I]);
  // With every size known, the small nests here always get values.
  if (!C->Iterations.Value || !C->BytesCompulsory.Value)
    fail(N, "missing value: " + C->Iterations.WhyNot + C->BytesCompulsory.WhyNot,
         "null", 0);

  // With the sizes known, a formula is kept only where it provably holds at
  // them: check it unconditionally.
  checkFormula(N, *C, "iterations", C->Iterations, O.Iterations, Values);
  checkFormula(N, *C, "flops", C->Flops, O.Flops, Values);
  checkFormula(N, *C, "loads", C->Loads, Loads, Values);
  checkFormula(N, *C, "stores", C->Stores, Stores, Values);
  checkFormula(N, *C, "bytes_compulsory", C->BytesCompulsory, Compulsory,
               Values);

  // The same nest with the sizes unknown: the formulas.
  if (O.NegativeTrip)
    return 0; // documented: formulas valid while every trip count is >= 0
  for (Param &P : N.Params)
    P.Value.reset();
  llvm::Expected<NestCounts> S = analyzeNest(N);
  if (!S) {
    llvm::consumeError(S.takeError());
    return 0;
  }
  checkFormula(N, *S, "iterations", S->Iterations, O.Iterations, Values);
  checkFormula(N, *S, "macs", S->Macs, O.Macs, Values);
  checkFormula(N, *S, "flops", S->Flops, O.Flops, Values);
  checkFormula(N, *S, "loads", S->Loads, Loads, Values);
  checkFormula(N, *S, "stores", S->Stores, Stores, Values);
  checkFormula(N, *S, "bytes_no_reuse", S->BytesNoReuse, NoReuse, Values);
  bool AssumesRuns = false;
  for (const std::string &Note : S->Notes)
    AssumesRuns |= Note.find("runs at least once") != std::string::npos;
  // Documented too: "the footprint formula of A assumes N >= 5" (the order
  // of its bounds); where such a condition fails the formula is not claimed.
  bool ConditionsHold = true;
  for (const Polynomial &P : S->FootprintConditions) {
    llvm::Expected<Rational> V = evaluateFormula(*S, P, Values);
    if (!V) {
      llvm::consumeError(V.takeError());
      ConditionsHold = false;
    } else if (V->sign() < 0) {
      ConditionsHold = false;
    }
  }
  if (!(AssumesRuns && O.EmptyEntry) && ConditionsHold)
    checkFormula(N, *S, "bytes_compulsory", S->BytesCompulsory, Compulsory,
                 Values);
  return 0;
}
