//===- NestBuilder.cpp - One outermost loop to a LoopNest ----------------===//
//
// The nest as a whole: helpers the lowering files share, the `// roofline:`
// annotation, sizes and where their values come from, and the finished IR:
// each array's accesses settled together (rows split, docs/design.md
// "Linearized indices"), the conditions on sizes checked, the notes.
//
//===----------------------------------------------------------------------===//

#include "NestBuilder.h"
#include "CallSites.h"
#include "roofline/Support/Debug.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtOpenMP.h"
#include "clang/Basic/Builtins.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Frontend/OpenMP/OMP.h"

#include <algorithm>
#include <functional>

using namespace clang;
using namespace roofline;
using namespace roofline::frontend;

// --debug-only=roofline-lower: every refusal of the lowering, first or not
// (a try that fails may be retried another way; the first reason is the
// report's). docs/design.md, "Debug tracing".
#define DEBUG_TYPE "roofline-lower"
using IRStmt = roofline::Stmt;

//===----------------------------------------------------------------------===//
// Shared helpers
//===----------------------------------------------------------------------===//

/// __builtin_expect(x, c) (the likely/unlikely macros) returns x.
static bool isBranchHint(const Expr *E) {
  const auto *CE = dyn_cast<CallExpr>(E);
  if (!CE || CE->getNumArgs() < 1)
    return false;
  unsigned ID = CE->getBuiltinCallee();
  return ID == Builtin::BI__builtin_expect ||
         ID == Builtin::BI__builtin_expect_with_probability;
}

const Expr *roofline::frontend::strip(const Expr *E) {
  while ((E = stripParensAndCasts(E))) {
    if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
      E = M->getSubExpr(); // 'i + 3' bound to std::min's const int &
    else if (isBranchHint(E))
      E = cast<CallExpr>(E)->getArg(0); // likely(x): the value is x
    else
      break;
  }
  return E;
}

std::optional<Precision> roofline::frontend::precisionOf(QualType T) {
  const auto *BT = T.getCanonicalType()->getAs<BuiltinType>();
  if (!BT)
    return std::nullopt;
  switch (BT->getKind()) {
  case BuiltinType::Double:
  case BuiltinType::LongDouble:
    return Precision::F64;
  case BuiltinType::Float:
    return Precision::F32;
  case BuiltinType::Half:
  case BuiltinType::Float16:
    return Precision::F16;
  case BuiltinType::BFloat16:
    return Precision::BF16;
  case BuiltinType::Char_S:
  case BuiltinType::Char_U:
  case BuiltinType::SChar:
  case BuiltinType::UChar:
    return Precision::I8;
  case BuiltinType::Short:
  case BuiltinType::UShort:
    return Precision::I16;
  case BuiltinType::Int:
  case BuiltinType::UInt:
    return Precision::I32;
  case BuiltinType::Long:
  case BuiltinType::ULong:
  case BuiltinType::LongLong:
  case BuiltinType::ULongLong:
    return Precision::I64;
  default:
    return std::nullopt;
  }
}

std::optional<std::string>
roofline::frontend::mathFunctionName(StringRef Name) {
  static const char *Known[] = {
      "exp",  "exp2", "expm1", "log",  "log2",  "log10", "log1p", "sqrt",
      "rsqrt", "cbrt", "pow",  "sin",  "cos",   "tan",   "asin",  "acos",
      "atan", "atan2", "sinh", "cosh", "tanh",  "erf",   "erfc",  "fabs",
      "abs",  "floor", "ceil", "round", "trunc", "fmin", "fmax",  "min",
      "max",  "fmod", "hypot", "copysign"};
  Name = withoutBuiltinPrefix(Name);
  for (const char *K : Known) {
    if (Name == K)
      return std::string(K);
    // expf, expl, sqrtf, fmaxf ...
    if (Name.size() == strlen(K) + 1 && Name.starts_with(K) &&
        (Name.back() == 'f' || Name.back() == 'l'))
      return std::string(K);
  }
  return std::nullopt;
}

bool roofline::frontend::isFmaName(StringRef Name) {
  return Name == "fma" || Name == "fmaf" || Name == "fmal" ||
         Name == "__builtin_fma" || Name == "__builtin_fmaf";
}

StringRef roofline::frontend::withoutBuiltinPrefix(StringRef Name) {
  Name.consume_front("__builtin_");
  return Name;
}

bool roofline::frontend::isFloatClassName(StringRef Name) {
  Name = withoutBuiltinPrefix(Name);
  // glibc's out-of-line forms: __isnanf, __isinfl, __finite ...
  Name.consume_front("__");
  auto Known = [](StringRef N) {
    return N == "isnan" || N == "isinf" || N == "isinf_sign" ||
           N == "isfinite" || N == "finite" || N == "isnormal";
  };
  if (Known(Name))
    return true;
  return (Name.ends_with("f") || Name.ends_with("l")) &&
         Known(Name.drop_back());
}

bool roofline::frontend::isScalarMathName(StringRef Name) {
  return mathFunctionName(Name) || isFloatClassName(Name);
}

SourceLoc roofline::frontend::fileLoc(const SourceManager &SM,
                                      SourceLocation L) {
  SourceLoc R;
  PresumedLoc P = SM.getPresumedLoc(SM.getFileLoc(L));
  if (P.isInvalid())
    return R;
  R.File = P.getFilename();
  R.Line = P.getLine();
  R.Column = P.getColumn();
  return R;
}

std::string roofline::frontend::functionName(const FunctionDecl *FD,
                                             const ASTContext &Ctx) {
  std::string Name;
  llvm::raw_string_ostream OS(Name);
  FD->getNameForDiagnostic(OS, Ctx.getPrintingPolicy(), /*Qualified=*/true);
  return OS.str();
}

