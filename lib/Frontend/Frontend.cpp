//===- Frontend.cpp - Clang AST to LoopNest IR -----------------------------===//
//
// Lowering is all-or-nothing per nest: the first construct that would make a
// count inexact (a while loop, an early exit, a data-dependent bound, an
// indirect subscript, an unknown call) records a reason and the nest is
// skipped. Sizes stay named (N, not 1024) so formulas come out symbolic,
// with the value the source gives attached to the parameter.
//
//===----------------------------------------------------------------------===//

#include "roofline/Frontend/Frontend.h"
#include "roofline/Frontend/Annotations.h"
#include "Semantics.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtOpenMP.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Lex/Lexer.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Frontend/OpenMP/OMP.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/SaveAndRestore.h"

#include <algorithm>

using namespace clang;
using roofline::Access;
using roofline::AffineExpr;
using roofline::Array;
using roofline::Bound;
using roofline::BoundTerm;
using roofline::declName;
using roofline::FrontendResult;
using roofline::Loop;
using roofline::LoopNest;
using roofline::Node;
using roofline::OpCounts;
using roofline::Param;
using roofline::Precision;
using roofline::SkippedNest;
using roofline::SourceLoc;
using roofline::isFloating;
using roofline::precisionBytes;
using IRStmt = roofline::Stmt;
using RFOptions = roofline::FrontendOptions;

