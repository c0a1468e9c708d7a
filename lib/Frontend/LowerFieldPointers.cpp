//===- LowerFieldPointers.cpp - Pointer fields assigned in the function ---===//
//
// llama2.c's forward sets `s->k = s->key_cache + loff + pos * kv_dim;` and
// then uses `s->k[i]` (or passes s->k on). Such a field is resolved like a
// local row pointer (`float *x = inp + b*T*C`): to the array it points into
// with its offset, exactly. Only where its value at the nest is provably the
// one assigned: one plain assignment in the function, a statement of its
// own outside any loop or branch, before the nest, and no call in between
// that could reach the struct (docs/design.md, "Pointer fields").
//
// llm.c's AdamW allocates its moments lazily, `if (model->m_memory == NULL)
// model->m_memory = (float*)calloc(...)`: a field every assignment of which
// stores a fresh allocation holds, at the nest, its old array or a new one
// distinct from every other, so it is its own array, as a field the
// function never assigns.
//
//===----------------------------------------------------------------------===//

#include "NestBuilder.h"

#include "clang/AST/ParentMap.h"
#include "llvm/Support/SaveAndRestore.h"

using namespace clang;
using namespace roofline;
using namespace roofline::frontend;

namespace {

/// Whether a value of record \p R contains one of \p Held (itself, or a
/// field by value, through arrays).
bool recordHolds(const RecordDecl *R, const RecordDecl *Held,
                 unsigned Depth = 0) {
  if (!R || Depth > 8)
    return false;
  if (R->getCanonicalDecl() == Held->getCanonicalDecl())
    return true;
  const RecordDecl *Def = R->getDefinition();
  if (!Def)
    return false;
  for (const FieldDecl *F : Def->fields()) {
    QualType T = F->getType().getCanonicalType();
    while (const auto *AT = dyn_cast<ArrayType>(T.getTypePtr()))
      T = AT->getElementType().getCanonicalType();
    if (const auto *RT = T->getAs<RecordType>())
      if (recordHolds(RT->getDecl(), Held, Depth + 1))
        return true;
  }
  return false;
}

/// Whether a callee receiving a value of type \p T may reach a struct of
/// record \p Held: a pointer or reference to one (or to what holds one), or
/// an untyped pointer.
bool mayReach(QualType T, const RecordDecl *Held) {
  T = T.getNonReferenceType().getCanonicalType();
  bool Indirect = false;
  while (T->isPointerType() || T->isArrayType()) {
    Indirect = true;
    T = T->isPointerType() ? T->getPointeeType().getCanonicalType()
                           : QualType(T->getArrayElementTypeNoTypeQual(), 0)
                                 .getCanonicalType();
  }
  if (Indirect && T->isVoidType())
    return true;
  if (const auto *RT = T->getAs<RecordType>())
    return recordHolds(RT->getDecl(), Held);
  return false;
}

/// The allocator \p E calls where it is a fresh allocation (malloc, calloc,
/// aligned_alloc, a non-placement new), possibly cast; empty otherwise.
std::string freshAllocation(const Expr *E) {
  E = E->IgnoreParenCasts();
  if (const auto *New = dyn_cast<CXXNewExpr>(E))
    return New->getNumPlacementArgs() == 0 ? "new" : "";
  const auto *CE = dyn_cast<CallExpr>(E);
  const FunctionDecl *FD = CE ? CE->getDirectCallee() : nullptr;
  if (!FD || !FD->getIdentifier() || FD->isDefined())
    return "";
  const DeclContext *DC = FD->getDeclContext()->getRedeclContext();
  if (!DC->isTranslationUnit() && !DC->isStdNamespace())
    return "";
  StringRef Name = FD->getName();
  if (Name == "malloc" || Name == "calloc" || Name == "aligned_alloc")
    return Name.str();
  return "";
}

} // namespace

const Expr *roofline::frontend::memberRoot(const MemberExpr *ME) {
  const Expr *Base = strip(ME->getBase());
  while (const auto *Inner = dyn_cast<MemberExpr>(Base))
    Base = strip(Inner->getBase());
  return Base;
}

