//===- LowerFunctionPointers.cpp - Calls through invariant pointers ------===//
//
// A call through a function pointer the nest does not change (a parameter,
// a field of a struct the function does not write, a local set once before
// the nest) runs one of the functions it may hold: those defined in the
// translation unit whose address is taken and whose type is the pointer's.
// The target is known where it is given (--param ann->act=relu), where there
// is one candidate, or where the nest is built once per candidate
// (`f [ann->act == relu]`, like a loop-invariant condition); the call is
// then counted as that function's body, and a comparison of the pointer
// with a function (`act == genann_act_tanh`) is decided. An if around the
// nest that compares the pointer with a function narrows its targets: the
// one it tests in its then-branch, all but that one in its else-branch.
// docs/user-guide.md, "Calls".
//
//===----------------------------------------------------------------------===//

#include "CallSites.h"
#include "NestBuilder.h"

using namespace clang;
using namespace roofline;
using namespace roofline::frontend;

namespace {

/// The function type a function pointer expression points to.
QualType functionTypeOf(const Expr *E, const ASTContext &Ctx) {
  QualType T = E->getType();
  if (T->isPointerType())
    T = T->getPointeeType();
  if (T->isReferenceType())
    T = T.getNonReferenceType();
  return T->isFunctionType() ? Ctx.getCanonicalType(T) : QualType();
}

} // namespace

std::optional<NestBuilder::FunctionRef>
NestBuilder::functionRefOf(const Expr *E, std::string &Why) {
  E = E->IgnoreParenImpCasts();
  // (*fp)(x) and (&f)(x) call what fp and f are.
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && (UO->getOpcode() == UO_Deref || UO->getOpcode() == UO_AddrOf))
    return functionRefOf(UO->getSubExpr(), Why);
  FunctionRef FR;
  FR.Type = functionTypeOf(E, Ctx);
  if (FR.Type.isNull()) {
    Why = "'" + text(E) + "' is not a function pointer";
    return std::nullopt;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *Fn = dyn_cast<FunctionDecl>(DRE->getDecl())) {
      const FunctionDecl *Def = nullptr;
      FR.Known = Fn->hasBody(Def) && Def ? Def : Fn;
      FR.Name = declName(Fn);
      return FR;
    }
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD) {
      Why = "function pointer '" + text(E) + "' is not a variable";
      return std::nullopt;
    }
    if (auto B = Bindings.find(VD);
        B != Bindings.end() && B->second.Kind == Binding::Function)
      return B->second.Fn;
    std::string Name = declName(VD);
    if (isModified(VD)) {
      // A local assigned once, at the top of the function before the nest:
      // its value there.
      const clang::Stmt *Site = nullptr;
      for (const FunctionFrame &F : Frames)
        if (auto It = F.Modified.Vars.find(VD); It != F.Modified.Vars.end())
          Site = It->second.size() == 1 && !Site ? It->second.front().Site
                                                 : Nest; // twice: refused
      const auto *Assign = dyn_cast_or_null<BinaryOperator>(Site);
      const auto *Body = dyn_cast_or_null<CompoundStmt>(FD->getBody());
      bool Once = Assign && Assign->getOpcode() == BO_Assign && Body &&
                  !VD->hasGlobalStorage() && !isa<ParmVarDecl>(VD) &&
                  !VD->getInit() &&
                  std::find(Body->body_begin(), Body->body_end(), Assign) !=
                      Body->body_end() &&
                  SM.isBeforeInTranslationUnit(Assign->getEndLoc(),
                                               Nest->getBeginLoc());
      if (!Once) {
        Why = "function pointer '" + Name +
              "' is assigned in the function other than once before the "
              "nest, at its top level";
        return std::nullopt;
      }
      return functionRefOf(Assign->getRHS(), Why);
    }
    if (VD->hasGlobalStorage() && !VD->getType().isConstQualified()) {
      Why = "function pointer '" + Name +
            "' is a global that other functions may assign";
      return std::nullopt;
    }
    if (!isa<ParmVarDecl>(VD)) {
      if (!VD->getInit()) {
        Why = "function pointer '" + Name + "' has no value";
        return std::nullopt;
      }
      return functionRefOf(VD->getInit(), Why);
    }
    FR.Name = Name;
    return FR;
  }
  if (isa<MemberExpr>(E)) {
    std::optional<std::string> Path = memberPath(E, Why);
    if (!Path) {
      Why = "function pointer '" + text(E) + "': " +
            (Why.empty() ? "not a field of a named struct" : Why);
      return std::nullopt;
    }
    FR.Name = *Path;
    FR.IsField = true;
    return FR;
  }
  Why = "function pointer '" + text(E) +
        "' is not a parameter, a field or a local set once";
  return std::nullopt;
}