namespace {

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// Parens and implicit casts off, but a substituted template argument kept:
/// it names a size (IgnoreParenImpCasts would look through it).
const Expr *strip(const Expr *E) {
  while (E) {
    if (const auto *P = dyn_cast<ParenExpr>(E))
      E = P->getSubExpr();
    else if (const auto *C = dyn_cast<ImplicitCastExpr>(E))
      E = C->getSubExpr();
    else if (const auto *F = dyn_cast<FullExpr>(E))
      E = F->getSubExpr();
    else if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
      E = M->getSubExpr(); // 'i + 3' bound to std::min's const int &
    else
      break;
  }
  return E;
}

std::optional<Precision> precisionOf(QualType T) {
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

/// Math functions counted by name; their results depend only on arguments.
std::optional<std::string> mathFunctionName(StringRef Name) {
  static const char *Known[] = {
      "exp",  "exp2", "expm1", "log",  "log2",  "log10", "log1p", "sqrt",
      "rsqrt", "cbrt", "pow",  "sin",  "cos",   "tan",   "asin",  "acos",
      "atan", "atan2", "sinh", "cosh", "tanh",  "erf",   "erfc",  "fabs",
      "abs",  "floor", "ceil", "round", "trunc", "fmin", "fmax",  "min",
      "max",  "fmod", "hypot", "copysign"};
  if (Name.starts_with("__builtin_"))
    Name = Name.drop_front(strlen("__builtin_"));
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

bool isFmaName(StringRef Name) {
  return Name == "fma" || Name == "fmaf" || Name == "fmal" ||
         Name == "__builtin_fma" || Name == "__builtin_fmaf";
}

/// An index expression: sum over stride monomials (products of parameter
/// names, "" for 1) of an affine expression. `i*K + k` is {K: i, "": k};
/// keeping the stride symbolic is what lets us delinearize it.
struct IndexForm {
  std::map<std::vector<std::string>, AffineExpr> Parts;

  static IndexForm of(AffineExpr E) {
    IndexForm F;
    F.Parts[{}] = std::move(E);
    return F;
  }
  bool isPlain() const {
    return Parts.empty() || (Parts.size() == 1 && Parts.count({}));
  }
  AffineExpr plain() const {
    auto It = Parts.find({});
    return It == Parts.end() ? AffineExpr() : It->second;
  }
  /// A lone parameter with coefficient 1 (a stride candidate).
  std::optional<std::string> loneParam(const std::set<std::string> &Params)
      const {
    if (!isPlain())
      return std::nullopt;
    AffineExpr E = plain();
    if (E.constant() != 0 || E.terms().size() != 1)
      return std::nullopt;
    const auto &[Name, C] = *E.terms().begin();
    if (C != 1 || !Params.count(Name))
      return std::nullopt;
    return Name;
  }
};

//===----------------------------------------------------------------------===//
// Call-site constants: sizes passed as constant arguments within the TU.
//===----------------------------------------------------------------------===//

/// The variable whose memory a pointer expression points into: `A`,
/// `A + 4`, `&A[i]`, `A.data()`; null for anything else.
const VarDecl *pointerBase(const Expr *E) {
  for (E = strip(E); E; E = strip(E)) {
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      return dyn_cast<VarDecl>(DRE->getDecl());
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      if (!BO->isAdditiveOp())
        return nullptr;
      E = BO->getLHS()->getType()->isPointerType() ? BO->getLHS()
                                                   : BO->getRHS();
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

/// Two pointer parameters of a function that one call passes the same
/// array to.
struct SharedArgument {
  unsigned First, Second; ///< parameter indices
  std::string Base;       ///< the variable passed to both
  SourceLocation Call;
};

class CallSiteCollector : public RecursiveASTVisitor<CallSiteCollector> {
public:
  explicit CallSiteCollector(ASTContext &Ctx) : Ctx(Ctx) {}
  bool shouldVisitTemplateInstantiations() const { return true; }

  bool VisitCallExpr(CallExpr *CE) {
    const FunctionDecl *FD = CE->getDirectCallee();
    if (!FD)
      return true;
    FD = FD->getCanonicalDecl();
    auto &Slots = Values[FD];
    Slots.resize(std::max<size_t>(Slots.size(), CE->getNumArgs()));
    for (unsigned I = 0; I < CE->getNumArgs(); ++I) {
      const Expr *A = CE->getArg(I);
      Expr::EvalResult R;
      if (!A->isValueDependent() && A->EvaluateAsInt(R, Ctx))
        Slots[I].Seen.insert(R.Val.getInt().getExtValue());
      else
        Slots[I].NonConstant = true;
    }
    noteSharedArguments(CE, FD);
    return true;
  }

  /// The calls that pass one array to two pointer parameters of \p FD.
  llvm::ArrayRef<SharedArgument> sharedArguments(const FunctionDecl *FD) const {
    auto It = Shared.find(FD->getCanonicalDecl());
    if (It == Shared.end())
      return {};
    return It->second;
  }

  /// The one constant every call passes for \p P, if there is one.
  std::optional<int64_t> valueOf(const ParmVarDecl *P) const {
    const auto *FD = dyn_cast<FunctionDecl>(P->getDeclContext());
    if (!FD)
      return std::nullopt;
    auto It = Values.find(FD->getCanonicalDecl());
    if (It == Values.end())
      return std::nullopt;
    unsigned Idx = P->getFunctionScopeIndex();
    if (Idx >= It->second.size())
      return std::nullopt;
    const Slot &S = It->second[Idx];
    if (S.NonConstant || S.Seen.size() != 1)
      return std::nullopt;
    return *S.Seen.begin();
  }

private:
  void noteSharedArguments(const CallExpr *CE, const FunctionDecl *FD) {
    for (unsigned I = 0; I < CE->getNumArgs(); ++I) {
      if (!CE->getArg(I)->getType()->isPointerType())
        continue;
      const VarDecl *BI = pointerBase(CE->getArg(I));
      for (unsigned J = I + 1; BI && J < CE->getNumArgs(); ++J)
        if (CE->getArg(J)->getType()->isPointerType() &&
            pointerBase(CE->getArg(J)) == BI) {
          Shared[FD].push_back({I, J, declName(BI), CE->getBeginLoc()});
          return; // one finding per call is enough
        }
    }
  }

  struct Slot {
    std::set<int64_t> Seen;
    bool NonConstant = false;
  };
  ASTContext &Ctx;
  std::map<const FunctionDecl *, std::vector<Slot>> Values;
  std::map<const FunctionDecl *, std::vector<SharedArgument>> Shared;
};

//===----------------------------------------------------------------------===//
// Does a statement modify a variable?
//===----------------------------------------------------------------------===//

/// Every variable a statement assigns, increments or takes the address of;
/// one traversal answers "is X modified here?" for all X.
class ModifiedVars : public RecursiveASTVisitor<ModifiedVars> {
public:
  /// The references through which each variable is modified. Statements,
  /// not source locations: inside one macro expansion every token has the
  /// same file location, so a location test cannot tell a loop's increment
  /// from its body.
  llvm::DenseMap<const VarDecl *, llvm::SmallVector<const Stmt *, 2>> Sites;

  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isAssignmentOp())
      note(BO->getLHS());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf)
      note(UO->getSubExpr());
    return true;
  }

private:
  void note(const Expr *E) {
    if (const auto *DRE = dyn_cast<DeclRefExpr>(strip(E)))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        Sites[VD].push_back(DRE);
  }
};

using ModificationSites =
    llvm::DenseMap<const VarDecl *, llvm::SmallVector<const Stmt *, 2>>;

/// Whether \p Needle is \p S or one of its descendants.
bool containsStmt(const Stmt *S, const Stmt *Needle) {
  if (!S)
    return false;
  if (S == Needle)
    return true;
  // An OpenMP region's body hangs off its CapturedStmt, which children()
  // does not list.
  if (const auto *CS = dyn_cast<CapturedStmt>(S))
    if (containsStmt(CS->getCapturedStmt(), Needle))
      return true;
  for (const Stmt *Child : S->children())
    if (containsStmt(Child, Needle))
      return true;
  return false;
}

ModificationSites modificationsIn(const Stmt *S) {
  ModifiedVars F;
  if (S)
    F.TraverseStmt(const_cast<Stmt *>(S));
  return std::move(F.Sites);
}

//===----------------------------------------------------------------------===//
// NestBuilder: one outermost loop to a LoopNest.
//===----------------------------------------------------------------------===//

/// \p L as the file, line and column a diagnostic names (macro uses at
/// their expansion).
SourceLoc fileLoc(const SourceManager &SM, SourceLocation L);

class NestBuilder {
public:
  NestBuilder(ASTContext &Ctx, const FunctionDecl *FD,
              const ModificationSites &FunctionModified,
              const CallSiteCollector &Calls, const RFOptions &Opts)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), FD(FD),
        FunctionModified(FunctionModified), Calls(Calls), Opts(Opts) {}

  /// On failure, reason() says why.
  bool build(const Stmt *Outermost, LoopNest &Out);
  const std::string &reason() const { return Reason; }
  SourceLocation reasonLoc() const { return ReasonLoc; }
  SourceLoc loc(SourceLocation L) const;
  /// Malformed or unused `// roofline:` annotation of the nest, if any.
  const std::string &annotationIssue() const { return AnnotationProblem; }
  /// Pointer arrays of the built nest that provably share memory: a local
  /// pointer into another array of the nest, or a call in this TU passing
  /// one array for two pointer parameters.
  std::vector<std::string> aliasIssues() const;
  bool isModifiedWithin(const VarDecl *VD, const Stmt *S) const;

private:
  bool fail(SourceLocation L, const Twine &Why) {
    if (Reason.empty()) {
      Reason = Why.str();
      ReasonLoc = L;
    }
    return false;
  }
  std::string text(const Stmt *S) const {
    return Lexer::getSourceText(
               CharSourceRange::getTokenRange(S->getSourceRange()), SM,
               Ctx.getLangOpts())
        .str();
  }

  bool lowerFor(const ForStmt *FS, Loop &Out);
  /// With a constant bound: takes C's value of it, and refuses a loop whose
  /// variable's type cannot hold the value that ends it.
  bool checkConstantBound(const Expr *Cond, const Expr *BoundE,
                          const VarDecl *IVDecl, BinaryOperatorKind Op,
                          int64_t Step, Bound &B);
  bool lowerBody(const Stmt *S, Loop &Parent);
  bool lowerStmt(const Stmt *S, Loop &Parent);
  bool lowerInit(const Stmt *Init, std::string &IV, const VarDecl *&IVDecl,
                 Bound &First);
  bool lowerStep(const Expr *Inc, const VarDecl *IVDecl, int64_t &Step);
  bool lowerCond(const Expr *Cond, const VarDecl *IVDecl, int64_t Step,
                 const Bound &First, Bound &Last);

  // Index arithmetic.
  bool lowerIndex(const Expr *E, IndexForm &Out);
  bool lowerAffine(const Expr *E, AffineExpr &Out);
  bool lowerBound(const Expr *E, Bound &Out);
  bool lowerBoundTerm(const Expr *E, BoundTerm &Out);
  std::optional<std::string> nameOfSize(const Expr *E, int64_t &ValueOut,
                                        bool &HasValue, std::string &Origin);
  void addParam(const std::string &Name, std::optional<int64_t> V,
                const std::string &Origin);

  // Data expressions.
  bool visitData(const Expr *E, IRStmt &St);
  bool visitAccess(const Expr *E, IRStmt &St, bool Read, bool Write);
  bool countBinary(const BinaryOperator *BO, IRStmt &St);
  bool countCall(const CallExpr *CE, IRStmt &St);
  void countOp(QualType T, IRStmt &St, BinaryOperatorKind Op);
  bool lowerArray(const VarDecl *VD, const Expr *Use, size_t NumSubscripts,
                  Array &Out, bool &Linearized);

  ASTContext &Ctx;
  SourceManager &SM;
  const FunctionDecl *FD;
  /// Variables modified anywhere in FD: such a variable is not a size.
  const ModificationSites &FunctionModified;
  const CallSiteCollector &Calls;
  const RFOptions &Opts;

  std::string Reason;
  SourceLocation ReasonLoc;
  /// Sizes the nest's `// roofline: N=...` annotation pins.
  roofline::SizeMap Pinned;
  std::string AnnotationProblem;
  void readAnnotation(SourceLocation NestBegin);
  std::vector<const VarDecl *> IVs; ///< enclosing loops, outermost first
  bool InBound = false; ///< lowering a loop bound (for messages)
  std::map<std::string, Param> Params;
  std::set<std::string> ParamSet;
  std::vector<Array> Arrays;
  std::map<const VarDecl *, size_t> ArrayIndex;
  /// Arrays accessed both delinearized (A[(i + 2) * M + k]) and through one
  /// plain subscript (A[M + i]): reconcileDims splits the plain ones.
  std::set<std::string> MixedDims;
  SourceLocation MixedDimsLoc;
  bool reconcileDims(Loop &Root);
  /// The dividends of '/' in loop bounds, as written (see negativeDividend).
  std::vector<AffineExpr> Dividends;
  /// What each statement computes, for code generation (Semantics.h).
  roofline::ValueLowering Values{Ctx, IVs,
                                 [this](SourceLocation L) { return loc(L); }};
};

bool NestBuilder::isModifiedWithin(const VarDecl *VD, const Stmt *S) const {
  auto It = FunctionModified.find(VD);
  if (It == FunctionModified.end())
    return false;
  SourceRange R = S->getSourceRange();
  for (const Stmt *Site : It->second) {
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
  return false;
}

std::vector<std::string> NestBuilder::aliasIssues() const {
  std::vector<std::string> Out;
  const char *Consequence = "; the counts treat them as distinct arrays, so "
                            "bytes may be counted twice, and generated "
                            "variants assume they do not overlap";
  std::map<unsigned, const VarDecl *> ParamArrays;
  for (const auto &[VD, Index] : ArrayIndex) {
    (void)Index;
    if (const auto *PVD = dyn_cast<ParmVarDecl>(VD)) {
      ParamArrays[PVD->getFunctionScopeIndex()] = VD;
      continue;
    }
    const VarDecl *Base =
        VD->getType()->isPointerType() ? pointerBase(VD->getInit()) : nullptr;
    if (Base && Base != VD && ArrayIndex.count(Base))
      Out.push_back("'" + declName(VD) + "' points into '" +
                    declName(Base) + "' (initialized from '" +
                    text(VD->getInit()) + "')" + Consequence);
  }
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

SourceLoc NestBuilder::loc(SourceLocation L) const {
  return fileLoc(SM, L);
}

SourceLoc fileLoc(const SourceManager &SM, SourceLocation L) {
  SourceLoc R;
  PresumedLoc P = SM.getPresumedLoc(SM.getFileLoc(L));
  if (P.isInvalid())
    return R;
  R.File = P.getFilename();
  R.Line = P.getLine();
  R.Column = P.getColumn();
  return R;
}

void NestBuilder::addParam(const std::string &Name, std::optional<int64_t> V,
                           const std::string &Origin) {
  ParamSet.insert(Name);
  if (Params.count(Name))
    return;
  Param P;
  P.Name = Name;
  P.Value = V;
  P.Origin = Origin;
  // --param beats the nest's annotation, which beats .roofline.yaml.
  if (auto It = Opts.Params.find(Name); It != Opts.Params.end()) {
    P.Value = It->second;
    P.Origin = "--param";
  } else if (auto Pin = Pinned.find(Name); Pin != Pinned.end()) {
    P.Value = Pin->second;
    P.Origin = "annotation";
  } else if (auto Cfg = Opts.ConfigParams.find(Name);
             Cfg != Opts.ConfigParams.end()) {
    P.Value = Cfg->second;
    P.Origin = "config";
  }
  Params[Name] = P;
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
  StringRef Prev = Before.substr(PrevStart == StringRef::npos ? 0 : PrevStart + 1);
  llvm::Expected<std::optional<roofline::SizeMap>> A =
      roofline::parseNestAnnotation(Prev.rtrim("\r"));
  if (!A) {
    AnnotationProblem = llvm::toString(A.takeError());
    return;
  }
  if (*A)
    Pinned = std::move(**A);
}

/// Value ranges, for the one question below.
using Interval = std::pair<__int128, __int128>;

std::optional<Interval>
intervalOf(const AffineExpr &E, const std::map<std::string, int64_t> &Sizes,
           const std::map<std::string, Interval> &IVs) {
  Interval R{E.constant(), E.constant()};
  for (const auto &[Name, C] : E.terms()) {
    Interval V;
    if (auto It = Sizes.find(Name); It != Sizes.end())
      V = {It->second, It->second};
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

__int128 floorDiv(__int128 A, int64_t D) {
  return A >= 0 ? A / D : -((-A + D - 1) / D);
}

std::optional<Interval>
intervalOf(const Bound &B, const std::map<std::string, int64_t> &Sizes,
           const std::map<std::string, Interval> &IVs) {
  std::optional<Interval> R;
  for (const BoundTerm &T : B.Terms) {
    std::optional<Interval> V = intervalOf(T.Expr, Sizes, IVs);
    if (!V)
      return std::nullopt;
    V = Interval{floorDiv(V->first, T.Divisor), floorDiv(V->second, T.Divisor)};
    if (!R)
      R = V;
    else if (B.Kind == Bound::Min)
      R = Interval{std::min(R->first, V->first), std::min(R->second, V->second)};
    else
      R = Interval{std::max(R->first, V->first), std::max(R->second, V->second)};
  }
  return R;
}

/// Every loop variable's hull of values (loops that reuse a name share one).
void ivRanges(const Loop &L, const std::map<std::string, int64_t> &Sizes,
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
    if (N.Kind == Node::LoopKind)
      ivRanges(N.L.front(), Sizes, IVs);
}

/// The IR lowers '/' in a bound as floor division; C truncates toward zero,
/// and the two differ when the dividend is negative ('(N - 1) / 3' at N = 0
/// is 0 in C, -1 floored). With the sizes known, a nest where a dividend
/// (as written, before the bound is shifted) can be negative is refused
/// rather than counted one iteration short.
std::optional<std::string>
negativeDividend(const LoopNest &N, llvm::ArrayRef<AffineExpr> Dividends) {
  if (Dividends.empty())
    return std::nullopt;
  std::map<std::string, int64_t> Sizes;
  for (const Param &P : N.Params)
    if (P.Value)
      Sizes[P.Name] = *P.Value;
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

/// The name diagnostics give \p FD: qualified, with template arguments.
std::string functionName(const FunctionDecl *FD, const ASTContext &Ctx) {
  std::string Name;
  llvm::raw_string_ostream OS(Name);
  FD->getNameForDiagnostic(OS, Ctx.getPrintingPolicy(), /*Qualified=*/true);
  return OS.str();
}

bool NestBuilder::build(const Stmt *Outermost, LoopNest &Out) {
  Out.Function = functionName(FD, Ctx);
  Out.Loc = loc(Outermost->getBeginLoc());
  Values.beginNest(Outermost);
  readAnnotation(Outermost->getBeginLoc());
  if (const auto *D = dyn_cast<OMPExecutableDirective>(Outermost))
    return fail(Outermost->getBeginLoc(),
                Twine("loop inside an OpenMP '") +
                    llvm::omp::getOpenMPDirectiveName(D->getDirectiveKind()) +
                    "' region: each thread of a team may run it; only "
                    "worksharing and simd loops are counted");
  const auto *FS = dyn_cast<ForStmt>(Outermost);
  if (!FS) {
    if (isa<WhileStmt>(Outermost) || isa<DoStmt>(Outermost))
      return fail(Outermost->getBeginLoc(),
                  "while loop: trip count is not statically known");
    if (isa<CXXForRangeStmt>(Outermost))
      return fail(Outermost->getBeginLoc(),
                  "range-based for loop is not supported yet");
    return fail(Outermost->getBeginLoc(), "not a for loop");
  }
  if (!lowerFor(FS, Out.Root) || !reconcileDims(Out.Root))
    return false;
  for (const auto &[Name, V] : Pinned)
    if (!ParamSet.count(Name) && AnnotationProblem.empty())
      AnnotationProblem = "roofline annotation sets '" + Name +
                          "', which names no size of this nest";
  for (auto &[Name, P] : Params)
    Out.Params.push_back(P);
  if (std::optional<std::string> Why = negativeDividend(Out, Dividends))
    return fail(Outermost->getBeginLoc(), *Why);
  Out.Arrays = Arrays;
  Values.finish(Out, ParamSet);
  return true;
}

//===----------------------------------------------------------------------===//
// Loops
//===----------------------------------------------------------------------===//

/// Whether the loop of OpenMP directive \p D is counted as if the pragma were
/// not there: worksharing (for, distribute, taskloop), simd and loop
/// transformations (tile, unroll) run each iteration exactly once in all.
/// 'parallel for' and the other combined forms are worksharing too.
bool isOpenMPLoopCounted(const OMPExecutableDirective *D) {
  return D->hasAssociatedStmt() && isa<OMPLoopBasedDirective>(D);
}

/// What can end a loop body early: the first statement that leaves or
/// skips part of it (break, return, goto, continue, co_return; not the
/// breaks of a switch, which leave the switch), and the first co_await or
/// co_yield (the coroutine may be suspended there and never resumed). One
/// walk finds both.
struct EarlyEnds {
  const Stmt *Exit = nullptr;
  const Stmt *Suspension = nullptr;
};

void findEarlyEnds(const Stmt *S, bool InSwitch, EarlyEnds &R) {
  if (!S || isa<LambdaExpr>(S) || (R.Exit && R.Suspension))
    return;
  if (isa<CoroutineSuspendExpr>(S)) {
    if (!R.Suspension)
      R.Suspension = S;
  } else if (!InSwitch &&
             (isa<BreakStmt>(S) || isa<ReturnStmt>(S) || isa<GotoStmt>(S) ||
              isa<IndirectGotoStmt>(S) || isa<ContinueStmt>(S) ||
              isa<CoreturnStmt>(S))) {
    if (!R.Exit)
      R.Exit = S;
    return;
  }
  InSwitch |= isa<SwitchStmt>(S);
  for (const Stmt *Child : S->children())
    findEarlyEnds(Child, InSwitch, R);
}

const char *exitKind(const Stmt *S) {
  if (isa<BreakStmt>(S))
    return "break";
  if (isa<ReturnStmt>(S))
    return "return";
  if (isa<CoreturnStmt>(S))
    return "co_return";
  if (isa<ContinueStmt>(S))
    return "continue";
  return "goto";
}

bool NestBuilder::lowerFor(const ForStmt *FS, Loop &Out) {
  Out.Loc = loc(FS->getBeginLoc());
  // The outermost loop's scan covers the inner loops' bodies too.
  EarlyEnds Ends;
  if (IVs.empty())
    findEarlyEnds(FS->getBody(), /*InSwitch=*/false, Ends);
  if (const Stmt *Exit = Ends.Exit)
    return fail(Exit->getBeginLoc(),
                Twine("early exit ('") + exitKind(Exit) +
                    "') out of the loop");
  if (const Stmt *Susp = Ends.Suspension)
    return fail(Susp->getBeginLoc(),
                Twine("coroutine suspension ('") +
                    (isa<CoyieldExpr>(Susp) ? "co_yield" : "co_await") +
                    "') inside the nest: it may never be resumed");
  const VarDecl *IVDecl = nullptr;
  if (!FS->getInit() || !FS->getCond() || !FS->getInc())
    return fail(FS->getBeginLoc(),
                "for loop without init, condition and increment");
  if (!lowerInit(FS->getInit(), Out.IV, IVDecl, Out.First))
    return false;
  if (!lowerStep(FS->getInc(), IVDecl, Out.Step))
    return false;
  if (!lowerCond(FS->getCond(), IVDecl, Out.Step, Out.First, Out.Last))
    return false;
  if (isModifiedWithin(IVDecl, FS->getBody()))
    return fail(FS->getBeginLoc(), "induction variable '" + Out.IV +
                                       "' is modified in the loop body");
  IVs.push_back(IVDecl);
  bool Ok = lowerBody(FS->getBody(), Out);
  IVs.pop_back();
  return Ok;
}

bool NestBuilder::lowerInit(const Stmt *Init, std::string &IV,
                            const VarDecl *&IVDecl, Bound &First) {
  const Expr *InitVal = nullptr;
  if (const auto *DS = dyn_cast<DeclStmt>(Init)) {
    if (!DS->isSingleDecl())
      return fail(Init->getBeginLoc(),
                  "loop initializes several variables");
    const auto *VD = dyn_cast<VarDecl>(DS->getSingleDecl());
    if (!VD || !VD->getInit())
      return fail(Init->getBeginLoc(), "loop variable has no initializer");
    IVDecl = VD;
    InitVal = VD->getInit();
  } else if (const auto *BO = dyn_cast<BinaryOperator>(strip(
                 dyn_cast<Expr>(Init)))) {
    const auto *DRE = BO->getOpcode() == BO_Assign
                          ? dyn_cast<DeclRefExpr>(strip(BO->getLHS()))
                          : nullptr;
    if (!DRE || !isa<VarDecl>(DRE->getDecl()))
      return fail(Init->getBeginLoc(), "unsupported loop initialization");
    IVDecl = cast<VarDecl>(DRE->getDecl());
    InitVal = BO->getRHS();
  } else {
    return fail(Init->getBeginLoc(), "unsupported loop initialization");
  }
  if (!IVDecl->getType()->isIntegerType())
    return fail(Init->getBeginLoc(), "loop variable '" +
                                         declName(IVDecl) +
                                         "' is not an integer");
  IV = declName(IVDecl);
  return lowerBound(InitVal, First);
}

bool NestBuilder::lowerStep(const Expr *Inc, const VarDecl *IVDecl,
                            int64_t &Step) {
  Inc = strip(Inc);
  auto IsIV = [&](const Expr *E) {
    const auto *DRE = dyn_cast<DeclRefExpr>(strip(E));
    return DRE && DRE->getDecl() == IVDecl;
  };
  auto ConstantOf = [&](const Expr *E, int64_t &V) {
    Expr::EvalResult R;
    if (!E->EvaluateAsInt(R, Ctx))
      return false;
    V = R.Val.getInt().getExtValue();
    return true;
  };
  if (const auto *UO = dyn_cast<UnaryOperator>(Inc)) {
    if (UO->isIncrementDecrementOp() && IsIV(UO->getSubExpr())) {
      Step = UO->isIncrementOp() ? 1 : -1;
      return true;
    }
  } else if (const auto *BO = dyn_cast<BinaryOperator>(Inc)) {
    int64_t V;
    if ((BO->getOpcode() == BO_AddAssign || BO->getOpcode() == BO_SubAssign) &&
        IsIV(BO->getLHS()) && ConstantOf(BO->getRHS(), V)) {
      Step = BO->getOpcode() == BO_AddAssign ? V : -V;
      if (Step == 0)
        return fail(Inc->getBeginLoc(), "loop step is zero");
      return true;
    }
    // i = i + c
    if (BO->getOpcode() == BO_Assign && IsIV(BO->getLHS())) {
      const auto *Add = dyn_cast<BinaryOperator>(strip(BO->getRHS()));
      if (Add && (Add->getOpcode() == BO_Add || Add->getOpcode() == BO_Sub) &&
          IsIV(Add->getLHS()) && ConstantOf(Add->getRHS(), V) && V != 0) {
        Step = Add->getOpcode() == BO_Add ? V : -V;
        return true;
      }
    }
  }
  return fail(Inc->getBeginLoc(),
              "loop increment is not a constant step of the loop variable");
}

/// Shifts every term of \p B by \p Delta (floor(x/d) + c == floor((x+c*d)/d)).
std::optional<Bound> shiftBound(const Bound &B, int64_t Delta) {
  Bound R = B;
  for (BoundTerm &T : R.Terms) {
    int64_t Scaled;
    if (__builtin_mul_overflow(Delta, T.Divisor, &Scaled))
      return std::nullopt;
    std::optional<AffineExpr> E = T.Expr.addConstant(Scaled);
    if (!E)
      return std::nullopt;
    T.Expr = *E;
  }
  return R;
}

bool NestBuilder::checkConstantBound(const Expr *Cond, const Expr *BoundE,
                                     const VarDecl *IVDecl,
                                     BinaryOperatorKind Op, int64_t Step,
                                     Bound &B) {
  Expr::EvalResult R;
  QualType IVT = IVDecl->getType();
  if (!IVT->isIntegerType() || !BoundE->EvaluateAsInt(R, Ctx))
    return true;
  llvm::APSInt V = R.Val.getInt();
  // The lowered bound is plain integer arithmetic; C's is modular where the
  // operands are unsigned ('0u - 1' is UINT_MAX, not -1). Take C's value.
  if (B.isAffine() && B.affine().isConstant()) {
    if (V.getSignificantBits() > 64)
      return fail(Cond->getBeginLoc(), "loop bound " + toString(V, 10) +
                                           " is out of the 64-bit range");
    if (V.getExtValue() != B.affine().constant())
      B = Bound::single(AffineExpr(V.getExtValue()));
  }
  // The loop variable must reach the value that ends the loop: an
  // 'unsigned char c < 300' wraps around at 255 and an 'int i <= INT_MAX'
  // overflows, so neither terminates. A step s may overshoot by s - 1.
  unsigned W = Ctx.getIntWidth(IVT);
  bool U = IVT->isUnsignedIntegerOrEnumerationType();
  const unsigned Wide = 130;
  llvm::APInt Exit = V.isUnsigned() ? V.zext(Wide) : V.sext(Wide);
  llvm::APInt Over(Wide, static_cast<uint64_t>(Step > 0 ? Step - 1 : -(Step + 1)));
  llvm::APInt One(Wide, 1);
  bool Reaches = true;
  if (Step > 0 && (Op == BO_LT || Op == BO_LE || Op == BO_NE)) {
    llvm::APInt Need = Exit + Over + (Op == BO_LE ? One : llvm::APInt(Wide, 0));
    llvm::APInt Max = U ? llvm::APInt::getMaxValue(W).zext(Wide)
                        : llvm::APInt::getSignedMaxValue(W).sext(Wide);
    Reaches = Need.sle(Max);
  } else if (Step < 0 && (Op == BO_GT || Op == BO_GE || Op == BO_NE)) {
    llvm::APInt Need = Exit - Over - (Op == BO_GE ? One : llvm::APInt(Wide, 0));
    llvm::APInt Min = U ? llvm::APInt(Wide, 0)
                        : llvm::APInt::getSignedMinValue(W).sext(Wide);
    Reaches = Need.sge(Min);
  }
  if (!Reaches)
    return fail(Cond->getBeginLoc(),
                "loop variable of type '" + IVT.getAsString() +
                    "' cannot step past the bound " + toString(V, 10) +
                    ": it wraps around or overflows first, and the loop may "
                    "never terminate");
  return true;
}

bool NestBuilder::lowerCond(const Expr *Cond, const VarDecl *IVDecl,
                            int64_t Step, const Bound &First, Bound &Last) {
  const auto *BO = dyn_cast<BinaryOperator>(strip(Cond));
  if (!BO || !BO->isComparisonOp())
    return fail(Cond->getBeginLoc(),
                "loop condition is not a comparison of the loop variable");
  auto IsIV = [&](const Expr *E) {
    const auto *DRE = dyn_cast<DeclRefExpr>(strip(E));
    return DRE && DRE->getDecl() == IVDecl;
  };
  BinaryOperatorKind Op = BO->getOpcode();
  const Expr *BoundE = nullptr;
  if (IsIV(BO->getLHS())) {
    BoundE = BO->getRHS();
  } else if (IsIV(BO->getRHS())) {
    BoundE = BO->getLHS();
    // N > i  is  i < N.
    switch (Op) {
    case BO_LT: Op = BO_GT; break;
    case BO_GT: Op = BO_LT; break;
    case BO_LE: Op = BO_GE; break;
    case BO_GE: Op = BO_LE; break;
    default: break;
    }
  } else {
    return fail(Cond->getBeginLoc(),
                "loop condition does not compare the loop variable");
  }
  Bound B;
  if (!lowerBound(BoundE, B))
    return false;
  bool Up = Step > 0;
  // An unsigned variable counting down to 'i >= L' wraps around below zero
  // when L <= 0: the loop never ends. Only a positive constant L is safe.
  if (!Up && Op == BO_GE && IVDecl->getType()->isUnsignedIntegerType()) {
    Expr::EvalResult L;
    if (!BoundE->EvaluateAsInt(L, Ctx) || !L.Val.getInt().isStrictlyPositive())
      return fail(Cond->getBeginLoc(),
                  "unsigned loop variable counting down to '>= " +
                      Twine(L.Val.isInt() ? toString(L.Val.getInt(), 10)
                                          : std::string("a size")) +
                      "' wraps around below zero and may never terminate");
  }
  if (!checkConstantBound(Cond, BoundE, IVDecl, Op, Step, B))
    return false;
  std::optional<Bound> R;
  switch (Op) {
  case BO_LT: if (Up) R = shiftBound(B, -1); break;
  case BO_LE: if (Up) R = B; break;
  case BO_GT: if (!Up) R = shiftBound(B, 1); break;
  case BO_GE: if (!Up) R = B; break;
  case BO_NE:
    // Only a unit step is sure to hit the bound; a larger one may skip it.
    if (Step == 1 || Step == -1)
      R = shiftBound(B, Up ? -1 : 1);
    else
      return fail(Cond->getBeginLoc(),
                  "'!=' condition with step " + Twine(Step) +
                      " may skip the bound and never terminate");
    break;
  default:
    return fail(Cond->getBeginLoc(), "unsupported loop condition");
  }
  if (!R) {
    if (Op == BO_NE || Op == BO_LT || Op == BO_LE || Op == BO_GT ||
        Op == BO_GE)
      return fail(Cond->getBeginLoc(),
                  "loop condition and step direction disagree (the loop "
                  "runs zero times or never terminates)");
  }
  (void)First;
  Last = *R;
  return true;
}

bool NestBuilder::lowerBody(const Stmt *S, Loop &Parent) {
  if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
    for (const Stmt *Child : CS->body())
      if (!lowerBody(Child, Parent))
        return false;
    return true;
  }
  return lowerStmt(S, Parent);
}

bool NestBuilder::lowerStmt(const Stmt *S, Loop &Parent) {
  if (isa<NullStmt>(S))
    return true;
  if (const auto *FS = dyn_cast<ForStmt>(S)) {
    Loop Inner;
    if (!lowerFor(FS, Inner))
      return false;
    Parent.Body.push_back(Node::loop(std::move(Inner)));
    return true;
  }
  if (isa<WhileStmt>(S) || isa<DoStmt>(S))
    return fail(S->getBeginLoc(),
                "while loop inside the nest: trip count is not statically "
                "known");
  if (isa<CXXForRangeStmt>(S))
    return fail(S->getBeginLoc(), "range-based for loop is not supported yet");
  if (isa<BreakStmt>(S) || isa<ReturnStmt>(S) || isa<GotoStmt>(S) ||
      isa<IndirectGotoStmt>(S))
    return fail(S->getBeginLoc(), "early exit ('" +
                                      StringRef(S->getStmtClassName())
                                          .drop_back(4)
                                          .lower() +
                                      "') out of the loop");
  if (isa<ContinueStmt>(S))
    return fail(S->getBeginLoc(),
                "'continue' skips part of the body: conditional execution");
  if (isa<IfStmt>(S) || isa<SwitchStmt>(S))
    return fail(S->getBeginLoc(),
                "conditional statement inside the nest: execution count "
                "depends on data or needs a guard analysis");
  if (isa<LabelStmt>(S))
    return fail(S->getBeginLoc(), "label inside the nest (goto target)");
  if (const auto *D = dyn_cast<OMPExecutableDirective>(S)) {
    // See collectOutermostLoops: a loop directive runs each iteration once.
    if (isOpenMPLoopCounted(D))
      return lowerStmt(D->getRawStmt(), Parent);
    return fail(S->getBeginLoc(),
                Twine("OpenMP '") +
                    llvm::omp::getOpenMPDirectiveName(D->getDirectiveKind()) +
                    "' directive inside the nest");
  }

  IRStmt St;
  St.Loc = loc(S->getBeginLoc());
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls()) {
      const auto *VD = dyn_cast<VarDecl>(D);
      if (!VD)
        continue;
      if (VD->getType()->isArrayType())
        return fail(VD->getLocation(),
                    "local array inside the nest is not supported yet");
      if (VD->getInit() && !visitData(VD->getInit(), St))
        return false;
    }
  } else if (const auto *E = dyn_cast<Expr>(S)) {
    if (!visitData(E, St))
      return false;
  } else {
    return fail(S->getBeginLoc(), "unsupported statement '" +
                                      StringRef(S->getStmtClassName()) +
                                      "' inside the nest");
  }
  Values.lower(S, St);
  // A declaration-only statement (`float acc = 0;`) has a value, no counts.
  if (!St.Accesses.empty() || !St.Ops.empty() || St.IntOps || St.Value)
    Parent.Body.push_back(Node::stmt(std::move(St)));
  return true;
}

//===----------------------------------------------------------------------===//
// Index arithmetic: affine in loop variables and named sizes.
//===----------------------------------------------------------------------===//

/// A size: a named constant, a macro, a template argument, a function
/// parameter, or container.size(). Returns its name.
std::optional<std::string> NestBuilder::nameOfSize(const Expr *E,
                                                   int64_t &ValueOut,
                                                   bool &HasValue,
                                                   std::string &Origin) {
  HasValue = false;
  if (const auto *SNT = dyn_cast<SubstNonTypeTemplateParmExpr>(E)) {
    Expr::EvalResult R;
    if (SNT->EvaluateAsInt(R, Ctx)) {
      ValueOut = R.Val.getInt().getExtValue();
      HasValue = true;
    }
    Origin = "template";
    return declName(SNT->getParameter());
  }
  if (const auto *IL = dyn_cast<IntegerLiteral>(E)) {
    SourceLocation L = IL->getLocation();
    // Only an object-like macro names its value ('#define N 1024'); a
    // literal in a function-like macro's body ('#define FOR(i, n) for (int
    // i = 0; ...') is a plain constant, not a size called FOR.
    if (L.isMacroID() && !SM.isMacroArgExpansion(L) &&
        !SM.getSLocEntry(SM.getFileID(L))
             .getExpansion()
             .isFunctionMacroExpansion()) {
      StringRef Macro =
          Lexer::getImmediateMacroName(L, SM, Ctx.getLangOpts());
      if (!Macro.empty()) {
        ValueOut = IL->getValue().getSExtValue();
        HasValue = true;
        Origin = "macro";
        return Macro.str();
      }
    }
    return std::nullopt;
  }
  if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(E)) {
    const CXXMethodDecl *MD = MCE->getMethodDecl();
    const auto *Obj = dyn_cast_or_null<DeclRefExpr>(
        strip(MCE->getImplicitObjectArgument()));
    if (MD && Obj && MCE->getNumArgs() == 0 &&
        (MD->getName() == "size" || MD->getName() == "length")) {
      Origin = "container";
      return declName(Obj->getDecl()) + "." + declName(MD) +
             "()";
    }
    return std::nullopt;
  }
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  if (!DRE)
    return std::nullopt;
  const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
  if (!VD || !VD->getType()->isIntegerType())
    return std::nullopt;
  std::string Name = declName(VD);
  if (const auto *PVD = dyn_cast<ParmVarDecl>(VD)) {
    if (FunctionModified.count(VD))
      return std::nullopt;
    Origin = "argument";
    if (std::optional<int64_t> V = Calls.valueOf(PVD)) {
      ValueOut = *V;
      HasValue = true;
      Origin = "call-site";
    }
    return Name;
  }
  bool IsConst = VD->getType().isConstQualified() || VD->isConstexpr();
  bool IsLocal = VD->isLocalVarDecl();
  if (!IsConst && (!IsLocal || FunctionModified.count(VD)))
    return std::nullopt;
  const Expr *Init = VD->getAnyInitializer();
  Expr::EvalResult R;
  if (Init && !Init->isValueDependent() && Init->EvaluateAsInt(R, Ctx)) {
    ValueOut = R.Val.getInt().getExtValue();
    HasValue = true;
  } else if (!IsConst) {
    return std::nullopt; // a mutable local computed at run time
  }
  Origin = VD->isConstexpr() ? "constexpr" : (IsConst ? "const" : "local");
  return Name;
}

bool NestBuilder::lowerIndex(const Expr *E, IndexForm &Out) {
  const Expr *S = strip(E);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
    for (const VarDecl *IV : IVs)
      if (DRE->getDecl() == IV) {
        Out = IndexForm::of(AffineExpr::var(declName(IV)));
        return true;
      }
  }
  int64_t V = 0;
  bool HasValue = false;
  std::string Origin;
  if (std::optional<std::string> Name = nameOfSize(S, V, HasValue, Origin)) {
    addParam(*Name, HasValue ? std::optional<int64_t>(V) : std::nullopt,
             Origin);
    Out = IndexForm::of(AffineExpr::var(*Name));
    return true;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    BinaryOperatorKind Op = BO->getOpcode();
    if (Op == BO_Add || Op == BO_Sub || Op == BO_Mul) {
      IndexForm L, R;
      if (!lowerIndex(BO->getLHS(), L) || !lowerIndex(BO->getRHS(), R))
        return false;
      if (Op != BO_Mul) {
        Out = L;
        for (auto &[Key, Aff] : R.Parts) {
          std::optional<AffineExpr> Sum =
              Op == BO_Add ? Out.Parts[Key].add(Aff) : Out.Parts[Key].sub(Aff);
          if (!Sum)
            return fail(S->getBeginLoc(), "index arithmetic overflows");
          Out.Parts[Key] = *Sum;
        }
        return true;
      }
      // Constant factor, or a symbolic stride (a lone parameter).
      for (int Swap = 0; Swap < 2; ++Swap) {
        const IndexForm &A = Swap ? R : L;
        const IndexForm &B = Swap ? L : R;
        if (B.isPlain() && B.plain().isConstant()) {
          Out = IndexForm();
          for (const auto &[Key, Aff] : A.Parts) {
            std::optional<AffineExpr> P = Aff.scale(B.plain().constant());
            if (!P)
              return fail(S->getBeginLoc(), "index arithmetic overflows");
            Out.Parts[Key] = *P;
          }
          return true;
        }
      }
      for (int Swap = 0; Swap < 2; ++Swap) {
        const IndexForm &A = Swap ? R : L;
        const IndexForm &B = Swap ? L : R;
        if (std::optional<std::string> P = B.loneParam(ParamSet)) {
          Out = IndexForm();
          for (const auto &[Key, Aff] : A.Parts) {
            std::vector<std::string> NewKey = Key;
            NewKey.push_back(*P);
            std::sort(NewKey.begin(), NewKey.end());
            Out.Parts[NewKey] = Aff;
          }
          return true;
        }
      }
      return fail(S->getBeginLoc(),
                  "non-affine index expression '" + text(S) + "'");
    }
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
    if (UO->getOpcode() == UO_Minus || UO->getOpcode() == UO_Plus) {
      IndexForm In;
      if (!lowerIndex(UO->getSubExpr(), In))
        return false;
      Out = In;
      if (UO->getOpcode() == UO_Minus)
        for (auto &[Key, Aff] : Out.Parts)
          Aff = *Aff.scale(-1);
      return true;
    }
  }
  Expr::EvalResult R;
  if (!S->isValueDependent() && S->EvaluateAsInt(R, Ctx)) {
    Out = IndexForm::of(AffineExpr(R.Val.getInt().getExtValue()));
    return true;
  }
  if (isa<ArraySubscriptExpr>(S) || isa<CXXOperatorCallExpr>(S))
    return fail(S->getBeginLoc(),
                InBound ? "data-dependent loop bound '" + text(S) + "'"
                        : "indirect (data-dependent) index '" + text(S) + "'");
  if (isa<CallExpr>(S))
    return fail(S->getBeginLoc(), Twine(InBound ? "loop bound" : "index") +
                                      " depends on a function call '" +
                                      text(S) + "'");
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    return fail(S->getBeginLoc(), Twine(InBound ? "loop bound" : "index") +
                                      " depends on '" +
                                      declName(DRE->getDecl()) +
                                      "', a variable computed at run time");
  return fail(S->getBeginLoc(), Twine("non-affine ") +
                                    (InBound ? "loop bound" : "index") +
                                    " expression '" + text(S) + "'");
}

bool NestBuilder::lowerAffine(const Expr *E, AffineExpr &Out) {
  IndexForm F;
  if (!lowerIndex(E, F))
    return false;
  if (!F.isPlain())
    return fail(E->getBeginLoc(), "non-affine expression '" + text(E) +
                                      "' (a product of sizes)");
  Out = F.plain();
  return true;
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
          return fail(S->getBeginLoc(), "nested division in a loop bound");
        Out.Expr = Inner.Expr;
        Out.Divisor = R.Val.getInt().getSExtValue();
        Dividends.push_back(Inner.Expr);
        return true;
      }
    }
    // floor(x/d) + c  ==  floor((x + c*d)/d)
    if (BO->getOpcode() == BO_Add || BO->getOpcode() == BO_Sub) {
      const auto *Div = dyn_cast<BinaryOperator>(strip(BO->getLHS()));
      if (Div && Div->getOpcode() == BO_Div) {
        BoundTerm L;
        AffineExpr R;
        if (!lowerBoundTerm(BO->getLHS(), L) || !lowerAffine(BO->getRHS(), R))
          return false;
        std::optional<AffineExpr> Scaled = R.scale(L.Divisor);
        std::optional<AffineExpr> Sum;
        if (Scaled)
          Sum = BO->getOpcode() == BO_Add ? L.Expr.add(*Scaled)
                                          : L.Expr.sub(*Scaled);
        if (!Sum)
          return fail(S->getBeginLoc(), "loop bound arithmetic overflows");
        Out.Expr = *Sum;
        Out.Divisor = L.Divisor;
        return true;
      }
    }
  }
  Out.Divisor = 1;
  return lowerAffine(S, Out.Expr);
}

