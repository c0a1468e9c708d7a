//===- ProgramSymbolic.cpp - A pass's counts as polynomials ---------------===//
//
// docs/network-report.md, "Symbolic totals".
//
//===----------------------------------------------------------------------===//

#include "ProgramSymbolic.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <cassert>
#include <set>

using namespace roofline;
using namespace roofline::frontend;

namespace {

std::set<std::string> variablesOf(const Polynomial &P) {
  std::set<std::string> Vars;
  for (size_t I = 0; I < P.numTerms(); ++I)
    for (const Polynomial::Factor &F : P.mono(I))
      Vars.insert(*F.Name);
  return Vars;
}

SymVal fromExpected(llvm::Expected<Polynomial> P) {
  if (!P)
    return SymVal::none(llvm::toString(P.takeError()));
  return SymVal::of(std::move(*P));
}

/// A polynomial's text as one operand of '/': bare when it is a name or
/// a number, parenthesized otherwise.
std::string operand(const Polynomial &P) {
  std::string S = P.str();
  bool Bare = llvm::all_of(S, [](char C) {
    return llvm::isAlnum(C) || C == '_';
  });
  return Bare ? S : "(" + S + ")";
}

/// C's truncating division of integers given as constant polynomials.
std::optional<int64_t> constantInt(const Polynomial &P) {
  Rational C = P.constant();
  if (!P.isConstant() || !C.isInteger() || C.num() > INT64_MAX ||
      C.num() < INT64_MIN)
    return std::nullopt;
  return int64_t(C.num());
}

/// A row of \p Function's nest at \p Loc along the call chain \p Path.
ProgramSymbolicRow rowOf(const std::string &Path, const std::string &Function,
                         const SourceLoc &Loc) {
  ProgramSymbolicRow R;
  R.Path = Path;
  R.Function = Function;
  R.Loc = Loc;
  return R;
}

SymbolicCount addCounts(const SymbolicCount &A, const SymbolicCount &B) {
  if (!A.Formula)
    return A;
  if (!B.Formula)
    return B;
  llvm::Expected<Polynomial> S = A.Formula->add(*B.Formula);
  if (!S)
    return {std::nullopt, llvm::toString(S.takeError())};
  return {std::move(*S), ""};
}

} // namespace

SymVal SymbolicRollup::size(const std::string &Name,
                            std::optional<int64_t> Value) {
  auto [It, New] = Out.Variables.try_emplace(Name, Value);
  if (!New && Value && !Conflicts.count(Name)) {
    if (!It->second)
      It->second = Value;
    else if (*It->second != *Value) {
      assume("'" + Name + "' has two values in the walk (" +
             std::to_string(*It->second) + " and " + std::to_string(*Value) +
             "): the formulas are not evaluated at them");
      It->second = std::nullopt;
      Conflicts.insert(Name);
    }
  }
  return SymVal::of(Polynomial::var(Name));
}

SymVal SymbolicRollup::atom(const Polynomial &Num, const Polynomial &Den) {
  std::string Name = "floor(" + operand(Num) + "/" + operand(Den) + ")";
  Out.Atoms.try_emplace(Name, SymbolicAtom{Num, Den});
  return SymVal::of(Polynomial::var(Name));
}

SymVal SymbolicRollup::arith(char Op, const SymVal &L, const SymVal &R) {
  if (!L.known() || !R.known()) {
    SymVal N = !L.known() ? L : R;
    N.Varying = (!L.known() && L.Varying) || (!R.known() && R.Varying) ||
                (L.known() && usesLoopVariable(*L.P)) ||
                (R.known() && usesLoopVariable(*R.P));
    return N;
  }
  SymVal V = arithKnown(Op, *L.P, *R.P);
  if (!V.known())
    V.Varying = usesLoopVariable(*L.P) || usesLoopVariable(*R.P);
  return V;
}

bool SymbolicRollup::usesLoopVariable(const Polynomial &P) const {
  for (size_t I = 1; I < Scopes.size(); ++I)
    if (P.uses(Scopes[I].IV))
      return true;
  return false;
}

