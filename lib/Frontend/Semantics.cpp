//===- Semantics.cpp - Statement values for code generation ---------------===//
//
// Implicit conversions are dropped from the trees: the emitted code declares
// every array and scalar with its original C type, so the C compiler
// re-derives the same conversions (int8 promotions, float to double). What
// must be kept is what the types do not imply: literal types, explicit
// casts, and which names are scalars, sizes or loop variables.
//
//===----------------------------------------------------------------------===//

#include "Semantics.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

#include <algorithm>

using namespace clang;
using namespace roofline;

const Expr *roofline::stripParensAndCasts(const Expr *E) {
  while (E) {
    if (const auto *P = dyn_cast<ParenExpr>(E))
      E = P->getSubExpr();
    else if (const auto *C = dyn_cast<ImplicitCastExpr>(E))
      E = C->getSubExpr();
    else if (const auto *F = dyn_cast<FullExpr>(E))
      E = F->getSubExpr();
    else
      break;
  }
  return E;
}

namespace {

std::string cTypeOf(QualType T, const ASTContext &Ctx) {
  T = T.getNonReferenceType().getCanonicalType().getUnqualifiedType();
  PrintingPolicy PP(Ctx.getLangOpts());
  PP.SuppressTagKeyword = true;
  return T.getAsString(PP);
}

const char *binaryOpSpelling(BinaryOperatorKind K) {
  switch (K) {
  case BO_Add: return "+";
  case BO_Sub: return "-";
  case BO_Mul: return "*";
  case BO_Div: return "/";
  case BO_Rem: return "%";
  case BO_LT: return "<";
  case BO_GT: return ">";
  case BO_LE: return "<=";
  case BO_GE: return ">=";
  case BO_EQ: return "==";
  case BO_NE: return "!=";
  case BO_And: return "&";
  case BO_Or: return "|";
  case BO_Xor: return "^";
  case BO_Shl: return "<<";
  case BO_Shr: return ">>";
  default: return nullptr;
  }
}

const char *compoundOpSpelling(BinaryOperatorKind K) {
  switch (K) {
  case BO_Assign: return "=";
  case BO_AddAssign: return "+=";
  case BO_SubAssign: return "-=";
  case BO_MulAssign: return "*=";
  case BO_DivAssign: return "/=";
  default: return nullptr;
  }
}

bool isScalarType(QualType T) {
  T = T.getNonReferenceType().getCanonicalType();
  return T->isArithmeticType() && !T->isAnyComplexType();
}

} // namespace

void ValueLowering::noteAccess(const Expr *E, unsigned Index, bool LocalArray,
                               const std::string &Name) {
  AccessOf[stripParensAndCasts(E)] = Index;
  if (!Sem.ArrayCTypes.count(Name))
    Sem.ArrayCTypes[Name] = cTypeOf(E->getType(), Ctx);
  // An array (or std::vector) of the function's own is dead once the
  // function returns; a pointer's pointee is not known to be.
  if (LocalArray)
    Sem.LocalArrays.insert(Name);
}

bool ValueLowering::failed(SourceLocation L, const std::string &Why) {
  if (AllLowered) {
    SourceLoc P = Loc(L);
    WhyNot = std::to_string(P.Line) + ":" + std::to_string(P.Column) + ": " +
             Why;
  }
  AllLowered = false;
  return false;
}

std::string ValueLowering::scalarName(const VarDecl *VD, bool Written) {
  auto It = ScalarInfo.find(VD);
  if (It == ScalarInfo.end()) {
    ScalarVar V;
    V.Name = declName(VD);
    V.CType = cTypeOf(VD->getType(), Ctx);
    bool Inside = Nest && Ctx.getSourceManager().isPointWithin(
                              VD->getLocation(), Nest->getBeginLoc(),
                              Nest->getEndLoc());
    V.Kind = Inside ? ScalarVar::Local : ScalarVar::Input;
    It = ScalarInfo.insert({VD, V}).first;
    ScalarOrder.push_back(VD);
  }
  if (Written && It->second.Kind == ScalarVar::Input)
    It->second.Kind = ScalarVar::InOut;
  return It->second.Name;
}