bool NestBuilder::lowerBound(const Expr *E, Bound &Out) {
  llvm::SaveAndRestore Guard(InBound, true);
  const Expr *S = strip(E);
  // std::min / std::max / min / max on integers.
  if (const auto *CE = dyn_cast<CallExpr>(S)) {
    const FunctionDecl *Callee = CE->getDirectCallee();
    StringRef Name = Callee ? Callee->getName() : "";
    if ((Name == "min" || Name == "max") && CE->getNumArgs() == 2) {
      Out.Kind = Name == "min" ? Bound::Min : Bound::Max;
      for (const Expr *Arg : CE->arguments()) {
        BoundTerm T;
        if (!lowerBoundTerm(Arg, T))
          return false;
        Out.Terms.push_back(T);
      }
      return true;
    }
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

//===----------------------------------------------------------------------===//
// Data expressions: accesses and arithmetic.
//===----------------------------------------------------------------------===//

/// Peels A[i][j] / v[i][j] down to the base expression, outermost index
/// first in \p Idx.
const Expr *peelSubscripts(const Expr *E, std::vector<const Expr *> &Idx) {
  E = strip(E);
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
    const Expr *Base = peelSubscripts(ASE->getBase(), Idx);
    Idx.push_back(ASE->getIdx());
    return Base;
  }
  if (const auto *OCE = dyn_cast<CXXOperatorCallExpr>(E)) {
    if (OCE->getOperator() == OO_Subscript && OCE->getNumArgs() == 2) {
      const Expr *Base = peelSubscripts(OCE->getArg(0), Idx);
      Idx.push_back(OCE->getArg(1));
      return Base;
    }
  }
  return E;
}

bool isSubscript(const Expr *E) {
  E = strip(E);
  if (isa<ArraySubscriptExpr>(E))
    return true;
  const auto *OCE = dyn_cast<CXXOperatorCallExpr>(E);
  return OCE && OCE->getOperator() == OO_Subscript;
}

/// Dimensions of a variable's type: extents (nullopt = unknown) down to the
/// element, through arrays, one leading pointer, std::vector and std::array.
void shapeOf(QualType T, std::vector<std::optional<AffineExpr>> &Ext,
             bool &IsPointer, bool First = true) {
  T = T.getNonReferenceType().getCanonicalType();
  if (const auto *CAT = dyn_cast<ConstantArrayType>(T.getTypePtr())) {
    Ext.push_back(AffineExpr(CAT->getSize().getSExtValue()));
    shapeOf(CAT->getElementType(), Ext, IsPointer, false);
    return;
  }
  if (const auto *AT = dyn_cast<ArrayType>(T.getTypePtr())) {
    Ext.push_back(std::nullopt);
    shapeOf(AT->getElementType(), Ext, IsPointer, false);
    return;
  }
  if (const auto *PT = T->getAs<PointerType>(); PT && First) {
    IsPointer = true;
    Ext.push_back(std::nullopt);
    shapeOf(PT->getPointeeType(), Ext, IsPointer, false);
    return;
  }
  if (const auto *RD = T->getAsCXXRecordDecl()) {
    const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD);
    if (Spec && Spec->isInStdNamespace() &&
        (RD->getName() == "vector" || RD->getName() == "array")) {
      const TemplateArgumentList &Args = Spec->getTemplateArgs();
      if (RD->getName() == "array" && Args.size() >= 2 &&
          Args[1].getKind() == TemplateArgument::Integral)
        Ext.push_back(AffineExpr(Args[1].getAsIntegral().getSExtValue()));
      else
        Ext.push_back(std::nullopt);
      shapeOf(Args[0].getAsType(), Ext, IsPointer, false);
    }
  }
}

