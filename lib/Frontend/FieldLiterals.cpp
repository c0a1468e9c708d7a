//===- FieldLiterals.cpp - Struct fields the program sets from literals ---===//
//
// Conservative by construction: a field gets a value only when every write
// to it in the translation unit is the same constant, and nothing can write
// it behind the scan's back (its address taken, its struct passed to a
// function with no body such as fread or memcpy, or read through a cast
// from another pointer type). A field computed from other fields
// (`c.hidden = 4 * c.dim`) is kept as its formula when it is computed once,
// unconditionally, after the fields it reads are set, and written nothing
// else. docs/network-report.md, "Sizes".
//
//===----------------------------------------------------------------------===//

#include "FieldLiterals.h"
#include "NestBuilder.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <set>

using namespace clang;
using namespace roofline;
using namespace roofline::frontend;

namespace {

/// "Config" for `typedef struct {...} Config;` too.
std::string recordName(const RecordDecl *RD) {
  if (!RD->getName().empty())
    return RD->getNameAsString();
  if (const TypedefNameDecl *TD = RD->getTypedefNameForAnonDecl())
    return TD->getNameAsString();
  return "(anonymous struct)";
}

/// Where a write runs: its function (null for a global's or an in-class
/// initializer, which run before any function), and why it may run other
/// than once ("under a condition", "in a loop"; empty when it runs once).
struct Site {
  const FunctionDecl *Fn = nullptr;
  std::string Conditional;
};

struct Write {
  int64_t Value;
  bool FromInitializer; ///< `= {0}`-style: yields to an assignment
  SourceLocation Loc;
  const FunctionDecl *Fn = nullptr;
};

/// `c.hidden = 4 * c.dim`: an assignment from integer constants and other
/// integer fields.
struct ComputedWrite {
  const Expr *Formula;
  SourceLocation Loc;
  Site Where;
  std::vector<std::string> Reads;
};

struct FieldWrites {
  std::vector<Write> Writes;
  std::vector<ComputedWrite> Computed;
  std::string Tainted; ///< why no value can be trusted, if any
};

/// A direct call to a function with a body, for the order of writes made
/// in different functions.
struct CallSite {
  const FunctionDecl *Caller, *Callee;
  SourceLocation Loc;
};

class Scanner : public RecursiveASTVisitor<Scanner> {
public:
  explicit Scanner(ASTContext &Ctx) : Ctx(Ctx), SM(Ctx.getSourceManager()) {}
  bool shouldVisitTemplateInstantiations() const { return true; }

  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (!BO->isAssignmentOp())
      return true;
    const Expr *LHS = BO->getLHS()->IgnoreParenImpCasts();
    if (const FieldDecl *FD = intField(LHS)) {
      if (BO->getOpcode() != BO_Assign)
        taint(FD, "updated with '" + BO->getOpcodeStr().str() + "'",
              BO->getOperatorLoc());
      else
        assign(FD, BO);
      return true;
    }
    if (const RecordDecl *RD = recordOf(LHS->getType()))
      if (const auto *CE = dyn_cast<CallExpr>(BO->getRHS()->IgnoreParenImpCasts()))
        if (!hasBody(CE->getDirectCallee()))
          taintRecord(RD, "assigned from '" + text(CE) + "'", BO->getExprLoc());
    return true;
  }

  bool VisitUnaryOperator(UnaryOperator *UO) {
    const FieldDecl *FD = intField(UO->getSubExpr()->IgnoreParenImpCasts());
    if (!FD)
      return true;
    if (UO->isIncrementDecrementOp())
      taint(FD, "incremented or decremented", UO->getExprLoc());
    else if (UO->getOpcode() == UO_AddrOf)
      taint(FD, "its address is taken", UO->getExprLoc());
    return true;
  }

  /// The visitor sees the list as written; its semantic form has one
  /// initializer per field, braces elided for nested structs.
  bool VisitInitListExpr(InitListExpr *ILE) {
    initFields(ILE->isSemanticForm() ? ILE : ILE->getSemanticForm());
    return true;
  }