SymVal SymbolicRollup::arithKnown(char Op, const Polynomial &A,
                                  const Polynomial &B) {
  SymVal L = SymVal::of(A);
  std::optional<int64_t> CA = constantInt(A), CB = constantInt(B);
  switch (Op) {
  case '+':
    return fromExpected(A.add(B));
  case '-':
    return fromExpected(A.sub(B));
  case '*':
    return fromExpected(A.mul(B));
  case '<':
    if (CB && *CB >= 0 && *CB < 63)
      return fromExpected(A.scale(Rational(int64_t(1) << *CB)));
    return SymVal::none("a shift by a size has no closed form");
  case '>':
    if (CB && *CB >= 0 && *CB < 63)
      return arith('/', L, constant(int64_t(1) << *CB));
    return SymVal::none("a shift by a size has no closed form");
  case '/': {
    if (CB && *CB == 0)
      return SymVal::none("a division by zero");
    if (CA && CB)
      return constant(*CA / *CB); // C truncates
    if (CB) {
      // Exact when every coefficient is a multiple of the divisor: the
      // quotient of integers is then an integer for every size.
      bool Exact = true;
      for (size_t I = 0; I < A.numTerms() && Exact; ++I) {
        const Rational &K = A.coef(I);
        Exact = K.isInteger() && K.num() % *CB == 0;
      }
      if (Exact)
        return fromExpected(A.scale(*Rational::make(1, *CB)));
    }
    return atom(A, B);
  }
  case '%':
    if (CA && CB && *CB != 0)
      return constant(*CA % *CB);
    return SymVal::none("a remainder of sizes has no closed form");
  default:
    return SymVal::none("an operator with no closed form");
  }
}

void SymbolicRollup::beginLoop(const std::string &IV) {
  Scopes.emplace_back();
  Scopes.back().IV = IV;
}

void SymbolicRollup::taintLoop(const std::string &Why) {
  if (Scopes.size() > 1 && Scopes.back().Taint.empty())
    Scopes.back().Taint = Why;
}

bool SymbolicRollup::taintLoopsUsing(const Polynomial &P,
                                     const std::string &Why) {
  for (size_t I = 1; I < Scopes.size(); ++I)
    if (P.uses(Scopes[I].IV)) {
      if (Scopes[I].Taint.empty())
        Scopes[I].Taint = Why;
      return true;
    }
  return false;
}

void SymbolicRollup::endLoop(const SymVal &First, const SymVal &Last,
                             const std::string &Where) {
  assert(Scopes.size() > 1 && "endLoop without beginLoop");
  Scope S = std::move(Scopes.back());
  Scopes.pop_back();
  std::string Why = S.Taint;
  // Its later iterations may run calls the first did not: the formulas
  // miss them, and say so beside the rows that lose theirs.
  if (!Why.empty())
    leftOut(Why);
  if (Why.empty() && !First.known())
    Why = "the first value of the loop at " + Where + " has no closed form (" +
          First.Why + ")";
  if (Why.empty() && !Last.known())
    Why = "the bound of the loop at " + Where + " has no closed form (" +
          Last.Why + ")";
  if (Why.empty() && !S.Rows.empty()) {
    // sumOver is the true sum while Last >= First - 1: the loop runs zero
    // or more times, never "minus" times.
    llvm::Expected<Polynomial> Runs = Last.P->sub(*First.P);
    if (Runs)
      Runs = Runs->add(Polynomial(1));
    if (!Runs)
      llvm::consumeError(Runs.takeError());
    else if (!Runs->isConstant())
      assume(Runs->str() + " >= 0 (the loop at " + Where + " runs)");
  }
  for (ProgramSymbolicRow &R : S.Rows) {
    for (SymbolicCount *C : {&R.Flops, &R.Macs, &R.Bytes}) {
      if (!C->Formula)
        continue;
      if (!Why.empty()) {
        *C = {std::nullopt, Why};
        continue;
      }
      llvm::Expected<Polynomial> Sum =
          sumOver(*C->Formula, S.IV, *First.P, *Last.P);
      if (!Sum)
        *C = {std::nullopt, llvm::toString(Sum.takeError())};
      else
        C->Formula = std::move(*Sum);
    }
    addRow(Scopes.back(), std::move(R));
  }
}

void SymbolicRollup::addRow(Scope &S, ProgramSymbolicRow R) {
  RowKey K{R.Path, R.Loc.File, R.Loc.Line, R.Loc.Column};
  auto [It, New] = S.Index.try_emplace(K, S.Rows.size());
  if (New) {
    S.Rows.push_back(std::move(R));
    return;
  }
  ProgramSymbolicRow &Into = S.Rows[It->second];
  Into.Flops = addCounts(Into.Flops, R.Flops);
  Into.Macs = addCounts(Into.Macs, R.Macs);
  Into.Bytes = addCounts(Into.Bytes, R.Bytes);
  Into.WorkIsRange |= R.WorkIsRange;
  Into.BytesIsRange |= R.BytesIsRange;
}

