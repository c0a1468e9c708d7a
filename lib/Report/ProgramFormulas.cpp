//===- ProgramFormulas.cpp - A pass's totals as polynomials ---------------===//
//
// docs/network-report.md, "Symbolic totals".
//
//===----------------------------------------------------------------------===//

#include "roofline/Report/ProgramFormulas.h"
#include "roofline/Report/Finding.h"
#include "roofline/Report/ProgramReport.h"
#include "roofline/Report/Report.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <cmath>
#include <functional>
#include <set>
#include <tuple>

using namespace llvm;
using namespace roofline;

NestFormulas roofline::nestFormulas(const NestCounts &C) {
  NestFormulas F;
  F.Flops = {C.Flops.Formula, C.Flops.WhyNot};
  F.Macs = {C.Macs.Formula, C.Macs.WhyNot};
  F.Bytes = {C.BytesCompulsory.Formula, C.BytesCompulsory.WhyNot};
  F.WorkIsRange = C.WorkIsRange;
  F.BytesIsRange = C.BytesIsRange;
  F.FootprintConditions = C.FootprintConditions;
  F.Atoms = C.Atoms;
  return F;
}

llvm::Expected<NestFormulas> roofline::countProgramNest(const LoopNest &N) {
  llvm::Expected<NestCounts> C = analyzeNest(N);
  if (!C)
    return C.takeError();
  return nestFormulas(*C);
}

namespace {

SymbolicCount sumCounts(const SymbolicCount &A, const SymbolicCount &B) {
  if (!A.Formula)
    return A;
  if (!B.Formula)
    return B;
  Expected<Polynomial> S = A.Formula->add(*B.Formula);
  if (!S)
    return {std::nullopt, toString(S.takeError())};
  return {std::move(*S), ""};
}

std::string where(const SourceLoc &L) {
  return relativeToCwd(L.File) + ":" + std::to_string(L.Line);
}

std::string rowName(const ProgramSymbolicRow &R) {
  return R.Function + " (" + where(R.Loc) + ") via " + R.Path;
}

/// Into += C; the first row with no formula makes the sum none, named.
void addRow(SymbolicCount &Into, const SymbolicCount &C,
            const ProgramSymbolicRow &R) {
  if (!Into.Formula)
    return;
  if (!C.Formula) {
    Into = {std::nullopt, rowName(R) + ": " + C.WhyNot};
    return;
  }
  Into = sumCounts(Into, C);
}

using NestKey = std::tuple<std::string, std::string, unsigned, unsigned>;

/// The numeric rows of one nest and call chain, its cases summed.
struct NumericNest {
  bool Known = true;
  double Flops = 0, Macs = 0, Bytes = 0;
};

std::optional<Rational> at(const SymbolicCount &C, const ProgramSymbolic &P) {
  if (!C.Formula)
    return std::nullopt;
  Expected<Rational> V = evaluateProgramFormula(*C.Formula, P);
  if (!V) { // no value at these sizes: the caller shows the formula unchecked
    consumeError(V.takeError());
    return std::nullopt;
  }
  return *V;
}

/// Equal as the numeric report's doubles hold them (exact below 2^53).
bool agrees(const Rational &Formula, double Walk) {
  double F = Formula.toDouble();
  return std::fabs(F - Walk) <= 1e-12 * std::max(1.0, std::fabs(Walk));
}

/// Withdraws a row's formulas where they disagree with the walk's numbers
/// at the walk's sizes (a bug of ours: said, never printed as a formula).
void checkRow(ProgramSymbolicRow &R, const NumericNest &N,
              const ProgramSymbolic &P, std::vector<std::string> &Out) {
  if (!N.Known)
    return;
  std::tuple<SymbolicCount *, double, const char *> Each[] = {
      {&R.Flops, N.Flops, "FLOPs"},
      {&R.Macs, N.Macs, "MACs"},
      {&R.Bytes, N.Bytes, "bytes"}};
  for (auto &[C, Walk, What] : Each) {
    std::optional<Rational> V = at(*C, P);
    if (!V || agrees(*V, Walk))
      continue;
    std::string Msg = std::string(What) + " formula " + C->Formula->str() +
                      " gives " + V->str() + " at the walk's sizes, the walk " +
                      "counted " + formatG(Walk, 17);
    Out.push_back(rowName(R) + ": " + Msg);
    *C = {std::nullopt, "withdrawn: the " + Msg};
  }
}

/// The sizes the rows' formulas use, through their atoms too.
std::set<std::string> usedSizes(const ProgramFormulas &F) {
  std::set<std::string> Used;
  std::function<void(const Polynomial &)> Add = [&](const Polynomial &P) {
    for (size_t T = 0; T < P.numTerms(); ++T)
      for (const Polynomial::Factor &Fa : P.mono(T)) {
        auto It = F.Walk.Atoms.find(*Fa.Name);
        if (It == F.Walk.Atoms.end()) {
          Used.insert(*Fa.Name);
        } else {
          Add(It->second.Num);
          Add(It->second.Den);
        }
      }
  };
  for (const ProgramSymbolicRow &R : F.Walk.Rows)
    for (const SymbolicCount *C : {&R.Flops, &R.Macs, &R.Bytes})
      if (C->Formula)
        Add(*C->Formula);
  return Used;
}

} // namespace

