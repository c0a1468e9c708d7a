//===- ProgramWalk.cpp - Follow a pass from an entry function -------------===//
//
// The walk runs the integer part of the program: it keeps the values of
// integer variables (sizes, counters, locals computed from them) and whether
// pointers are null, steps through loops that only carry calls iteration by
// iteration, and at each loop nest it meets builds the nest with NestBuilder
// at the values the variables have there. Exact where it goes; where it
// cannot go (an unknown bound, an unknown condition around a call, a call
// with no body) it records what it left out (docs/network-report.md).
//
//===----------------------------------------------------------------------===//

#include "ProgramWalk.h"
#include "CallSites.h"
#include "FieldLiterals.h"
#include "NestBuilder.h"
#include "roofline/Frontend/CrossTU.h"
#include "ProgramSymbolic.h"

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"

#include <functional>
#include <set>

#include <tuple>
#include <utility>

using namespace clang;
using namespace roofline;
using namespace roofline::frontend;

namespace {

using clang::Stmt; // not roofline::Stmt

/// The walk stops after this many loop iterations and calls: a pass that
/// large is reported as cut, not walked for minutes.
constexpr int64_t MaxSteps = 2'000'000;

struct Frame {
  const FunctionDecl *FD = nullptr;
  std::map<const VarDecl *, int64_t> Ints;
  std::map<const VarDecl *, bool> NonNull;
  /// The buffer each pointer points into, in the entry's terms ("h",
  /// "acts+256"): lets the pass what-ifs see that one call's output is the
  /// next call's input (docs/network-report.md, "What-ifs").
  std::map<const VarDecl *, std::string> Buffer;
  /// Each integer as a polynomial in the entry's sizes (ProgramSymbolic.h).
  std::map<const VarDecl *, SymVal> Syms;
  std::string Path;
  SourceLoc Via; ///< the entry's call this frame descends from
};

/// How a statement ends: on, out of the function, or out of the loop.
enum class Flow { Next, Return, Break, Continue, Abort };

std::optional<int64_t> checkedOp(BinaryOperatorKind Op, int64_t L, int64_t R) {
  int64_t V = 0;
  switch (Op) {
  case BO_Add: case BO_AddAssign:
    return __builtin_add_overflow(L, R, &V) ? std::nullopt : std::optional(V);
  case BO_Sub: case BO_SubAssign:
    return __builtin_sub_overflow(L, R, &V) ? std::nullopt : std::optional(V);
  case BO_Mul: case BO_MulAssign:
    return __builtin_mul_overflow(L, R, &V) ? std::nullopt : std::optional(V);
  case BO_Div: case BO_DivAssign:
    return R == 0 ? std::nullopt : std::optional(L / R); // C truncates
  case BO_Rem: case BO_RemAssign:
    return R == 0 ? std::nullopt : std::optional(L % R);
  case BO_Shl: case BO_ShlAssign:
    return R < 0 || R > 62 ? std::nullopt : std::optional(L << R);
  case BO_Shr: case BO_ShrAssign:
    return R < 0 || R > 63 ? std::nullopt : std::optional(L >> R);
  case BO_LT: return L < R;
  case BO_GT: return L > R;
  case BO_LE: return L <= R;
  case BO_GE: return L >= R;
  case BO_EQ: return L == R;
  case BO_NE: return L != R;
  case BO_And: case BO_AndAssign: return L & R;
  case BO_Or: case BO_OrAssign: return L | R;
  case BO_Xor: case BO_XorAssign: return L ^ R;
  default:
    return std::nullopt;
  }
}

class Walker {
public:
  Walker(ASTContext &Ctx, const CallSiteCollector &Calls,
         const FrontendOptions &Opts, const FieldLiterals &Fields,
         ProgramResult &Out)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Calls(Calls), Opts(Opts),
        Fields(Fields), Out(Out) {}

  void run(const FunctionDecl *Entry) {
    Frame F;
    F.FD = Entry;
    F.Path = Entry->getNameAsString();
    Stack.push_back(Entry);
    std::vector<std::string> AssumedNonNull;
    for (const ParmVarDecl *P : Entry->parameters()) {
      std::optional<int64_t> V = given(P->getName(), "");
      if (V && P->getType()->isIntegerType())
        F.Ints[P] = *V;
      if (P->getType()->isIntegerType())
        F.Syms[P] = Sym.size(P->getNameAsString(), V);
      if (P->getType()->isPointerType()) {
        // The pass is run on real buffers: an entry's pointers are taken
        // as non-null unless --param says otherwise (a stated assumption).
        F.NonNull[P] = V ? *V != 0 : true;
        F.Buffer[P] = P->getNameAsString();
        if (!V)
          AssumedNonNull.push_back(P->getNameAsString());
      }
      if (V)
        Out.EntryValues[P->getNameAsString()] = *V;
    }
    if (!AssumedNonNull.empty())
      Out.Notes.push_back("the entry's pointer parameters are taken as not "
                          "null (" + llvm::join(AssumedNonNull, ", ") +
                          "); --param " + Entry->getNameAsString() +
                          ":NAME=0 says one is");
    if (walk(Entry->getBody(), F, 1) == Flow::Abort) {
      leaveOut(F, Entry->getBeginLoc(),
               "the walk stopped after " + std::to_string(MaxSteps) +
                   " loop iterations and calls; what follows is not counted",
               0);
      Sym.leftOut("the walk stopped after " + std::to_string(MaxSteps) +
                  " loop iterations and calls");
    }
    Sym.finish();
    noteFieldLiterals();
    noteAssumedFields();
  }

  /// Which sizes came from struct fields the file sets (and which could
  /// not), so a reader can check them against the program.
  void noteFieldLiterals() {
    std::vector<std::string> Used, Refused;
    for (const std::string &F : UsedFields) {
      const FieldLiteral &L = Fields.Values.at(F);
      Used.push_back(L.Record + "." + F + "=" + std::to_string(L.Value) +
                     " (line " + std::to_string(L.Loc.Line) + ")");
    }
    for (const std::string &F : RefusedFields)
      Refused.push_back(Fields.Refused.at(F));
    if (!Used.empty())
      Out.Notes.push_back("sizes from struct fields the file sets from "
                          "literals: " + llvm::join(Used, ", "));
    noteComputedFields();
    if (!Refused.empty())
      Out.Notes.push_back("struct fields with no value from the file: " +
                          llvm::join(Refused, "; "));
    noteAmbiguousFieldParams();
  }

  /// Which sizes came from fields the program computes, from what.
  void noteComputedFields() {
    std::vector<std::string> Used, Unvalued;
    for (const auto &[Name, V] : ComputedValues) {
      const FieldFormula &F = Fields.Computed.at(Name);
      if (!V.Value) {
        Unvalued.push_back(F.Record + "." + Name + " (line " +
                           std::to_string(F.Loc.Line) + ": " + F.Text + ")");
        continue;
      }
      Used.push_back(F.Record + "." + Name + "=" + std::to_string(*V.Value) +
                     " (line " + std::to_string(F.Loc.Line) + ": " + F.Text +
                     (V.From.empty() ? "" : " with " + V.From) + ")");
    }
    if (!Used.empty())
      Out.Notes.push_back("sizes from struct fields the program computes: " +
                          llvm::join(Used, "; "));
    if (!Unvalued.empty())
      Out.Notes.push_back("struct fields the program computes from a field "
                          "with no value: " + llvm::join(Unvalued, "; "));
  }

  /// `--param dim=288` names a field by its own name: say so where more
  /// than one struct has a field of that name (both get the value).
  void noteAmbiguousFieldParams() {
    for (const auto *M : {&Opts.Params, &Opts.ConfigParams})
      for (const auto &[Key, V] : *M) {
        auto It = Fields.RecordsWithField.find(Key);
        if (It == Fields.RecordsWithField.end() || It->second.size() < 2)
          continue;
        std::vector<std::string> Names;
        for (const std::string &R : It->second)
          Names.push_back(R + "." + Key);
        Out.Notes.push_back("'" + Key + "=" + std::to_string(V) +
                            "' sets a field of that name in every struct (" +
                            llvm::join(Names, ", ") +
                            "); give a path (p->" + Key +
                            ") to set one");
      }
  }

private:
  //===------------------------------------------------------------------===//
  // Values
  //===------------------------------------------------------------------===//