void roofline::frontend::collectStmts(const clang::Stmt *S,
                                      std::vector<const clang::Stmt *> &Out) {
  if (!S)
    return;
  Out.push_back(S);
  if (const auto *CS = dyn_cast<CapturedStmt>(S))
    collectStmts(CS->getCapturedStmt(), Out);
  for (const clang::Stmt *C : S->children())
    collectStmts(C, Out);
}

std::optional<NestBuilder::View>
NestBuilder::assignedFieldView(const MemberExpr *ME, std::string &Why,
                               bool &OwnArray) {
  OwnArray = false;
  const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl());
  if (!F || !ME->getType()->isPointerType())
    return std::nullopt;
  const ModificationSites &Mod = Frames.front().Modified;
  auto Sites = Mod.FieldSites.find(F);
  if (Sites == Mod.FieldSites.end())
    return std::nullopt;
  // Only the nest's own function may assign it, and the use is its own (an
  // argument it passes to an inlined call included), not a callee's.
  for (size_t I = 1; I < Frames.size(); ++I)
    if (Frames[I].Modified.Fields.count(F))
      return std::nullopt;
  if (Frames.size() > 1 && !containsStmt(Frames.front().FD->getBody(), ME))
    return std::nullopt;
  std::optional<std::string> Path = memberPath(ME, Why, /*AnyField=*/true);
  if (!Path)
    return std::nullopt;
  std::string Field = "field '" + *Path + "'";
  if (std::string Problem = readBeforeAssigned(Sites->second, ME);
      !Problem.empty()) {
    Why = Field + " " + Problem;
    return std::nullopt;
  }
  if (std::optional<std::string> Problem =
          freshAllocationsProblem(Sites->second, Field)) {
    if (!Problem->empty()) {
      Why = Field + " " + *Problem;
      return std::nullopt;
    }
    OwnArray = true;
    return std::nullopt;
  }
  if (Sites->second.size() != 1) {
    Why = Field + " is assigned " + std::to_string(Sites->second.size()) +
          " times in the function: its value at the nest is not one known "
          "pointer";
    return std::nullopt;
  }
  const auto *Assign = dyn_cast<BinaryOperator>(Sites->second.front());
  if (!Assign || Assign->getOpcode() != BO_Assign) {
    Why = Field + " is advanced, or its address taken, in the function ('" +
          text(Sites->second.front()) + "')";
    return std::nullopt;
  }
  if (std::string Problem = fieldAssignmentProblem(Assign, ME);
      !Problem.empty()) {
    Why = Field + " " + Problem;
    return std::nullopt;
  }
  if (!FieldsInProgress.insert(F).second) {
    Why = Field + " is assigned from itself";
    return std::nullopt;
  }
  // The value is computed where it is assigned, before the nest: no loop
  // variable is in scope there.
  std::optional<View> V;
  std::string Inner;
  {
    llvm::SaveAndRestore HideIVs(IVs, {});
    V = viewOf(Assign->getRHS(), Inner);
  }
  FieldsInProgress.erase(F);
  if (!V) {
    Why = Field + " = '" + text(Assign->getRHS()) + "': " + Inner;
    return std::nullopt;
  }
  std::string Note = Field + " is '" + text(Assign->getRHS()) +
                     "', assigned at line " +
                     std::to_string(loc(Assign->getBeginLoc()).Line) +
                     " before the nest";
  addNote(std::move(Note));
  return V;
}