Expected<Rational> roofline::evaluateProgramFormula(const Polynomial &F,
                                                    const ProgramSymbolic &P) {
  std::map<std::string, Int128> Values;
  for (const auto &[Name, V] : P.Variables)
    if (V)
      Values[Name] = *V;
  // Atoms from their parts, inner ones first (an atom's parts may use one).
  std::function<Error(const std::string &, int)> Atom =
      [&](const std::string &Name, int Depth) -> Error {
    if (Values.count(Name))
      return Error::success();
    auto It = P.Atoms.find(Name);
    if (It == P.Atoms.end() || Depth > 16)
      return createStringError(inconvertibleErrorCode(),
                               "the size '" + Name + "' has no value");
    Rational Parts[2];
    const Polynomial *Of[2] = {&It->second.Num, &It->second.Den};
    for (int I = 0; I < 2; ++I) {
      for (size_t T = 0; T < Of[I]->numTerms(); ++T)
        for (const Polynomial::Factor &Fa : Of[I]->mono(T))
          if (Error E = Atom(*Fa.Name, Depth + 1))
            return E;
      Expected<Rational> V = Of[I]->evaluate(Values);
      if (!V)
        return V.takeError();
      Parts[I] = *V;
    }
    if (!Parts[0].isInteger() || !Parts[1].isInteger() || Parts[1].isZero())
      return createStringError(inconvertibleErrorCode(),
                               "'" + Name + "' divides by zero");
    Int128 A = Parts[0].num(), B = Parts[1].num(), Q = A / B;
    if (A % B != 0 && ((A < 0) != (B < 0)))
      --Q; // rounded down, as floor(...) says
    Values[Name] = Q;
    return Error::success();
  };
  for (size_t T = 0; T < F.numTerms(); ++T)
    for (const Polynomial::Factor &Fa : F.mono(T))
      if (Error E = Atom(*Fa.Name, 0))
        return std::move(E);
  return F.evaluate(Values);
}