void roofline::frontend::splitPointerSum(const BinaryOperator *BO,
                                         const Expr *&Pointer,
                                         const Expr *&Offset) {
  bool LeftIsPointer = BO->getLHS()->getType()->isPointerType() ||
                       BO->getLHS()->getType()->isArrayType();
  Pointer = LeftIsPointer ? BO->getLHS() : BO->getRHS();
  Offset = LeftIsPointer ? BO->getRHS() : BO->getLHS();
}

const VarDecl *roofline::frontend::pointerBase(const Expr *E) {
  for (E = strip(E); E; E = strip(E)) {
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      return dyn_cast<VarDecl>(DRE->getDecl());
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      if (!BO->isAdditiveOp())
        return nullptr;
      const Expr *Offset = nullptr;
      splitPointerSum(BO, E, Offset);
      continue;
    }
    const auto *UO = dyn_cast<UnaryOperator>(E);
    if (!UO || UO->getOpcode() != UO_AddrOf)
      return nullptr;
    const auto *ASE = dyn_cast<ArraySubscriptExpr>(strip(UO->getSubExpr()));
    if (!ASE)
      return nullptr;
    E = ASE->getBase();
  }
  return nullptr;
}

bool roofline::frontend::assignsFieldOf(const ModificationSites &Mod,
                                        const RecordDecl *R) {
  return llvm::any_of(R->fields(),
                      [&](const FieldDecl *F) { return Mod.Fields.count(F) != 0; });
}

namespace {

/// Whether every reference to \p P in \p Scope reads a field `P->f`, f a
/// pointer or a number (which may be written through).
bool onlyReadsFields(const clang::Stmt *Scope, const VarDecl *P) {
  std::vector<const clang::Stmt *> All;
  collectStmts(Scope, All);
  llvm::DenseSet<const clang::Stmt *> Read;
  for (const clang::Stmt *S : All)
    if (const auto *ME = dyn_cast<MemberExpr>(S))
      if (const auto *DRE = dyn_cast<DeclRefExpr>(strip(ME->getBase())))
        if (const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl());
            DRE->getDecl() == P && ME->isArrow() && F &&
            (F->getType()->isPointerType() ||
             F->getType()->isArithmeticType()))
          Read.insert(DRE);
  for (const clang::Stmt *S : All)
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
      if (DRE->getDecl() == P && !Read.count(DRE))
        return false;
  return true;
}

/// Whether \p Callee, given a pointer to a struct as its parameter \p P,
/// provably changes none of the struct's fields: it only reads `P->f` (f a
/// pointer or a number, which it may write through: runq.c's
/// `quantize(&s->xq, ...)` stores xq->q[i]), never assigns P, never lets P
/// go (no `*P`, no `P` passed on), and assigns no field of the struct's
/// type anywhere. `&s->xq` passed to such a callee does not assign s->xq
/// (docs/design.md, "Pointer fields").
bool keepsFields(const FunctionDecl *Callee, const ParmVarDecl *P) {
  static thread_local unsigned Depth = 0;
  const FunctionDecl *Def = nullptr;
  if (!Callee || !Callee->hasBody(Def) || Depth > 4)
    return false;
  QualType T = P->getType();
  const RecordDecl *R =
      T->isPointerType() ? T->getPointeeType()->getAsRecordDecl() : nullptr;
  if (!R || !(R = R->getDefinition()))
    return false;
  P = Def->getParamDecl(P->getFunctionScopeIndex());
  if (!onlyReadsFields(Def->getBody(), P))
    return false;
  ++Depth;
  ModificationSites Mod = modificationsIn(Def->getBody());
  --Depth;
  return !Mod.Vars.count(P) && !assignsFieldOf(Mod, R);
}

