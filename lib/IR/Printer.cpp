//===- Printer.cpp - Stable textual form of the LoopNest IR ----------------===//
//
// The format is a contract with the lit tests (--dump-ir): one item per
// line, two-space indentation, inclusive loop bounds, deterministic order.
//
//===----------------------------------------------------------------------===//

#include "roofline/IR/LoopNest.h"

#include <sstream>

using namespace roofline;

namespace {

std::string locStr(const SourceLoc &L) {
  return std::to_string(L.Line) + ":" + std::to_string(L.Column);
}

std::string subscriptsStr(const std::vector<std::optional<AffineExpr>> &Subs) {
  std::string S;
  for (const auto &E : Subs)
    S += "[" + (E ? E->str() : std::string("?")) + "]";
  return S;
}

void printOpMap(std::ostringstream &OS, const std::string &Ind,
                const char *Kind, const std::map<Precision, OpCounts> &Ops) {
  for (const auto &[P, C] : Ops) {
    if (C.empty())
      continue;
    OS << Ind << Kind << " " << precisionName(P) << ":";
    if (C.Macs)
      OS << " mac=" << C.Macs;
    if (C.Adds)
      OS << " add=" << C.Adds;
    if (C.Muls)
      OS << " mul=" << C.Muls;
    if (C.Divs)
      OS << " div=" << C.Divs;
    for (const auto &[Name, N] : C.Calls)
      OS << " " << Name << "=" << N;
    OS << "\n";
  }
}

void printOps(std::ostringstream &OS, const std::string &Ind, const Stmt &S) {
  printOpMap(OS, Ind, "ops", S.Ops);
  // Data-dependent branches: work that may or may not run.
  printOpMap(OS, Ind, "maybe", S.MaybeOps);
  if (S.IntOps)
    OS << Ind << "intops " << S.IntOps << "\n";
  if (S.MaybeIntOps)
    OS << Ind << "maybe intops " << S.MaybeIntOps << "\n";
}

bool declaresOnly(const Stmt &S) {
  return S.Accesses.empty() && S.Ops.empty() && !S.IntOps &&
         S.MaybeOps.empty() && !S.MaybeIntOps;
}

void printStmt(std::ostringstream &OS, const std::string &Ind, const Stmt &S,
               const PrintOptions &Opts) {
  // Scalar declarations are there for code generation only; the default
  // form (a lit contract) stays as it was.
  if (!Opts.Values && declaresOnly(S))
    return;
  OS << Ind << "stmt @" << locStr(S.Loc) << " {\n";
  std::string In = Ind + "  ";
  for (const Access &A : S.Accesses) {
    const char *Kind = A.IsRead && A.IsWrite ? "readwrite"
                       : A.IsWrite           ? "write"
                                             : "read";
    OS << In << Kind << " " << A.ArrayName << subscriptsStr(A.Subscripts);
    if (!A.GatherLoop.empty())
      OS << " in the row " << A.GatherIndex << " picks (row gather, one pick "
         << "per iteration of " << A.GatherLoop << ")";
    else if (!A.GatherIndex.empty())
      OS << " + " << A.GatherIndex << " (point gather)";
    OS << "\n";
  }
  printOps(OS, In, S);
  if (Opts.Values && S.Value)
    OS << In << "value " << printStmtValue(S) << "\n";
  OS << Ind << "}\n";
}

void printLoop(std::ostringstream &OS, const std::string &Ind, const Loop &L,
               const PrintOptions &Opts) {
  OS << Ind << "for " << L.IV << " = " << L.First.str() << " to "
     << L.Last.str();
  if (L.Step != 1)
    OS << " step " << L.Step;
  if (L.ExitsEarly)
    OS << " exits-early";
  OS << " @" << locStr(L.Loc) << " {\n";
  for (const Node &N : L.Body) {
    if (N.isLoop())
      printLoop(OS, Ind + "  ", N.loop(), Opts);
    else
      printStmt(OS, Ind + "  ", N.S, Opts);
  }
  OS << Ind << "}\n";
}

} // namespace

std::string roofline::printNest(const LoopNest &N) {
  return printNest(N, PrintOptions());
}

std::string roofline::printNest(const LoopNest &N, const PrintOptions &Opts) {
  std::ostringstream OS;
  OS << "nest @" << N.Function << " at " << N.Loc.File << ":" << locStr(N.Loc)
     << "\n";
  if (!N.Case.empty())
    OS << "case " << N.Case << "\n";
  for (const Param &P : N.Params) {
    OS << "param " << P.Name << " = "
       << (P.Value ? std::to_string(*P.Value) : std::string("?"));
    if (!P.Origin.empty())
      OS << " (" << P.Origin << ")";
    if (P.Derived && P.Origin != "product")
      OS << " = " << P.Derived->str();
    OS << "\n";
  }
  for (const SizeCondition &C : N.Conditions)
    OS << "condition " << C.Expr.str() << " >= 0 (" << C.What << ")\n";
  for (const Array &A : N.Arrays) {
    OS << "array " << A.Name << " : " << precisionName(A.Elem);
    for (const auto &E : A.Extents)
      OS << "[" << (E ? E->str() : std::string("?")) << "]";
    if (A.FromPointer)
      OS << " pointer";
    if (A.Scratch)
      OS << " scratch";
    OS << "\n";
  }
  if (Opts.Values)
    for (const ScalarVar &V : N.Sem.Scalars)
      OS << "scalar " << V.Name << " : " << V.CType
         << (V.Kind == ScalarVar::Local   ? " local"
             : V.Kind == ScalarVar::Input ? " in"
                                          : " inout")
         << "\n";
  printLoop(OS, "", N.Root, Opts);
  return OS.str();
}