bool NestBuilder::lowerArray(const VarDecl *VD, const Expr *Use,
                             size_t NumSubscripts, Array &Out,
                             bool &Linearized) {
  Out.Name = declName(VD);
  Out.Loc = loc(VD->getLocation());
  QualType T = VD->getType();
  if (const auto *PVD = dyn_cast<ParmVarDecl>(VD))
    T = PVD->getOriginalType();
  bool IsPointer = false;
  shapeOf(T, Out.Extents, IsPointer);
  // restrict promises what the no-alias assumption needs.
  Out.FromPointer = (IsPointer || isa<ParmVarDecl>(VD) ||
                     VD->getType()->isReferenceType()) &&
                    !VD->getType().isRestrictQualified();
  std::optional<Precision> P = precisionOf(Use->getType());
  if (!P)
    return fail(Use->getBeginLoc(), "element type '" +
                                        Use->getType().getAsString() +
                                        "' of '" + Out.Name +
                                        "' is not supported");
  Out.Elem = *P;
  Linearized = Out.Extents.size() == 1 && NumSubscripts == 1;
  if (Out.Extents.size() != NumSubscripts)
    return fail(Use->getBeginLoc(), "'" + text(Use) + "' does not index "
                                        "every dimension of '" + Out.Name +
                                        "'");
  return true;
}