/// Why \p Use, outside the nest (a local pointer's initializer), may see
/// the field's value from before one of \p Sites: `float *old = s->k;
/// s->k = ...;` would take the two values for one. Empty where it cannot.
std::string
NestBuilder::readBeforeAssigned(llvm::ArrayRef<const clang::Stmt *> Sites,
                                const MemberExpr *Use) {
  if (containsStmt(Nest, Use))
    return "";
  SourceLocation UseBegin = SM.getExpansionLoc(Use->getBeginLoc());
  for (const clang::Stmt *Site : Sites) {
    if (containsStmt(Site, Use))
      continue; // `s->k = s->k + n`: refused as assigned from itself
    if (!SM.isBeforeInTranslationUnit(SM.getExpansionLoc(Site->getEndLoc()),
                                      UseBegin))
      return "is read at line " + std::to_string(loc(Use->getBeginLoc()).Line) +
             " before it is assigned at line " +
             std::to_string(loc(Site->getBeginLoc()).Line) +
             ": its old and new values would be taken for one array";
  }
  return "";
}

/// Where every one of \p Sites assigns a fresh allocation: why that does
/// not leave the field its own array at the nest (allocated inside the nest,
/// or in a loop holding it), empty where it does. nullopt where some site is
/// no fresh allocation.
std::optional<std::string>
NestBuilder::freshAllocationsProblem(llvm::ArrayRef<const clang::Stmt *> Sites,
                                     const std::string &Field) {
  std::vector<std::pair<const BinaryOperator *, std::string>> Fresh;
  for (const clang::Stmt *Site : Sites) {
    const auto *Assign = dyn_cast<BinaryOperator>(Site);
    if (!Assign || Assign->getOpcode() != BO_Assign)
      return std::nullopt;
    std::string Allocator = freshAllocation(Assign->getRHS());
    if (Allocator.empty())
      return std::nullopt;
    Fresh.push_back({Assign, Allocator});
  }
  const ParentMap &PM = functionParents();
  SourceLocation NestBegin = SM.getExpansionLoc(Nest->getBeginLoc());
  for (const auto &[Assign, Allocator] : Fresh) {
    std::string Line = std::to_string(loc(Assign->getBeginLoc()).Line);
    if (containsStmt(Nest, Assign))
      return "is allocated inside the nest ('" + Allocator + "' at line " +
             Line + ")";
    // In a loop holding the nest each iteration's nest may see another
    // fresh array; after the nest, in such a loop, the next iteration's.
    for (const clang::Stmt *P = PM.getParent(Assign); P; P = PM.getParent(P))
      if (isLoopStmt(P) && containsStmt(P, Nest))
        return "is allocated in a loop holding the nest ('" + Allocator +
               "' at line " + Line +
               "): its array changes between the nest's runs";
    if (!SM.isBeforeInTranslationUnit(SM.getExpansionLoc(Assign->getEndLoc()),
                                      NestBegin))
      return "is allocated after the nest ('" + Allocator + "' at line " +
             Line + ")";
  }
  std::string First =
      std::to_string(loc(Fresh.front().first->getBeginLoc()).Line);
  std::string Note = Field +
                     " is its own array: every assignment in the function "
                     "stores a fresh allocation ('" +
                     Fresh.front().second + "' at line " + First + ")";
  addNote(std::move(Note));
  return std::string();
}

