//===- LowerIndex.cpp - Index arithmetic and sizes ------------------------===//
//
// Subscripts, pointer offsets and loop bounds lower to IndexPoly: sums of
// products of sizes with coefficients affine in the loop variables. A size
// is anything the nest cannot change and the analysis may name: a
// parameter, a constant, a macro, a template argument, a container's
// size(), a struct field, or a local computed from those before the nest
// (docs/design.md, "Sizes").
//
//===----------------------------------------------------------------------===//

#include "NestBuilder.h"
#include "CallSites.h"

#include "clang/Lex/Lexer.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/SaveAndRestore.h"

#include <algorithm>

using namespace clang;
using namespace roofline;
using namespace roofline::frontend;

bool roofline::frontend::callsChanging(
    const clang::Stmt *S,
    llvm::function_ref<bool(const ModificationSites &)> Changes,
    llvm::SmallPtrSetImpl<const FunctionDecl *> &Seen) {
  if (!S)
    return false;
  if (const auto *CE = dyn_cast<CallExpr>(S)) {
    const FunctionDecl *Callee = CE->getDirectCallee();
    if (!Callee)
      return true;
    const FunctionDecl *Def = nullptr;
    if (Callee->hasBody(Def) && Seen.insert(Def).second &&
        (Changes(modificationsIn(Def->getBody())) ||
         callsChanging(Def->getBody(), Changes, Seen)))
      return true;
  }
  for (const clang::Stmt *C : S->children())
    if (callsChanging(C, Changes, Seen))
      return true;
  return false;
}

bool NestBuilder::isModified(const VarDecl *VD) const {
  for (const FunctionFrame &F : Frames)
    if (F.Modified.Vars.count(VD))
      return true;
  return false;
}

bool NestBuilder::isModifiedWithin(const VarDecl *VD,
                                   const clang::Stmt *S) const {
  for (const FunctionFrame &F : Frames) {
    auto It = F.Modified.Vars.find(VD);
    if (It == F.Modified.Vars.end())
      continue;
    SourceRange R = S->getSourceRange();
    for (const ModificationSites::VarSite &VS : It->second) {
      const clang::Stmt *Site = VS.Ref;
      SourceLocation L = Site->getBeginLoc();
      // Outside macros a location test answers at once; only a macro use,
      // where every token shares one file location, needs the tree walk.
      if (!L.isMacroID() && !R.getBegin().isMacroID() &&
          !R.getEnd().isMacroID()) {
        if (SM.isPointWithin(L, R.getBegin(), R.getEnd()))
          return true;
        continue;
      }
      if (containsStmt(S, Site))
        return true;
    }
  }
  return false;
}

std::optional<int64_t>
NestBuilder::foldedLocal(const VarDecl *VD) const {
  // `int l = 0;` left where a layer loop was, `const int n = 8;`: the value,
  // not a size named l (docs/user-guide.md, "What is folded"). Globals stay
  // named sizes, which --param may override. A local that is assigned,
  // stepped, address-taken or bound to a non-const reference anywhere in the
  // function is not folded (modificationsIn); a local initialized from
  // other folded locals folds in localIndex.
  QualType T = VD->getType();
  if (!VD->isLocalVarDecl() || !T->isIntegerType() ||
      T.isVolatileQualified() ||
      (VD->isStaticLocal() && !T.isConstQualified()) || isModified(VD))
    return std::nullopt;
  const Expr *Init = VD->getInit();
  Expr::EvalResult R;
  if (!Init || Init->isValueDependent() || !Init->EvaluateAsInt(R, Ctx))
    return std::nullopt;
  const llvm::APSInt &V = R.Val.getInt();
  if (!V.isRepresentableByInt64())
    return std::nullopt;
  return V.getExtValue();
}

std::optional<std::string> NestBuilder::memberPath(const Expr *E,
                                                   std::string &Why,
                                                   bool AnyField,
                                                   bool FixedSuffices) {
  const auto *ME = dyn_cast<MemberExpr>(strip(E));
  if (!ME)
    return std::nullopt;
  const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl());
  if (!F) {
    Why = "member '" + text(ME) + "' is not a field";
    return std::nullopt;
  }
  bool Assigned = !AnyField && llvm::any_of(Frames, [&](const auto &Fr) {
    return Fr.Modified.Fields.count(F) != 0;
  });
  // Where only one value during the nest matters (an array reached through
  // a struct field, a float read as data), a non-pointer field modified
  // only before the nest has it (docs/design.md, "Fields fixed at the
  // nest"); a pointer field keeps the rules of LowerFieldPointers.cpp.
  if (Assigned) {
    Why = "field '" + text(ME) + "' is assigned in the function";
    if (!FixedSuffices || F->getType()->isPointerType())
      return std::nullopt;
    std::string Problem = fixedFieldProblem(ME);
    if (!Problem.empty()) {
      Why += " (" + Problem + ")";
      return std::nullopt;
    }
    Why.clear();
  }
  const Expr *Base = strip(ME->getBase());
  std::string Sep = ME->isArrow() ? "->" : ".";
  // A member of an anonymous struct or union is named as written:
  // self->conv.stride, not through the unnamed member between.
  while (const auto *BM = dyn_cast<MemberExpr>(Base)) {
    const auto *BF = dyn_cast<FieldDecl>(BM->getMemberDecl());
    if (!BF || !BF->isAnonymousStructOrUnion())
      break;
    Sep = BM->isArrow() ? "->" : ".";
    Base = strip(BM->getBase());
  }
  if (isa<CXXThisExpr>(Base)) // this->out is named out; in a getter of
    return (ThisObject ? *ThisObject : "") + declName(F); // m, m.out
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Base)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD) {
      Why = "member of '" + text(Base) + "'";
      return std::nullopt;
    }
    auto B = Bindings.find(VD);
    if (B != Bindings.end() && B->second.Kind == Binding::Object) {
      if (B->second.Row) {
        Why = "field '" + text(ME) + "' of one struct of '" +
              B->second.Row->Array + "' (a value per struct)";
        return std::nullopt;
      }
      return B->second.ObjectName + declName(F);
    }
    if (VD->getType()->isPointerType() && isModified(VD)) {
      Why = "'" + declName(VD) + "' is reassigned in the function";
      return std::nullopt;
    }
    return declName(VD) + Sep + declName(F);
  }
  if (isa<MemberExpr>(Base)) {
    std::optional<std::string> Outer =
        memberPath(Base, Why, /*AnyField=*/false, FixedSuffices);
    if (!Outer)
      return std::nullopt;
    return *Outer + Sep + declName(F);
  }
  Why = "member of '" + text(Base) + "', which is not a named struct";
  return std::nullopt;
}