std::optional<ValueExpr> ValueLowering::ref(const DeclRefExpr *DRE) {
  const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
  if (!VD) {
    if (const auto *EC = dyn_cast<EnumConstantDecl>(DRE->getDecl()))
      return ValueExpr::intLit(EC->getInitVal().getSExtValue());
    failed(DRE->getBeginLoc(), "reference to '" +
                                   declName(DRE->getDecl()) +
                                   "' is not a variable");
    return std::nullopt;
  }
  if (std::find(IVs.begin(), IVs.end(), VD) != IVs.end())
    return ValueExpr::index(declName(VD));
  if (!isScalarType(VD->getType())) {
    failed(DRE->getBeginLoc(), "'" + declName(VD) +
                                   "' is used as a value but is not a "
                                   "scalar");
    return std::nullopt;
  }
  // A constant declared outside the nest is its value.
  bool Inside = Nest && Ctx.getSourceManager().isPointWithin(
                            VD->getLocation(), Nest->getBeginLoc(),
                            Nest->getEndLoc());
  if (!Inside && (VD->isConstexpr() || VD->getType().isConstQualified())) {
    if (const Expr *Init = VD->getAnyInitializer();
        Init && !Init->isValueDependent()) {
      Expr::EvalResult R;
      if (VD->getType()->isIntegerType() && Init->EvaluateAsInt(R, Ctx)) {
        // Integer constants may be sizes; finish() decides.
        ValueExpr E = ValueExpr::index(declName(VD));
        E.Int = R.Val.getInt().getExtValue();
        E.CType = "const";
        return E;
      }
      llvm::APFloat F(0.0);
      if (VD->getType()->isRealFloatingType() &&
          Init->EvaluateAsFloat(F, Ctx)) {
        bool Lost = false;
        F.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
                  &Lost);
        std::string T = cTypeOf(VD->getType(), Ctx);
        return ValueExpr::floatLit(F.convertToDouble(),
                                   T == "float" ? "float" : "double");
      }
    }
  }
  if (VD->getType()->isIntegerType() && !Inside) {
    // A size argument used in data ("x[i] / N"); finish() turns it into a
    // scalar input if it names no size.
    ValueExpr E = ValueExpr::index(declName(VD));
    E.CType = "maybe-size:" + cTypeOf(VD->getType(), Ctx);
    return E;
  }
  return ValueExpr::scalar(scalarName(VD, false));
}