/// Why the one assignment \p Assign of a field does not give its value at
/// the nest ("is assigned in a loop"); empty where it does.
std::string NestBuilder::fieldAssignmentProblem(const BinaryOperator *Assign,
                                                const MemberExpr *Use) {
  std::string Inner;
  std::optional<std::string> Assigned =
      memberPath(Assign->getLHS(), Inner, /*AnyField=*/true);
  std::optional<std::string> Used = memberPath(Use, Inner, /*AnyField=*/true);
  if (!Assigned || !Used || *Assigned != *Used)
    return "is assigned through another path ('" + text(Assign->getLHS()) +
           "'), which may be the same struct";
  if (containsStmt(Nest, Assign))
    return "is assigned inside the nest";
  SourceLocation AssignEnd = SM.getExpansionLoc(Assign->getEndLoc());
  SourceLocation NestBegin = SM.getExpansionLoc(Nest->getBeginLoc());
  if (!SM.isBeforeInTranslationUnit(AssignEnd, NestBegin))
    return "is assigned after the nest";
  const ParentMap &PM = functionParents();
  const clang::Stmt *P = PM.getParent(Assign);
  if (!P || isa<Expr>(P) || isa<DeclStmt>(P))
    return "is assigned inside an expression or a declaration ('" +
           text(P ? P : Assign) + "')";
  for (; P; P = PM.getParent(P)) {
    if (isa<CompoundStmt>(P))
      continue;
    bool IsLoop = isLoopStmt(P);
    // A loop around both (llama2's layer loop, stepped by the walk: s->k =
    // key_cache + loff + ... then RoPE on s->k): each iteration assigns the
    // field before its nest runs, straight-line in the loop's body.
    if (IsLoop && containsStmt(P, Nest))
      break;
    if (IsLoop)
      return "is assigned in a loop: its value at the nest is the last "
             "iteration's";
    if (isa<IfStmt>(P) || isa<SwitchStmt>(P) || isa<SwitchCase>(P))
      return "is assigned conditionally ('" +
             StringRef(P->getStmtClassName()).drop_back(4).lower() +
             "' at line " + std::to_string(loc(P->getBeginLoc()).Line) + ")";
    return "is assigned inside a '" + std::string(P->getStmtClassName()) +
           "'";
  }
  return escapeBetween(Assign, Use);
}

/// Why the struct holding \p Use's field may change between \p From and the
/// nest: a call that receives it (or what holds it), a call at all where it
/// is a global or `*this`, an assignment of it as a whole. Empty if none.
std::string NestBuilder::escapeBetween(const clang::Stmt *From,
                                       const MemberExpr *Use) {
  SourceLocation Begin = SM.getExpansionLoc(From->getEndLoc());
  SourceLocation End = SM.getExpansionLoc(Nest->getBeginLoc());
  std::vector<const clang::Stmt *> All;
  collectStmts(Frames.front().FD->getBody(), All);
  for (const clang::Stmt *S : All) {
    SourceLocation L = SM.getExpansionLoc(S->getBeginLoc());
    if (!SM.isBeforeInTranslationUnit(Begin, L) ||
        !SM.isBeforeInTranslationUnit(L, End))
      continue;
    if (std::string Why = escapeAt(S, Use); !Why.empty())
      return "may change before the nest: " + Why;
  }
  return "";
}

std::string NestBuilder::escapeAt(const clang::Stmt *S, const MemberExpr *Use) {
  const RecordDecl *Held = cast<FieldDecl>(Use->getMemberDecl())->getParent();
  const Expr *Root = memberRoot(Use);
  bool Global = isa<CXXThisExpr>(Root);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Root))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      Global = VD->hasGlobalStorage();
  if (const auto *BO = dyn_cast<BinaryOperator>(S))
    if (BO->isAssignmentOp() && mayReach(BO->getLHS()->getType(), Held))
      return "'" + text(BO->getLHS()) + "' is assigned as a whole at line " +
             std::to_string(loc(BO->getBeginLoc()).Line);
  std::vector<const Expr *> Args;
  std::string Callee;
  if (const auto *CE = dyn_cast<CallExpr>(S)) {
    const FunctionDecl *FD = CE->getDirectCallee();
    if (FD && FD->getIdentifier() && isScalarMathName(FD->getName()))
      return "";
    Callee = FD ? declName(FD) : text(CE->getCallee());
    Args.assign(CE->arg_begin(), CE->arg_end());
    if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(CE))
      Args.push_back(MCE->getImplicitObjectArgument());
  } else if (const auto *CC = dyn_cast<CXXConstructExpr>(S)) {
    Callee = CC->getConstructor()->getNameAsString();
    Args.assign(CC->arg_begin(), CC->arg_end());
  } else {
    return "";
  }
  std::string Line = std::to_string(loc(S->getBeginLoc()).Line);
  if (Global)
    return "the struct is reachable by every function, and '" + Callee +
           "' is called at line " + Line;
  for (const Expr *A : Args)
    if (A && mayReach(A->IgnoreParenCasts()->getType(), Held))
      return "'" + Callee + "' receives '" + text(A) + "' at line " + Line +
             " (the struct escapes)";
  return "";
}