  /// A size from --param, the config or --sizes, by "fn:name" or "name".
  std::optional<int64_t> given(StringRef Name, StringRef Field) {
    std::optional<int64_t> V = givenAnywhere(Name, Field);
    if (V && Reading && !Field.empty())
      Reading->push_back(Field.str() + "=" + std::to_string(*V));
    return V;
  }

  std::optional<int64_t> givenAnywhere(StringRef Name, StringRef Field) {
    // A computed field's formula is evaluated once for the whole pass, in
    // no function's terms.
    std::string Fn = Stack.empty() || Reading ? ""
                                              : Stack.back()->getNameAsString();
    for (const auto *M : {&Opts.Params, &Opts.ConfigParams})
      for (std::string Key : {Fn + ":" + Name.str(), Name.str(),
                              Field.empty() ? "" : Fn + ":" + Field.str(),
                              Field.str()})
        if (!Key.empty())
          if (auto It = M->find(Key); It != M->end()) {
            Out.UsedParams.insert(Key); // not an unused --param
            return It->second;
          }
    return fieldLiteral(Field);
  }

  /// A literal the file assigns to the field (FieldLiterals.h), lowest of
  /// all sources; a field the scan refused is named once in the notes.
  std::optional<int64_t> fieldLiteral(StringRef Field) {
    if (Field.empty())
      return std::nullopt;
    if (auto It = Opts.FieldLiterals.find(Field.str());
        It != Opts.FieldLiterals.end()) {
      UsedFields.insert(Field.str());
      return It->second;
    }
    if (Fields.Computed.count(Field.str()))
      return computedField(Field.str());
    if (auto It = Fields.Refused.find(Field.str()); It != Fields.Refused.end())
      RefusedFields.insert(Field.str());
    return std::nullopt;
  }

  /// A field the program computes from others (FieldLiterals.h): its
  /// formula at the values the fields it reads have (from any source),
  /// once; none when one of them has none.
  std::optional<int64_t> computedField(const std::string &Field) {
    if (auto It = ComputedValues.find(Field); It != ComputedValues.end())
      return It->second.Value;
    ComputedValue &V = ComputedValues[Field]; // none while it is evaluated
    std::vector<std::string> Reads;
    std::vector<std::string> *Outer = std::exchange(Reading, &Reads);
    std::optional<int64_t> Result =
        evalInt(Fields.Computed.at(Field).Formula, Frame());
    Reading = Outer;
    V.Value = Result;
    V.From = llvm::join(Reads, ", ");
    return Result;
  }

  /// "p->cfg.dim" for a member chain rooted at a variable.
  static std::optional<std::string> memberText(const Expr *E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      return DRE->getDecl()->getNameAsString();
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      std::optional<std::string> Base = memberText(ME->getBase());
      if (!Base)
        return std::nullopt;
      return *Base + (ME->isArrow() ? "->" : ".") +
             ME->getMemberDecl()->getNameAsString();
    }
    if (isa<CXXThisExpr>(E))
      return std::string("this");
    return std::nullopt;
  }

