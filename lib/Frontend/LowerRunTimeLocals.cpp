//===- LowerRunTimeLocals.cpp - Locals computed at run time as sizes ------===//
//
// A local integer the function computes once before the nest from something
// the analysis cannot follow (`n = kad_len(q);`, `int rows = t->shape[0];`)
// has one value for the whole nest: it is a size of its own, named by the
// variable, like a parameter (docs/user-guide.md, "Sizes"; docs/design.md,
// "Sizes"). Only where that is certain: one definition in the function, before
// the nest and outside it, and every other use a plain read (no `&n`, no
// reference bound to it, no `n++`). A local of a function called inside the
// nest is computed once per call, not once per nest, and stays refused.
//
//===----------------------------------------------------------------------===//

#include "NestBuilder.h"

#include "llvm/ADT/SmallVector.h"

using namespace clang;
using namespace roofline;
using namespace roofline::frontend;

const Expr *NestBuilder::runTimeDefinition(const VarDecl *VD,
                                           std::string &Why) {
  if (!Nest || !FD || !FD->getBody() || isa<ParmVarDecl>(VD) ||
      !VD->isLocalVarDecl() || VD->isStaticLocal() ||
      !VD->getType()->isIntegerType() ||
      VD->getParentFunctionOrMethod() != FD)
    return nullptr;
  SourceLocation NestBegin = SM.getExpansionLoc(Nest->getBeginLoc());
  SourceLocation NestEnd = SM.getExpansionLoc(Nest->getEndLoc());
  auto InNest = [&](SourceLocation L) {
    return SM.isPointWithin(SM.getExpansionLoc(L), NestBegin, NestEnd);
  };
  if (InNest(VD->getLocation()))
    return nullptr;
  // The front end's record of where each variable may change
  // (ModifiedVars in NestBuilder.cpp): a plain `n = ...` is a definition,
  // anything else (`&n`, `n++`, a non-const reference) may change it.
  llvm::SmallVector<const BinaryOperator *, 2> Assignments;
  if (auto It = Frames.front().Modified.Vars.find(VD);
      It != Frames.front().Modified.Vars.end())
    for (const ModificationSites::VarSite &VS : It->second) {
      const auto *BO = dyn_cast<BinaryOperator>(VS.Site);
      if (!BO || BO->getOpcode() != BO_Assign) {
        Why = "'" + declName(VD) +
              "' may change through its address or a reference (a "
              "computed size must be defined once and only read)";
        return nullptr;
      }
      Assignments.push_back(BO);
    }
  std::string Name = "'" + declName(VD) + "'";
  size_t Definitions = Assignments.size() + (VD->getInit() ? 1 : 0);
  if (Definitions != 1) {
    Why = Name + " is assigned " + std::to_string(Definitions) +
          " times in the function: its value at the nest is not one size";
    return nullptr;
  }
  if (const Expr *Init = VD->getInit())
    return Init;
  SourceLocation At = SM.getExpansionLoc(Assignments.front()->getEndLoc());
  if (InNest(At) || !SM.isBeforeInTranslationUnit(At, NestBegin)) {
    Why = Name + " is assigned " +
          (InNest(At) ? "inside the nest" : "after the nest") +
          ": it has no one value at the nest";
    return nullptr;
  }
  return Assignments.front()->getRHS();
}

std::optional<IndexPoly> NestBuilder::runTimeSize(const VarDecl *VD,
                                                  const Expr *Def) {
  SizeName S;
  S.Name = declName(VD);
  S.Origin = "run-time";
  addParam(S);
  Notes.push_back("size " + S.Name + " = " + text(Def) +
                  " is computed at run time: counted as a size of its own "
                  "(give it with --param " +
                  S.Name + "=VALUE)");
  return IndexPoly::size(S.Name);
}