namespace {

/// The pointee types of the pointer fields a value of type \p T holds: by
/// value, through arrays and records held by value.
void heldPointees(QualType T, llvm::SmallVectorImpl<QualType> &Out,
                  unsigned Depth = 0) {
  T = T.getCanonicalType();
  while (const auto *AT = dyn_cast<ArrayType>(T.getTypePtr()))
    T = AT->getElementType().getCanonicalType();
  if (T->isPointerType()) {
    Out.push_back(T->getPointeeType().getCanonicalType().getUnqualifiedType());
    return;
  }
  const RecordDecl *R = T->getAsRecordDecl();
  if (!R || !(R = R->getDefinition()) || Depth > 8)
    return;
  for (const FieldDecl *F : R->fields())
    heldPointees(F->getType(), Out, Depth + 1);
}

/// Why argument \p A of a call that sets a field holding pointers to
/// \p Pointees may hand it one of the caller's arrays (`reseat(&s->xq,
/// buf)`, `make(m->memory)`): a pointer to one of those types, to bytes, to
/// a record or to a pointer, or a record holding pointers. Empty if not.
std::string handsArray(const Expr *A, llvm::ArrayRef<QualType> Pointees) {
  QualType T = A->IgnoreParenImpCasts()->getType().getCanonicalType();
  QualType P;
  if (T->isPointerType())
    P = T->getPointeeType();
  else if (const auto *AT = dyn_cast<ArrayType>(T.getTypePtr()))
    P = AT->getElementType();
  if (P.isNull()) {
    llvm::SmallVector<QualType, 4> Held;
    heldPointees(T, Held);
    return Held.empty() ? "" : "a struct holding pointers";
  }
  P = P.getCanonicalType().getUnqualifiedType();
  if (P->isVoidType() || P->isCharType() || P->isRecordType() ||
      P->isPointerType() || llvm::is_contained(Pointees, P))
    return "a pointer to " + P.getAsString();
  return "";
}

} // namespace

/// What the call stores is taken as an input only where no other argument
/// could be one.
std::string NestBuilder::callHandsArray(const CallExpr *CE, const Expr *Own,
                                        const FieldDecl *F) {
  llvm::SmallVector<QualType, 4> Pointees;
  heldPointees(F->getType(), Pointees);
  if (Pointees.empty())
    return "";
  for (const Expr *A : CE->arguments()) {
    if (Own && A == Own)
      continue;
    if (const auto *ME = dyn_cast<MemberExpr>(A->IgnoreParenImpCasts());
        ME && ME->getMemberDecl() == F)
      continue; // the field itself, bound to a reference
    if (std::string Why = handsArray(A, Pointees); !Why.empty()) {
      const FunctionDecl *Callee = CE->getDirectCallee();
      return "'" +
             (Callee ? Callee->getNameAsString() : std::string("the call")) +
             "' receives '" + text(A) + "' (" + Why +
             "): it may point the field's arrays at one the nest reads by "
             "another name";
    }
  }
  return "";
}