std::optional<NestBuilder::SizeName>
NestBuilder::sizeOfVar(const VarDecl *VD, std::string &Why) {
  if (!VD->getType()->isIntegerType())
    return std::nullopt;
  SizeName S;
  S.Name = declName(VD);
  // In an --entry walk a local the function updates outside the nest (a
  // layer loop's `l`, which `loff = l * seq * kv_dim` uses) has the value
  // the walk gives this call: a size of the call, not a run-time variable
  // (docs/network-report.md). Locals computed once stay what they are
  // (C3 = 3 * C, hs = C / NH).
  if (!isa<ParmVarDecl>(VD) && VD->isLocalVarDecl() && Nest &&
      isModified(VD) &&
      !SM.isPointWithin(VD->getLocation(), Nest->getBeginLoc(),
                        Nest->getEndLoc()) &&
      Opts.CallParams.count(FD->getNameAsString() + ":" + S.Name)) {
    S.Origin = "call";
    return S;
  }
  if (const auto *PVD = dyn_cast<ParmVarDecl>(VD)) {
    // A called helper's parameter is what its call binds it to; one the
    // call left unbound is no size of the nest.
    if (const auto *Owner = dyn_cast<FunctionDecl>(PVD->getDeclContext());
        Owner && Owner->getCanonicalDecl() != FD->getCanonicalDecl()) {
      Why = "'" + S.Name + "', a parameter of '" + declName(Owner) +
            "' its call binds to no index";
      return std::nullopt;
    }
    if (isModified(VD)) {
      Why = "'" + S.Name + "', a variable computed at run time";
      return std::nullopt;
    }
    S.Origin = "argument";
    if (std::optional<int64_t> V = Calls.valueOf(PVD)) {
      S.Value = *V;
      S.Origin = "call-site";
    }
    return S;
  }
  bool IsConst = VD->getType().isConstQualified() || VD->isConstexpr();
  // A mutable global the analyzed functions never assign is fixed for the
  // call, like an argument: a size named by the global, its initializer
  // ignored (main or a loader sets it first; runq.c's GS).
  if (!IsConst && VD->hasGlobalStorage() && !VD->isStaticLocal() &&
      !isModified(VD)) {
    llvm::SmallPtrSet<const FunctionDecl *, 8> Seen;
    auto AssignsVD = [&](const ModificationSites &M) {
      return M.Vars.count(VD) != 0;
    };
    for (const FunctionFrame &F : Frames)
      if (F.FD && callsChanging(F.FD->getBody(), AssignsVD, Seen)) {
        Why = "'" + S.Name + "', a global that a called function assigns";
        return std::nullopt;
      }
    S.Origin = "global";
    return S;
  }
  const Expr *Init = VD->getAnyInitializer();
  Expr::EvalResult R;
  if (!Init || Init->isValueDependent() || !Init->EvaluateAsInt(R, Ctx))
    return std::nullopt; // computed: see localIndex
  // `int rows = 4; if (n < rows) rows = n;`: see clampedIndex.
  if (!IsConst && VD->isLocalVarDecl() && isModified(VD) && clampedLocal(VD))
    return std::nullopt;
  if (!IsConst && (!VD->isLocalVarDecl() || isModified(VD))) {
    Why = "'" + S.Name + "', a variable computed at run time";
    return std::nullopt;
  }
  S.Value = R.Val.getInt().getExtValue();
  S.Origin = VD->isConstexpr() ? "constexpr" : (IsConst ? "const" : "local");
  return S;
}

std::optional<NestBuilder::SizeName> NestBuilder::sizeOf(const Expr *E,
                                                         std::string &Why) {
  if (const auto *SNT = dyn_cast<SubstNonTypeTemplateParmExpr>(E)) {
    SizeName S;
    Expr::EvalResult R;
    if (SNT->EvaluateAsInt(R, Ctx))
      S.Value = R.Val.getInt().getExtValue();
    S.Origin = "template";
    S.Name = declName(SNT->getParameter());
    return S;
  }
  if (const auto *IL = dyn_cast<IntegerLiteral>(E)) {
    SourceLocation L = IL->getLocation();
    // Only an object-like macro names its value ('#define N 1024'); a
    // literal in a function-like macro's body is a plain constant.
    if (L.isMacroID() && !SM.isMacroArgExpansion(L) &&
        !SM.getSLocEntry(SM.getFileID(L))
             .getExpansion()
             .isFunctionMacroExpansion()) {
      StringRef Macro = Lexer::getImmediateMacroName(L, SM, Ctx.getLangOpts());
      if (!Macro.empty()) {
        SizeName S;
        S.Value = IL->getValue().getSExtValue();
        S.Origin = "macro";
        S.Name = Macro.str();
        return S;
      }
    }
    return std::nullopt;
  }
  if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(E)) {
    const CXXMethodDecl *MD = MCE->getMethodDecl();
    const Expr *Obj = strip(MCE->getImplicitObjectArgument());
    if (!MD || MCE->getNumArgs() != 0 ||
        (MD->getName() != "size" && MD->getName() != "length"))
      return std::nullopt;
    std::string ObjName;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(Obj))
      ObjName = declName(DRE->getDecl());
    else if (std::optional<std::string> P = memberPath(Obj, Why))
      ObjName = *P;
    else
      return std::nullopt;
    SizeName S;
    S.Origin = "container";
    S.Name = ObjName + "." + declName(MD) + "()";
    return S;
  }
  if (isa<MemberExpr>(E)) {
    if (!E->getType()->isIntegerType())
      return std::nullopt;
    std::optional<std::string> Path = memberPath(E, Why);
    if (!Path)
      return std::nullopt;
    SizeName S;
    S.Name = *Path;
    S.Origin = "field";
    return S;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      return sizeOfVar(VD, Why);
  return std::nullopt;
}