/// Every variable a statement assigns, increments or takes the address of,
/// and every field it assigns: one traversal answers "is X modified here?"
/// for all X.
class ModifiedVars : public RecursiveASTVisitor<ModifiedVars> {
public:
  ModificationSites Sites;

  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isAssignmentOp())
      note(BO->getLHS(), BO);
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if ((UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf) &&
        !KeptFields.count(UO))
      note(UO->getSubExpr(), UO);
    return true;
  }
  // Bound to a non-const reference, a variable may be written through it:
  // `f(l)` with `void f(int &)`, `int &r = l;`, `std::cin >> l`.
  bool VisitCallExpr(CallExpr *CE) {
    const FunctionDecl *Callee = CE->getDirectCallee();
    unsigned Shift = isa<CXXOperatorCallExpr>(CE) && Callee &&
                             isa<CXXMethodDecl>(Callee)
                         ? 1
                         : 0;
    for (unsigned I = 0; I < CE->getNumArgs(); ++I) {
      const Expr *Arg = CE->getArg(I);
      // `&s->xq` to a callee that changes no field of *xq (visited before
      // the argument: the traversal is preorder).
      if (const auto *UO = dyn_cast<UnaryOperator>(strip(Arg));
          UO && UO->getOpcode() == UO_AddrOf &&
          isa<MemberExpr>(strip(UO->getSubExpr())) && Callee &&
          !isa<CXXOperatorCallExpr>(CE) && !isa<CXXMemberCallExpr>(CE) &&
          I < Callee->getNumParams() &&
          keepsFields(Callee, Callee->getParamDecl(I)))
        KeptFields.insert(UO);
      if (!Arg->isGLValue())
        continue; // copied into the call
      // The object of a const operator (`A[i]` of a view class) stays.
      if (I < Shift && cast<CXXMethodDecl>(Callee)->isConst())
        continue;
      if (Callee && I >= Shift && I - Shift < Callee->getNumParams() &&
          !bindsMutableRef(Callee->getParamDecl(I - Shift)->getType()))
        continue;
      note(Arg, CE);
    }
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *CE) {
    const CXXConstructorDecl *Ctor = CE->getConstructor();
    for (unsigned I = 0; I < CE->getNumArgs(); ++I)
      if (CE->getArg(I)->isGLValue() &&
          (!Ctor || I >= Ctor->getNumParams() ||
           bindsMutableRef(Ctor->getParamDecl(I)->getType())))
        note(CE->getArg(I), CE);
    return true;
  }
  bool VisitVarDecl(VarDecl *VD) {
    if (VD->getInit() && bindsMutableRef(VD->getType()))
      note(VD->getInit(), VD->getInit());
    // `Config *p = &m->config;` (visited before its initializer): no
    // change of the struct unless p is used otherwise than to read fields
    // (finish decides).
    const auto *UO = VD->getInit() ? dyn_cast<UnaryOperator>(strip(VD->getInit())) : nullptr;
    if (UO && UO->getOpcode() == UO_AddrOf && isa<MemberExpr>(strip(UO->getSubExpr())) &&
        VD->getType()->isPointerType() && VD->getType()->getPointeeType()->getAsRecordDecl()) {
      KeptFields.insert(UO);
      FieldViews.push_back({UO, VD});
    }
    return true;
  }
  /// The address-ofs of fields kept in a local pointer, after the traversal
  /// of \p Scope: a change of the struct after all where the pointer is
  /// assigned, used otherwise than to read fields, or the struct's own
  /// fields are assigned (as keepsFields asks of a callee's parameter).
  void finish(const clang::Stmt *Scope) {
    for (const FieldView &F : FieldViews) {
      const RecordDecl *R = F.VD->getType()->getPointeeType()->getAsRecordDecl();
      R = R ? R->getDefinition() : nullptr;
      bool Kept = R && !Sites.Vars.count(F.VD) && onlyReadsFields(Scope, F.VD) &&
                  !assignsFieldOf(Sites, R);
      if (!Kept)
        note(F.UO->getSubExpr(), F.UO);
    }
  }

private:
  struct FieldView {
    const UnaryOperator *UO;
    const VarDecl *VD;
  };
  std::vector<FieldView> FieldViews;
  /// Address-ofs passed to a callee that keeps the struct's fields.
  llvm::DenseSet<const UnaryOperator *> KeptFields;
  static bool bindsMutableRef(QualType T) {
    return T->isReferenceType() &&
           !T.getNonReferenceType().isConstQualified();
  }
  // Statements, not source locations: inside one macro expansion every
  // token has the same file location.
  void note(const Expr *E, const clang::Stmt *Site) {
    E = strip(E);
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        Sites.Vars[VD].push_back({DRE, Site});
    } else if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      if (const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl())) {
        Sites.Fields.insert(F);
        Sites.FieldSites[F].push_back(Site);
      }
    }
  }
};

} // namespace

ModificationSites roofline::frontend::modificationsIn(const clang::Stmt *S) {
  ModifiedVars F;
  if (S)
    F.TraverseStmt(const_cast<clang::Stmt *>(S));
  F.finish(S);
  return std::move(F.Sites);
}

bool roofline::frontend::containsStmt(const clang::Stmt *S,
                                      const clang::Stmt *Needle) {
  if (!S)
    return false;
  if (S == Needle)
    return true;
  // An OpenMP region's body hangs off its CapturedStmt, which children()
  // does not list.
  if (const auto *CS = dyn_cast<CapturedStmt>(S))
    if (containsStmt(CS->getCapturedStmt(), Needle))
      return true;
  for (const clang::Stmt *Child : S->children())
    if (containsStmt(Child, Needle))
      return true;
  return false;
}

void roofline::frontend::declRefsIn(const clang::Stmt *S,
                                    std::vector<const DeclRefExpr *> &Out) {
  if (!S)
    return;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    if (isa<VarDecl>(DRE->getDecl()))
      Out.push_back(DRE);
  for (const clang::Stmt *C : S->children())
    declRefsIn(C, Out);
}

//===----------------------------------------------------------------------===//
// The builder
//===----------------------------------------------------------------------===//

NestBuilder::NestBuilder(ASTContext &Ctx, const FunctionDecl *FD,
                         const CallSiteCollector &Calls,
                         const FrontendOptions &Opts, CaseAssignment Case)
    : Ctx(Ctx), SM(Ctx.getSourceManager()), FD(FD), Calls(Calls), Opts(Opts),
      Case(std::move(Case)),
      Values(Ctx, IVDecls, [this](SourceLocation L) { return loc(L); }) {}

std::string NestBuilder::caseLabel() const {
  std::string L;
  for (const auto &[Text, V] : CaseUsed)
    L += (L.empty() ? "" : " && ") + Text;
  return L;
}

bool NestBuilder::fail(SourceLocation L, RejectKind K, const Twine &Why) {
  ROOFLINE_DEBUG({
    SourceLoc At = fileLoc(SM, L);
    llvm::dbgs() << "lower: " << At.File << ":" << At.Line << ":" << At.Column
                 << ": refused [" << rejectKindSlug(K) << "]: " << Why;
    if (!Reason.empty())
      llvm::dbgs() << " (the report keeps: " << Reason << ")";
    llvm::dbgs() << "\n";
  });
  if (Reason.empty()) {
    Reason = Why.str();
    ReasonKind = K;
    ReasonLoc = L;
  }
  return false;
}