  void initFields(const InitListExpr *ILE) {
    if (!ILE || !SeenLists.insert(ILE).second)
      return;
    const RecordDecl *RD = recordOf(ILE->getType());
    if (!RD || RD->isUnion())
      return;
    unsigned I = 0;
    for (const FieldDecl *FD : RD->fields()) {
      if (I >= ILE->getNumInits())
        break;
      const Expr *Init = ILE->getInit(I++)->IgnoreParenImpCasts();
      if (const auto *Inner = dyn_cast<InitListExpr>(Init)) {
        initFields(Inner->isSemanticForm() ? Inner : Inner->getSemanticForm());
        continue;
      }
      // Fields the list does not name are zero; a later `c.dim = 288`
      // then gives the value (an implicit zero is no write at all).
      if (isa<ImplicitValueInitExpr>(Init) || !isIntField(FD))
        continue;
      write(FD, Init, /*FromInitializer=*/true, Init->getExprLoc());
    }
  }

  bool VisitCallExpr(CallExpr *CE) {
    if (hasBody(CE->getDirectCallee())) {
      if (const FunctionDecl *Caller = siteOf(CE).Fn)
        Calls.push_back({Caller->getCanonicalDecl(),
                         CE->getDirectCallee()->getCanonicalDecl(),
                         CE->getBeginLoc()});
      return true;
    }
    std::string Callee = CE->getDirectCallee()
                             ? CE->getDirectCallee()->getNameAsString()
                             : text(CE->getCallee());
    for (const Expr *A : CE->arguments())
      if (const RecordDecl *RD = pointee(A->IgnoreParenCasts()->getType()))
        taintRecord(RD, "passed to '" + Callee + "', which has no body here",
                    A->getExprLoc());
    return true;
  }

  bool VisitCastExpr(CastExpr *CE) {
    // `(Config *)header`: the struct is read from other memory. A cast
    // from void * is the malloc idiom and is allowed.
    const RecordDecl *To = pointee(CE->getType());
    if (!To || !CE->getSubExpr()->getType()->isPointerType())
      return true;
    QualType From = CE->getSubExpr()->getType()->getPointeeType();
    if (From->isVoidType() || recordOf(From) == To)
      return true;
    taintRecord(To, "read through a cast from '" + From.getAsString() + " *'",
                CE->getExprLoc());
    return true;
  }

  bool VisitFieldDecl(FieldDecl *FD) {
    if (isIntField(FD) && !SM.isInSystemHeader(FD->getLocation()))
      RecordsWithField[FD->getNameAsString()].insert(
          recordName(FD->getParent()));
    if (isIntField(FD) && FD->hasInClassInitializer() &&
        FD->getInClassInitializer())
      write(FD, FD->getInClassInitializer(), /*FromInitializer=*/true,
            FD->getLocation(), /*AtConstruction=*/true);
    return true;
  }

  bool VisitCXXConstructorDecl(CXXConstructorDecl *CD) {
    if (!CD->doesThisDeclarationHaveABody())
      return true;
    for (const CXXCtorInitializer *I : CD->inits())
      if (I->isMemberInitializer() && I->isWritten() &&
          isIntField(I->getMember()))
        write(I->getMember(), I->getInit(), /*FromInitializer=*/true,
              I->getSourceLocation(), /*AtConstruction=*/true);
    return true;
  }

  FieldLiterals result() const;

private:
  static bool isIntField(const FieldDecl *FD) {
    return FD && FD->getType()->isIntegerType();
  }
  static const FieldDecl *intField(const Expr *E) {
    const auto *ME = dyn_cast<MemberExpr>(E);
    const auto *FD = ME ? dyn_cast<FieldDecl>(ME->getMemberDecl()) : nullptr;
    return isIntField(FD) ? FD : nullptr;
  }
  static const RecordDecl *recordOf(QualType T) {
    if (const auto *RT = T->getAs<RecordType>())
      return RT->getDecl()->getDefinition();
    return nullptr;
  }
  static const RecordDecl *pointee(QualType T) {
    return T->isPointerType() ? recordOf(T->getPointeeType()) : nullptr;
  }
  bool hasBody(const FunctionDecl *FD) const {
    const FunctionDecl *Def = FD ? FD->getDefinition() : nullptr;
    return Def && Def->hasBody();
  }

  /// \p AtConstruction: an in-class or constructor initializer, which runs
  /// before any function can read the field (its write has no function).
  void write(const FieldDecl *FD, const Expr *E, bool FromInitializer,
             SourceLocation Loc, bool AtConstruction = false) {
    if (std::optional<int64_t> V = constant(E)) {
      const FunctionDecl *Fn = AtConstruction ? nullptr : siteOf(E).Fn;
      Fields[FD].Writes.push_back({*V, FromInitializer, Loc, Fn});
      return;
    }
    taint(FD, "written from '" + text(E) + "'", Loc);
  }