/// \p T with its spaces taken out ("C/NH" from "C / NH").
static std::string withoutSpaces(std::string T) {
  T.erase(std::remove(T.begin(), T.end(), ' '), T.end());
  return T;
}

std::string NestBuilder::quotientText(const IndexPoly &Num,
                                      const IndexPoly &Den) {
  auto Part = [](const IndexPoly &P) {
    std::string T = P.str();
    return T.find_first_of("+-* ") == std::string::npos ? T : "(" + T + ")";
  };
  return Part(Num) + "/" + Part(Den);
}

std::optional<IndexPoly> NestBuilder::quotientSize(const std::string &Name,
                                                   const IndexPoly &Num,
                                                   const IndexPoly &Den,
                                                   std::string &Why) {
  auto Terms = [](const IndexPoly &P) {
    std::vector<SizeTerm> T;
    for (const auto &[M, E] : P.parts())
      T.push_back({E.constant(), M});
    return T;
  };
  SizeName S;
  S.Name = Name;
  S.Origin = "derived";
  DerivedSize D;
  D.Numerator = Terms(Num);
  D.Denominator = Terms(Den);
  S.Derived = D;
  if (auto It = Params.find(Name);
      It != Params.end() && It->second.Derived &&
      It->second.Derived->str() != D.str())
    S.Name = FD->getNameAsString() + ":" + Name; // another function's hs
  addParam(S);
  // Num = Den * Name lets rows of Num elements split into Den rows of
  // Name: only for plain monomials, and only where Den divides Num.
  if (Num.parts().size() == 1 && Den.parts().size() == 1 &&
      Num.parts().begin()->second == AffineExpr(1) &&
      Den.parts().begin()->second == AffineExpr(1) &&
      !Den.parts().begin()->first.empty()) {
    const SizeMonomial &Whole = Num.parts().begin()->first;
    SizeMonomial Parts =
        monomialProduct(Den.parts().begin()->first, SizeMonomial{S.Name});
    std::string DenText = monomialName(Den.parts().begin()->first);
    std::string WholeText = monomialName(Whole);
    SizeRelation Rel;
    Rel.Whole = Whole;
    Rel.Parts = Parts;
    Rel.Note = S.Name + " = " + WholeText + " / " + DenText +
               ": rows of " + WholeText + " are taken as " + DenText +
               " rows of " + S.Name + " (" + DenText + " divides " +
               WholeText + ")";
    // Divisibility, as two inequalities over the product Den*Name, assumed
    // where the relation is used.
    AffineExpr W = AffineExpr::var(WholeText);
    AffineExpr P = AffineExpr::var(monomialName(Parts));
    registerProducts({Parts});
    if (Whole.size() > 1)
      registerProducts({Whole});
    Rel.Conditions.push_back({*W.sub(P), DenText + " divides " + WholeText});
    Rel.Conditions.push_back({*P.sub(W), DenText + " divides " + WholeText});
    Relations.push_back(Rel);
  }
  (void)Why;
  return IndexPoly::size(S.Name);
}

IndexPoly NestBuilder::strideSize(const IndexPoly &P) {
  // genann's rows hold a bias and then the inputs: row j starts at
  // j*(inputs + 1), which expanded (j*inputs + j) is no row of anything
  // (lib/IR/Delinearize.cpp expands it again where rows of inputs+1 do not
  // nest with the other strides).
  if (P.usesLoopVars() || P.isConstant() || P.parts().size() < 2)
    return P;
  std::string Name = P.str();
  Name.erase(std::remove(Name.begin(), Name.end(), ' '), Name.end());
  for (size_t At; (At = Name.find("+-")) != std::string::npos;)
    Name.erase(At, 1); // (I-1), not (I+-1)
  Name = "(" + Name + ")";
  if (llvm::none_of(Sums, [&](const SizeSum &S) { return S.Name == Name; })) {
    SizeName S;
    S.Name = Name;
    S.Origin = "derived";
    DerivedSize D;
    for (const auto &[M, E] : P.parts())
      D.Numerator.push_back({E.constant(), M});
    S.Derived = D;
    addParam(S);
    Sums.push_back({Name, P});
  }
  ParamSet.insert(Name);
  return IndexPoly::size(Name);
}