RejectKind NestBuilder::accessFailKind(const Expr *E) {
  // A subscript or offset of E that reads the nest's data is the cause
  // (viewOf words it with dataIndexReason); any other is not affine.
  const Expr *S = strip(E);
  if (const auto *AS = dyn_cast_or_null<ArraySubscriptExpr>(S))
    return usesNestData(AS->getIdx()) ? RejectKind::DataDependentIndex
                                      : accessFailKind(AS->getBase());
  if (const auto *UO = dyn_cast_or_null<UnaryOperator>(S);
      UO && UO->getOpcode() == UO_Deref)
    return accessFailKind(UO->getSubExpr());
  if (const auto *BO = dyn_cast_or_null<BinaryOperator>(S);
      BO && BO->isAdditiveOp() && S->getType()->isPointerType()) {
    const Expr *P = nullptr, *Off = nullptr;
    splitPointerSum(BO, P, Off);
    return usesNestData(Off) ? RejectKind::DataDependentIndex
                             : accessFailKind(P);
  }
  return RejectKind::NonAffineIndex;
}

std::string NestBuilder::text(const clang::Stmt *S) const {
  // Inside a macro the spelling is the macro's use (assert(...)).
  CharSourceRange R = CharSourceRange::getTokenRange(S->getSourceRange());
  if (R.getBegin().isMacroID() || R.getEnd().isMacroID())
    R = SM.getExpansionRange(R);
  return Lexer::getSourceText(R, SM, Ctx.getLangOpts()).str();
}

SourceLoc NestBuilder::loc(SourceLocation L) const { return fileLoc(SM, L); }

void NestBuilder::addNote(std::string Note) {
  if (std::find(Notes.begin(), Notes.end(), Note) == Notes.end())
    Notes.push_back(std::move(Note));
}

void NestBuilder::noteExtended(SourceLocation L, const std::string &Why) {
  if (Extended)
    return;
  Extended = true;
  SourceLoc P = loc(L);
  ExtendedWhy = std::to_string(P.Line) + ":" + std::to_string(P.Column) +
                ": " + Why + "; code generation emits plain array nests only";
}

/// The comment line right above the nest's first line, from the buffer
/// Clang parsed (so it works for headers and unsaved files alike).
void NestBuilder::readAnnotation(SourceLocation NestBegin) {
  std::pair<FileID, unsigned> D = SM.getDecomposedLoc(SM.getFileLoc(NestBegin));
  bool Invalid = false;
  StringRef Buf = SM.getBufferData(D.first, &Invalid);
  if (Invalid || D.second > Buf.size())
    return;
  size_t LineStart = Buf.rfind('\n', D.second);
  if (LineStart == StringRef::npos || LineStart == D.second)
    return; // the nest starts on the first line
  StringRef Before = Buf.substr(0, LineStart);
  size_t PrevStart = Before.rfind('\n');
  StringRef Prev =
      Before.substr(PrevStart == StringRef::npos ? 0 : PrevStart + 1);
  llvm::Expected<std::optional<roofline::SizeMap>> A =
      roofline::parseNestAnnotation(Prev.rtrim("\r"));
  if (!A) {
    AnnotationProblem = llvm::toString(A.takeError());
    return;
  }
  if (*A)
    Pinned = std::move(**A);
}

/// Where a size's value comes from, beside the source: `--param` (scoped
/// to the function as `fn:N` first), the nest's annotation, then
/// .roofline.yaml, then (in a program walk) a literal the file assigns to
/// the field; a field may be given by its own name (`dim` for `p->dim`).
/// docs/roofline-lint.md, "Sizes".
std::optional<int64_t> NestBuilder::givenValue(const std::string &Name,
                                               std::string &Origin,
                                               bool IsField) const {
  std::string Fn = FD->getNameAsString();
  std::string Field;
  size_t Cut = Name.find_last_of(".>");
  if (IsField && Cut != std::string::npos)
    Field = Name.substr(Cut + 1);
  auto Lookup = [&](const std::map<std::string, int64_t> &M,
                    const char *What) -> std::optional<int64_t> {
    for (const std::string &Key :
         {Fn + ":" + Name, Name, Field.empty() ? "" : Fn + ":" + Field,
          Field})
      if (!Key.empty())
        if (auto It = M.find(Key); It != M.end()) {
          Origin = What;
          MatchedKeys.insert(Key); // for "names no size" warnings
          return It->second;
        }
    return std::nullopt;
  };
  if (auto V = Lookup(Opts.CallParams, "call"))
    return V;
  if (auto V = Lookup(Opts.Params, "--param"))
    return V;
  if (auto V = Lookup(Pinned, "annotation"))
    return V;
  if (auto V = Lookup(Opts.ConfigParams, "config"))
    return V;
  if (auto It = Opts.FieldLiterals.find(Field);
      !Field.empty() && It != Opts.FieldLiterals.end()) {
    Origin = "program";
    return It->second;
  }
  return std::nullopt;
}

void NestBuilder::addParam(const SizeName &S) {
  ParamSet.insert(S.Name);
  if (Params.count(S.Name))
    return;
  Param P;
  P.Name = S.Name;
  P.Value = S.Value;
  P.Origin = S.Origin;
  P.Derived = S.Derived;
  std::string Origin;
  if (std::optional<int64_t> V =
          givenValue(S.Name, Origin, /*IsField=*/S.Origin == "field")) {
    // A size the source fixes keeps its value against the config file: only
    // an explicit --param or the nest's own annotation overrides it.
    bool Fixed = S.Value && (S.Origin == "constexpr" || S.Origin == "const" ||
                             S.Origin == "template" || S.Origin == "macro" ||
                             S.Origin == "local");
    if (Fixed && Origin == "config") {
      if (*V != *S.Value)
        Notes.push_back("size " + S.Name + " = " + std::to_string(*S.Value) +
                        " is fixed by the source (" + S.Origin +
                        "); the config's value " + std::to_string(*V) +
                        " is not used");
    } else {
      if (Fixed && *V != *S.Value)
        Notes.push_back("size " + S.Name + " = " + std::to_string(*V) +
                        " from " + Origin + " (the source says " +
                        std::to_string(*S.Value) + ")");
      P.Value = *V;
      P.Origin = Origin;
    }
  }
  Params[S.Name] = P;
}