  std::optional<int64_t> constant(const Expr *E) const {
    Expr::EvalResult R;
    if (!E->isValueDependent() && E->EvaluateAsInt(R, Ctx) &&
        R.Val.getInt().getSignificantBits() <= 64)
      return R.Val.getInt().getExtValue();
    return std::nullopt;
  }

  /// `f = e`: a constant, or a formula over other fields, or neither.
  void assign(const FieldDecl *FD, const BinaryOperator *BO) {
    const Expr *E = BO->getRHS();
    std::vector<std::string> Reads;
    if (!constant(E) && isFormula(E, Reads)) {
      Fields[FD].Computed.push_back(
          {E, BO->getExprLoc(), siteOf(BO), std::move(Reads)});
      return;
    }
    write(FD, E, /*FromInitializer=*/false, BO->getExprLoc());
  }

  /// Integer constants and integer fields of a variable's struct (`c.dim`,
  /// `p->cfg.dim`) under + - * / % << >> and unary minus; \p Reads gets
  /// the fields' names. Anything else (a local, a call, a float) is not.
  bool isFormula(const Expr *E, std::vector<std::string> &Reads) const {
    E = E->IgnoreParenImpCasts();
    if (const auto *CE = dyn_cast<ExplicitCastExpr>(E))
      E = CE->getSubExpr()->IgnoreParenImpCasts();
    if (!E->getType()->isIntegerType() || E->isValueDependent())
      return false;
    if (constant(E))
      return true;
    if (const FieldDecl *FD = intField(E)) {
      if (!rootedAtVariable(E))
        return false;
      std::string Name = FD->getNameAsString();
      if (!llvm::is_contained(Reads, Name))
        Reads.push_back(Name);
      return true;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      switch (BO->getOpcode()) {
      case BO_Add: case BO_Sub: case BO_Mul: case BO_Div: case BO_Rem:
      case BO_Shl: case BO_Shr:
        return isFormula(BO->getLHS(), Reads) && isFormula(BO->getRHS(), Reads);
      default:
        return false;
      }
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E))
      if (UO->getOpcode() == UO_Minus || UO->getOpcode() == UO_Plus)
        return isFormula(UO->getSubExpr(), Reads);
    return false;
  }

  /// `c.dim`, `p->cfg.dim`, `this->dim`: what the walk can name.
  static bool rootedAtVariable(const Expr *E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *ME = dyn_cast<MemberExpr>(E))
      return rootedAtVariable(ME->getBase());
    return isa<DeclRefExpr, CXXThisExpr>(E);
  }

  /// The function a statement is in, and whether it may run other than
  /// once in that function's body.
  Site siteOf(const clang::Stmt *S) const {
    Site Out;
    DynTypedNodeList Parents = Ctx.getParents(*S);
    while (!Parents.empty()) {
      const DynTypedNode &P = Parents[0];
      if (const auto *FD = P.get<FunctionDecl>()) {
        Out.Fn = FD->getCanonicalDecl();
        break;
      }
      if (const auto *PS = P.get<clang::Stmt>()) {
        if (Out.Conditional.empty()) {
          if (isLoopStmt(PS))
            Out.Conditional = "in a loop";
          else if (isa<IfStmt, SwitchStmt, AbstractConditionalOperator>(PS))
            Out.Conditional = "under a condition";
          else if (const auto *BO = dyn_cast<BinaryOperator>(PS);
                   BO && BO->isLogicalOp())
            Out.Conditional = "under a condition";
        }
        Parents = Ctx.getParents(*PS);
      } else if (const auto *D = P.get<Decl>()) {
        Parents = Ctx.getParents(*D);
      } else {
        break;
      }
    }
    return Out;
  }

  void taint(const FieldDecl *FD, const std::string &Why, SourceLocation Loc) {
    FieldWrites &W = Fields[FD];
    if (W.Tainted.empty())
      W.Tainted = Why + " (line " + std::to_string(fileLoc(SM, Loc).Line) + ")";
  }

  /// Every integer field of \p RD and of the structs it holds.
  void taintRecord(const RecordDecl *RD, const std::string &Why,
                   SourceLocation Loc) {
    if (!RD || !TaintedRecords.insert(RD).second)
      return;
    for (const FieldDecl *FD : RD->fields()) {
      if (isIntField(FD))
        taint(FD, "its struct is " + Why, Loc);
      QualType T = FD->getType();
      while (const ArrayType *AT = T->getAsArrayTypeUnsafe())
        T = AT->getElementType();
      taintRecord(recordOf(T), Why, Loc);
    }
  }

  std::string text(const clang::Stmt *S) const {
    return Lexer::getSourceText(
               CharSourceRange::getTokenRange(S->getSourceRange()), SM,
               Ctx.getLangOpts())
        .str();
  }

  ASTContext &Ctx;
  const SourceManager &SM;
  std::map<const FieldDecl *, FieldWrites> Fields;
  std::set<const RecordDecl *> TaintedRecords;
  std::set<const InitListExpr *> SeenLists;
  std::map<std::string, std::set<std::string>> RecordsWithField;
  std::vector<CallSite> Calls;

  bool before(SourceLocation A, SourceLocation B) const {
    return SM.isBeforeInTranslationUnit(A, B);
  }
  bool reaches(const FunctionDecl *From, const FunctionDecl *To) const;
  bool runsBefore(const FunctionDecl *WFn, SourceLocation W,
                  const FunctionDecl *FFn, SourceLocation F) const;
  std::string formulaRefusal(const std::string &Name,
                             const ComputedWrite &C) const;
  std::optional<FieldFormula> formulaOf(const FieldDecl *FD,
                                        const FieldWrites &W,
                                        std::string &Why) const;
};