std::optional<ValueExpr> ValueLowering::expr(const Expr *E) {
  const Expr *S = stripParensAndCasts(E);
  if (auto It = AccessOf.find(S); It != AccessOf.end())
    return ValueExpr::load(It->second);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    return ref(DRE);
  if (const auto *SNT = dyn_cast<SubstNonTypeTemplateParmExpr>(S)) {
    ValueExpr R = ValueExpr::index(declName(SNT->getParameter()));
    R.CType = "maybe-size:long";
    return R;
  }
  if (const auto *IL = dyn_cast<IntegerLiteral>(S)) {
    ValueExpr R = ValueExpr::intLit(IL->getValue().getSExtValue());
    std::string T = cTypeOf(IL->getType(), Ctx);
    if (T != "int")
      return ValueExpr::cast(T, R);
    return R;
  }
  if (const auto *CL = dyn_cast<CharacterLiteral>(S))
    return ValueExpr::intLit(CL->getValue());
  if (const auto *BL = dyn_cast<CXXBoolLiteralExpr>(S))
    return ValueExpr::intLit(BL->getValue());
  if (const auto *FL = dyn_cast<FloatingLiteral>(S)) {
    std::string T = cTypeOf(FL->getType(), Ctx);
    if (T != "float" && T != "double") {
      failed(S->getBeginLoc(), "floating literal of type '" + T + "'");
      return std::nullopt;
    }
    return ValueExpr::floatLit(FL->getValueAsApproximateDouble(), T);
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
    const char *Op = nullptr;
    switch (UO->getOpcode()) {
    case UO_Minus: Op = "-"; break;
    case UO_Plus: Op = "+"; break;
    case UO_LNot: Op = "!"; break;
    case UO_Not: Op = "~"; break;
    default: break;
    }
    if (!Op) {
      failed(S->getBeginLoc(), "side effect inside an expression");
      return std::nullopt;
    }
    std::optional<ValueExpr> A = expr(UO->getSubExpr());
    if (!A)
      return std::nullopt;
    return ValueExpr::unary(Op, std::move(*A));
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    const char *Op = binaryOpSpelling(BO->getOpcode());
    if (!Op) {
      failed(S->getBeginLoc(), "assignment or comma inside an expression");
      return std::nullopt;
    }
    std::optional<ValueExpr> L = expr(BO->getLHS());
    if (!L)
      return std::nullopt;
    std::optional<ValueExpr> R = expr(BO->getRHS());
    if (!R)
      return std::nullopt;
    return ValueExpr::binary(Op, std::move(*L), std::move(*R));
  }
  if (const auto *CE = dyn_cast<CallExpr>(S)) {
    const FunctionDecl *FD = CE->getDirectCallee();
    if (!FD || isa<CXXMethodDecl>(FD)) {
      failed(S->getBeginLoc(), "call that is not a math function");
      return std::nullopt;
    }
    std::vector<ValueExpr> Args;
    for (const Expr *A : CE->arguments()) {
      std::optional<ValueExpr> V = expr(A);
      if (!V)
        return std::nullopt;
      Args.push_back(std::move(*V));
    }
    // std::exp(float) is the float overload; ::exp would be double.
    return ValueExpr::call(FD->getQualifiedNameAsString(), std::move(Args));
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(S)) {
    std::optional<ValueExpr> C = expr(CO->getCond());
    std::optional<ValueExpr> T = C ? expr(CO->getTrueExpr()) : std::nullopt;
    std::optional<ValueExpr> F = T ? expr(CO->getFalseExpr()) : std::nullopt;
    if (!F)
      return std::nullopt;
    return ValueExpr::select(std::move(*C), std::move(*T), std::move(*F));
  }
  if (const auto *Cast = dyn_cast<ExplicitCastExpr>(S)) {
    std::optional<ValueExpr> A = expr(Cast->getSubExpr());
    if (!A)
      return std::nullopt;
    QualType T = Cast->getType();
    if (T->isVoidType()) {
      failed(S->getBeginLoc(), "cast to void");
      return std::nullopt;
    }
    return ValueExpr::cast(cTypeOf(T, Ctx), std::move(*A));
  }
  if (const auto *MTE = dyn_cast<MaterializeTemporaryExpr>(S))
    return expr(MTE->getSubExpr());
  if (const auto *CCE = dyn_cast<CXXConstructExpr>(S);
      CCE && CCE->getNumArgs() == 1)
    return expr(CCE->getArg(0));
  failed(S->getBeginLoc(), std::string("expression '") + S->getStmtClassName() +
                               "' has no code-generation form");
  return std::nullopt;
}