void NestBuilder::registerProducts(const std::vector<SizeMonomial> &Products) {
  for (const SizeMonomial &M : Products) {
    if (M.size() < 2)
      continue;
    SizeName S;
    S.Name = monomialName(M);
    S.Origin = "product";
    DerivedSize D;
    D.Numerator.push_back({1, M});
    S.Derived = D;
    addParam(S);
  }
}

//===----------------------------------------------------------------------===//
// Building
//===----------------------------------------------------------------------===//

bool NestBuilder::build(const clang::Stmt *Outermost, LoopNest &Out) {
  Out.Function = functionName(FD, Ctx);
  Out.Loc = loc(Outermost->getBeginLoc());
  Nest = Outermost;
  Values.beginNest(Outermost);
  readAnnotation(Outermost->getBeginLoc());
  Frames.push_back({FD, modificationsIn(FD->getBody())});
  if (const auto *D = dyn_cast<OMPExecutableDirective>(Outermost))
    return fail(Outermost->getBeginLoc(), RejectKind::OpenMP,
                Twine("loop inside an OpenMP '") +
                    llvm::omp::getOpenMPDirectiveName(D->getDirectiveKind()) +
                    "' region: each thread of a team may run it; only "
                    "worksharing and simd loops are counted");
  if (const auto *RS = dyn_cast<CXXForRangeStmt>(Outermost)) {
    if (!lowerRangeFor(RS, Out.Root))
      return false;
    return finishNest(Out);
  }
  const auto *FS = dyn_cast<ForStmt>(Outermost);
  if (!FS) {
    if (isa<WhileStmt>(Outermost) || isa<DoStmt>(Outermost))
      return fail(Outermost->getBeginLoc(), RejectKind::WhileLoop,
                  "while loop: trip count is not statically known");
    return fail(Outermost->getBeginLoc(), RejectKind::NotAForLoop,
                "not a for loop");
  }
  std::vector<Node> Roots;
  if (!lowerFor(FS, Roots))
    return false;
  if (Roots.size() != 1) {
    // The outermost loop split in two ranges, or a statement from its
    // header (`for (i = 0, sum = 0; ...)`) before it: in order, inside a
    // loop that runs once (its variable is used nowhere).
    const Node &First = *llvm::find_if(
        Roots, [](const Node &N) { return N.isLoop(); });
    Loop Once;
    Once.IV = freshIV(First.loop().IV + "_parts");
    Once.First = Once.Last = Bound::single(AffineExpr(0));
    Once.Loc = First.loop().Loc;
    Once.Body = std::move(Roots);
    Roots.clear();
    Roots.push_back(Node::loop(std::move(Once)));
  }
  Out.Root = std::move(Roots.front().loop());
  return finishNest(Out);
}