/// The field's one value, or why it has none. An initializer's zero
/// (`Config c = {0};`) yields to the assignments that follow it.
std::optional<Write> valueOf(const FieldWrites &W, std::string &Why) {
  if (!W.Tainted.empty()) {
    Why = W.Tainted;
    return std::nullopt;
  }
  std::vector<Write> Kept;
  bool NonZero = llvm::any_of(W.Writes, [](const Write &X) {
    return !X.FromInitializer || X.Value != 0;
  });
  for (const Write &X : W.Writes)
    if (!(NonZero && X.FromInitializer && X.Value == 0))
      Kept.push_back(X);
  if (Kept.empty())
    Kept = W.Writes;
  for (const Write &X : Kept)
    if (X.Value != Kept.front().Value) {
      Why = "written with " + std::to_string(Kept.front().Value) + " and " +
            std::to_string(X.Value);
      return std::nullopt;
    }
  return Kept.front();
}

/// Whether \p From is \p To or calls it, directly or through other calls.
bool Scanner::reaches(const FunctionDecl *From, const FunctionDecl *To) const {
  std::set<const FunctionDecl *> Seen{From};
  std::vector<const FunctionDecl *> Work{From};
  while (!Work.empty()) {
    const FunctionDecl *F = Work.back();
    Work.pop_back();
    if (F == To)
      return true;
    for (const CallSite &C : Calls)
      if (C.Caller == F && Seen.insert(C.Callee).second)
        Work.push_back(C.Callee);
  }
  return false;
}

/// Whether a write at \p W in \p WFn runs before the assignment at \p F in
/// \p FFn, as far as the calls show: in one function, earlier in it; or
/// \p WFn calls into \p FFn after the write; or \p FFn calls into \p WFn
/// before the assignment; or a function calls into \p WFn and later into
/// \p FFn. A write with no function (a global's or an in-class
/// initializer) runs first.
bool Scanner::runsBefore(const FunctionDecl *WFn, SourceLocation W,
                         const FunctionDecl *FFn, SourceLocation F) const {
  if (!WFn)
    return true;
  if (WFn == FFn)
    return before(W, F);
  for (const CallSite &C : Calls) {
    if (C.Caller == WFn && before(W, C.Loc) && reaches(C.Callee, FFn))
      return true;
    if (C.Caller == FFn && before(C.Loc, F) && reaches(C.Callee, WFn))
      return true;
    if (reaches(C.Callee, WFn))
      for (const CallSite &D : Calls)
        if (D.Caller == C.Caller && before(C.Loc, D.Loc) &&
            reaches(D.Callee, FFn))
          return true;
  }
  return false;
}

/// Why the formula of field \p Name may read a field before the program
/// sets it ("" when every write of every field it reads runs before it).
std::string Scanner::formulaRefusal(const std::string &Name,
                                    const ComputedWrite &C) const {
  for (const std::string &Read : C.Reads) {
    if (Read == Name)
      return "computed from itself";
    for (const auto &[FD, W] : Fields) {
      if (FD->getNameAsString() != Read)
        continue;
      std::vector<std::pair<const FunctionDecl *, SourceLocation>> Sets;
      for (const Write &X : W.Writes)
        Sets.push_back({X.Fn, X.Loc});
      for (const ComputedWrite &X : W.Computed)
        Sets.push_back({X.Where.Fn, X.Loc});
      for (const auto &[Fn, Loc] : Sets)
        if (!runsBefore(Fn, Loc, C.Where.Fn, C.Loc))
          return "computed from '" + Read + "' (line " +
                 std::to_string(fileLoc(SM, C.Loc).Line) +
                 "), which the program sets at line " +
                 std::to_string(fileLoc(SM, Loc).Line) +
                 ", not before it as far as the calls show";
    }
  }
  return "";
}