  std::optional<int64_t> evalInt(const Expr *E, const Frame &F) {
    if (!E || E->isValueDependent())
      return std::nullopt;
    if (const auto *D = dyn_cast<CXXDefaultArgExpr>(E))
      return evalInt(D->getExpr(), F);
    E = E->IgnoreParenCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        if (auto It = F.Ints.find(VD); It != F.Ints.end())
          return It->second;
    } else if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      if (std::optional<std::string> Path = memberText(ME))
        if (std::optional<int64_t> V =
                given(*Path, ME->getMemberDecl()->getName()))
          return V;
    } else if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      std::optional<int64_t> V;
      switch (UO->getOpcode()) {
      case UO_Minus:
        if ((V = evalInt(UO->getSubExpr(), F)) && *V != INT64_MIN)
          return -*V;
        return std::nullopt;
      case UO_Plus:
        return evalInt(UO->getSubExpr(), F);
      case UO_LNot:
        if (std::optional<bool> C = evalCond(UO->getSubExpr(), F))
          return !*C;
        return std::nullopt;
      default:
        break;
      }
    } else if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      // evalCond handles these itself (it never comes back here for them).
      if (BO->isLogicalOp() ||
          (BO->isEqualityOp() && !BO->getLHS()->getType()->isIntegerType())) {
        std::optional<bool> C = evalCond(BO, F);
        return C ? std::optional<int64_t>(*C) : std::nullopt;
      }
      if (!BO->isAssignmentOp() && !BO->isLogicalOp() &&
          BO->getLHS()->getType()->isIntegerType() &&
          BO->getRHS()->getType()->isIntegerType()) {
        std::optional<int64_t> L = evalInt(BO->getLHS(), F);
        std::optional<int64_t> R = L ? evalInt(BO->getRHS(), F) : std::nullopt;
        if (R)
          return checkedOp(BO->getOpcode(), *L, *R);
        return std::nullopt;
      }
    } else if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
      if (std::optional<bool> C = evalCond(CO->getCond(), F))
        return evalInt(*C ? CO->getTrueExpr() : CO->getFalseExpr(), F);
      return std::nullopt;
    }
    // Constants, enumerators, macros, sizeof, constexpr variables.
    Expr::EvalResult R;
    if (E->getType()->isIntegralOrEnumerationType() &&
        E->EvaluateAsInt(R, Ctx) && R.Val.getInt().getSignificantBits() <= 64)
      return R.Val.getInt().getExtValue();
    return std::nullopt;
  }

  /// Whether a pointer is non-null: null constants are not, arrays and
  /// addresses are, arithmetic keeps its base's answer.
  std::optional<bool> evalNonNull(const Expr *E, const Frame &F) {
    if (const auto *D = dyn_cast<CXXDefaultArgExpr>(E))
      return evalNonNull(D->getExpr(), F);
    if (E->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull))
      return false;
    E = E->IgnoreParenCasts();
    if (E->getType()->isArrayType())
      return true;
    if (const auto *UO = dyn_cast<UnaryOperator>(E))
      return UO->getOpcode() == UO_AddrOf ? std::optional(true) : std::nullopt;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        if (auto It = F.NonNull.find(VD); It != F.NonNull.end())
          return It->second;
    if (const auto *BO = dyn_cast<BinaryOperator>(E); BO && BO->isAdditiveOp()) {
      bool IntLeft = BO->getLHS()->getType()->isIntegerType();
      // A non-zero offset from a null pointer is undefined (C11 6.5.6), so
      // in a program that runs, `p + k` with k != 0 is not null.
      std::optional<int64_t> K =
          evalInt(IntLeft ? BO->getLHS() : BO->getRHS(), F);
      if (K && *K != 0)
        return true;
      return evalNonNull(IntLeft ? BO->getRHS() : BO->getLHS(), F);
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E))
      if (std::optional<std::string> Path = memberText(ME)) {
        if (std::optional<int64_t> V =
                given(*Path, ME->getMemberDecl()->getName()))
          return *V != 0;
        return fieldNonNull(*Path);
      }
    return std::nullopt;
  }

  /// A pointer field of a struct (a model's weights, `params.qkvb`): taken
  /// as not null, as the entry's pointers are (a pass runs on real
  /// buffers), and said in a note; `--param NAME=0` says one is null.
  std::optional<bool> fieldNonNull(const std::string &Path) {
    if (AssumedFields.insert(Path).second && AssumedFields.size() <= 8)
      AssumedFieldOrder.push_back(Path);
    return true;
  }

  void noteAssumedFields() {
    if (AssumedFields.empty())
      return;
    std::string More = AssumedFields.size() > AssumedFieldOrder.size()
                           ? ", and " + std::to_string(AssumedFields.size() -
                                                       AssumedFieldOrder.size()) +
                                 " more"
                           : "";
    Out.Notes.push_back("pointer fields of structs are taken as not null (" +
                        llvm::join(AssumedFieldOrder, ", ") + More +
                        "); --param NAME=0 says one is");
  }

  std::optional<bool> evalCond(const Expr *E, const Frame &F) {
    E = E->IgnoreParenImpCasts();
    if (E->getType()->isPointerType())
      return evalNonNull(E, F);
    if (const auto *UO = dyn_cast<UnaryOperator>(E);
        UO && UO->getOpcode() == UO_LNot) {
      std::optional<bool> C = evalCond(UO->getSubExpr(), F);
      return C ? std::optional(!*C) : std::nullopt;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      if (BO->isLogicalOp()) {
        bool And = BO->getOpcode() == BO_LAnd;
        std::optional<bool> L = evalCond(BO->getLHS(), F);
        if (L && *L != And)
          return !And; // short circuit
        std::optional<bool> R = evalCond(BO->getRHS(), F);
        if (R && *R != And)
          return !And;
        if (L && R)
          return And;
        return std::nullopt;
      }
      if (BO->isEqualityOp() && BO->getLHS()->getType()->isPointerType()) {
        const Expr *P = BO->getLHS(), *Q = BO->getRHS();
        if (P->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull))
          std::swap(P, Q);
        if (!Q->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull))
          return std::nullopt;
        std::optional<bool> NN = evalNonNull(P, F);
        if (!NN)
          return std::nullopt;
        return BO->getOpcode() == BO_NE ? *NN : !*NN;
      }
      if (BO->isEqualityOp() && !BO->getLHS()->getType()->isIntegerType())
        return std::nullopt; // floats: data, not sizes
    }
    if (!E->getType()->isIntegralOrEnumerationType() &&
        !E->getType()->isBooleanType())
      return std::nullopt;
    std::optional<int64_t> V = evalInt(E, F);
    return V ? std::optional(*V != 0) : std::nullopt;
  }

  /// The buffer \p E points into, as "root" or "root+offset" (elements),
  /// when the walk knows it: a tracked pointer, `p + k` with k known, a
  /// local array, a struct member path.
  std::optional<std::string> evalBuffer(const Expr *E, const Frame &F) {
    E = E->IgnoreParenCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      if (!VD)
        return std::nullopt;
      if (VD->getType()->isArrayType())
        return F.FD->getNameAsString() + "::" + VD->getNameAsString();
      if (auto It = F.Buffer.find(VD); It != F.Buffer.end())
        return It->second;
      return std::nullopt;
    }
    if (const auto *BO = dyn_cast<BinaryOperator>(E); BO && BO->isAdditiveOp()) {
      bool IntLeft = BO->getLHS()->getType()->isIntegerType();
      std::optional<int64_t> K =
          evalInt(IntLeft ? BO->getLHS() : BO->getRHS(), F);
      std::optional<std::string> Base =
          evalBuffer(IntLeft ? BO->getRHS() : BO->getLHS(), F);
      if (!K || !Base)
        return std::nullopt;
      if (BO->getOpcode() == BO_Sub)
        K = -*K;
      size_t Plus = Base->rfind('+');
      int64_t Off = 0;
      if (Base->back() == '?')
        return std::nullopt;
      if (Plus != std::string::npos) {
        Off = std::stoll(Base->substr(Plus + 1));
        Base->resize(Plus);
      }
      std::optional<int64_t> Sum = checkedOp(BO_Add, Off, *K);
      if (!Sum)
        return std::nullopt;
      return *Sum == 0 ? *Base : *Base + "+" + std::to_string(*Sum);
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E))
      return memberBuffer(ME, F);
    return std::nullopt;
  }

  /// "model->acts.ln1" in the entry's terms: the chain's root is a global,
  /// a variable of the entry, or a pointer whose buffer the frame knows.
  std::optional<std::string> memberBuffer(const MemberExpr *ME,
                                          const Frame &F) {
    std::optional<std::string> Text = memberText(ME);
    const Expr *Root = ME;
    while (const auto *M = dyn_cast<MemberExpr>(Root->IgnoreParenImpCasts()))
      Root = M->getBase();
    const auto *DRE = dyn_cast<DeclRefExpr>(Root->IgnoreParenImpCasts());
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!Text || !VD)
      return std::nullopt;
    std::string Name = VD->getNameAsString();
    if (auto It = F.Buffer.find(VD); It != F.Buffer.end()) {
      if (It->second.find('+') != std::string::npos)
        return std::nullopt; // a member of an offset struct pointer
      return It->second + Text->substr(Name.size());
    }
    if (VD->hasGlobalStorage() || Stack.size() == 1)
      return Text;
    return std::nullopt;
  }

  /// Sets or forgets \p VD's value after `VD = Init` or its declaration.
  void assign(const VarDecl *VD, const Expr *Init, Frame &F) {
    QualType T = VD->getType();
    if (T->isIntegerType()) {
      F.Syms[VD] = Init ? evalSym(Init, F)
                        : SymVal::none("'" + VD->getNameAsString() +
                                       "' is not initialized");
      std::optional<int64_t> V = Init ? evalInt(Init, F) : std::nullopt;
      if (V)
        F.Ints[VD] = *V;
      else
        F.Ints.erase(VD);
    } else if (T->isPointerType()) {
      std::optional<bool> NN = Init ? evalNonNull(Init, F) : std::nullopt;
      if (NN)
        F.NonNull[VD] = *NN;
      else
        F.NonNull.erase(VD);
      std::optional<std::string> Buf =
          Init ? evalBuffer(Init, F) : std::nullopt;
      if (Buf)
        F.Buffer[VD] = *Buf;
      else
        F.Buffer.erase(VD);
    }
  }

  /// `x = e`, `x += e`, `++x` on an integer variable; anything else that
  /// writes a tracked variable forgets it.
  void update(const Expr *E, Frame &F) {
    E = E->IgnoreParenImpCasts();
    symUpdate(E, F);
    if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->isIncrementDecrementOp()) {
      const auto *DRE = dyn_cast<DeclRefExpr>(UO->getSubExpr()->IgnoreParenImpCasts());
      const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
      if (!VD)
        return;
      auto It = F.Ints.find(VD);
      if (It == F.Ints.end()) {
        F.NonNull.erase(VD); // p++ keeps non-null, but be plain
        F.Buffer.erase(VD);
        return;
      }
      std::optional<int64_t> V =
          checkedOp(UO->isIncrementOp() ? BO_Add : BO_Sub, It->second, 1);
      if (V)
        It->second = *V;
      else
        F.Ints.erase(It);
      return;
    }
    const auto *BO = dyn_cast<BinaryOperator>(E);
    if (!BO || !BO->isAssignmentOp())
      return;
    const auto *DRE = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts());
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!VD)
      return;
    if (BO->getOpcode() == BO_Assign) {
      assign(VD, BO->getRHS(), F);
      return;
    }
    auto It = F.Ints.find(VD);
    std::optional<int64_t> R = evalInt(BO->getRHS(), F);
    std::optional<int64_t> V =
        It != F.Ints.end() && R ? checkedOp(BO->getOpcode(), It->second, *R)
                                : std::nullopt;
    if (V)
      F.Ints[VD] = *V;
    else {
      F.Ints.erase(VD);
      F.NonNull.erase(VD);
      F.Buffer.erase(VD);
    }
  }

  //===------------------------------------------------------------------===//
  // Statements
  //===------------------------------------------------------------------===//

  Flow walk(const Stmt *S, Frame &F, int64_t Times) {
    if (!S)
      return Flow::Next;
    if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
      for (const Stmt *C : CS->body())
        if (Flow R = walk(C, F, Times); R != Flow::Next)
          return R;
      return Flow::Next;
    }
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D)) {
          if (VD->getInit())
            walkCalls(VD->getInit(), F, Times);
          assign(VD, VD->getInit(), F);
        }
      return Flow::Next;
    }
    if (const auto *FS = dyn_cast<ForStmt>(S)) {
      if (isCarrier(FS))
        return walkLoop(FS, F, Times);
      countNest(FS, F, Times);
      return Flow::Next;
    }
    if (isa<WhileStmt, DoStmt, CXXForRangeStmt>(S) ||
        isa<OMPExecutableDirective>(S)) {
      if (isa<CXXForRangeStmt, OMPExecutableDirective>(S) ||
          !reachesFunctions(S))
        countNest(S, F, Times);
      else
        leaveOut(F, S->getBeginLoc(),
                 "a while or do loop around calls: its trip count is not "
                 "known statically; the calls in it are not counted (" +
                     calleesIn(S) + ")",
                 Times);
      return Flow::Next;
    }
    if (const auto *IS = dyn_cast<IfStmt>(S)) {
      if (IS->getInit())
        walk(IS->getInit(), F, Times);
      walkCalls(IS->getCond(), F, Times);
      std::optional<bool> C = evalCond(IS->getCond(), F);
      if (C && Sym.active())
        symCondition(IS->getCond(), *C, F);
      if (C)
        return walk(*C ? IS->getThen() : IS->getElse(), F, Times);
      for (const Stmt *Branch : {IS->getThen(), IS->getElse()})
        if (Branch && (reachesFunctions(Branch) || hasLoop(Branch)))
          leaveOut(F, Branch->getBeginLoc(),
                   "under the condition '" + text(IS->getCond()) +
                       "', whose value is not known here: not counted (" +
                       calleesIn(Branch) + ")",
                   Times);
      return Flow::Next;
    }
    if (const auto *RS = dyn_cast<ReturnStmt>(S)) {
      if (RS->getRetValue())
        walkCalls(RS->getRetValue(), F, Times);
      return Flow::Return;
    }
    if (isa<BreakStmt>(S))
      return Flow::Break;
    if (isa<ContinueStmt>(S))
      return Flow::Continue;
    if (const auto *E = dyn_cast<Expr>(S)) {
      walkCalls(E, F, Times);
      update(E, F);
      return Flow::Next;
    }
    if (hasLoop(S) || reachesFunctions(S))
      leaveOut(F, S->getBeginLoc(),
               std::string("a ") + S->getStmtClassName() +
                   " statement: the walk does not enter it; not counted (" +
                   calleesIn(S) + ")",
               Times);
    return Flow::Next;
  }

  /// Steps through a loop that only carries calls, one iteration at a time.
  /// Its formulas come from the first iteration, summed over the loop's
  /// variable (symLoopBegin); a loop whose bound has no value is walked
  /// once for them alone.
  Flow walkLoop(const ForStmt *FS, Frame &F, int64_t Times) {
    if (FS->getInit())
      walk(FS->getInit(), F, Times);
    bool SymOn = Sym.active();
    SymLoop SL;
    if (SymOn)
      SL = symLoopBegin(FS, F);
    Flow Result = Flow::Next;
    for (bool First = true;; First = false) {
      if (++Steps > MaxSteps) {
        Result = Flow::Abort;
        break;
      }
      std::optional<bool> C =
          FS->getCond() ? evalCond(FS->getCond(), F) : std::nullopt;
      if (First && SymOn && (!C || !*C))
        symLoopBodyOnly(FS, SL, F, Times);
      if (!C) {
        if (!NumericOff)
          leaveOutNumeric(
              F, FS->getBeginLoc(),
              "the loop's condition '" +
                  (FS->getCond() ? text(FS->getCond()) : std::string()) +
                  "' has no value here (give its sizes with --param): "
                  "the calls in it are not counted (" +
                  calleesIn(FS->getBody()) + ")",
              Times);
        break;
      }
      if (!*C)
        break;
      if (!First)
        Sym.mute();
      Flow R = walk(FS->getBody(), F, Times);
      if (!First)
        Sym.unmute();
      if (First && SymOn)
        symLoopFlow(R, SL);
      if (R == Flow::Abort || R == Flow::Return) {
        Result = R;
        break;
      }
      if (R == Flow::Break)
        break;
      if (FS->getInc())
        update(FS->getInc(), F);
    }
    if (SymOn)
      symLoopEnd(SL, F);
    return Result;
  }

  /// Calls inside an expression, in the order they run (arguments first).
  void walkCalls(const Stmt *S, Frame &F, int64_t Times) {
    if (!S || isa<LambdaExpr>(S) || isa<UnaryExprOrTypeTraitExpr>(S))
      return;
    for (const Stmt *C : S->children())
      walkCalls(C, F, Times);
    if (const auto *CE = dyn_cast<CallExpr>(S))
      walkCall(CE, F, Times);
  }

  /// The function a call runs, when its body is ours to walk.
  const FunctionDecl *bodyOf(const FunctionDecl *FD) const {
    const FunctionDecl *Def = FD ? FD->getDefinition() : nullptr;
    if (!Def || !Def->hasBody() || SM.isInSystemHeader(Def->getLocation()))
      return nullptr;
    return Def;
  }

  void walkCall(const CallExpr *CE, Frame &F, int64_t Times) {
    if (isa<CUDAKernelCallExpr>(CE)) {
      leaveOut(F, CE->getBeginLoc(),
               "a CUDA kernel launch: its grid is not followed", Times);
      return;
    }
    const FunctionDecl *Callee = CE->getDirectCallee();
    if (!Callee) {
      leaveOut(F, CE->getBeginLoc(),
               "a call through a function pointer ('" + text(CE->getCallee()) +
                   "'): the callee is not known",
               Times);
      return;
    }
    if (isScalarMathName(Callee->getName()))
      return; // one scalar operation outside any loop: not a nest
    Callee = devirtualized(CE, Callee);
    if (!Callee) {
      leaveOut(F, CE->getBeginLoc(),
               "a virtual call to '" +
                   CE->getDirectCallee()->getQualifiedNameAsString() +
                   "': which override runs is not known statically; not "
                   "counted",
               Times);
      return;
    }
    const FunctionDecl *Def = bodyOf(Callee);
    std::string Elsewhere; // why no other translation unit has it
    if (!Def)
      Def =
          bodyOf(bodyFromElsewhere(Opts.CrossTU.get(), Ctx, Callee, Elsewhere));
    if (!Def) {
      if (!Elsewhere.empty())
        leaveOut(F, CE->getBeginLoc(),
                 "calls to '" + Callee->getNameAsString() + "', " + Elsewhere +
                     ": not counted",
                 Times);
      else if (!SM.isInSystemHeader(Callee->getLocation()) ||
               Callee->getDefinition() == nullptr)
        leaveOut(F, CE->getBeginLoc(),
                 "calls to '" + Callee->getNameAsString() +
                     "', which has no body here: not counted",
                 Times);
      else
        leaveOut(F, CE->getBeginLoc(),
                 "calls to '" + Callee->getQualifiedNameAsString() +
                     "' (a system header): not counted",
                 Times);
      return;
    }
    if (std::find(Stack.begin(), Stack.end(), Def) != Stack.end()) {
      leaveOut(F, CE->getBeginLoc(),
               "a recursive call to '" + Def->getNameAsString() +
                   "': not followed",
               Times);
      return;
    }
    if (++Steps > MaxSteps)
      return;
    Frame Callee2;
    Callee2.FD = Def;
    Callee2.Path = F.Path + " > " + Def->getNameAsString();
    Callee2.Via = Stack.size() == 1 ? fileLoc(SM, CE->getBeginLoc()) : F.Via;
    unsigned Skip = isa<CXXOperatorCallExpr>(CE) && isa<CXXMethodDecl>(Def) &&
                            !cast<CXXMethodDecl>(Def)->isStatic()
                        ? 1
                        : 0;
    for (unsigned I = 0; I < Def->getNumParams() && I + Skip < CE->getNumArgs();
         ++I) {
      const ParmVarDecl *P = Def->getParamDecl(I);
      const Expr *A = CE->getArg(I + Skip);
      if (P->getType()->isIntegerType()) {
        if (std::optional<int64_t> V = evalInt(A, F))
          Callee2.Ints[P] = *V;
        Callee2.Syms[P] = evalSym(A, F);
      } else if (P->getType()->isPointerType()) {
        if (std::optional<bool> NN = evalNonNull(A, F))
          Callee2.NonNull[P] = *NN;
        if (std::optional<std::string> Buf = evalBuffer(A, F))
          Callee2.Buffer[P] = *Buf;
      }
    }
    if (!NumericOff)
      ++Out.CallsFollowed;
    Stack.push_back(Def);
    walk(Def->getBody(), Callee2, Times);
    Stack.pop_back();
  }

  /// The method a call runs: \p Callee itself unless it is virtual, then
  /// the one the object's static type fixes (a final class or method, an
  /// object that is no pointer or reference, `p->Base::f()`), else null.
  static const FunctionDecl *devirtualized(const CallExpr *CE,
                                           const FunctionDecl *Callee) {
    const auto *MCE = dyn_cast<CXXMemberCallExpr>(CE);
    const auto *MD = dyn_cast<CXXMethodDecl>(Callee);
    if (!MCE || !MD || !MD->isVirtual())
      return Callee;
    if (const auto *ME = dyn_cast<MemberExpr>(MCE->getCallee()->IgnoreParens());
        ME && ME->hasQualifier())
      return Callee; // an explicitly qualified call is not virtual
    return MD->getDevirtualizedMethod(MCE->getImplicitObjectArgument(),
                                      /*IsAppleKext=*/false);
  }

  struct BuiltNest {
    bool Ok = false;
    LoopNest Nest;
    std::string Why;
    /// The nest's counts, for its formulas (computed on first use).
    std::optional<NestFormulas> Counts;
    std::string CountsWhy;
    bool Counted = false;
  };

  //===------------------------------------------------------------------===//
  // Formulas: the same pass as polynomials in the entry's sizes
  // (ProgramSymbolic.h; docs/network-report.md, "Symbolic totals")
  //===------------------------------------------------------------------===//

  static char arithOp(BinaryOperatorKind Op) {
    if (BinaryOperator::isCompoundAssignmentOp(Op))
      Op = BinaryOperator::getOpForCompoundAssignment(Op);
    switch (Op) {
    case BO_Add: return '+';
    case BO_Sub: return '-';
    case BO_Mul: return '*';
    case BO_Div: return '/';
    case BO_Rem: return '%';
    case BO_Shl: return '<';
    case BO_Shr: return '>';
    default: return 0;
    }
  }

  static const VarDecl *varOf(const Expr *E) {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  }

  static SymVal symOf(const VarDecl *VD, const Frame &F) {
    if (auto It = F.Syms.find(VD); It != F.Syms.end())
      return It->second;
    return SymVal::none("'" + VD->getNameAsString() +
                        "' has no closed form in the pass's sizes");
  }

  /// \p E as a polynomial in the entry's sizes, as evalInt computes it.
  SymVal evalSym(const Expr *E, const Frame &F) {
    if (!E || E->isValueDependent())
      return SymVal::none("a dependent expression");
    if (const auto *D = dyn_cast<CXXDefaultArgExpr>(E))
      return evalSym(D->getExpr(), F);
    E = E->IgnoreParenCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        if (F.Syms.count(VD))
          return symOf(VD, F);
    } else if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      // A struct field is a size of the pass named by the field.
      if (ME->getType()->isIntegerType())
        if (std::optional<std::string> Path = memberText(ME)) {
          std::string Field = ME->getMemberDecl()->getNameAsString();
          return Sym.size(Field, given(*Path, Field));
        }
    } else if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      if (UO->getOpcode() == UO_Minus)
        return Sym.arith('-', SymbolicRollup::constant(0),
                         evalSym(UO->getSubExpr(), F));
      if (UO->getOpcode() == UO_Plus)
        return evalSym(UO->getSubExpr(), F);
    } else if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      char Op = BO->isAssignmentOp() ? 0 : arithOp(BO->getOpcode());
      if (Op && BO->getLHS()->getType()->isIntegerType() &&
          BO->getRHS()->getType()->isIntegerType())
        return Sym.arith(Op, evalSym(BO->getLHS(), F),
                         evalSym(BO->getRHS(), F));
    } else if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
      std::optional<bool> C = evalCond(CO->getCond(), F);
      SymDependence D = symDependence(CO->getCond(), F);
      if (C && D.Why.empty() && D.Depends.empty())
        return evalSym(*C ? CO->getTrueExpr() : CO->getFalseExpr(), F);
      return SymVal::none("'" + text(E) +
                          "' (a choice on the sizes, a min or max) has no "
                          "closed form");
    }
    // Constants, enumerators, macros, sizeof, constexpr variables.
    Expr::EvalResult R;
    if (E->getType()->isIntegralOrEnumerationType() &&
        E->EvaluateAsInt(R, Ctx) && R.Val.getInt().getSignificantBits() <= 64)
      return SymbolicRollup::constant(R.Val.getInt().getExtValue());
    return SymVal::none("'" + text(E) + "' has no closed form in the pass's "
                        "sizes");
  }

  /// `++x`, `x += e` on an integer variable, as update does with numbers
  /// (`x = e` is assign's).
  void symUpdate(const Expr *E, Frame &F) {
    if (const auto *UO = dyn_cast<UnaryOperator>(E);
        UO && UO->isIncrementDecrementOp()) {
      if (const VarDecl *VD = varOf(UO->getSubExpr());
          VD && VD->getType()->isIntegerType())
        F.Syms[VD] = Sym.arith(UO->isIncrementOp() ? '+' : '-', symOf(VD, F),
                               SymbolicRollup::constant(1));
      return;
    }
    const auto *BO = dyn_cast<BinaryOperator>(E);
    if (!BO || !BO->isCompoundAssignmentOp())
      return;
    const VarDecl *VD = varOf(BO->getLHS());
    if (!VD || !VD->getType()->isIntegerType())
      return;
    char Op = arithOp(BO->getOpcode());
    F.Syms[VD] = Op ? Sym.arith(Op, symOf(VD, F), evalSym(BO->getRHS(), F))
                    : SymVal::none("'" + text(E) + "' has no closed form");
  }

  /// What a condition's value depends on: the differences of the sizes it
  /// compares, or why one has no closed form.
  struct SymDependence {
    std::vector<Polynomial> Depends;
    std::string Why;
    bool Varying = false; ///< Why may differ between a loop's iterations
  };

  SymDependence symDependence(const Expr *E, const Frame &F) {
    SymDependence D;
    E = E->IgnoreParenImpCasts();
    if (E->getType()->isPointerType())
      return D; // null or not: no size
    auto Add = [&](const SymVal &V) {
      if (!V.known()) {
        if (D.Why.empty())
          D.Why = V.Why;
        D.Varying |= V.Varying;
      } else if (!V.P->isConstant())
        D.Depends.push_back(*V.P);
    };
    if (const auto *UO = dyn_cast<UnaryOperator>(E);
        UO && UO->getOpcode() == UO_LNot)
      return symDependence(UO->getSubExpr(), F);
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      if (BO->isLogicalOp()) {
        D = symDependence(BO->getLHS(), F);
        SymDependence R = symDependence(BO->getRHS(), F);
        D.Depends.insert(D.Depends.end(), R.Depends.begin(), R.Depends.end());
        if (D.Why.empty())
          D.Why = R.Why;
        D.Varying |= R.Varying;
        return D;
      }
      if (BO->isEqualityOp() && !BO->getLHS()->getType()->isIntegerType())
        return D;
      if (BO->isComparisonOp()) {
        Add(Sym.arith('-', evalSym(BO->getLHS(), F), evalSym(BO->getRHS(), F)));
        return D;
      }
    }
    Add(evalSym(E, F));
    return D;
  }

  /// A branch the walk takes on a condition it evaluated: on sizes, it is
  /// an assumption of the formulas; on a loop's variable, the loop's
  /// iterations differ and its formulas are not the first one's sum.
  void symCondition(const Expr *Cond, bool Taken, const Frame &F) {
    SymDependence D = symDependence(Cond, F);
    std::string Where = "'" + text(Cond) + "' (line " +
                        std::to_string(fileLoc(SM, Cond->getBeginLoc()).Line) +
                        ")";
    if (!D.Why.empty()) {
      if (D.Varying)
        Sym.taintLoop("the branch on " + Where + " may go another way in "
                      "other iterations: " + D.Why);
      else
        Sym.assume(Where + " is " + (Taken ? "true" : "false") +
                   ", as at the given sizes (" + D.Why + ")");
      return;
    }
    for (const Polynomial &P : D.Depends)
      if (Sym.taintLoopsUsing(P, "the branch on " + Where +
                                     " depends on the loop's variable"))
        return;
    if (!D.Depends.empty())
      Sym.assume(Where + " is " + (Taken ? "true" : "false") +
                 ", as at the given sizes");
  }

  struct SymLoop {
    const VarDecl *IV = nullptr;
    SymVal First, Last;
    std::set<const VarDecl *> Carried;
    std::string Where;
  };

  /// Variables declared outside \p Body that it assigns: their values
  /// differ from one iteration to the next.
  static void assignedIn(const Stmt *S, const Stmt *Body,
                         const SourceManager &SM,
                         std::set<const VarDecl *> &Out) {
    if (!S)
      return;
    const Expr *Target = nullptr;
    if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp())
      Target = BO->getLHS();
    else if (const auto *UO = dyn_cast<UnaryOperator>(S);
             UO && UO->isIncrementDecrementOp())
      Target = UO->getSubExpr();
    if (Target)
      if (const VarDecl *VD = varOf(Target);
          VD && !SM.isPointWithin(VD->getLocation(), Body->getBeginLoc(),
                                  Body->getEndLoc()))
        Out.insert(VD);
    for (const Stmt *C : S->children())
      assignedIn(C, Body, SM, Out);
  }

  /// The loop's variable when the increment steps it by one.
  static const VarDecl *unitStepVar(const Expr *Inc) {
    if (!Inc)
      return nullptr;
    Inc = Inc->IgnoreParenImpCasts();
    if (const auto *UO = dyn_cast<UnaryOperator>(Inc);
        UO && UO->isIncrementOp())
      return varOf(UO->getSubExpr());
    if (const auto *BO = dyn_cast<BinaryOperator>(Inc);
        BO && BO->getOpcode() == BO_AddAssign)
      if (const auto *IL =
              dyn_cast<IntegerLiteral>(BO->getRHS()->IgnoreParenImpCasts());
          IL && IL->getValue() == 1)
        return varOf(BO->getLHS());
    return nullptr;
  }

  /// Opens the loop's sum: `for (i = a; i < b; i++)` (or `<=`) sums its
  /// body over i = a .. b - 1, i a fresh variable while the first
  /// iteration is walked; any other form keeps no formula, with why.
  SymLoop symLoopBegin(const ForStmt *FS, Frame &F) {
    SymLoop SL;
    unsigned Line = fileLoc(SM, FS->getBeginLoc()).Line;
    SL.Where = "line " + std::to_string(Line);
    assignedIn(FS->getBody(), FS->getBody(), SM, SL.Carried);
    std::string Why;
    const VarDecl *IV = unitStepVar(FS->getInc());
    const auto *Cond =
        FS->getCond()
            ? dyn_cast<BinaryOperator>(FS->getCond()->IgnoreParenImpCasts())
            : nullptr;
    if (!IV || !IV->getType()->isIntegerType() || !Cond || SL.Carried.count(IV))
      Why = "the loop at " + SL.Where +
            " is not 'for (i = a; i < b; i++)': its iterations are not summed";
    else {
      BinaryOperatorKind Op = Cond->getOpcode();
      const Expr *Bound = nullptr;
      if (varOf(Cond->getLHS()) == IV && (Op == BO_LT || Op == BO_LE))
        Bound = Cond->getRHS();
      else if (varOf(Cond->getRHS()) == IV && (Op == BO_GT || Op == BO_GE))
        Bound = Cond->getLHS();
      std::set<const VarDecl *> InBound;
      if (Bound)
        assignedInBound(Bound, InBound);
      bool Moves = llvm::any_of(InBound, [&](const VarDecl *VD) {
        return VD == IV || SL.Carried.count(VD);
      });
      if (!Bound || Moves)
        Why = "the loop at " + SL.Where + "'s condition '" + text(Cond) +
              "' is not a fixed bound: its iterations are not summed";
      else {
        SL.First = symOf(IV, F);
        SymVal B = evalSym(Bound, F);
        SL.Last = (Op == BO_LT || Op == BO_GT)
                      ? Sym.arith('-', B, SymbolicRollup::constant(1))
                      : B;
      }
    }
    std::string Name =
        (IV ? IV->getNameAsString() : std::string("i")) + "#" + std::to_string(Line);
    Sym.beginLoop(Name);
    if (!Why.empty())
      Sym.taintLoop(Why);
    else
      SL.IV = IV;
    if (SL.IV)
      F.Syms[IV] = SymVal::of(Polynomial::var(Name));
    for (const VarDecl *VD : SL.Carried)
      if (VD->getType()->isIntegerType())
        F.Syms[VD] = SymVal::none("'" + VD->getNameAsString() +
                                      "' changes from one iteration of the "
                                      "loop at " + SL.Where + " to the next",
                                  /*Varying=*/true);
    return SL;
  }

  /// The variables a loop bound reads.
  static void assignedInBound(const Stmt *S, std::set<const VarDecl *> &Out) {
    if (!S)
      return;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        Out.insert(VD);
    for (const Stmt *C : S->children())
      assignedInBound(C, Out);
  }

  /// How the first iteration ended: leaving the loop early means the
  /// iterations are not alike.
  void symLoopFlow(Flow R, const SymLoop &SL) {
    if (R == Flow::Break || R == Flow::Return)
      Sym.taintLoop("the loop at " + SL.Where + " leaves its first iteration "
                    "early (break or return): its iterations are not summed");
  }

  /// A loop whose bound has no value here (or that runs no iteration at
  /// these sizes): its body walked once for the formulas alone, on a copy
  /// of the frame, with nothing numeric recorded.
  void symLoopBodyOnly(const ForStmt *FS, const SymLoop &SL, const Frame &F,
                       int64_t Times) {
    Frame Copy = F;
    if (SL.IV)
      Copy.Ints.erase(SL.IV);
    for (const VarDecl *VD : SL.Carried)
      Copy.Ints.erase(VD);
    ++NumericOff;
    Flow R = walk(FS->getBody(), Copy, Times);
    --NumericOff;
    symLoopFlow(R, SL);
  }

  void symLoopEnd(const SymLoop &SL, Frame &F) {
    Sym.endLoop(SL.First, SL.Last, SL.Where);
    std::string After = "changed by the loop at " + SL.Where;
    bool Varying = Sym.inLoop(); // an enclosing loop may run this one anew
    if (SL.IV)
      F.Syms[SL.IV] = SymVal::none(
          "'" + SL.IV->getNameAsString() + "', " + After, Varying);
    for (const VarDecl *VD : SL.Carried)
      if (VD->getType()->isIntegerType())
        F.Syms[VD] = SymVal::none(
            "'" + VD->getNameAsString() + "', " + After, Varying);
  }

  /// The nest's counts as formulas, each size bound to the polynomial the
  /// walk has for it. The formulas come from the nest built without the
  /// call's values (only which pointers are null), so that they hold at
  /// every size, not only at this call's; the row is \p Numeric's.
  void symNest(const Stmt *L, const BuiltNest &Numeric, const Frame &F) {
    std::string Key;
    BuiltNest &R = builtNest(L, F, /*WithSizes=*/false, Key);
    std::string Fn =
        Numeric.Nest.Function.substr(0, Numeric.Nest.Function.find(" ["));
    if (R.Ok && !R.Counted) {
      R.Counted = true;
      if (!Opts.CountNest)
        R.CountsWhy = "its nests are not counted (no NestCounter)";
      else if (llvm::Expected<NestFormulas> C = Opts.CountNest(R.Nest))
        R.Counts = std::move(*C);
      else
        R.CountsWhy = llvm::toString(C.takeError());
    }
    if (!R.Ok || !R.Counts) {
      Sym.addUncounted(F.Path, Fn, Numeric.Nest.Loc,
                       "without its sizes, " + (R.Ok ? R.CountsWhy : R.Why));
      return;
    }
    std::map<std::string, SymVal> Bind;
    for (const roofline::Param &P : R.Nest.Params)
      Bind[P.Name] = bindParam(P, R.Nest, F, 0);
    Sym.addNest(F.Path, Fn, Numeric.Nest.Loc, *R.Counts, Bind);
  }

  /// A size of a nest in the pass's terms: the frame's variable of that
  /// name, a derived size from its parts, a field by its name, a constant
  /// the source fixes, or a global size by its name.
  SymVal bindParam(const roofline::Param &P, const LoopNest &N, const Frame &F,
                   int Depth) {
    std::string Base = P.Name.substr(P.Name.find(':') + 1);
    for (const auto &[VD, V] : F.Syms)
      if (VD->getNameAsString() == Base)
        return V;
    if (P.Derived && Depth < 8) {
      auto Sum = [&](const std::vector<SizeTerm> &Terms) {
        SymVal S = SymbolicRollup::constant(0);
        for (const SizeTerm &T : Terms) {
          SymVal Term = SymbolicRollup::constant(T.Coeff);
          for (const std::string &Factor : T.Factors) {
            const roofline::Param *Q = N.findParam(Factor);
            Term = Sym.arith('*', Term,
                             Q ? bindParam(*Q, N, F, Depth + 1)
                               : SymVal::none("the size '" + Factor +
                                              "' is not known"));
          }
          S = Sym.arith('+', S, Term);
        }
        return S;
      };
      SymVal Num = Sum(P.Derived->Numerator);
      return P.Derived->isProduct()
                 ? Num
                 : Sym.arith('/', Num, Sum(P.Derived->Denominator));
    }
    // A field by its name, whatever gave its value (`p->dim`, --param dim).
    if (P.Origin == "field" ||
        (P.Origin != "container" &&
         P.Name.find_first_of(".>") != std::string::npos))
      return Sym.size(P.Name.substr(P.Name.find_last_of(".>") + 1), P.Value);
    static const std::set<std::string> Fixed = {
        "macro", "constexpr", "const", "template", "local", "literal"};
    if (P.Value && Fixed.count(P.Origin))
      return SymbolicRollup::constant(*P.Value);
    if (P.Origin == "global")
      return Sym.size(Base, P.Value);
    return SymVal::none("'" + P.Name + "' (" + P.Origin +
                        ") has no closed form in the pass's sizes");
  }

  //===------------------------------------------------------------------===//
  // Nests
  //===------------------------------------------------------------------===//

  static std::string rootOf(const std::string &Buf) {
    return Buf.substr(0, Buf.find('+'));
  }

  /// Adds one execution's buffers to \p P's (ProgramNest::Buffers): a name
  /// this execution or an earlier one does not know gets "".
  static void addBuffers(ProgramNest &P,
                         const std::map<std::string, std::string> &Now,
                         bool First) {
    constexpr size_t MaxBuffers = 32; // then offsets are dropped: "root+?"
    for (const auto &[Name, Buf] : Now) {
      auto [It, New] = P.Buffers.try_emplace(Name);
      It->second.insert(Buf);
      if (New && !First)
        It->second.insert("");
    }
    for (auto &[Name, Set] : P.Buffers) {
      if (!Now.count(Name))
        Set.insert("");
      if (Set.size() <= MaxBuffers)
        continue;
      std::set<std::string> Roots;
      for (const std::string &B : Set)
        Roots.insert(B.empty() ? B : rootOf(B) + "+?");
      Set = std::move(Roots);
    }
  }

  static std::map<std::string, std::string> buffersOf(const Frame &F) {
    std::map<std::string, std::string> B;
    for (const auto &[VD, Buf] : F.Buffer)
      B[VD->getNameAsString()] = Buf;
    return B;
  }

  /// The nest at \p L as the frame's call runs it: with its integer values
  /// as the call's sizes, or (for its formulas) with none of them, only
  /// which pointers are null. Built once per statement and values (\p Key).
  BuiltNest &builtNest(const Stmt *L, const Frame &F, bool WithSizes,
                       std::string &Key) {
    FrontendOptions O = Opts;
    O.Entries.clear();
    std::string Fn = F.FD->getNameAsString();
    Key = WithSizes ? "" : "formulas;";
    if (WithSizes)
      for (const auto &[VD, V] : F.Ints) {
        O.CallParams[Fn + ":" + VD->getNameAsString()] = V;
        Key += VD->getNameAsString() + "=" + std::to_string(V) + ";";
      }
    for (const auto &[VD, NN] : F.NonNull) {
      O.CallParams[Fn + ":" + VD->getNameAsString()] = NN;
      Key += VD->getNameAsString() + (NN ? "!=0;" : "==0;");
    }
    auto Memo = Built.find({L, Key});
    if (Memo != Built.end())
      return Memo->second;
    NestBuilder B(Ctx, F.FD, Calls, O, CaseAssignment{});
    BuiltNest R;
    R.Ok = B.build(L, R.Nest);
    if (!B.unassignedTargets().empty()) {
      R.Ok = false;
      R.Why = "the nest calls through '" + B.unassignedTargets().front().Name +
              "', whose target is not known at this call (give it with "
              "--param " + Fn + ":" + B.unassignedTargets().front().Name +
              "=FUNCTION)";
    } else if (!B.unassignedCases().empty()) {
      R.Ok = false;
      R.Why = "the nest depends on '" + B.unassignedCases().front().second +
              "', whose value is not known at this call (give it with "
              "--param " + Fn + ":<name>=...)";
    } else if (!R.Ok) {
      R.Why = "nest not analyzed: " + B.reason();
    }
    return Built.emplace(std::make_pair(L, Key), std::move(R)).first->second;
  }

  /// The nest at \p L built with the frame's values as the call's sizes.
  void countNest(const Stmt *L, Frame &F, int64_t Times) {
    std::string Key;
    BuiltNest &R = builtNest(L, F, /*WithSizes=*/true, Key);
    if (!R.Ok) {
      leaveOut(F, L->getBeginLoc(), R.Why, Times);
      return;
    }
    if (Sym.active())
      symNest(L, R, F);
    if (NumericOff)
      return;
    auto [It, New] = NestIndex.try_emplace({F.Path, L, Key}, Out.Nests.size());
    if (New) {
      ProgramNest P;
      P.Nest = R.Nest;
      P.Path = F.Path;
      P.Via = F.Via;
      Out.Nests.push_back(std::move(P));
    }
    addBuffers(Out.Nests[It->second], buffersOf(F), New);
    int64_t &E = Out.Nests[It->second].Executions;
    if (__builtin_add_overflow(E, Times, &E))
      E = INT64_MAX;
  }

  /// A for loop whose body only sets scalars and calls functions, at least
  /// one of them ours: it is walked, not built as a nest.
  bool isCarrier(const ForStmt *FS) const {
    bool Calls = false;
    return onlyCarries(FS->getBody(), Calls) && Calls;
  }

  bool onlyCarries(const Stmt *S, bool &HasCall) const {
    if (!S || isa<NullStmt, BreakStmt, ContinueStmt>(S))
      return true;
    if (const auto *CS = dyn_cast<CompoundStmt>(S))
      return llvm::all_of(CS->body(),
                          [&](const Stmt *C) { return onlyCarries(C, HasCall); });
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D)) {
          if (VD->getType()->isArrayType())
            return false;
          if (VD->getInit())
            HasCall |= reachesFunctions(VD->getInit());
        }
      return true;
    }
    if (const auto *FS = dyn_cast<ForStmt>(S)) {
      bool Inner = false;
      if (onlyCarries(FS->getBody(), Inner) && Inner)
        HasCall = true;
      // Else a nest of its own, counted at each iteration's sizes (a layer
      // loop with the residual beside its calls: llama2.c's forward).
      return true;
    }
    if (isa<OMPExecutableDirective>(S))
      return true; // a worksharing nest, as above
    if (const auto *IS = dyn_cast<IfStmt>(S))
      return onlyCarries(IS->getThen(), HasCall) &&
             onlyCarries(IS->getElse(), HasCall);
    const auto *E = dyn_cast<Expr>(S);
    if (!E)
      return false;
    E = E->IgnoreParenImpCasts();
    if (isa<CallExpr>(E)) {
      HasCall |= reachesFunctions(E);
      return true;
    }
    const Expr *Target = nullptr;
    if (const auto *BO = dyn_cast<BinaryOperator>(E); BO && BO->isAssignmentOp())
      Target = BO->getLHS();
    else if (const auto *UO = dyn_cast<UnaryOperator>(E);
             UO && UO->isIncrementDecrementOp())
      Target = UO->getSubExpr();
    if (!Target)
      return false;
    Target = Target->IgnoreParenImpCasts();
    // A pointer field set to a row (`s->k = s->key_cache + loff`): set-up,
    // no work; the nests that use it say what they make of it.
    if (isa<MemberExpr>(Target) && Target->getType()->isPointerType()) {
      HasCall |= reachesFunctions(E);
      return true;
    }
    // A variable or a field of one: a scalar, not an array element.
    while (const auto *ME = dyn_cast<MemberExpr>(Target)) {
      if (ME->isArrow())
        return false;
      Target = ME->getBase()->IgnoreParenImpCasts();
    }
    if (!isa<DeclRefExpr>(Target))
      return false;
    HasCall |= reachesFunctions(E);
    return true;
  }

  /// Whether \p S calls a function whose body we would walk.
  bool reachesFunctions(const Stmt *S) const {
    if (!S || isa<LambdaExpr>(S))
      return false;
    if (const auto *CE = dyn_cast<CallExpr>(S))
      if (bodyOf(CE->getDirectCallee()))
        return true;
    for (const Stmt *C : S->children())
      if (reachesFunctions(C))
        return true;
    return false;
  }

  static bool hasLoop(const Stmt *S) {
    if (!S || isa<LambdaExpr>(S))
      return false;
    if (isLoopStmt(S))
      return true;
    for (const Stmt *C : S->children())
      if (hasLoop(C))
        return true;
    return false;
  }

  /// "calls to f, g" for a note; "no calls" when there are none.
  std::string calleesIn(const Stmt *S) const {
    std::vector<std::string> Names;
    std::function<void(const Stmt *)> Visit = [&](const Stmt *X) {
      if (!X)
        return;
      if (const auto *CE = dyn_cast<CallExpr>(X))
        if (const FunctionDecl *FD = CE->getDirectCallee())
          if (bodyOf(FD)) {
            std::string N = FD->getNameAsString();
            if (std::find(Names.begin(), Names.end(), N) == Names.end())
              Names.push_back(N);
          }
      for (const Stmt *C : X->children())
        Visit(C);
    };
    Visit(S);
    if (Names.empty())
      return hasLoop(S) ? "its loops" : "no calls";
    return "calls to " + llvm::join(Names, ", ");
  }

  std::string text(const Stmt *S) const {
    return Lexer::getSourceText(
               CharSourceRange::getTokenRange(S->getSourceRange()), SM,
               Ctx.getLangOpts())
        .str();
  }

  void leaveOut(const Frame &F, SourceLocation L, std::string What,
                int64_t Times) {
    SourceLoc At = fileLoc(SM, L);
    Sym.leftOut(F.Path + " (line " + std::to_string(At.Line) + "): " + What);
    if (!NumericOff)
      leaveOutNumeric(F, L, std::move(What), Times);
  }

  /// A left-out line of the numeric pass only.
  void leaveOutNumeric(const Frame &F, SourceLocation L, std::string What,
                       int64_t Times) {
    SourceLoc At = fileLoc(SM, L);
    auto Key = std::make_tuple(F.Path, At.Line, At.Column, What);
    auto [It, New] = LeftIndex.try_emplace(Key, Out.LeftOut.size());
    if (New)
      Out.LeftOut.push_back({F.Path, At, std::move(What), 0});
    int64_t &T = Out.LeftOut[It->second].Times;
    if (__builtin_add_overflow(T, Times, &T))
      T = INT64_MAX;
  }

  ASTContext &Ctx;
  const SourceManager &SM;
  const CallSiteCollector &Calls;
  const FrontendOptions &Opts;
  const FieldLiterals &Fields;
  ProgramResult &Out;
  SymbolicRollup Sym{Out.Symbolic};
  /// > 0 while walking a loop body for its formulas only (its bound has no
  /// value): nothing numeric is recorded.
  int NumericOff = 0;
  std::set<std::string> UsedFields, RefusedFields;
  struct ComputedValue {
    std::optional<int64_t> Value;
    std::string From; ///< "dim=8, n_heads=2": what the formula read
  };
  std::map<std::string, ComputedValue> ComputedValues;
  /// While a computed field's formula is evaluated: the values it reads.
  std::vector<std::string> *Reading = nullptr;
  std::set<std::string> AssumedFields;        ///< pointer fields taken as not null
  std::vector<std::string> AssumedFieldOrder; ///< the first few, for the note
  std::vector<const FunctionDecl *> Stack;
  int64_t Steps = 0;
  std::map<std::pair<const Stmt *, std::string>, BuiltNest> Built;
  std::map<std::tuple<std::string, const Stmt *, std::string>, size_t>
      NestIndex;
  std::map<std::tuple<std::string, unsigned, unsigned, std::string>, size_t>
      LeftIndex;
};