/// Splits `i*K + k` over strides {K, 1} into subscripts [i][k]. Strides must
/// form a chain 1 | S1 | S1*S2 ...; anything else is not delinearizable.
std::optional<std::vector<AffineExpr>>
delinearize(const IndexForm &F, std::vector<std::optional<AffineExpr>> &Ext) {
  std::vector<std::pair<std::vector<std::string>, AffineExpr>> Parts(
      F.Parts.begin(), F.Parts.end());
  std::sort(Parts.begin(), Parts.end(), [](const auto &A, const auto &B) {
    return A.first.size() < B.first.size();
  });
  if (Parts.empty() || !Parts.front().first.empty())
    Parts.insert(Parts.begin(), {{}, AffineExpr()});
  for (size_t I = 1; I < Parts.size(); ++I) {
    const auto &Prev = Parts[I - 1].first, &Cur = Parts[I].first;
    if (Cur.size() != Prev.size() + 1 ||
        !std::includes(Cur.begin(), Cur.end(), Prev.begin(), Prev.end()))
      return std::nullopt;
  }
  std::vector<AffineExpr> Subs;
  Ext.clear();
  for (size_t I = Parts.size(); I-- > 0;) {
    Subs.push_back(Parts[I].second);
    if (I + 1 == Parts.size()) {
      Ext.push_back(std::nullopt);
    } else {
      // The extent of this dimension is the factor its stride adds.
      std::vector<std::string> Extra;
      std::set_difference(Parts[I + 1].first.begin(), Parts[I + 1].first.end(),
                          Parts[I].first.begin(), Parts[I].first.end(),
                          std::back_inserter(Extra));
      Ext.push_back(AffineExpr::var(Extra.front()));
    }
  }
  return Subs;
}