std::optional<IndexPoly> NestBuilder::localIndex(const VarDecl *VD,
                                                 std::string &Why) {
  if (auto It = LocalCache.find(VD); It != LocalCache.end()) {
    if (!It->second)
      Why = "'" + declName(VD) + "', a variable computed at run time";
    return It->second;
  }
  auto Done = [&](std::optional<IndexPoly> P) {
    LocalCache[VD] = P;
    return P;
  };
  std::string Name = declName(VD);
  const Expr *Init = VD->getAnyInitializer();
  bool Inside = Nest && SM.isPointWithin(VD->getLocation(),
                                         Nest->getBeginLoc(),
                                         Nest->getEndLoc());
  // Assigned once before the nest (`n = kad_len(q);`): that assignment is
  // its definition (LowerRunTimeLocals.cpp).
  std::string NotOnce;
  const Expr *RunTimeDef = Inside ? nullptr : runTimeDefinition(VD, NotOnce);
  if (!Inside && !RunTimeDef)
    if (std::optional<ClampedLocal> CL = clampedLocal(VD))
      return Done(clampedIndex(VD, *CL, Why));
  bool Modified = isModified(VD);
  if (Modified && RunTimeDef)
    Init = RunTimeDef;
  if (!Init || Inside || (Modified && !RunTimeDef) || !NotOnce.empty() ||
      isa<ParmVarDecl>(VD) ||
      !VD->getType()->isIntegerType() ||
      (!VD->isLocalVarDecl() && !VD->getType().isConstQualified())) {
    Why = NotOnce.empty() ? "'" + Name + "', a variable computed at run time"
                          : NotOnce;
    return Done(std::nullopt);
  }
  return Done(definitionIndex(VD, Init, RunTimeDef != nullptr, Why));
}

std::optional<IndexPoly> NestBuilder::definitionIndex(const VarDecl *VD,
                                                      const Expr *Init,
                                                      bool RunTime,
                                                      std::string &Why) {
  std::string Name = declName(VD);
  // Evaluated before the nest: no loop variable of it is in scope.
  llvm::SaveAndRestore HideIVs(IVs, {});
  std::string Inner;
  const auto *Div = dyn_cast<BinaryOperator>(strip(Init));
  if (Div && Div->getOpcode() == BO_Div) {
    std::optional<IndexPoly> N = indexOf(Div->getLHS(), Inner);
    std::optional<IndexPoly> D = N ? indexOf(Div->getRHS(), Inner)
                                   : std::nullopt;
    if (N && D && !D->isConstant()) {
      // kv_dim = (dim * n_kv_heads) / n_heads is head_size * n_kv_heads
      // where n_heads divides dim is stated already (LowerRegroup.cpp).
      if (!N->usesLoopVars())
        if (std::optional<IndexPoly> Q = exactQuotient(*N, *D, Inner))
          return Q;
      Inner.clear();
      return quotientSize(Name, *N, *D, Why);
    }
  }
  std::optional<IndexPoly> P = indexOf(Init, Inner);
  if (!P && RunTime)
    return runTimeSize(VD, Init);
  if (!P) {
    Why = "'" + Name + "' (" + Inner + ")";
    return std::nullopt;
  }
  // A multiple of one product of sizes (C3 = 3*C, BT = B*T) is that
  // expression: row pointers add it up with other multiples of C. Anything
  // else (P = (H - R) / 2 + 1) stays a size of its own, named as written,
  // so strides that use it still nest.
  bool Monomial = P->parts().size() == 1 && !P->usesLoopVars();
  bool UsesQuotient = false;
  for (const auto &[M, E] : P->parts())
    for (const std::string &F : M)
      if (auto It = Params.find(F); It != Params.end() && It->second.Derived &&
                                    !It->second.Derived->isProduct())
        UsesQuotient = true;
  if (P->isConstant() || (Monomial && !UsesQuotient))
    return P;
  SizeName S;
  S.Name = Name;
  S.Origin = "derived";
  DerivedSize D;
  for (const auto &[M, E] : P->parts())
    D.Numerator.push_back({E.constant(), M});
  S.Derived = D;
  addParam(S);
  // A product (loff = l * seq_len * kv_dim) equals its factors exactly: a
  // row stride among them lets it join that row's subscript
  // (lib/IR/Delinearize.cpp), where as a size of its own it would be an
  // offset inside the row.
  if (P->parts().size() == 1 && !P->usesLoopVars() &&
      P->parts().begin()->second == AffineExpr(1) &&
      P->parts().begin()->first.size() > 1) {
    SizeRelation Rel;
    Rel.Whole = SizeMonomial{Name};
    Rel.Parts = P->parts().begin()->first;
    Rel.Note = Name + " = " + monomialName(Rel.Parts) +
               ": a multiple of the rows it divides into";
    Relations.push_back(Rel);
  }
  return IndexPoly::size(Name);
}

// kautodiff.c's `n8 = n>>3<<3` (8*floor(n/8), the part of n a loop unrolled
// by 8 covers): a shift of sizes by a constant is a product or a floor
// quotient by a power of two (sizes are not negative, so '>>' rounds down
// like '/').
std::optional<IndexPoly> NestBuilder::shiftIndex(const BinaryOperator *BO,
                                                 int64_t Shift,
                                                 std::string &Why) {
  std::optional<IndexPoly> L = indexOf(BO->getLHS(), Why);
  if (!L)
    return std::nullopt;
  if (L->usesLoopVars()) {
    Why = "non-affine " + std::string(InBound ? "loop bound" : "index") +
          " expression '" + text(BO) + "' (a loop variable shifted)";
    return std::nullopt;
  }
  if (L->isConstant())
    return IndexPoly::constant(BO->getOpcode() == BO_Shl
                                   ? L->constantValue() << Shift
                                   : L->constantValue() >> Shift);
  if (BO->getOpcode() == BO_Shl) {
    std::optional<IndexPoly> Out = L->scale(int64_t(1) << Shift);
    if (!Out)
      Why = "index arithmetic overflows";
    return Out;
  }
  std::string Name = text(BO->getLHS());
  Name.erase(std::remove(Name.begin(), Name.end(), ' '), Name.end());
  Name += "/" + std::to_string(int64_t(1) << Shift);
  return quotientSize(Name, *L, IndexPoly::constant(int64_t(1) << Shift), Why);
}

