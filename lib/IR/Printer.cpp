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

void printOps(std::ostringstream &OS, const std::string &Ind, const Stmt &S) {
  for (const auto &[P, C] : S.Ops) {
    if (C.empty())
      continue;
    OS << Ind << "ops " << precisionName(P) << ":";
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
  if (S.IntOps)
    OS << Ind << "intops " << S.IntOps << "\n";
}

bool declaresOnly(const Stmt &S) {
  return S.Accesses.empty() && S.Ops.empty() && !S.IntOps;
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
    OS << In << Kind << " " << A.ArrayName << subscriptsStr(A.Subscripts)
       << "\n";
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
  for (const Param &P : N.Params) {
    OS << "param " << P.Name << " = "
       << (P.Value ? std::to_string(*P.Value) : std::string("?"));
    if (!P.Origin.empty())
      OS << " (" << P.Origin << ")";
    OS << "\n";
  }
  for (const Array &A : N.Arrays) {
    OS << "array " << A.Name << " : " << precisionName(A.Elem);
    for (const auto &E : A.Extents)
      OS << "[" << (E ? E->str() : std::string("?")) << "]";
    if (A.FromPointer)
      OS << " pointer";
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