/// "B[k][j]": an access as the analysis sees it.
std::string subscriptedText(const Access &Acc) {
  std::string T = Acc.ArrayName;
  for (const auto &Sub : Acc.Subscripts)
    T += "[" + (Sub ? Sub->str() : std::string("?")) + "]";
  return T;
}

/// \p S, one plain subscript of an array delinearized with extents \p Ext
/// (row-major, the first unknown), as one subscript per dimension: the
/// multiple of the last extent (a lone size M) is the row, the rest the
/// column (A[M + i] of A[(i + 2) * M + k] is A[1][i]). The same address
/// either way; the column is taken to stay in its row, as for every
/// delinearized subscript.
std::optional<std::vector<std::optional<AffineExpr>>>
splitAlongRows(const AffineExpr &S,
               const std::vector<std::optional<AffineExpr>> &Ext) {
  if (Ext.size() < 2 || !Ext.back() || Ext.back()->constant() != 0 ||
      Ext.back()->terms().size() != 1 ||
      Ext.back()->terms().begin()->second != 1)
    return std::nullopt;
  const std::string &Row = Ext.back()->terms().begin()->first;
  int64_t C = S.coeff(Row);
  std::optional<AffineExpr> Col = S.sub(AffineExpr::var(Row, C));
  if (!Col)
    return std::nullopt;
  std::vector<std::optional<AffineExpr>> Out(Ext.size() - 2, AffineExpr(0));
  Out.push_back(AffineExpr(C));
  Out.push_back(*Col);
  return Out;
}

bool NestBuilder::reconcileDims(Loop &Root) {
  if (MixedDims.empty())
    return true;
  std::map<std::string, const Array *> ByName;
  for (const Array &A : Arrays)
    ByName[A.Name] = &A;
  bool Ok = true;
  std::function<void(Loop &)> Walk = [&](Loop &L) {
    for (Node &N : L.Body) {
      if (N.isLoop()) {
        Walk(N.L.front());
        continue;
      }
      for (Access &Acc : N.S.Accesses) {
        if (!MixedDims.count(Acc.ArrayName))
          continue;
        const std::vector<std::optional<AffineExpr>> &Ext =
            ByName[Acc.ArrayName]->Extents;
        if (Acc.Subscripts.size() == Ext.size())
          continue;
        std::optional<std::vector<std::optional<AffineExpr>>> Split;
        if (Acc.Subscripts.size() == 1 && Acc.Subscripts[0])
          Split = splitAlongRows(*Acc.Subscripts[0], Ext);
        if (!Split) {
          Ok = false;
          continue;
        }
        Acc.Subscripts = std::move(*Split);
        Acc.Text = subscriptedText(Acc);
      }
    }
  };
  Walk(Root);
  if (!Ok)
    return fail(MixedDimsLoc, "'" + *MixedDims.begin() +
                                  "' is accessed with different numbers of "
                                  "dimensions");
  return true;
}