// `+ - * /` of indices: affine sums, products with sizes, and quotients
// (a size of their own, or a loop over groups).
std::optional<IndexPoly> NestBuilder::arithmeticIndex(const BinaryOperator *BO,
                                                      std::string &Why) {
  const Expr *S = BO;
  BinaryOperatorKind Op = BO->getOpcode();
  std::optional<IndexPoly> L = indexOf(BO->getLHS(), Why);
  std::optional<IndexPoly> R = L ? indexOf(BO->getRHS(), Why)
                                 : std::nullopt;
  if (!R)
    return std::nullopt;
  std::optional<IndexPoly> Out;
  if (Op == BO_Add)
    Out = L->add(*R);
  else if (Op == BO_Sub)
    Out = L->sub(*R);
  else if (Op == BO_Mul) {
    bool LoopVarProduct = false;
    Out = L->usesLoopVars() ? L->mul(strideSize(*R), LoopVarProduct)
                            : strideSize(*L).mul(*R, LoopVarProduct);
    if (LoopVarProduct) {
      Why = "non-affine " + std::string(InBound ? "loop bound" : "index") +
            " expression '" + text(S) + "'";
      return std::nullopt;
    }
  } else {
    if (L->isConstant() && R->isConstant() && R->constantValue() != 0) {
      // C's '/' truncates toward zero.
      Out = IndexPoly::constant(L->constantValue() / R->constantValue());
    } else if (L->usesLoopVars() || R->usesLoopVars()) {
      // i / GS in a loop over groups of GS (LowerRegroup.cpp).
      std::string Inner;
      if (!R->usesLoopVars())
        if (std::optional<IndexPoly> Q = exactQuotient(*L, *R, Inner))
          return Q;
      Why = "non-affine " +
            std::string(InBound ? "loop bound" : "index") +
            " expression '" + text(S) + "' (a loop variable divided" +
            (Inner.empty() ? "" : ": " + Inner) + ")";
      return std::nullopt;
    } else {
      // In a helper the text names its parameters and `this`'s fields: the
      // caller's sizes name it there (qp.cols_/32, not cols_/32).
      return quotientSize(withoutSpaces(HelperIndexDepth > 0 ? quotientText(*L, *R)
                                                             : text(S)),
                          *L, *R, Why);
    }
  }
  if (!Out)
    Why = "index arithmetic overflows";
  return Out;
}

std::optional<IndexPoly> NestBuilder::indexOf(const Expr *E, std::string &Why) {
  const Expr *S = strip(E);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl())) {
      for (const auto &[Decl, Name] : IVs)
        if (Decl == VD)
          return IndexPoly::loopVar(Name);
      if (auto B = Bindings.find(VD); B != Bindings.end()) {
        if (B->second.Kind == Binding::Index)
          return B->second.Value;
        Why = "'" + declName(VD) + "' is not an integer";
        return std::nullopt;
      }
      if (std::optional<int64_t> V = foldedLocal(VD))
        return IndexPoly::constant(*V);
      if (auto O = OpaqueInts.find(VD); O != OpaqueInts.end()) {
        Why = O->second.Why;
        return std::nullopt;
      }
    }
  }
  if (const VarDecl *Counter = counterOf(S))
    return counterIndex(Counter, S, Why);
  // A span built with a length knows its size().
  if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(S))
    if (const auto *DRE = dyn_cast<DeclRefExpr>(
            strip(MCE->getImplicitObjectArgument())))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        if (auto B = Bindings.find(VD);
            B != Bindings.end() && B->second.Length &&
            MCE->getMethodDecl()->getName() == "size")
          return *B->second.Length;
  if (std::optional<SizeName> Size = sizeOf(S, Why)) {
    addParam(*Size);
    return IndexPoly::size(Size->Name);
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
        VD && VD->getType()->isIntegerType() && Why.empty())
      if (std::optional<IndexPoly> P = localIndex(VD, Why))
        return P;
  if (!Why.empty())
    return std::nullopt;
  if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    BinaryOperatorKind Op = BO->getOpcode();
    Expr::EvalResult Amount;
    if ((Op == BO_Shl || Op == BO_Shr) &&
        BO->getRHS()->EvaluateAsInt(Amount, Ctx) &&
        Amount.Val.getInt().getSExtValue() >= 0 &&
        Amount.Val.getInt().getSExtValue() <= 30)
      return shiftIndex(BO, Amount.Val.getInt().getSExtValue(), Why);
    if (Op == BO_Add || Op == BO_Sub || Op == BO_Mul || Op == BO_Div)
      return arithmeticIndex(BO, Why);
    if (Op == BO_Rem)
      if (std::optional<IndexPoly> P = remainderIndex(BO, Why); P || !Why.empty())
        return P;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
    if (UO->getOpcode() == UO_Minus || UO->getOpcode() == UO_Plus) {
      std::optional<IndexPoly> In = indexOf(UO->getSubExpr(), Why);
      if (In && UO->getOpcode() == UO_Minus)
        In = In->scale(-1);
      return In;
    }
  }
  if (const auto *Cast = dyn_cast<ExplicitCastExpr>(S))
    if (Cast->getType()->isIntegerType() &&
        Cast->getSubExpr()->getType()->isIntegerType())
      return indexOf(Cast->getSubExpr(), Why);
  Expr::EvalResult R;
  if (!S->isValueDependent() && S->EvaluateAsInt(R, Ctx))
    return IndexPoly::constant(R.Val.getInt().getExtValue());
  if (const auto *CO = dyn_cast<ConditionalOperator>(S))
    return conditionalIndex(CO, Why);
  if (const auto *CE = dyn_cast<CallExpr>(S))
    if (const IndexHelper *H = indexHelperOf(CE))
      return helperIndex(CE, *H, Why); // LowerHelperCalls.cpp
  const char *Where = InBound ? "loop bound" : "index";
  if (isa<ArraySubscriptExpr>(S) || isa<CXXOperatorCallExpr>(S) ||
      (isa<UnaryOperator>(S) &&
       cast<UnaryOperator>(S)->getOpcode() == UO_Deref))
    Why = InBound ? "data-dependent loop bound '" + text(S) + "'"
                  : "indirect (data-dependent) index '" + text(S) + "'";
  else if (isa<CallExpr>(S))
    Why = std::string(Where) + " depends on a function call '" + text(S) + "'";
  else if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    Why = std::string(Where) + " depends on '" + declName(DRE->getDecl()) +
          "', a variable computed at run time";
  else
    Why = "non-affine " + std::string(Where) + " expression '" + text(S) + "'";
  return std::nullopt;
}