const FunctionDecl *NestBuilder::functionNamed(StringRef Name,
                                               QualType Type) const {
  // The candidates by the name their cases give them (qualified in C++),
  // else any function of the file's scope.
  for (const FunctionDecl *Fn : Calls.addressTaken(Type))
    if (declName(Fn) == Name)
      return Fn;
  DeclContextLookupResult R = Ctx.getTranslationUnitDecl()->lookup(
      DeclarationName(&Ctx.Idents.get(Name)));
  for (const NamedDecl *ND : R) {
    const auto *Fn = dyn_cast<FunctionDecl>(ND);
    const FunctionDecl *Def = nullptr;
    if (Fn && Fn->hasBody(Def) && Def && Ctx.hasSameType(Def->getType(), Type))
      return Def;
  }
  return nullptr;
}

/// --param NAME=FUNCTION keeps the choice as the key "NAME=FUNCTION" (value
/// 1) beside the sizes; scoped to the function (`fn:NAME=F`) or by field
/// name like a size (NestBuilder::givenValue).
const FunctionDecl *NestBuilder::givenTarget(const FunctionRef &FR,
                                             std::string &Why) {
  std::string Fn = FD->getNameAsString();
  std::string Field;
  if (size_t Cut = FR.Name.find_last_of(".>");
      FR.IsField && Cut != std::string::npos)
    Field = FR.Name.substr(Cut + 1);
  for (const std::map<std::string, int64_t> *M :
       {&Opts.CallParams, &Opts.Params, &Opts.ConfigParams})
    for (const std::string &Key :
         {Fn + ":" + FR.Name, FR.Name, Field.empty() ? "" : Fn + ":" + Field,
          Field}) {
      if (Key.empty())
        continue;
      std::string Prefix = Key + "=";
      auto It = M->lower_bound(Prefix);
      if (It == M->end() || !StringRef(It->first).starts_with(Prefix))
        continue;
      MatchedKeys.insert(It->first); // for "names no size" warnings
      StringRef Target = StringRef(It->first).substr(Prefix.size());
      if (const FunctionDecl *Def = functionNamed(Target, FR.Type))
        return Def;
      Why = "--param " + It->first + ": '" + Target.str() +
            "' is no function defined in the translation unit with the "
            "type of '" + FR.Name + "'";
      return nullptr;
    }
  return nullptr;
}

const FunctionDecl *NestBuilder::targetOf(const FunctionRef &FR,
                                          std::string &Why) {
  if (FR.Known)
    return FR.Known;
  std::string Key = "fn:" + FR.Name;
  // This case's target.
  for (auto It = Case.lower_bound(Key + "=");
       It != Case.end() && StringRef(It->first).starts_with(Key + "="); ++It)
    if (It->second) {
      StringRef Target = StringRef(It->first).substr(Key.size() + 1);
      std::string Label = FR.Name + " == " + Target.str();
      if (std::none_of(CaseUsed.begin(), CaseUsed.end(),
                       [&](const auto &U) { return U.first == Label; }))
        CaseUsed.push_back({Label, true});
      return functionNamed(Target, FR.Type);
    }
  if (const FunctionDecl *Given = givenTarget(FR, Why))
    return Given;
  if (!Why.empty())
    return nullptr;
  return candidateTarget(FR, Key, Why);
}

NestBuilder::GuardedTargets
NestBuilder::guardedTargets(const FunctionRef &FR) {
  GuardedTargets G;
  if (FR.Known || !Nest)
    return G;
  const ParentMap &PM = functionParents();
  for (const clang::Stmt *Child = Nest, *P = PM.getParent(Child); P;
       Child = P, P = PM.getParent(P)) {
    const auto *If = dyn_cast<IfStmt>(P);
    if (!If || (If->getThen() != Child && If->getElse() != Child))
      continue;
    const Expr *Cond = If->getCond()->IgnoreParenImpCasts();
    bool Holds = If->getThen() == Child;
    while (const auto *Not = dyn_cast<UnaryOperator>(Cond)) {
      if (Not->getOpcode() != UO_LNot)
        break;
      Holds = !Holds;
      Cond = Not->getSubExpr()->IgnoreParenImpCasts();
    }
    const auto *BO = dyn_cast<BinaryOperator>(Cond);
    if (!BO || !BO->isEqualityOp() ||
        functionTypeOf(BO->getLHS(), Ctx).isNull() ||
        functionTypeOf(BO->getRHS(), Ctx).isNull())
      continue;
    std::string Ignored;
    std::optional<FunctionRef> L = functionRefOf(BO->getLHS(), Ignored);
    std::optional<FunctionRef> R = functionRefOf(BO->getRHS(), Ignored);
    if (!L || !R || (L->Known != nullptr) == (R->Known != nullptr))
      continue;
    const FunctionRef &Ptr = L->Known ? *R : *L;
    const FunctionDecl *Fn = L->Known ? L->Known : R->Known;
    if (Ptr.Name != FR.Name || !Fn->hasBody())
      continue;
    if (Holds == (BO->getOpcode() == BO_EQ)) {
      // The innermost if that fixes the target decides.
      if (!G.Required) {
        G.Required = Fn;
        G.Line = SM.getSpellingLineNumber(If->getBeginLoc());
      }
    } else {
      G.Excluded.push_back(Fn->getCanonicalDecl());
      if (!G.Line)
        G.Line = SM.getSpellingLineNumber(If->getBeginLoc());
    }
  }
  return G;
}