bool NestBuilder::visitAccess(const Expr *E, IRStmt &St, bool Read, bool Write) {
  std::vector<const Expr *> Idx;
  const Expr *Base = peelSubscripts(E, Idx);
  const auto *DRE = dyn_cast<DeclRefExpr>(Base);
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!VD)
    return fail(E->getBeginLoc(), "access '" + text(E) +
                                      "' through an expression that is not "
                                      "a named array");
  Array A;
  bool Linearized = false;
  if (!lowerArray(VD, E, Idx.size(), A, Linearized))
    return false;

  Access Acc;
  Acc.ArrayName = A.Name;
  Acc.IsRead = Read;
  Acc.IsWrite = Write;
  Acc.Loc = loc(E->getBeginLoc());
  std::vector<std::optional<AffineExpr>> Ext = A.Extents;
  for (const Expr *I : Idx) {
    IndexForm F;
    if (!lowerIndex(I, F))
      return false;
    if (F.isPlain()) {
      Acc.Subscripts.push_back(F.plain());
      continue;
    }
    std::optional<std::vector<AffineExpr>> Subs;
    if (Linearized)
      Subs = delinearize(F, Ext);
    if (!Subs)
      return fail(I->getBeginLoc(), "non-affine subscript '" + text(I) +
                                        "' of '" + A.Name + "'");
    for (AffineExpr &S : *Subs)
      Acc.Subscripts.push_back(S);
  }
  A.Extents = Ext;
  // The delinearized form ("B[k][j]" for B[k * M + j]): what the analysis
  // sees, and cheaper than re-lexing the source.
  Acc.Text = subscriptedText(Acc);

  auto It = ArrayIndex.find(VD);
  if (It == ArrayIndex.end()) {
    ArrayIndex[VD] = Arrays.size();
    Arrays.push_back(A);
  } else if (Arrays[It->second].Extents.size() != Acc.Subscripts.size()) {
    if (!Linearized)
      return fail(E->getBeginLoc(), "'" + A.Name + "' is accessed with " +
                                        "different numbers of dimensions");
    if (MixedDims.empty())
      MixedDimsLoc = E->getBeginLoc();
    MixedDims.insert(A.Name);
    if (Acc.Subscripts.size() > Arrays[It->second].Extents.size())
      Arrays[It->second].Extents = A.Extents;
  }
  Values.noteAccess(E, St.Accesses.size(), VD, A.Name);
  St.Accesses.push_back(std::move(Acc));
  return true;
}

void NestBuilder::countOp(QualType T, IRStmt &St, BinaryOperatorKind Op) {
  std::optional<Precision> P = precisionOf(T);
  if (!P)
    return;
  if (!isFloating(*P)) {
    ++St.IntOps;
    return;
  }
  OpCounts &C = St.Ops[*P];
  switch (Op) {
  case BO_Add: case BO_Sub: case BO_AddAssign: case BO_SubAssign:
    ++C.Adds; break;
  case BO_Mul: case BO_MulAssign:
    ++C.Muls; break;
  case BO_Div: case BO_DivAssign:
    ++C.Divs; break;
  default:
    break;
  }
}

/// The precision a multiply runs at: its type for floats; for integers the
/// widest operand before promotion, so int8*int8 is an i8 MAC.
std::optional<Precision> macPrecision(const BinaryOperator *Mul) {
  std::optional<Precision> P = precisionOf(Mul->getType());
  if (!P || isFloating(*P))
    return P;
  auto SourceType = [](const Expr *E) {
    const Expr *In = E->IgnoreParens();
    while (const auto *Cast = dyn_cast<CastExpr>(In)) {
      if (!Cast->getType()->isIntegerType())
        break;
      In = Cast->getSubExpr()->IgnoreParens();
    }
    return precisionOf(In->getType());
  };
  std::optional<Precision> L = SourceType(Mul->getLHS());
  std::optional<Precision> R = SourceType(Mul->getRHS());
  if (!L || !R)
    return P;
  return precisionBytes(*L) >= precisionBytes(*R) ? L : R;
}

const BinaryOperator *asMul(const Expr *E) {
  const auto *BO = dyn_cast<BinaryOperator>(strip(E));
  return BO && BO->getOpcode() == BO_Mul ? BO : nullptr;
}

bool NestBuilder::countBinary(const BinaryOperator *BO, IRStmt &St) {
  BinaryOperatorKind Op = BO->getOpcode();
  if (Op == BO_Assign) {
    const Expr *L = strip(BO->getLHS());
    if (isSubscript(L)) {
      if (!visitAccess(L, St, /*Read=*/false, /*Write=*/true))
        return false;
    } else if (!isa<DeclRefExpr>(L)) {
      return fail(L->getBeginLoc(), "assignment to '" + text(L) +
                                        "' that is neither a scalar nor an "
                                        "array element");
    }
    return visitData(BO->getRHS(), St);
  }
  if (BO->isCompoundAssignmentOp()) {
    const Expr *L = strip(BO->getLHS());
    if (isSubscript(L)) {
      if (!visitAccess(L, St, /*Read=*/true, /*Write=*/true))
        return false;
    } else if (!isa<DeclRefExpr>(L)) {
      return fail(L->getBeginLoc(), "compound assignment to '" + text(L) +
                                        "' that is neither a scalar nor an "
                                        "array element");
    }
    const auto *CAO = cast<CompoundAssignOperator>(BO);
    const BinaryOperator *Mul = asMul(BO->getRHS());
    if ((Op == BO_AddAssign || Op == BO_SubAssign) && Mul) {
      if (std::optional<Precision> P = macPrecision(Mul)) {
        ++St.Ops[*P].Macs;
        return visitData(Mul->getLHS(), St) && visitData(Mul->getRHS(), St);
      }
    }
    countOp(CAO->getComputationResultType(), St, Op);
    return visitData(BO->getRHS(), St);
  }
  if (Op == BO_Add || Op == BO_Sub) {
    // a*b + c: the multiply feeds the add, one MAC.
    for (int Side = 0; Side < 2; ++Side) {
      const Expr *Mine = Side ? BO->getRHS() : BO->getLHS();
      const Expr *Other = Side ? BO->getLHS() : BO->getRHS();
      const BinaryOperator *Mul = asMul(Mine);
      if (!Mul)
        continue;
      if (std::optional<Precision> P = macPrecision(Mul)) {
        ++St.Ops[*P].Macs;
        return visitData(Mul->getLHS(), St) && visitData(Mul->getRHS(), St) &&
               visitData(Other, St);
      }
    }
  }
  if (Op == BO_LAnd || Op == BO_LOr)
    return fail(BO->getBeginLoc(),
                "short-circuit operator in data: conditional execution");
  if (BO->isComparisonOp()) {
    std::optional<Precision> P = precisionOf(strip(BO->getLHS())->getType());
    if (P && isFloating(*P))
      ++St.Ops[*P].Calls["cmp"];
  } else if (Op != BO_Comma) {
    countOp(BO->getType(), St, Op);
  }
  return visitData(BO->getLHS(), St) && visitData(BO->getRHS(), St);
}

bool NestBuilder::countCall(const CallExpr *CE, IRStmt &St) {
  const FunctionDecl *Callee = CE->getDirectCallee();
  if (!Callee)
    return fail(CE->getBeginLoc(),
                "indirect call '" + text(CE) + "' with unknown side effects");
  StringRef Name = Callee->getName();
  std::optional<Precision> P = precisionOf(CE->getType());
  if (isFmaName(Name) && CE->getNumArgs() == 3) {
    if (P)
      ++St.Ops[*P].Macs;
  } else if (std::optional<std::string> Math = mathFunctionName(Name)) {
    if (P && isFloating(*P))
      ++St.Ops[*P].Calls[*Math];
    else
      ++St.IntOps;
  } else {
    return fail(CE->getBeginLoc(), "call to '" + declName(Callee) +
                                       "' with unknown side effects");
  }
  for (const Expr *Arg : CE->arguments())
    if (!visitData(Arg, St))
      return false;
  return true;
}

bool NestBuilder::visitData(const Expr *E, IRStmt &St) {
  const Expr *S = strip(E);
  if (isSubscript(S))
    return visitAccess(S, St, /*Read=*/true, /*Write=*/false);
  if (const auto *BO = dyn_cast<BinaryOperator>(S))
    return countBinary(BO, St);
  if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
    if (UO->isIncrementDecrementOp()) {
      const Expr *Sub = strip(UO->getSubExpr());
      countOp(Sub->getType(), St, BO_Add);
      if (isSubscript(Sub))
        return visitAccess(Sub, St, /*Read=*/true, /*Write=*/true);
      return true;
    }
    if (UO->getOpcode() == UO_Deref)
      return fail(UO->getBeginLoc(), "pointer dereference '" + text(UO) +
                                         "': write it as a subscript");
    if (UO->getOpcode() == UO_AddrOf)
      return fail(UO->getBeginLoc(), "address taken inside the nest");
    return visitData(UO->getSubExpr(), St);
  }
  if (const auto *CE = dyn_cast<CallExpr>(S)) {
    if (isa<CXXOperatorCallExpr>(CE) || isa<CXXMemberCallExpr>(CE))
      return fail(CE->getBeginLoc(), "call to '" + text(CE) +
                                         "' with unknown side effects");
    return countCall(CE, St);
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(S)) {
    // A select between plain values is one op; work inside the arms would
    // run conditionally, which no exact count can follow.
    auto Trivial = [](const Expr *A) {
      A = strip(A);
      return isa<DeclRefExpr>(A) || isa<IntegerLiteral>(A) ||
             isa<FloatingLiteral>(A);
    };
    if (!Trivial(CO->getTrueExpr()) || !Trivial(CO->getFalseExpr()))
      return fail(CO->getBeginLoc(),
                  "conditional expression with work in its branches");
    return visitData(CO->getCond(), St);
  }
  if (isa<DeclRefExpr>(S) || isa<IntegerLiteral>(S) ||
      isa<FloatingLiteral>(S) || isa<CXXBoolLiteralExpr>(S) ||
      isa<CharacterLiteral>(S))
    return true;
  if (const auto *Cast = dyn_cast<ExplicitCastExpr>(S))
    return visitData(Cast->getSubExpr(), St);
  if (const auto *MTE = dyn_cast<MaterializeTemporaryExpr>(S))
    return visitData(MTE->getSubExpr(), St);
  if (const auto *CE = dyn_cast<CXXConstructExpr>(S)) {
    for (const Expr *Arg : CE->arguments())
      if (!visitData(Arg, St))
        return false;
    return true;
  }
  if (isa<MemberExpr>(S))
    return fail(S->getBeginLoc(), "member access '" + text(S) +
                                      "' is not supported yet");
  if (isa<LambdaExpr>(S))
    return fail(S->getBeginLoc(), "lambda inside the nest");
  return fail(S->getBeginLoc(), "unsupported expression '" + text(S) + "'");
}