bool NestBuilder::lowerIndex(const Expr *E, IndexPoly &Out) {
  std::string Why;
  std::optional<IndexPoly> P = indexOf(E, Why);
  if (!P)
    return fail(E->getBeginLoc(),
                InBound           ? RejectKind::LoopBound
                : usesNestData(E) ? RejectKind::DataDependentIndex
                                  : RejectKind::NonAffineIndex,
                Why);
  Out = *P;
  return true;
}

bool NestBuilder::toAffine(const IndexPoly &P, const Expr *E,
                           AffineExpr &Out) {
  std::vector<SizeMonomial> Products;
  std::optional<AffineExpr> A = P.toAffine(&Products);
  // A window's bound `std::min(FW, W - (ox*stride - pad))` is affine at the
  // value of stride, as a padding guard is.
  std::string PinWhy;
  if (!A && InBound) {
    std::string Subject = "loop bound '" + text(E) + "'";
    if (std::string Value = P.str(); withoutSpaces(Value) != withoutSpaces(text(E)))
      Subject += " (" + Value + " here)"; // a callee's size names the caller's
    std::optional<IndexPoly> Pinned =
        pinLoopVarProducts(P, Subject, "loop", PinWhy);
    if (!Pinned)
      return fail(E->getBeginLoc(), RejectKind::LoopBound, PinWhy);
    A = Pinned->toAffine(&Products);
  }
  if (!A)
    return fail(E->getBeginLoc(),
                (InBound ? RejectKind::LoopBound : RejectKind::NonAffineIndex),
                "non-affine " + std::string(InBound ? "loop bound" : "index") +
                    " expression '" + text(E) +
                    "' (a loop variable times a size)");
  registerProducts(Products);
  Out = *A;
  return true;
}

bool NestBuilder::lowerAffine(const Expr *E, AffineExpr &Out) {
  IndexPoly P;
  return lowerIndex(E, P) && toAffine(P, E, Out);
}

bool NestBuilder::lowerBoundTerm(const Expr *E, BoundTerm &Out) {
  const Expr *S = strip(E);
  if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    if (BO->getOpcode() == BO_Div) {
      Expr::EvalResult R;
      if (BO->getRHS()->EvaluateAsInt(R, Ctx) &&
          R.Val.getInt().getSExtValue() > 0) {
        BoundTerm Inner;
        if (!lowerBoundTerm(BO->getLHS(), Inner))
          return false;
        if (Inner.Divisor != 1)
          return fail(S->getBeginLoc(), RejectKind::LoopBound,
                      "nested division in a loop bound");
        Out.Expr = Inner.Expr;
        Out.Divisor = R.Val.getInt().getSExtValue();
        Dividends.push_back(Inner.Expr);
        return true;
      }
    }
    // floor(x/d) + c  ==  floor((x + c*d)/d)
    if (BO->getOpcode() == BO_Add || BO->getOpcode() == BO_Sub) {
      const auto *Div = dyn_cast<BinaryOperator>(strip(BO->getLHS()));
      Expr::EvalResult R;
      if (Div && Div->getOpcode() == BO_Div &&
          Div->getRHS()->EvaluateAsInt(R, Ctx)) {
        BoundTerm L;
        AffineExpr Rhs;
        if (!lowerBoundTerm(BO->getLHS(), L) || !lowerAffine(BO->getRHS(), Rhs))
          return false;
        std::optional<AffineExpr> Scaled = Rhs.scale(L.Divisor);
        std::optional<AffineExpr> Sum;
        if (Scaled)
          Sum = BO->getOpcode() == BO_Add ? L.Expr.add(*Scaled)
                                          : L.Expr.sub(*Scaled);
        if (!Sum)
          return fail(S->getBeginLoc(), RejectKind::Overflow,
                      "loop bound arithmetic overflows");
        Out.Expr = *Sum;
        Out.Divisor = L.Divisor;
        return true;
      }
    }
  }
  Out.Divisor = 1;
  return lowerAffine(S, Out.Expr);
}

const CallExpr *roofline::frontend::minMaxCall(const Expr *E) {
  const auto *CE = dyn_cast<CallExpr>(strip(E));
  const FunctionDecl *Callee = CE ? CE->getDirectCallee() : nullptr;
  StringRef Name = Callee ? Callee->getName() : "";
  return (Name == "min" || Name == "max") && CE->getNumArgs() == 2 ? CE
                                                                  : nullptr;
}