ProgramFormulas roofline::summarizeProgramFormulas(const ProgramSymbolic &P,
                                                   const ProgramSummary &S) {
  ProgramFormulas F;
  F.Computed = true;
  F.Walk = P;
  std::map<NestKey, NumericNest> Numeric;
  for (const ProgramRow &R : S.Rows) {
    NumericNest &N = Numeric[{R.Path, R.Loc.File, R.Loc.Line, R.Loc.Column}];
    N.Known &= R.Known;
    N.Flops += R.Flops;
    N.Macs += R.Macs;
    N.Bytes += R.Bytes;
  }
  std::set<NestKey> Symbolic;
  for (ProgramSymbolicRow &R : F.Walk.Rows) {
    NestKey K{R.Path, R.Loc.File, R.Loc.Line, R.Loc.Column};
    Symbolic.insert(K);
    if (auto It = Numeric.find(K); It != Numeric.end())
      checkRow(R, It->second, F.Walk, F.Disagreements);
  }
  // A nest the numbers have and the formulas do not (a loop whose later
  // iterations ran other calls) would be a dropped term: say so.
  for (const ProgramRow &R : S.Rows)
    if (R.Known && !Symbolic.count({R.Path, R.Loc.File, R.Loc.Line,
                                    R.Loc.Column})) {
      ProgramSymbolicRow Missing;
      Missing.Path = R.Path;
      Missing.Function = R.Function.substr(0, R.Function.find(" ["));
      Missing.Loc = R.Loc;
      Missing.Flops = Missing.Macs = Missing.Bytes = {
          std::nullopt, "the walk ran this nest only in iterations the "
                        "formulas do not stand for"};
      Symbolic.insert({R.Path, R.Loc.File, R.Loc.Line, R.Loc.Column});
      F.Walk.Rows.push_back(std::move(Missing));
    }
  F.Flops = F.Macs = F.Bytes = {Polynomial(), ""};
  std::map<std::string, size_t> FnIndex;
  for (const ProgramSymbolicRow &R : F.Walk.Rows) {
    auto [It, New] = FnIndex.try_emplace(R.Function, F.Functions.size());
    if (New)
      F.Functions.push_back({R.Function, {Polynomial(), ""}, {Polynomial(), ""}});
    ProgramFormulaFunction &Fn = F.Functions[It->second];
    addRow(F.Flops, R.Flops, R);
    addRow(F.Macs, R.Macs, R);
    addRow(F.Bytes, R.Bytes, R);
    addRow(Fn.Flops, R.Flops, R);
    addRow(Fn.Bytes, R.Bytes, R);
  }
  llvm::sort(F.Functions, [](const ProgramFormulaFunction &A,
                             const ProgramFormulaFunction &B) {
    return A.Function < B.Function;
  });
  F.FlopsAt = at(F.Flops, F.Walk);
  F.MacsAt = at(F.Macs, F.Walk);
  F.BytesAt = at(F.Bytes, F.Walk);
  // The pass against the numeric totals: only where both count the same
  // nests (nothing left out of either).
  if (S.Complete && F.Walk.LeftOut.empty()) {
    std::tuple<SymbolicCount *, std::optional<Rational> *, double,
               const char *>
        Each[] = {{&F.Flops, &F.FlopsAt, S.Flops, "FLOPs"},
                  {&F.Macs, &F.MacsAt, S.Macs, "MACs"},
                  {&F.Bytes, &F.BytesAt, S.Bytes, "bytes"}};
    for (auto &[C, At, Walk, What] : Each)
      if (*At && !agrees(**At, Walk)) {
        std::string Msg = std::string("the pass's ") + What + " formula gives " +
                          (*At)->str() + ", the walk counted " +
                          formatG(Walk, 17);
        F.Disagreements.push_back(Msg);
        *C = {std::nullopt, "withdrawn: " + Msg};
        At->reset();
      }
  }
  return F;
}