/// \p P with each of its variables replaced by \p Bind's polynomial, all
/// at once: renamed first, so a callee's `n` bound to the caller's `n + 1`
/// is not bound twice.
static SymVal substituteAll(const Polynomial &P,
                            const std::map<std::string, SymVal> &Bind) {
  Polynomial Q = P;
  std::set<std::string> Vars = variablesOf(P);
  for (const std::string &V : Vars) {
    llvm::Expected<Polynomial> R = Q.substitute(V, Polynomial::var("\x01" + V));
    if (!R)
      return SymVal::none(llvm::toString(R.takeError()));
    Q = std::move(*R);
  }
  for (const std::string &V : Vars) {
    auto It = Bind.find(V);
    if (It == Bind.end())
      return SymVal::none("the nest's size '" + V +
                          "' has no value in the pass's sizes");
    if (!It->second.known())
      return SymVal::none("the nest's size '" + V + "': " + It->second.Why);
    llvm::Expected<Polynomial> R = Q.substitute("\x01" + V, *It->second.P);
    if (!R)
      return SymVal::none(llvm::toString(R.takeError()));
    Q = std::move(*R);
  }
  return SymVal::of(std::move(Q));
}

SymbolicCount SymbolicRollup::bound(const SymbolicCount &C,
                                    const NestFormulas &NC,
                                    const std::map<std::string, SymVal> &Bind,
                                    const char *What) {
  if (!C.Formula)
    return {std::nullopt, std::string(What) + " of the nest have no closed form" +
                              (C.WhyNot.empty() ? "" : ": " + C.WhyNot)};
  // The nest's own atoms (a strided loop's trip count, floor((N - 1)/8))
  // become the pass's: floor of the bound numerator over the divisor.
  std::map<std::string, SymVal> WithAtoms = Bind;
  for (const std::string &V : variablesOf(*C.Formula)) {
    auto It = NC.Atoms.find(V);
    if (It == NC.Atoms.end())
      continue;
    llvm::Expected<Polynomial> Num = Polynomial::fromAffine(It->second.Expr);
    if (!Num)
      return {std::nullopt, llvm::toString(Num.takeError())};
    SymVal N = substituteAll(*Num, Bind);
    if (!N.known())
      return {std::nullopt, std::string(What) + " use '" + V + "': " + N.Why};
    WithAtoms[V] = floorOf(*N.P, It->second.Divisor);
  }
  SymVal P = substituteAll(*C.Formula, WithAtoms);
  if (!P.known())
    return {std::nullopt, P.Why};
  return {std::move(*P.P), ""};
}

SymVal SymbolicRollup::floorOf(const Polynomial &Num, int64_t Den) {
  if (std::optional<int64_t> C = constantInt(Num)) {
    int64_t Q = *C / Den;
    return constant(Q * Den > *C ? Q - 1 : Q); // floor, Den >= 1
  }
  return arithKnown('/', Num, Polynomial(Den));
}

void SymbolicRollup::addNest(const std::string &Path,
                             const std::string &Function, const SourceLoc &Loc,
                             const NestFormulas &C,
                             const std::map<std::string, SymVal> &Bind) {
  if (!active())
    return;
  ProgramSymbolicRow R = rowOf(Path, Function, Loc);
  R.Flops = bound(C.Flops, C, Bind, "the FLOPs");
  R.Macs = bound(C.Macs, C, Bind, "the MACs");
  R.Bytes = bound(C.Bytes, C, Bind, "the compulsory bytes");
  R.WorkIsRange = C.WorkIsRange;
  R.BytesIsRange = C.BytesIsRange;
  // The footprint formulas hold where these are >= 0 (Program.h).
  for (const Polynomial &Cond : C.FootprintConditions) {
    SymbolicCount Wrapped;
    Wrapped.Formula = Cond;
    SymbolicCount B = bound(Wrapped, C, Bind, "a footprint condition");
    if (!B.Formula)
      R.Bytes = {std::nullopt, "the footprint formula's condition: " + B.WhyNot};
    else if (!B.Formula->isConstant())
      assume(B.Formula->str() + " >= 0 (the footprint of " + Function +
             " at line " + std::to_string(Loc.Line) + ")");
  }
  addRow(Scopes.back(), std::move(R));
}

void SymbolicRollup::addUncounted(const std::string &Path,
                                  const std::string &Function,
                                  const SourceLoc &Loc, const std::string &Why) {
  if (!active())
    return;
  ProgramSymbolicRow R = rowOf(Path, Function, Loc);
  R.Flops = R.Macs = R.Bytes = {std::nullopt, Why};
  addRow(Scopes.back(), std::move(R));
}

void SymbolicRollup::assume(const std::string &What) {
  if (!active())
    return;
  if (llvm::find(Out.Assumptions, What) == Out.Assumptions.end())
    Out.Assumptions.push_back(What);
}

void SymbolicRollup::leftOut(const std::string &What) {
  if (!active())
    return;
  if (llvm::find(Out.LeftOut, What) == Out.LeftOut.end())
    Out.LeftOut.push_back(What);
}

void SymbolicRollup::finish() {
  assert(Scopes.size() == 1 && "a loop was not ended");
  Out.Rows = std::move(Scopes.front().Rows);
  Scopes.front() = Scope();
}