const ConditionalOperator *
roofline::frontend::minMaxChoice(const Expr *E, const ASTContext &Ctx,
                                 bool *IsMin) {
  const auto *CO = dyn_cast<ConditionalOperator>(strip(E));
  const auto *Cmp =
      CO ? dyn_cast<BinaryOperator>(strip(CO->getCond())) : nullptr;
  if (!Cmp || !Cmp->isRelationalOp())
    return nullptr;
  auto Same = [&](const Expr *A, const Expr *B) {
    llvm::FoldingSetNodeID IA, IB;
    strip(A)->Profile(IA, Ctx, /*Canonical=*/true);
    strip(B)->Profile(IB, Ctx, /*Canonical=*/true);
    return IA == IB;
  };
  const Expr *L = CO->getTrueExpr(), *R = CO->getFalseExpr();
  bool KeepsLHS = Same(L, Cmp->getLHS()) && Same(R, Cmp->getRHS());
  if (!KeepsLHS && !(Same(L, Cmp->getRHS()) && Same(R, Cmp->getLHS())))
    return nullptr;
  // `a < b ? a : b` keeps the smaller side; either flip keeps the larger.
  bool Less = Cmp->getOpcode() == BO_LT || Cmp->getOpcode() == BO_LE;
  if (IsMin)
    *IsMin = Less == KeepsLHS;
  return CO;
}

const Expr *NestBuilder::minMaxLocalInit(const Expr *E) const {
  const auto *DRE = dyn_cast<DeclRefExpr>(strip(E));
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!VD || !VD->isLocalVarDecl() || VD->isStaticLocal() ||
      !VD->getType()->isIntegerType() || !VD->getInit() ||
      Bindings.count(VD) || isModified(VD))
    return nullptr;
  if (minMaxChoice(VD->getInit(), Ctx))
    return VD->getInit();
  return minMaxCall(VD->getInit());
}

bool NestBuilder::boundNotIndex(const VarDecl *VD) const {
  std::vector<const clang::Stmt *> All, InBounds, InIndices;
  collectStmts(Nest, All);
  for (const clang::Stmt *S : All) {
    if (const auto *FS = dyn_cast<ForStmt>(S)) {
      collectStmts(FS->getInit(), InBounds);
      collectStmts(FS->getCond(), InBounds);
    }
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(S))
      collectStmts(AS->getIdx(), InIndices);
    if (const auto *BO = dyn_cast<BinaryOperator>(S);
        BO && BO->getType()->isPointerType())
      collectStmts(BO, InIndices);
  }
  auto Refers = [&](const clang::Stmt *S) {
    const auto *DRE = dyn_cast<DeclRefExpr>(S);
    return DRE && DRE->getDecl() == VD;
  };
  return llvm::any_of(InBounds, Refers) && llvm::none_of(InIndices, Refers);
}

bool NestBuilder::lowerBound(const Expr *E, Bound &Out) {
  llvm::SaveAndRestore Guard(InBound, true);
  // A window local of the nest: the min or max it was set to last, read
  // with the bindings of that point (Caffe's `hend = min(hstart + k, H);
  // hstart = max(hstart, 0);` reads the first hstart in hend).
  if (const WindowValue *W = windowValueOf(E)) {
    WindowValue At = *W;
    std::swap(Bindings, At.Bindings);
    std::swap(WindowLocals, At.Windows);
    bool Ok = lowerBound(At.Value, Out);
    std::swap(Bindings, At.Bindings);
    std::swap(WindowLocals, At.Windows);
    return Ok;
  }
  // A window clamped in a local (`int start = std::max(0, x - K);`), set
  // once: the bound it holds, read where the loop uses it.
  if (const Expr *Init = minMaxLocalInit(E))
    return lowerBound(Init, Out);
  const Expr *S = strip(E);
  // std::min / std::max / min / max on integers.
  if (const CallExpr *CE = minMaxCall(S))
    return lowerMinMaxOf(CE->getDirectCallee()->getName() == "min"
                             ? Bound::Min
                             : Bound::Max,
                         {CE->getArg(0), CE->getArg(1)}, Out);
  // The same of a window local: min(min(a, b), c) is min(a, b, c).
  bool IsMin = false;
  if (const ConditionalOperator *CO = minMaxChoice(S, Ctx, &IsMin)) {
    const auto *Cmp = cast<BinaryOperator>(strip(CO->getCond()));
    if (windowValueOf(Cmp->getLHS()) || windowValueOf(Cmp->getRHS()))
      return lowerMinMaxOf(IsMin ? Bound::Min : Bound::Max,
                           {Cmp->getLHS(), Cmp->getRHS()}, Out);
  }
  // a < b ? a : b
  if (const auto *CO = dyn_cast<ConditionalOperator>(S)) {
    const auto *Cmp = dyn_cast<BinaryOperator>(strip(CO->getCond()));
    if (Cmp && Cmp->isRelationalOp()) {
      BoundTerm A, B, L, R;
      if (!lowerBoundTerm(Cmp->getLHS(), A) ||
          !lowerBoundTerm(Cmp->getRHS(), B) ||
          !lowerBoundTerm(CO->getTrueExpr(), L) ||
          !lowerBoundTerm(CO->getFalseExpr(), R))
        return false;
      bool Less = Cmp->getOpcode() == BO_LT || Cmp->getOpcode() == BO_LE;
      if (L == A && R == B) {
        Out.Kind = Less ? Bound::Min : Bound::Max;
        Out.Terms = {A, B};
        return true;
      }
      if (L == B && R == A) {
        Out.Kind = Less ? Bound::Max : Bound::Min;
        Out.Terms = {A, B};
        return true;
      }
    }
  }
  BoundTerm T;
  if (!lowerBoundTerm(S, T))
    return false;
  Out = Bound();
  Out.Terms.push_back(T);
  return true;
}