void roofline::printProgramFormulasText(raw_ostream &OS,
                                        const ProgramFormulas &F) {
  if (!F.Computed || F.Walk.Rows.empty())
    return;
  std::vector<std::string> Sizes;
  std::set<std::string> Used = usedSizes(F);
  for (const auto &[Name, V] : F.Walk.Variables)
    if (Used.count(Name))
      Sizes.push_back(Name);
  OS << "  pass totals (symbolic"
     << (Sizes.empty() ? "" : ", in the sizes " + join(Sizes, ", "))
     << (F.Walk.LeftOut.empty() ? "" : "; incomplete, see below") << "):\n";
  auto Line = [&](const char *What, const SymbolicCount &C,
                  const std::optional<Rational> &At) {
    OS << "    " << What;
    if (!C.Formula) {
      OS << "no closed form: " << C.WhyNot << "\n";
      return;
    }
    OS << C.Formula->str();
    if (At && !C.Formula->isConstant())
      OS << " = " << At->str() << " at the sizes above";
    OS << "\n";
  };
  Line("FLOPs: ", F.Flops, F.FlopsAt);
  Line("MACs: ", F.Macs, F.MacsAt);
  Line("compulsory bytes: ", F.Bytes, F.BytesAt);
  if (F.Functions.size() > 1) {
    OS << "    per function FLOPs:\n";
    for (const ProgramFormulaFunction &Fn : F.Functions)
      OS << "      " << Fn.Function << ": "
         << (Fn.Flops.Formula ? Fn.Flops.Formula->str()
                              : "no closed form: " + Fn.Flops.WhyNot)
         << "\n";
  }
  for (const auto &[Name, A] : F.Walk.Atoms)
    OS << "    " << Name << ": " << Name.substr(6, Name.size() - 7)
       << " rounded down\n";
  for (const std::string &A : F.Walk.Assumptions)
    OS << "    assumes: " << A << "\n";
  for (const ProgramSymbolicRow &R : F.Walk.Rows)
    for (const SymbolicCount *C : {&R.Flops, &R.Bytes})
      if (!C->Formula) {
        OS << "    no closed form: " << rowName(R) << ": " << C->WhyNot
           << "\n";
        break;
      }
  for (const std::string &L : F.Walk.LeftOut)
    OS << "    not in the formulas: " << L << "\n";
  for (const std::string &D : F.Disagreements)
    OS << "    withdrawn (disagrees with the walk): " << D << "\n";
}

json::Value roofline::formulaJson(const SymbolicCount &C) {
  if (!C.Formula)
    return nullptr;
  return C.Formula->str();
}

json::Value roofline::programFormulasJson(const ProgramFormulas &F) {
  if (!F.Computed)
    return nullptr;
  json::Object Vars;
  for (const auto &[Name, V] : F.Walk.Variables)
    Vars[Name] = V ? json::Value(*V) : json::Value(nullptr);
  json::Object Atoms;
  for (const auto &[Name, A] : F.Walk.Atoms)
    Atoms[Name] = json::Object{{"numerator", A.Num.str()},
                               {"denominator", A.Den.str()}};
  auto Count = [](json::Object &J, const char *Key, const SymbolicCount &C) {
    J[Key] = formulaJson(C);
    if (!C.Formula)
      J[std::string(Key) + "_why_not"] = C.WhyNot;
  };
  json::Array Rows;
  for (const ProgramSymbolicRow &R : F.Walk.Rows) {
    json::Object J{{"function", R.Function},
                   {"file", R.Loc.File},
                   {"line", R.Loc.Line},
                   {"path", R.Path},
                   {"work_is_range", R.WorkIsRange},
                   {"bytes_is_range", R.BytesIsRange}};
    Count(J, "flops", R.Flops);
    Count(J, "macs", R.Macs);
    Count(J, "bytes", R.Bytes);
    Rows.push_back(std::move(J));
  }
  json::Array Fns;
  for (const ProgramFormulaFunction &Fn : F.Functions) {
    json::Object J{{"function", Fn.Function}};
    Count(J, "flops", Fn.Flops);
    Count(J, "bytes", Fn.Bytes);
    Fns.push_back(std::move(J));
  }
  json::Object O{{"sizes", std::move(Vars)},
                 {"atoms", std::move(Atoms)},
                 {"rows", std::move(Rows)},
                 {"functions", std::move(Fns)},
                 {"assumptions", json::Array(F.Walk.Assumptions)},
                 {"left_out", json::Array(F.Walk.LeftOut)},
                 {"withdrawn", json::Array(F.Disagreements)}};
  Count(O, "flops", F.Flops);
  Count(O, "macs", F.Macs);
  Count(O, "bytes", F.Bytes);
  return O;
}
