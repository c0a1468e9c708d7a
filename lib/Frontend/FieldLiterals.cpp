//===- FieldLiterals.cpp - Struct fields the program sets from literals ---===//
//
// Conservative by construction: a field gets a value only when every write
// to it in the translation unit is the same constant, and nothing can write
// it behind the scan's back (its address taken, its struct passed to a
// function with no body such as fread or memcpy, or read through a cast
// from another pointer type). docs/network-report.md, "Sizes".
//
//===----------------------------------------------------------------------===//

#include "FieldLiterals.h"
#include "NestBuilder.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
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

struct Write {
  int64_t Value;
  bool FromInitializer; ///< `= {0}`-style: yields to an assignment
  SourceLocation Loc;
};

struct FieldWrites {
  std::vector<Write> Writes;
  std::string Tainted; ///< why no value can be trusted, if any
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
        write(FD, BO->getRHS(), /*FromInitializer=*/false, BO->getExprLoc());
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
    if (hasBody(CE->getDirectCallee()))
      return true;
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
            FD->getLocation());
    return true;
  }

  bool VisitCXXConstructorDecl(CXXConstructorDecl *CD) {
    if (!CD->doesThisDeclarationHaveABody())
      return true;
    for (const CXXCtorInitializer *I : CD->inits())
      if (I->isMemberInitializer() && I->isWritten() &&
          isIntField(I->getMember()))
        write(I->getMember(), I->getInit(), /*FromInitializer=*/true,
              I->getSourceLocation());
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

  void write(const FieldDecl *FD, const Expr *E, bool FromInitializer,
             SourceLocation Loc) {
    Expr::EvalResult R;
    if (!E->isValueDependent() && E->EvaluateAsInt(R, Ctx) &&
        R.Val.getInt().getSignificantBits() <= 64) {
      Fields[FD].Writes.push_back(
          {R.Val.getInt().getExtValue(), FromInitializer, Loc});
      return;
    }
    taint(FD, "written from '" + text(E) + "'", Loc);
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