/// The field's formula, or why it has none: it must be computed once,
/// unconditionally, after the fields it reads are set, and not written
/// otherwise (but for an initializer's zero).
std::optional<FieldFormula> Scanner::formulaOf(const FieldDecl *FD,
                                               const FieldWrites &W,
                                               std::string &Why) const {
  const ComputedWrite &C = W.Computed.front();
  unsigned Line = fileLoc(SM, C.Loc).Line;
  if (W.Computed.size() > 1)
    Why = "computed twice (lines " + std::to_string(Line) + " and " +
          std::to_string(fileLoc(SM, W.Computed[1].Loc).Line) + ")";
  else if (!C.Where.Conditional.empty())
    Why = "computed " + C.Where.Conditional + " (line " +
          std::to_string(Line) + ")";
  else if (auto X = llvm::find_if(W.Writes, [](const Write &X) {
             return !X.FromInitializer || X.Value != 0;
           });
           X != W.Writes.end())
    Why = "written with " + std::to_string(X->Value) + " (line " +
          std::to_string(fileLoc(SM, X->Loc).Line) + ") and computed (line " +
          std::to_string(Line) + ")";
  else
    Why = formulaRefusal(FD->getNameAsString(), C);
  if (!Why.empty())
    return std::nullopt;
  return FieldFormula{C.Formula, text(C.Formula), recordName(FD->getParent()),
                      fileLoc(SM, C.Loc), C.Reads};
}

FieldLiterals Scanner::result() const {
  FieldLiterals Out;
  Out.RecordsWithField = RecordsWithField;
  // By name: `--param dim` and `p->dim` name a field by its own name, so two
  // structs' `dim` must agree.
  std::map<std::string, std::vector<std::pair<const FieldDecl *,
                                              const FieldWrites *>>>
      ByName;
  for (const auto &[FD, W] : Fields)
    if (!SM.isInSystemHeader(FD->getLocation()))
      ByName[FD->getNameAsString()].push_back({FD, &W});
  for (const auto &[Name, Decls] : ByName) {
    std::optional<FieldLiteral> Agreed;
    std::string Why;
    if (llvm::any_of(Decls, [](const auto &D) {
          return !D.second->Computed.empty() && D.second->Tainted.empty();
        })) {
      // A computed field: one struct's, never two (a name is one size).
      const auto &[FD, W] = Decls.front();
      std::optional<FieldFormula> F;
      if (Decls.size() > 1)
        Why = recordName(Decls[0].first->getParent()) + "." + Name + " and " +
              recordName(Decls[1].first->getParent()) + "." + Name +
              " are both set";
      else
        F = formulaOf(FD, *W, Why);
      if (F)
        Out.Computed[Name] = std::move(*F);
      else
        Out.Refused[Name] =
            Decls.size() > 1 ? Why
                             : recordName(FD->getParent()) + "." + Name + ": " +
                                   Why;
      continue;
    }
    for (const auto &[FD, W] : Decls) {
      std::string Record = recordName(FD->getParent());
      std::optional<Write> V = valueOf(*W, Why);
      if (!V) {
        Why = Record + "." + Name + ": " + Why;
        Agreed.reset();
        break;
      }
      if (Agreed && Agreed->Value != V->Value) {
        Why = Agreed->Record + "." + Name + " = " +
              std::to_string(Agreed->Value) + " but " + Record + "." + Name +
              " = " + std::to_string(V->Value);
        Agreed.reset();
        break;
      }
      if (!Agreed)
        Agreed = FieldLiteral{V->Value, Record, fileLoc(SM, V->Loc)};
    }
    if (Agreed)
      Out.Values[Name] = *Agreed;
    else
      Out.Refused[Name] = Why;
  }
  return Out;
}

} // namespace

FieldLiterals roofline::frontend::collectFieldLiterals(ASTContext &Ctx) {
  Scanner S(Ctx);
  S.TraverseDecl(Ctx.getTranslationUnitDecl());
  return S.result();
}