namespace {

/// Value ranges, for the one question below.
using Interval = std::pair<__int128, __int128>;

__int128 floorDiv128(__int128 A, int64_t D) {
  return A >= 0 ? A / D : -((-A + D - 1) / D);
}

std::optional<Interval>
intervalOf(const AffineExpr &E, const SizeValues &Sizes,
           const std::map<std::string, Interval> &IVs) {
  Interval R{E.constant(), E.constant()};
  for (const auto &[Name, C] : E.terms()) {
    Interval V;
    if (std::optional<int64_t> S = sizeValue(Name, Sizes))
      V = {*S, *S};
    else if (auto It = IVs.find(Name); It != IVs.end())
      V = It->second;
    else
      return std::nullopt; // a size without a value
    __int128 A = V.first * C, B = V.second * C;
    R.first += std::min(A, B);
    R.second += std::max(A, B);
  }
  return R;
}

std::optional<Interval>
intervalOf(const Bound &B, const SizeValues &Sizes,
           const std::map<std::string, Interval> &IVs) {
  std::optional<Interval> R;
  for (const BoundTerm &T : B.Terms) {
    std::optional<Interval> V = intervalOf(T.Expr, Sizes, IVs);
    if (!V)
      return std::nullopt;
    V = Interval{floorDiv128(V->first, T.Divisor),
                 floorDiv128(V->second, T.Divisor)};
    if (!R)
      R = V;
    else if (B.Kind == Bound::Min)
      R = Interval{std::min(R->first, V->first),
                   std::min(R->second, V->second)};
    else
      R = Interval{std::max(R->first, V->first),
                   std::max(R->second, V->second)};
  }
  return R;
}

/// Every loop variable's hull of values (loops that reuse a name share one).
void ivRanges(const Loop &L, const SizeValues &Sizes,
              std::map<std::string, Interval> &IVs) {
  std::optional<Interval> F = intervalOf(L.First, Sizes, IVs);
  std::optional<Interval> La = intervalOf(L.Last, Sizes, IVs);
  if (F && La) {
    Interval V{std::min(F->first, La->first), std::max(F->second, La->second)};
    auto [It, New] = IVs.try_emplace(L.IV, V);
    if (!New)
      It->second = {std::min(It->second.first, V.first),
                    std::max(It->second.second, V.second)};
  }
  for (const Node &N : L.Body)
    if (N.isLoop())
      ivRanges(N.loop(), Sizes, IVs);
}

SizeValues knownSizes(const std::vector<Param> &Params) {
  SizeValues S;
  for (const Param &P : Params)
    if (P.Value)
      S[P.Name] = *P.Value;
  return S;
}

/// The IR lowers '/' in a bound as floor division; C truncates toward zero,
/// and the two differ when the dividend is negative. With the sizes known,
/// a nest where a dividend (as written) can be negative is refused rather
/// than counted one iteration short.
std::optional<std::string>
negativeDividend(const LoopNest &N, llvm::ArrayRef<AffineExpr> Dividends) {
  if (Dividends.empty())
    return std::nullopt;
  SizeValues Sizes = knownSizes(N.Params);
  std::map<std::string, Interval> IVs;
  ivRanges(N.Root, Sizes, IVs);
  for (const AffineExpr &D : Dividends) {
    std::optional<Interval> V = intervalOf(D, Sizes, IVs);
    if (V && V->first < 0)
      return "'/' in a loop bound divides a value that can be negative (" +
             D.str() + " can be " +
             std::to_string(static_cast<int64_t>(V->first)) +
             "): C rounds it toward zero, not down";
  }
  return std::nullopt;
}

/// "B[k][j]": an access as the analysis sees it; "wte(row ix)[i]" within
/// a row that a loaded index picks.
std::string subscriptedText(const Access &Acc) {
  std::string T = Acc.ArrayName;
  if (!Acc.GatherLoop.empty())
    T += "(row " + Acc.GatherIndex + ")";
  for (size_t I = 0; I < Acc.Subscripts.size(); ++I) {
    const auto &Sub = Acc.Subscripts[I];
    std::string S = Sub ? Sub->str() : std::string("?");
    // A point gather's element is its row's plus the loaded index.
    if (!Acc.GatherIndex.empty() && Acc.GatherLoop.empty() &&
        I + 1 == Acc.Subscripts.size())
      S = S == "0" ? Acc.GatherIndex : S + " + " + Acc.GatherIndex;
    T += "[" + S + "]";
  }
  return T;
}

/// floor(sum Num / sum Den) at \p Values, for a derived size.
std::optional<int64_t> derivedValue(const DerivedSize &D,
                                    const SizeValues &Values) {
  auto Sum = [&](const std::vector<SizeTerm> &Terms)
      -> std::optional<__int128> {
    __int128 S = 0;
    for (const SizeTerm &T : Terms) {
      __int128 P = T.Coeff;
      for (const std::string &F : T.Factors) {
        auto It = Values.find(F);
        if (It == Values.end())
          return std::nullopt;
        P *= It->second;
        if (P > INT64_MAX || P < INT64_MIN)
          return std::nullopt;
      }
      S += P;
    }
    return S;
  };
  std::optional<__int128> N = Sum(D.Numerator);
  std::optional<__int128> Dn =
      D.Denominator.empty() ? std::optional<__int128>(1) : Sum(D.Denominator);
  if (!N || !Dn || *Dn <= 0 || *N > INT64_MAX || *N < INT64_MIN)
    return std::nullopt;
  // C's '/' truncates; sizes are non-negative where it matters, and a
  // negative quotient is refused by the conditions the quotient states.
  return static_cast<int64_t>(*N / *Dn);
}

bool isIdentifier(StringRef S) {
  if (S.empty() || !(isalpha(S[0]) || S[0] == '_'))
    return false;
  return llvm::all_of(S, [](char C) { return isalnum(C) || C == '_'; });
}

} // namespace

SizeValues NestBuilder::sizeValues() {
  SizeValues Vals;
  for (const auto &[Name, P] : Params)
    if (P.Value)
      Vals[Name] = *P.Value;
  // Derived sizes take their values from their parts where no value was
  // given for them (a quotient's numerator may be a product: two rounds).
  for (int Round = 0; Round < 2; ++Round)
    for (auto &[Name, P] : Params)
      if (P.Derived && !Vals.count(Name))
        if (std::optional<int64_t> V = derivedValue(*P.Derived, Vals))
          Vals[Name] = *V;
  return Vals;
}

// Offsets that do not split into disjoint rows (genann's layer blocks
// start at (inputs+1)*hidden, no multiple of their rows of hidden+1) stay
// one dimension: each stride a loop variable multiplies takes its value,
// so the index is affine with integer coefficients and the footprint is
// the exact union of the addresses at these sizes (docs/user-guide.md,
// "Pointers into arrays"). Without values the split's reason stands.
std::optional<std::vector<AffineExpr>>
NestBuilder::flatAtSizes(const std::string &Array,
                         const std::vector<DelinearizeAccess> &In,
                         const SizeValues &Vals, std::string &Why) {
  std::vector<AffineExpr> Out;
  std::map<std::string, int64_t> Used;
  for (const DelinearizeAccess &A : In) {
    IndexPoly Index;
    for (const auto &[M, Coef] : A.Index.parts()) {
      std::vector<std::string> IVs;
      for (const auto &[Name, C] : Coef.terms())
        IVs.push_back(Name);
      IndexPoly Term = IndexPoly::fromAffine(Coef, IVs);
      std::optional<IndexPoly> Next = Term;
      bool LoopVarProduct = false;
      for (const std::string &F : M) {
        if (Coef.isConstant()) {
          // An offset free of loop variables shifts every address alike:
          // it stays symbolic.
          Next = Next ? Next->mul(IndexPoly::size(F), LoopVarProduct)
                      : std::nullopt;
          continue;
        }
        std::optional<int64_t> V = sizeValue(F, Vals);
        if (!V) {
          Why += F[0] == '('
                     ? " (with values for the sizes of '" + F +
                           "' it is counted as one dimension)"
                     : " (with a value for '" + F + "' it is counted as one "
                       "dimension: --param " + F + "=N)";
          return std::nullopt;
        }
        Used[F] = *V;
        Next = Next ? Next->scale(*V) : std::nullopt;
      }
      Next = Next ? Index.add(*Next) : std::nullopt;
      if (!Next) {
        Why = "index arithmetic of '" + Array + "' overflows at these sizes";
        return std::nullopt;
      }
      Index = *Next;
    }
    std::vector<SizeMonomial> Products;
    std::optional<AffineExpr> E = Index.toAffine(&Products);
    if (!E) {
      Why = "index arithmetic of '" + Array + "' overflows at these sizes";
      return std::nullopt;
    }
    registerProducts(Products);
    Out.push_back(*E);
  }
  std::string At;
  for (const auto &[Name, V] : Used)
    At += (At.empty() ? "" : ", ") + Name + " = " + std::to_string(V);
  std::string Note = "'" + Array + "' is indexed as one dimension (" + Why +
                     "); its strides are counted at " + At +
                     ": its counts hold for these values only";
  addNote(std::move(Note));
  return Out;
}