//===----------------------------------------------------------------------===//
// Finding the outermost loops.
//===----------------------------------------------------------------------===//

bool isLoop(const Stmt *S) {
  return isa<ForStmt>(S) || isa<WhileStmt>(S) || isa<DoStmt>(S) ||
         isa<CXXForRangeStmt>(S);
}

void collectOutermostLoops(const Stmt *S, std::vector<const Stmt *> &Out) {
  if (!S)
    return;
  if (isLoop(S)) {
    Out.push_back(S);
    return;
  }
  // With -fopenmp a pragma'd loop hangs below its directive's CapturedStmt,
  // which children() does not reach. A loop directive's loop is counted as
  // written. The loops of any other region (parallel, single, task, ...)
  // may run once per thread or not at all: the directive stands for them,
  // and build() refuses it with its name.
  if (const auto *D = dyn_cast<OMPExecutableDirective>(S)) {
    if (!D->hasAssociatedStmt())
      return;
    if (isOpenMPLoopCounted(D)) {
      collectOutermostLoops(D->getRawStmt(), Out);
      return;
    }
    std::vector<const Stmt *> Inner;
    collectOutermostLoops(D->getRawStmt(), Inner);
    if (!Inner.empty())
      Out.push_back(D);
    return;
  }
  if (isa<LambdaExpr>(S))
    return; // its body is a function of its own
  for (const Stmt *Child : S->children())
    collectOutermostLoops(Child, Out);
}

class FunctionVisitor : public RecursiveASTVisitor<FunctionVisitor> {
public:
  FunctionVisitor(ASTContext &Ctx, const CallSiteCollector &Calls,
                  const RFOptions &Opts, FrontendResult &Out)
      : Ctx(Ctx), Calls(Calls), Opts(Opts), Out(Out) {
    if (!Opts.HeaderFilter.empty())
      HeaderFilter.emplace(Opts.HeaderFilter);
  }
  bool shouldVisitTemplateInstantiations() const { return true; }

  /// The main file, and headers matching --header-filter.
  bool wanted(SourceLocation FileLoc) const {
    const SourceManager &SM = Ctx.getSourceManager();
    if (SM.isWrittenInMainFile(FileLoc))
      return true;
    if (!HeaderFilter || SM.isInSystemHeader(FileLoc))
      return false;
    PresumedLoc P = SM.getPresumedLoc(FileLoc);
    return P.isValid() && HeaderFilter->match(P.getFilename());
  }

  bool VisitFunctionDecl(FunctionDecl *FD) {
    analyzeFunction(FD);
    return true;
  }

  /// A lambda's body is a function of its own (collectOutermostLoops stops
  /// there), but RecursiveASTVisitor never visits a lambda's call operator as
  /// a FunctionDecl: without this the loops inside lambdas were dropped
  /// without a word. A generic lambda is analyzed per instantiation.
  bool VisitLambdaExpr(LambdaExpr *LE) {
    const CXXRecordDecl *Class = LE->getLambdaClass();
    if (!Class)
      return true;
    if (FunctionTemplateDecl *T = Class->getDependentLambdaCallOperator()) {
      for (FunctionDecl *Spec : T->specializations())
        analyzeFunction(Spec);
      return true;
    }
    analyzeFunction(LE->getCallOperator());
    return true;
  }

  /// One entry for the nests beyond --max-nests, at the first of them.
  void reportOverCap() {
    if (!OverCap)
      return;
    SkippedNest S;
    S.Function = FirstOverCap.first;
    S.Loc = fileLoc(Ctx.getSourceManager(), FirstOverCap.second->getBeginLoc());
    S.Reason = "the translation unit has more than " +
               std::to_string(Opts.MaxNests) + " loop nests (--max-nests): " +
               "this one and the " + std::to_string(OverCap - 1) +
               " after it are not analyzed";
    Out.Skipped.push_back(std::move(S));
  }

private:
  void analyzeFunction(FunctionDecl *FD) {
    if (!FD || !FD->doesThisDeclarationHaveABody() ||
        FD->isDependentContext() || FD->isInvalidDecl())
      return;
    SourceManager &SM = Ctx.getSourceManager();
    if (!wanted(SM.getFileLoc(FD->getLocation())))
      return;
    std::vector<const Stmt *> Loops;
    collectOutermostLoops(FD->getBody(), Loops);
    if (Loops.empty())
      return;
    if (Opts.MaxNests && Out.Nests.size() + Out.Skipped.size() >=
                             FirstNest + Opts.MaxNests) {
      if (!OverCap++)
        FirstOverCap = {functionName(FD, Ctx), Loops.front()};
      OverCap += Loops.size() - 1;
      return;
    }
    if (const char *Kind = cudaDeviceKind(FD)) {
      // Each thread of a launch runs the loop; the grid is not in the TU's
      // reach, so the nest's totals are not known.
      for (const Stmt *L : Loops)
        skipWhole(FD, L,
                  Twine("loop in a CUDA ") + Kind +
                      " function: it runs once per thread of a launch "
                      "whose grid is not known statically");
      return;
    }
    ModificationSites Modified = modificationsIn(FD->getBody());
    for (const Stmt *L : Loops) {
      NestBuilder B(Ctx, FD, Modified, Calls, Opts);
      LoopNest N;
      bool Built = B.build(L, N);
      SourceLoc At = B.loc(L->getBeginLoc());
      if (!B.annotationIssue().empty())
        Out.Issues.push_back(
            {"roofline-annotation", N.Function, At, B.annotationIssue()});
      if (Built) {
        for (std::string &M : B.aliasIssues())
          Out.Issues.push_back({"roofline-aliasing", N.Function, At, M});
        for (const Param &P : N.Params)
          Out.ParamNames.insert(P.Name);
        Out.Nests.push_back(std::move(N));
      } else {
        SkippedNest S;
        S.Function = N.Function;
        S.Loc = B.loc(L->getBeginLoc());
        S.Reason = B.reason();
        Out.Skipped.push_back(std::move(S));
      }
    }
  }

  /// "__global__" or "__device__" for a function only the GPU runs.
  static const char *cudaDeviceKind(const FunctionDecl *FD) {
    if (FD->hasAttr<CUDAGlobalAttr>())
      return "__global__";
    if (FD->hasAttr<CUDADeviceAttr>() && !FD->hasAttr<CUDAHostAttr>())
      return "__device__";
    return nullptr;
  }

  void skipWhole(const FunctionDecl *FD, const Stmt *L, const Twine &Why) {
    SkippedNest S;
    S.Function = functionName(FD, Ctx);
    S.Loc = fileLoc(Ctx.getSourceManager(), L->getBeginLoc());
    S.Reason = Why.str();
    Out.Skipped.push_back(std::move(S));
  }

  ASTContext &Ctx;
  const CallSiteCollector &Calls;
  const RFOptions &Opts;
  FrontendResult &Out;
  std::optional<llvm::Regex> HeaderFilter;
  size_t FirstNest = Out.Nests.size() + Out.Skipped.size();
  size_t OverCap = 0;
  std::pair<std::string, const Stmt *> FirstOverCap;
};

class ExtractConsumer : public ASTConsumer {
public:
  ExtractConsumer(const RFOptions &Opts, FrontendResult &Out)
      : Opts(Opts), Out(Out) {}
  void HandleTranslationUnit(ASTContext &Ctx) override {
    // A TU with errors gives clang's diagnostics and no partial numbers.
    if (Ctx.getDiagnostics().hasErrorOccurred())
      return;
    extractNests(Ctx, Opts, Out);
  }

private:
  const RFOptions &Opts;
  FrontendResult &Out;
};

class ExtractAction : public ASTFrontendAction {
public:
  ExtractAction(const RFOptions &Opts, FrontendResult &Out)
      : Opts(Opts), Out(Out) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &,
                                                 StringRef) override {
    return std::make_unique<ExtractConsumer>(Opts, Out);
  }

private:
  const RFOptions &Opts;
  FrontendResult &Out;
};

class ExtractFactory : public tooling::FrontendActionFactory {
public:
  ExtractFactory(const RFOptions &Opts, FrontendResult &Out)
      : Opts(Opts), Out(Out) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<ExtractAction>(Opts, Out);
  }

private:
  RFOptions Opts;
  FrontendResult &Out;
};

} // namespace

void roofline::extractNests(ASTContext &Ctx, const RFOptions &Opts,
                            FrontendResult &Out) {
  CallSiteCollector Calls(Ctx);
  Calls.TraverseDecl(Ctx.getTranslationUnitDecl());
  FunctionVisitor V(Ctx, Calls, Opts, Out);
  V.TraverseDecl(Ctx.getTranslationUnitDecl());
  V.reportOverCap();
}

std::unique_ptr<tooling::FrontendActionFactory>
roofline::newExtractNestsFactory(const RFOptions &Opts,
                                 FrontendResult &Out) {
  return std::make_unique<ExtractFactory>(Opts, Out);
}