void ValueLowering::lower(const clang::Stmt *S, roofline::Stmt &St) {
  struct ClearOnExit {
    llvm::DenseMap<const Expr *, unsigned> &M;
    ~ClearOnExit() { M.clear(); }
  } Clear{AccessOf};
  StmtValue V;
  auto Target = [&](const Expr *L) -> bool {
    L = stripParensAndCasts(L);
    if (auto It = AccessOf.find(L); It != AccessOf.end()) {
      V.Target = StmtValue::ArrayTarget;
      V.TargetAccess = It->second;
      return true;
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(L))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
          VD && isScalarType(VD->getType())) {
        V.Target = StmtValue::ScalarTarget;
        V.Scalar = scalarName(VD, /*Written=*/true);
        return true;
      }
    return failed(L->getBeginLoc(), "assignment to something that is neither "
                                    "an array element nor a scalar");
  };

  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    if (!DS->isSingleDecl() || !isa<VarDecl>(DS->getSingleDecl())) {
      failed(S->getBeginLoc(), "declaration of several variables");
      return;
    }
    const auto *VD = cast<VarDecl>(DS->getSingleDecl());
    if (!isScalarType(VD->getType())) {
      failed(S->getBeginLoc(), "declaration of a non-scalar variable");
      return;
    }
    V.Target = StmtValue::ScalarDecl;
    V.Scalar = scalarName(VD, false);
    V.Op = "";
    if (const Expr *Init = VD->getInit()) {
      std::optional<ValueExpr> I = expr(Init);
      if (!I)
        return;
      V.Op = "=";
      V.Value = std::move(*I);
    }
    St.Value = std::move(V);
    return;
  }
  const auto *E = dyn_cast<Expr>(S);
  if (!E) {
    failed(S->getBeginLoc(), "statement has no code-generation form");
    return;
  }
  E = stripParensAndCasts(E);
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    const char *Op = compoundOpSpelling(BO->getOpcode());
    if (!Op) {
      failed(S->getBeginLoc(), "expression statement that is not an "
                               "assignment");
      return;
    }
    if (!Target(BO->getLHS()))
      return;
    std::optional<ValueExpr> R = expr(BO->getRHS());
    if (!R)
      return;
    V.Op = Op;
    V.Value = std::move(*R);
    St.Value = std::move(V);
    return;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->isIncrementDecrementOp()) {
    if (!Target(UO->getSubExpr()))
      return;
    V.Op = UO->isIncrementOp() ? "+=" : "-=";
    V.Value = ValueExpr::intLit(1);
    St.Value = std::move(V);
    return;
  }
  failed(S->getBeginLoc(), "expression statement that is not an assignment");
}

void ValueLowering::finish(LoopNest &Out,
                           const std::set<std::string> &ParamNames) {
  // Integer names used as data: sizes stay symbolic, other constants become
  // literals, anything else is a scalar input of the kernel.
  std::set<std::string> NewInputs;
  std::function<void(Loop &)> Fix = [&](Loop &L) {
    for (Node &N : L.Body) {
      if (N.isLoop()) {
        Fix(N.loop());
        continue;
      }
      if (!N.S.Value)
        continue;
      N.S.Value->Value.walkMutable([&](ValueExpr &X) {
        if (X.Kind != ValueExpr::Index || X.CType.empty())
          return;
        std::string Tag = X.CType;
        X.CType.clear();
        if (ParamNames.count(X.Name))
          return;
        if (Tag == "const") {
          int64_t V = X.Int;
          X = ValueExpr::intLit(V);
        } else {
          X.Kind = ValueExpr::Scalar;
          NewInputs.insert(X.Name + "\t" + Tag.substr(Tag.find(':') + 1));
        }
      });
    }
  };
  Fix(Out.Root);
  for (const VarDecl *VD : ScalarOrder)
    Sem.Scalars.push_back(ScalarInfo[VD]);
  for (const std::string &NI : NewInputs) {
    size_t Tab = NI.find('\t');
    ScalarVar V;
    V.Name = NI.substr(0, Tab);
    V.CType = NI.substr(Tab + 1);
    V.Kind = ScalarVar::Input;
    if (!Sem.findScalar(V.Name))
      Sem.Scalars.push_back(V);
  }
  Sem.Complete = AllLowered;
  Sem.WhyNot = WhyNot;
  Out.Sem = std::move(Sem);
}