/// gpt2_forward's `malloc_and_point_activations(&model->acts, ...)` before
/// its loss loop over `model->acts.losses[i]`: the struct field changes
/// before the nest, then holds one value while the nest runs, and the array
/// is named by its path like a field the function never assigns
/// (docs/design.md, "Fields fixed at the nest").
std::string NestBuilder::fixedFieldProblem(const MemberExpr *ME) {
  const auto *F = cast<FieldDecl>(ME->getMemberDecl());
  for (size_t I = 1; I < Frames.size(); ++I)
    if (Frames[I].Modified.Fields.count(F))
      return "in '" + declName(Frames[I].FD) + "', called inside the nest";
  auto It = Frames.front().Modified.FieldSites.find(F);
  if (!Nest || It == Frames.front().Modified.FieldSites.end())
    return "outside the nest's own function";
  const ParentMap &PM = functionParents();
  SourceLocation NestBegin = SM.getExpansionLoc(Nest->getBeginLoc());
  const clang::Stmt *Last = nullptr;
  for (const clang::Stmt *Site : It->second) {
    std::string At = "at line " + std::to_string(loc(Site->getBeginLoc()).Line);
    SourceLocation End = SM.getExpansionLoc(Site->getEndLoc());
    if (containsStmt(Nest, Site))
      return At + ", inside the nest";
    if (!SM.isBeforeInTranslationUnit(End, NestBegin))
      return At + ", after the nest";
    for (const clang::Stmt *P = PM.getParent(Site); P; P = PM.getParent(P))
      if (isLoopStmt(P) && containsStmt(P, Nest))
        return At + ", inside the loop at line " +
               std::to_string(loc(P->getBeginLoc()).Line) +
               " that holds the nest: its value changes between the nest's "
               "runs";
    if (std::string Why = fixedSiteProblem(Site, F); !Why.empty())
      return At + " ('" + text(Site) + "'): " + Why;
    if (!Last || SM.isBeforeInTranslationUnit(
                     SM.getExpansionLoc(Last->getEndLoc()), End))
      Last = Site;
  }
  std::string LastAt =
      "modified at line " + std::to_string(loc(Last->getBeginLoc()).Line);
  if (std::string Why = escapeBetween(Last, ME); !Why.empty())
    return LastAt + ", it " + Why;
  // While the nest runs: a call in it, or anywhere in a loop holding it
  // (an --entry walk runs the nest once per iteration).
  const clang::Stmt *Region = Nest;
  for (const clang::Stmt *P = PM.getParent(Nest); P; P = PM.getParent(P))
    if (isLoopStmt(P))
      Region = P;
  std::vector<const clang::Stmt *> All;
  collectStmts(Region, All);
  for (const clang::Stmt *S : All)
    if (std::string Why = escapeAt(S, ME); !Why.empty())
      return LastAt + ", it may change while the nest runs: " + Why;
  llvm::SmallPtrSet<const FunctionDecl *, 8> Seen;
  if (callsChanging(
          Region,
          [F](const ModificationSites &M) { return M.Fields.count(F) != 0; },
          Seen))
    return LastAt + ", a call in or around the nest may assign it";
  std::string Note = "field '" + text(ME) + "' is " + LastAt +
                     ", before the nest, and keeps that value while it runs";
  addNote(std::move(Note));
  return "";
}

std::string NestBuilder::fixedSiteProblem(const clang::Stmt *Site,
                                          const FieldDecl *F) {
  // A number's value is no array: any change before the nest will do.
  if (F->getType()->isArithmeticType())
    return "";
  // What a callee stores through the address, or returns, is an input like
  // the struct's value at the function's entry; a value the function
  // composes itself may hold another array of the nest.
  if (const auto *CE = dyn_cast<CallExpr>(Site))
    return callHandsArray(CE, nullptr, F);
  if (const auto *BO = dyn_cast<BinaryOperator>(Site);
      BO && BO->getOpcode() == BO_Assign &&
      isa<CallExpr>(BO->getRHS()->IgnoreParenCasts()))
    return callHandsArray(cast<CallExpr>(BO->getRHS()->IgnoreParenCasts()),
                          nullptr, F);
  if (const auto *UO = dyn_cast<UnaryOperator>(Site);
      UO && UO->getOpcode() == UO_AddrOf) {
    const ParentMap &PM = functionParents();
    const clang::Stmt *Child = UO;
    const clang::Stmt *P = PM.getParent(UO);
    while (P && (isa<ParenExpr>(P) || isa<CastExpr>(P))) {
      Child = P;
      P = PM.getParent(P);
    }
    if (const auto *CE = dyn_cast_or_null<CallExpr>(P);
        CE && CE->getCallee() != Child)
      return callHandsArray(CE, cast<Expr>(Child), F);
    return "its address is kept: the struct may change through it";
  }
  return "its arrays may be ones the nest reads by another name";
}