bool NestBuilder::splitLastDimension(
    const ArrayBase &AB, const std::vector<DelinearizeAccess> &In,
    SourceLocation Loc, const SizeValues &Vals,
    std::vector<std::optional<AffineExpr>> &Extents,
    std::vector<std::vector<std::optional<AffineExpr>> *> Subs) {
  llvm::Expected<Delinearized> D =
      delinearize(AB.Name, In, Relations, Vals, Sums);
  if (!D) {
    std::string Why = llvm::toString(D.takeError());
    std::optional<std::vector<AffineExpr>> Flat =
        flatAtSizes(AB.Name, In, Vals, Why);
    if (!Flat)
      return fail(Loc, RejectKind::OverlappingRows, Why);
    Extents = {AB.Extents.back()};
    for (size_t K = 0; K < Subs.size(); ++K)
      Subs[K]->push_back((*Flat)[K]);
    return true;
  }
  registerProducts(D->Products);
  for (SizeCondition &C : D->Conditions)
    Conditions.push_back(std::move(C));
  for (std::string &N : D->Notes)
    addNote(std::move(N));
  Extents = D->Extents;
  // A constant extent the declaration gives stays (float buf[64]).
  if (D->Extents.size() == 1)
    Extents = {AB.Extents.back()};
  for (size_t K = 0; K < Subs.size(); ++K)
    Subs[K]->insert(Subs[K]->end(), D->Subscripts[K].begin(),
                    D->Subscripts[K].end());
  return true;
}

bool NestBuilder::settleAccesses(Loop &Root) {
  SizeValues Vals = sizeValues();
  std::map<unsigned, std::vector<size_t>> ByBase;
  for (size_t I = 0; I < Pending.size(); ++I) {
    ByBase[Pending[I].Base].push_back(I);
    for (IndexPoly &P : Pending[I].Subs)
      if (!pinSizes(P))
        return fail(Pending[I].Loc, RejectKind::Overflow,
                    "index arithmetic overflows at the sizes "
                    "a condition was counted at");
  }
  std::vector<std::vector<std::optional<AffineExpr>>> Subs(Pending.size());
  std::vector<std::vector<std::optional<AffineExpr>>> Extents(Bases.size());
  for (const auto &[B, Ids] : ByBase) {
    ArrayBase &AB = Bases[B];
    // Dimensions before the last are as declared; the only one, or a last
    // one of unknown extent (a row pointer's), is split into rows.
    bool SplitLast = AB.Extents.size() == 1 || !AB.Extents.back();
    size_t Lead = AB.Extents.size() - (SplitLast ? 1 : 0);
    for (size_t I : Ids)
      for (size_t D = 0; D < Lead; ++D) {
        const IndexPoly &P = Pending[I].Subs[D];
        std::vector<SizeMonomial> Products;
        std::optional<AffineExpr> E = P.toAffine(&Products);
        if (!E)
          return fail(Pending[I].Loc, RejectKind::NonAffineIndex,
                      "non-affine subscript '" + P.str() + "' of '" + AB.Name +
                          "' (a loop variable times a size "
                          "in a declared dimension)");
        registerProducts(Products);
        Subs[I].push_back(*E);
      }
    Extents[B].assign(AB.Extents.begin(), AB.Extents.begin() + Lead);
    if (!SplitLast)
      continue;
    std::vector<DelinearizeAccess> In;
    std::vector<std::vector<std::optional<AffineExpr>> *> Out;
    for (size_t I : Ids) {
      In.push_back({Pending[I].Subs.back(), Pending[I].Loops});
      Out.push_back(&Subs[I]);
    }
    std::vector<std::optional<AffineExpr>> Last;
    if (!splitLastDimension(AB, In, Pending[Ids.front()].Loc, Vals, Last, Out))
      return false;
    Extents[B].insert(Extents[B].end(), Last.begin(), Last.end());
  }
  // Fill the IR's accesses: each carries its pending index until now.
  std::function<void(Loop &)> Fill = [&](Loop &L) {
    for (Node &N : L.Body) {
      if (N.isLoop()) {
        Fill(N.loop());
        continue;
      }
      for (Access &A : N.S.Accesses) {
        assert(!A.Text.empty() && A.Text[0] == '@' && "unsettled access");
        size_t Id = std::stoul(A.Text.substr(1));
        A.Subscripts = Subs[Id];
        A.GatherIndex = Pending[Id].Gather;
        A.GatherLoop = Pending[Id].GatherLoop;
        A.Text = subscriptedText(A);
      }
    }
  };
  Fill(Root);
  for (size_t B = 0; B < Bases.size(); ++B)
    if (Bases[B].Used && Extents[B].empty())
      Extents[B] = Bases[B].Extents;
  ArrayExtents = std::move(Extents);
  return true;
}