/// The function named \p Name with a body: by simple or qualified name.
const FunctionDecl *findEntry(ASTContext &Ctx, StringRef Name) {
  for (const Decl *D : Ctx.getTranslationUnitDecl()->decls()) {
    const auto *FD = dyn_cast<FunctionDecl>(D);
    if (FD && FD->doesThisDeclarationHaveABody() &&
        (FD->getName() == Name || FD->getQualifiedNameAsString() == Name))
      return FD;
  }
  return nullptr;
}

} // namespace

void roofline::frontend::walkProgram(ASTContext &Ctx,
                                     const CallSiteCollector &Calls,
                                     const FrontendOptions &Opts,
                                     ProgramResult &Out) {
  const FunctionDecl *Entry = findEntry(Ctx, Out.Entry);
  if (!Entry)
    return;
  Out.Found = true;
  Out.EntryLoc = fileLoc(Ctx.getSourceManager(), Entry->getBeginLoc());
  // Struct fields set from literals (a Config filled in main) are sizes of
  // the pass too, below every other source.
  FieldLiterals Fields = collectFieldLiterals(Ctx);
  FrontendOptions WithFields = Opts;
  for (const auto &[Name, L] : Fields.Values)
    WithFields.FieldLiterals[Name] = L.Value;
  Walker(Ctx, Calls, WithFields, Fields, Out).run(Entry);
}