const NestBuilder::WindowValue *
NestBuilder::windowValueOf(const Expr *E) const {
  const auto *DRE = dyn_cast<DeclRefExpr>(strip(E));
  auto It = DRE ? WindowLocals.find(DRE->getDecl()) : WindowLocals.end();
  return It == WindowLocals.end() ? nullptr : It->second.get();
}

bool NestBuilder::lowerMinMaxOf(Bound::KindTy Kind,
                                std::initializer_list<const Expr *> Args,
                                Bound &Out) {
  Out = Bound();
  Out.Kind = Kind;
  for (const Expr *Arg : Args) {
    if (windowValueOf(Arg)) {
      Bound Inner;
      if (!lowerBound(Arg, Inner))
        return false;
      if (Inner.Kind != Kind && Inner.Terms.size() > 1)
        return fail(Arg->getBeginLoc(), RejectKind::LoopBound,
                    "loop bound '" + text(Arg) + "' takes the " +
                        (Kind == Bound::Min ? "min" : "max") + " of a " +
                        (Kind == Bound::Min ? "max" : "min"));
      Out.Terms.insert(Out.Terms.end(), Inner.Terms.begin(), Inner.Terms.end());
      continue;
    }
    BoundTerm T;
    if (!lowerBoundTerm(Arg, T))
      return false;
    Out.Terms.push_back(T);
  }
  return true;
}

// An IndexPoly's coefficients are affine in loop variables only.
static std::vector<std::string> loopVarsOf(const AffineExpr &Coef) {
  std::vector<std::string> Names;
  for (const auto &[Name, C] : Coef.terms())
    Names.push_back(Name);
  return Names;
}

// A guard on a loop variable times a size (a padding test `0 <= y` with
// y = stride*y1 - padding + dy) is affine once the size has a value: the
// value goes in, the guard narrows the loop exactly, and a note says the
// counts are for that value. Without a value the guard is refused
// (docs/user-guide.md, "Conditions on loop variables").
std::optional<IndexPoly> NestBuilder::pinLoopVarTimesSize(
    const IndexPoly &E, const std::string &IV, std::string &Why) {
  return pinLoopVarProducts(E, "condition on '" + IV + "'", "guard", Why);
}

std::optional<IndexPoly> NestBuilder::pinLoopVarProducts(
    const IndexPoly &E, const std::string &Subject, const char *Counted,
    std::string &Why) {
  SizeValues Vals;
  IndexPoly Out = E;
  for (const auto &[M, Coef] : E.parts()) {
    if (M.empty() || Coef.isConstant())
      continue;
    if (Vals.empty())
      Vals = sizeValues();
    IndexPoly Term = IndexPoly::fromAffine(Coef, loopVarsOf(Coef));
    int64_t Value = 1;
    std::optional<IndexPoly> Symbolic = Term;
    for (const std::string &F : M) {
      auto It = Vals.find(F);
      if (It == Vals.end()) {
        Why = Subject + " is not affine: it multiplies a loop variable by "
              "the size '" + F + "', which has no value (give it one, --param " +
              F + "=N, to count the " + Counted + ")";
        return std::nullopt;
      }
      bool LoopVarProduct = false;
      if (Symbolic)
        Symbolic = Symbolic->mul(IndexPoly::size(F), LoopVarProduct);
      if (__builtin_mul_overflow(Value, It->second, &Value))
        Symbolic.reset();
    }
    std::optional<IndexPoly> Numeric = Term.scale(Value);
    std::optional<IndexPoly> Next =
        Symbolic && Numeric ? Out.sub(*Symbolic) : std::nullopt;
    Next = Next ? Next->add(*Numeric) : std::nullopt;
    if (!Next) {
      Why = Subject + " overflows at the sizes given";
      return std::nullopt;
    }
    Out = *Next;
    for (const std::string &F : M)
      PinnedSizes[F] = Vals[F];
    std::string Note = "a " + Subject + " multiplies a loop "
                       "variable by " + monomialName(M) + " = " +
                       std::to_string(Value) +
                       ": its counts hold for that value only";
    addNote(std::move(Note));
  }
  return Out;
}

// The sizes a guard was counted at (pinLoopVarTimesSize) take their values
// in the accesses too, where they multiply a loop variable: `in[s*y1 + dy]`
// at s = 2 is `in[2*y1 + dy]`, which splits into rows like the guard's
// bounds.
bool NestBuilder::pinSizes(IndexPoly &P) const {
  if (PinnedSizes.empty())
    return true;
  IndexPoly Out = P;
  for (const auto &[M, Coef] : P.parts()) {
    if (Coef.isConstant())
      continue;
    IndexPoly Term = IndexPoly::fromAffine(Coef, loopVarsOf(Coef));
    std::optional<IndexPoly> Whole = Term, Rest = Term;
    bool Pinned = false, LoopVarProduct = false;
    for (const std::string &F : M) {
      Whole = Whole ? Whole->mul(IndexPoly::size(F), LoopVarProduct)
                    : std::nullopt;
      auto It = PinnedSizes.find(F);
      Pinned |= It != PinnedSizes.end();
      Rest = !Rest ? std::nullopt
             : It != PinnedSizes.end()
                 ? Rest->scale(It->second)
                 : Rest->mul(IndexPoly::size(F), LoopVarProduct);
    }
    if (!Pinned)
      continue;
    std::optional<IndexPoly> Next =
        Whole && Rest ? Out.sub(*Whole) : std::nullopt;
    Next = Next ? Next->add(*Rest) : std::nullopt;
    if (!Next)
      return false;
    Out = *Next;
  }
  P = Out;
  return true;
}