const FunctionDecl *NestBuilder::candidateTarget(const FunctionRef &FR,
                                                 const std::string &Key,
                                                 std::string &Why) {
  // An if around the nest that compares the pointer with a function
  // narrows its targets (docs/design.md, "Conditions").
  GuardedTargets G = guardedTargets(FR);
  if (G.Required) {
    addNote("'" + FR.Name + "' calls " + declName(G.Required) +
            ": the if around the nest (line " + std::to_string(G.Line) +
            ") tests it");
    return G.Required;
  }
  std::vector<const FunctionDecl *> Candidates = Calls.addressTaken(FR.Type);
  llvm::erase_if(Candidates, [&](const FunctionDecl *Fn) {
    return llvm::is_contained(G.Excluded, Fn->getCanonicalDecl());
  });
  if (Candidates.empty()) {
    Why = "indirect call through '" + FR.Name +
          "': its target is unknown (no function defined in the "
          "translation unit with its type has its address taken" +
          (G.Excluded.empty()
               ? std::string()
               : " but those the if around the nest (line " +
                     std::to_string(G.Line) + ") excludes") +
          "; give one with --param " + FR.Name + "=FUNCTION)";
    return nullptr;
  }
  if (Candidates.size() == 1) {
    addNote("'" + FR.Name + "' calls " + declName(Candidates.front()) +
            (G.Excluded.empty()
                 ? ", the only function of its type whose address the "
                   "translation unit takes"
                 : ", the only function of its type whose address the "
                   "translation unit takes that the if around the nest (line " +
                       std::to_string(G.Line) + ") allows"));
    return Candidates.front();
  }
  if (std::none_of(UnassignedTargets.begin(), UnassignedTargets.end(),
                   [&](const TargetChoice &C) { return C.Key == Key; })) {
    TargetChoice C;
    C.Key = Key;
    C.Name = FR.Name;
    for (const FunctionDecl *Fn : Candidates)
      C.Targets.push_back(declName(Fn));
    UnassignedTargets.push_back(std::move(C));
  }
  return Candidates.front();
}

std::optional<NestBuilder::Invariant>
NestBuilder::functionTest(const Expr *Cond) {
  const auto *BO = dyn_cast<BinaryOperator>(strip(Cond));
  if (!BO || !BO->isEqualityOp())
    return std::nullopt;
  if (functionTypeOf(BO->getLHS(), Ctx).isNull() ||
      functionTypeOf(BO->getRHS(), Ctx).isNull())
    return std::nullopt;
  std::string Why;
  std::optional<FunctionRef> L = functionRefOf(BO->getLHS(), Why);
  std::optional<FunctionRef> R = L ? functionRefOf(BO->getRHS(), Why)
                                   : std::nullopt;
  if (!R)
    return std::nullopt;
  // A pointer compared with a function outside the candidates (one without
  // a body here) stays an unknown condition.
  const FunctionDecl *LT = L->Known ? L->Known : nullptr;
  const FunctionDecl *RT = R->Known ? R->Known : nullptr;
  if ((LT && !LT->hasBody()) || (RT && !RT->hasBody()))
    return std::nullopt;
  if ((LT == nullptr) != (RT == nullptr)) {
    // A function the ifs around the nest exclude is not the pointer's.
    GuardedTargets G = guardedTargets(LT ? *R : *L);
    if (!G.Required && llvm::is_contained(G.Excluded,
                                          (LT ? LT : RT)->getCanonicalDecl())) {
      Invariant I;
      I.Value = BO->getOpcode() == BO_NE;
      noteExtended(Cond->getBeginLoc(), "comparison of function pointers");
      return I;
    }
  }
  if (!LT && (LT = targetOf(*L, Why), !LT))
    return std::nullopt;
  if (!RT && (RT = targetOf(*R, Why), !RT))
    return std::nullopt;
  Invariant I;
  I.Value = (LT->getCanonicalDecl() == RT->getCanonicalDecl()) ==
            (BO->getOpcode() == BO_EQ);
  noteExtended(Cond->getBeginLoc(), "comparison of function pointers");
  return I;
}