bool NestBuilder::checkSizeConditions(const LoopNest &Out, SourceLocation At) {
  SizeValues Vals = knownSizes(Out.Params);
  for (const SizeCondition &C : Conditions) {
    std::optional<__int128> V = evalSizes(C.Expr, Vals);
    if (V && *V < 0)
      return fail(At, RejectKind::SizeAssumption,
                  "the sizes break an assumption the counts need: " + C.What +
                      " (" + C.Expr.str() + " >= 0 fails)");
  }
  return true;
}

bool NestBuilder::finishNest(LoopNest &Out) {
  if (!settleAccesses(Out.Root))
    return false;
  for (const auto &[Name, V] : Pinned)
    if (!ParamSet.count(Name) && !MatchedKeys.count(Name) &&
        AnnotationProblem.empty())
      AnnotationProblem = "roofline annotation sets '" + Name +
                          "', which names no size of this nest";
  SizeValues Vals = sizeValues();
  for (auto &[Name, P] : Params) {
    if (P.Derived && !P.Value)
      if (auto It = Vals.find(Name); It != Vals.end())
        P.Value = It->second;
    Out.Params.push_back(P);
  }
  if (std::optional<std::string> Why = negativeDividend(Out, Dividends))
    return fail(Nest->getBeginLoc(), RejectKind::LoopBound, *Why);
  if (!checkSizeConditions(Out, Nest->getBeginLoc()))
    return false;
  for (size_t B = 0; B < Bases.size(); ++B) {
    const ArrayBase &AB = Bases[B];
    if (!AB.Used)
      continue;
    Array A;
    A.Name = AB.Name;
    A.Elem = AB.Elem;
    A.Extents = ArrayExtents[B];
    A.FromPointer = AB.IsPointer && !AB.Type.isRestrictQualified();
    A.Scratch = AB.Scratch;
    if (AB.RowPointers)
      addNote("assumes the rows of '" + AB.Name +
              "' (a pointer each) do not overlap; the row pointers themselves "
              "are not counted");
    A.Loc = loc(AB.Decl ? AB.Decl->getLocation() : Nest->getBeginLoc());
    Out.Arrays.push_back(std::move(A));
  }
  SizeValues Final = knownSizes(Out.Params);
  for (SizeCondition &C : Conditions)
    if (!evalSizes(C.Expr, Final) &&
        std::none_of(Out.Conditions.begin(), Out.Conditions.end(),
                     [&](const SizeCondition &O) { return O.Expr == C.Expr; }))
      Out.Conditions.push_back(C);
  Out.Notes = Notes;
  Out.Case = caseLabel();
  // Each case is a nest of its own in every report.
  if (!Out.Case.empty())
    Out.Function += " [" + Out.Case + "]";
  Values.finish(Out, ParamSet);
  // Code generation names the sizes the loops and accesses use.
  std::set<std::string> Used;
  auto Note = [&](const AffineExpr &E) {
    for (const auto &[Name, C] : E.terms())
      Used.insert(Name);
  };
  std::function<void(const Loop &)> Walk = [&](const Loop &L) {
    for (const Bound *B : {&L.First, &L.Last})
      for (const BoundTerm &T : B->Terms)
        Note(T.Expr);
    for (const Node &N : L.Body) {
      if (N.isLoop()) {
        Walk(N.loop());
        continue;
      }
      for (const Access &A : N.S.Accesses)
        for (const auto &Sub : A.Subscripts)
          if (Sub)
            Note(*Sub);
    }
  };
  Walk(Out.Root);
  for (const Array &A : Out.Arrays)
    for (const auto &E : A.Extents)
      if (E)
        Note(*E);
  for (const Param &P : Out.Params)
    if (Used.count(P.Name) && !isIdentifier(P.Name))
      noteExtended(Nest->getBeginLoc(),
                   "size '" + P.Name + "' is not a plain variable");
  for (const Array &A : Out.Arrays)
    if (!isIdentifier(A.Name))
      noteExtended(Nest->getBeginLoc(),
                   "array '" + A.Name + "' is not a plain variable");
  if (Extended) {
    Out.Sem.Complete = false;
    Out.Sem.WhyNot = ExtendedWhy;
  }
  return true;
}

std::vector<std::string> NestBuilder::aliasIssues() const {
  std::vector<std::string> Out;
  const char *Consequence = "; the counts treat them as distinct arrays, so "
                            "bytes may be counted twice, and generated "
                            "variants assume they do not overlap";
  std::map<unsigned, const ParmVarDecl *> ParamArrays;
  for (const ArrayBase &AB : Bases)
    if (const auto *PVD = dyn_cast_or_null<ParmVarDecl>(AB.Decl);
        PVD && AB.Used && PVD->getDeclContext() == FD)
      ParamArrays[PVD->getFunctionScopeIndex()] = PVD;
  for (const SharedArgument &S : Calls.sharedArguments(FD)) {
    auto A = ParamArrays.find(S.First), B = ParamArrays.find(S.Second);
    if (A == ParamArrays.end() || B == ParamArrays.end())
      continue;
    SourceLoc L = loc(S.Call);
    Out.push_back("'" + declName(A->second) + "' and '" +
                  declName(B->second) +
                  "' are the same array at the call on line " +
                  std::to_string(L.Line) + ", which passes '" + S.Base +
                  "' for both" + Consequence);
    break; // the first such call makes the point
  }
  return Out;
}
