//===- NestBuilder.h - One outermost loop to a LoopNest --------*- C++ -*-===//
//
// Private to the Frontend. The builder is split by concern, the way Clang
// splits Sema: NestBuilder.cpp (the nest as a whole: sizes, arrays and
// their rows, the finished IR), LowerLoops.cpp (loops, conditions, calls),
// LowerIndex.cpp (index arithmetic and sizes), LowerData.cpp (the
// arithmetic and accesses of statements). docs/design.md, "Frontend",
// says what each construct becomes.
//
// Lowering is all-or-nothing per nest: the first construct that would make
// a count inexact records a reason and the nest is skipped.
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_LIB_FRONTEND_NESTBUILDER_H
#define ROOFLINE_LIB_FRONTEND_NESTBUILDER_H

#include "Semantics.h"
#include "roofline/Frontend/Annotations.h"
#include "roofline/Frontend/Frontend.h"
#include "roofline/Frontend/RejectReason.h"
#include "roofline/IR/Delinearize.h"
#include "roofline/IR/IndexPoly.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace roofline {
namespace frontend {

//===----------------------------------------------------------------------===//
// Helpers shared by the lowering files.
//===----------------------------------------------------------------------===//

/// stripParensAndCasts (Semantics.h), and temporaries and branch hints
/// (likely(x)) off, but a substituted template argument kept: it names a
/// size.
const clang::Expr *strip(const clang::Expr *E);
/// The variable (or `this`) a member chain starts from.
const clang::Expr *memberRoot(const clang::MemberExpr *ME);
/// Every statement below \p S (an OpenMP region's body included), in tree
/// order.
void collectStmts(const clang::Stmt *S, std::vector<const clang::Stmt *> &Out);
std::optional<Precision> precisionOf(clang::QualType T);
/// The counted name of a math function ("exp" for expf), if it is one.
std::optional<std::string> mathFunctionName(llvm::StringRef Name);
bool isFmaName(llvm::StringRef Name);
/// isnan, isinf, isfinite, isnormal (and their __builtin_ and glibc forms):
/// one floating compare on their argument.
bool isFloatClassName(llvm::StringRef Name);
/// A math function or a floating classification: one scalar operation on
/// its arguments, never a nest of its own.
bool isScalarMathName(llvm::StringRef Name);
/// \p Name without its `__builtin_` prefix, if it has one.
llvm::StringRef withoutBuiltinPrefix(llvm::StringRef Name);
/// \p L as the file, line and column a diagnostic names.
SourceLoc fileLoc(const clang::SourceManager &SM, clang::SourceLocation L);
/// The name diagnostics give \p FD: qualified, with template arguments.
std::string functionName(const clang::FunctionDecl *FD,
                         const clang::ASTContext &Ctx);
/// std::vector, std::array or std::span.
bool isContainerType(clang::QualType T);
/// Dimensions of a type down to its element (LowerData.cpp): extents
/// (nullopt = unknown) through arrays, one leading pointer (\p IsPointer),
/// std::vector/array/span and one level of row pointers (\p RowPointers).
clang::QualType shapeOf(clang::QualType T, std::vector<std::optional<AffineExpr>> &Ext,
                        bool &IsPointer, bool &RowPointers, bool First = true);
/// The variable a pointer expression points into (`A`, `A + 4`, `&A[i]`).
const clang::VarDecl *pointerBase(const clang::Expr *E);
/// `P + off` or `off + P` (also `P - off`): the side that is a pointer or
/// an array (\p Pointer) and the other (\p Offset).
void splitPointerSum(const clang::BinaryOperator *BO, const clang::Expr *&Pointer,
                     const clang::Expr *&Offset);

/// Every variable and field a function assigns, increments or takes the
/// address of, with the expressions that do it.
struct ModificationSites {
  /// One place a variable may change: the reference to it and the
  /// statement that changes it (an assignment, `++`, `&`, a call or a
  /// declaration binding a non-const reference).
  struct VarSite {
    const clang::DeclRefExpr *Ref;
    const clang::Stmt *Site;
  };
  llvm::DenseMap<const clang::VarDecl *, llvm::SmallVector<VarSite, 2>> Vars;
  llvm::DenseSet<const clang::FieldDecl *> Fields;
  /// The assignments, steps and address-ofs of each field in Fields.
  llvm::DenseMap<const clang::FieldDecl *,
                 llvm::SmallVector<const clang::Stmt *, 2>>
      FieldSites;
};
ModificationSites modificationsIn(const clang::Stmt *S);
/// Whether a call in \p S reaches a function defined in this translation
/// unit whose body \p Changes (on its ModificationSites), through any path;
/// a call through a pointer might. \p Seen: the functions already looked at.
bool callsChanging(const clang::Stmt *S,
                   llvm::function_ref<bool(const ModificationSites &)> Changes,
                   llvm::SmallPtrSetImpl<const clang::FunctionDecl *> &Seen);
bool containsStmt(const clang::Stmt *S, const clang::Stmt *Needle);
/// A for, while, do or range-for loop.
inline bool isLoopStmt(const clang::Stmt *S) {
  return llvm::isa<clang::ForStmt, clang::WhileStmt, clang::DoStmt,
                   clang::CXXForRangeStmt>(S);
}
/// The references to variables in \p S, in source order.
void declRefsIn(const clang::Stmt *S,
                std::vector<const clang::DeclRefExpr *> &Out);
/// How many of a helper's first statements \p Stmts adjust a by-value
/// signed integer parameter of \p Callee (`row -= pad;`: its own copy of
/// the argument, LowerParamAdjust.cpp).
size_t parameterAdjustments(llvm::ArrayRef<const clang::Stmt *> Stmts,
                            const clang::FunctionDecl *Callee);
/// modificationsIn(\p Body) less the changes made by the statements \p Skip.
ModificationSites modificationsAfter(const clang::Stmt *Body,
                                     llvm::ArrayRef<const clang::Stmt *> Skip);
/// The return of `if (c) return [v];` (no else, nothing else in the
/// branch); null for any other statement.
const clang::ReturnStmt *returnGuarded(const clang::IfStmt *If);
/// The branch of an `if` without else, initializer, condition variable,
/// constexpr or consteval; null for any other (returnGuarded, exitGuarded).
const clang::Stmt *plainThen(const clang::IfStmt *If);
/// The `break` or `return` of `if (c) break;` / `if (c) return [v];` (no
/// else), with nothing before it in the branch but assignments to locals
/// (`if (c) { last = i; break; }`, recordedBy); null for any other
/// statement.
const clang::Stmt *exitGuarded(const clang::IfStmt *If);
/// The assignments `x = e;` before the exit of an exitGuarded \p If.
std::vector<const clang::BinaryOperator *>
recordedBy(const clang::IfStmt *If);
/// Whether a lambda in \p S captures \p VD (it may read or assign it when
/// called).
bool capturedByLambda(const clang::Stmt *S, const clang::VarDecl *VD);
/// The last statement of a loop body \p Body where it is `if (c) break;`
/// (a candidate early exit, LowerEarlyExits.cpp); null otherwise.
const clang::Stmt *lastBreakGuard(const clang::Stmt *Body);
/// The children of a body: a compound's statements, or the one statement.
std::vector<const clang::Stmt *> childrenOf(const clang::Stmt *S);
/// No statement lowered into \p L so far counts anything.
bool nothingCounted(const Loop &L);
/// The value \p S returns where it is a lone `return e;`, or a block of
/// only that; null otherwise.
const clang::Expr *soleReturn(const clang::Stmt *S);
/// The value \p Def's body returns by its last statement, `return e;`;
/// null where the body ends otherwise.
const clang::Expr *finalReturn(const clang::FunctionDecl *Def);
/// \p E as a call of a function named min or max with two arguments
/// (std::min, std::max); null otherwise.
const clang::CallExpr *minMaxCall(const clang::Expr *E);
/// \p E as `a < b ? a : b` or another conditional choosing the smaller or
/// larger of the two sides it compares (`MIN(a, b)` of a C macro), with
/// \p IsMin set to which; null otherwise.
const clang::ConditionalOperator *minMaxChoice(const clang::Expr *E,
                                              const clang::ASTContext &Ctx,
                                              bool *IsMin = nullptr);
/// The arguments a call passes to its callee's parameters (a call operator's
/// object left out).
llvm::ArrayRef<const clang::Expr *> callArguments(const clang::CallExpr *CE);
/// Whether \p Mod assigns a field of \p R.
bool assignsFieldOf(const ModificationSites &Mod, const clang::RecordDecl *R);
/// The closure class of the lambda \p CE calls; null for other calls.
const clang::CXXRecordDecl *lambdaClassOf(const clang::CallExpr *CE);
/// The object a method or a class's operator is called on; null for other
/// calls (a lambda's included).
const clang::Expr *objectArgument(const clang::CallExpr *CE);

class CallSiteCollector;

//===----------------------------------------------------------------------===//
// The builder.
//===----------------------------------------------------------------------===//

/// The value of each loop-invariant condition a nest was built for, by the
/// condition's key (see NestBuilder::invariantAtom).
using CaseAssignment = std::map<std::string, bool>;

class NestBuilder {
public:
  NestBuilder(clang::ASTContext &Ctx, const clang::FunctionDecl *FD,
              const CallSiteCollector &Calls, const FrontendOptions &Opts,
              CaseAssignment Case);

  /// On failure, reason() says why and reasonKind() which kind of cause
  /// it is (RejectKinds.def).
  bool build(const clang::Stmt *Outermost, LoopNest &Out);
  const std::string &reason() const { return Reason; }
  RejectKind reasonKind() const { return ReasonKind; }
  /// Where the refusal was decided (invalid when it was not one place).
  clang::SourceLocation reasonLoc() const { return ReasonLoc; }
  SourceLoc loc(clang::SourceLocation L) const;
  /// Malformed or unused `// roofline:` annotation of the nest, if any.
  const std::string &annotationIssue() const { return AnnotationProblem; }
  /// Arrays of the built nest that provably share memory.
  std::vector<std::string> aliasIssues() const;
  /// A loop-invariant condition this build met without a value for it:
  /// the nest must be built once per value (its key and its text).
  const std::vector<std::pair<std::string, std::string>> &
  unassignedCases() const {
    return Unassigned;
  }
  /// A function pointer the nest calls or compares whose target this build
  /// met without a choice: the nest must be built once per candidate (the
  /// case key of candidate F is Key + "=" + F).
  struct TargetChoice {
    std::string Key, Name;
    std::vector<std::string> Targets;
    /// The labels of a switch on Name (LowerInvariantSwitch.cpp), not
    /// functions.
    bool Switch = false;
  };
  const std::vector<TargetChoice> &unassignedTargets() const {
    return UnassignedTargets;
  }
  /// The conditions this build took a value for: "bias != NULL".
  std::string caseLabel() const;
  /// The sizes met so far (also when the build failed).
  const std::set<std::string> &sizeNames() const { return ParamSet; }
  /// The --param, annotation and config keys that gave a size its value
  /// ("gelu:N", "dim" for p->dim).
  const std::set<std::string> &matchedKeys() const { return MatchedKeys; }

  //===--------------------------------------------------------------------===//
  // Internal types (public for the lowering files' helpers).
  //===--------------------------------------------------------------------===//

  /// An array the nest touches: a variable, or a member (`s->att`).
  struct ArrayBase {
    std::string Name;
    const clang::ValueDecl *Decl = nullptr;
    clang::QualType Type; ///< as declared (a parameter's before decay)
    /// Extents from the type, outermost first (nullopt: unknown).
    std::vector<std::optional<AffineExpr>> Extents;
    bool IsPointer = false;
    /// Its rows are pointers of their own (`float **w`): rows are assumed
    /// not to overlap, as distinct arrays are.
    bool RowPointers = false;
    /// A member of an array of structs: where the member starts in each
    /// struct's row, in elements (LowerStructRows.cpp).
    int64_t MemberOffset = 0;
    bool Container = false; ///< std::vector/array/span: size() is its length
    bool Scratch = false;
    bool LocalStorage = false;
    Precision Elem = Precision::Unknown;
    bool Used = false;
  };
  /// A pointer or a reference into an array: Subs fix the first dimensions;
  /// the last of Subs is the offset within the next one.
  struct View {
    unsigned Base = 0;
    std::vector<IndexPoly> Subs;
    /// A row picked by an index loaded from memory (LowerRowGathers.cpp):
    /// the index's name and the variable of the loop whose body loads it;
    /// Subs are then within the row. Empty for an affine view.
    std::string Gather, GatherLoop;
    /// The start of array \p B, if baseOf found one.
    static std::optional<View> start(std::optional<unsigned> B) {
      if (!B)
        return std::nullopt;
      return View{*B, {IndexPoly()}};
    }
  };
  /// A function pointer of the nest: one function, or a pointer the nest
  /// does not change (a parameter, a field, a local set once before the
  /// nest), by its name (docs/user-guide.md, "Calls").
  struct FunctionRef {
    const clang::FunctionDecl *Known = nullptr;
    std::string Name; ///< "ann->activation_hidden", "act"
    bool IsField = false;
    clang::QualType Type; ///< the function type it points to
  };
  /// One struct of an array of structs (`w->wq + l`, `&images[i]`).
  struct StructRow {
    std::string Array; ///< the array of structs, "w->wq"
    IndexPoly Row;     ///< which struct
    const clang::RecordDecl *Record = nullptr;
  };
  /// What a variable of the source stands for.
  struct Binding {
    enum KindTy {
      Index,    ///< an integer computed from loop variables and sizes
      Pointer,  ///< a pointer (or row reference) into an array
      Element,  ///< a reference to one element
      Object,   ///< a struct a callee receives: its fields' names
      Function, ///< a function pointer a callee receives
    } Kind = Index;
    FunctionRef Fn;
    IndexPoly Value;
    View V;
    /// A span's number of elements, where it was built with one.
    std::optional<IndexPoly> Length;
    std::string ObjectName; ///< "cfg." or "p->": the caller's spelling
    /// An Object that is one struct of an array of structs: its array
    /// members are rows of arrays over all of them.
    std::optional<StructRow> Row;
    /// An integer with the value \p Value.
    static Binding index(IndexPoly Value) {
      Binding B;
      B.Value = std::move(Value);
      return B;
    }
  };
  /// An access whose subscripts are settled when the nest is complete
  /// (rows are split over all accesses of an array at once).
  struct PendingAccess {
    unsigned Base = 0;
    std::vector<IndexPoly> Subs;
    const LoopRange *Loops = nullptr;
    clang::SourceLocation Loc;
    std::string Gather;     ///< Access::GatherIndex
    std::string GatherLoop; ///< Access::GatherLoop
  };
  /// One function whose body is being lowered: the nest's own, or an
  /// inlined callee's.
  struct FunctionFrame {
    const clang::FunctionDecl *FD = nullptr;
    ModificationSites Modified;
    /// Only its arguments are being bound (`f(f(x))` is no recursion).
    bool Binding = false;
    /// The line of the call that inlines it (0: the nest's own function).
    unsigned CallLine = 0;
  };
  /// Unconditional elements touched so far in the body being lowered, by
  /// loop depth: a data-dependent branch may re-read them (docs/design.md,
  /// "Conditions").
  struct Touched {
    std::vector<std::pair<unsigned, std::vector<IndexPoly>>> Elements;
  };
  /// The affine condition E >= 0 (E == 0 when Equal).
  struct Constraint {
    IndexPoly E;
    bool Equal = false;
  };

private:
  // --- Failure and text (NestBuilder.cpp) ---
  /// Refuses the nest: \p K is the cause's kind, \p Why the message the
  /// user reads. The first refusal is the nest's.
  bool fail(clang::SourceLocation L, RejectKind K, const llvm::Twine &Why);
  /// The kind of an access \p E whose view failed: an index loaded (a
  /// gather) or computed in the nest, or else one not affine.
  RejectKind accessFailKind(const clang::Expr *E);
  std::string text(const clang::Stmt *S) const;
  void readAnnotation(clang::SourceLocation NestBegin);
  bool finishNest(LoopNest &Out);
  bool settleAccesses(Loop &Root);
  /// The last subscripts of an array's accesses \p In, a dimension whose
  /// extent is unknown (a pointer's), split into rows (Delinearize.h):
  /// their extents into \p Extents, each access's subscripts onto \p Subs.
  bool splitLastDimension(const ArrayBase &AB,
                          const std::vector<DelinearizeAccess> &In,
                          clang::SourceLocation Loc, const SizeValues &Vals,
                          std::vector<std::optional<AffineExpr>> &Extents,
                          std::vector<std::vector<std::optional<AffineExpr>> *> Subs);
  /// The accesses of \p Array as one dimension, strides at \p Vals;
  /// nullopt (\p Why extended) when a stride has no value.
  std::optional<std::vector<AffineExpr>>
  flatAtSizes(const std::string &Array,
              const std::vector<DelinearizeAccess> &In,
              const SizeValues &Vals, std::string &Why);
  void fillAccessTexts(Loop &L);
  bool checkSizeConditions(const LoopNest &Out, clang::SourceLocation At);

  // --- Sizes (LowerIndex.cpp) ---
  struct SizeName {
    std::string Name;
    std::optional<int64_t> Value;
    std::string Origin;
    std::optional<DerivedSize> Derived;
  };
  std::optional<SizeName> sizeOf(const clang::Expr *E, std::string &Why);
  std::optional<SizeName> sizeOfVar(const clang::VarDecl *VD,
                                    std::string &Why);
  /// `s->att`, `cfg.dim`: a field's name as the report gives it; refused
  /// where the field is assigned in the function, unless \p AnyField, or,
  /// where one value during the nest suffices (\p FixedSuffices: an array
  /// reached through the field, a float read as data), the field is no
  /// pointer and fixedFieldProblem finds nothing.
  std::optional<std::string> memberPath(const clang::Expr *E,
                                        std::string &Why,
                                        bool AnyField = false,
                                        bool FixedSuffices = false);
  void addParam(const SizeName &S);
  std::optional<int64_t> givenValue(const std::string &Name,
                                    std::string &Origin,
                                    bool IsField = true) const;
  /// The sizes with values so far, derived ones computed.
  SizeValues sizeValues();
  bool isModified(const clang::VarDecl *VD) const;
  bool isModifiedWithin(const clang::VarDecl *VD, const clang::Stmt *S) const;
  /// The value of a function-local integer initialized with a constant and
  /// never written in the function, as a compiler folds it; nullopt for
  /// any other variable.
  std::optional<int64_t> foldedLocal(const clang::VarDecl *VD) const;
  /// A local integer declared before the nest, as an index (a size, a
  /// product of sizes) or a quotient size of its own.
  std::optional<IndexPoly> localIndex(const clang::VarDecl *VD,
                                      std::string &Why);
  /// The one definition of a local that has one value for the whole nest
  /// (LowerRunTimeLocals.cpp): its initializer or its sole assignment before
  /// the nest; null where that is not certain. Where the local is one but
  /// its definition is not certain, the reason is in \p Why.
  const clang::Expr *runTimeDefinition(const clang::VarDecl *VD,
                                       std::string &Why);
  /// \p VD, defined by \p Def, as a size of its own ("run-time").
  std::optional<IndexPoly> runTimeSize(const clang::VarDecl *VD,
                                       const clang::Expr *Def);
  /// The value at the nest of \p VD, defined by \p Def before the nest:
  /// an index, a quotient size, or (\p RunTime: \p Def is its one
  /// definition) a size of its own.
  std::optional<IndexPoly> definitionIndex(const clang::VarDecl *VD,
                                           const clang::Expr *Def,
                                           bool RunTime, std::string &Why);
  /// A local set twice before the nest, the second time under a condition
  /// (darknet's `if (sample < 1) sample = 1;`; LowerClampedLocals.cpp).
  struct ClampedLocal {
    /// The definition before the if (null: the if sets it on both arms).
    const clang::Expr *Before = nullptr;
    const clang::IfStmt *If = nullptr;
    const clang::Expr *Then = nullptr;
    /// Null: the if has no else, the value stays Before's.
    const clang::Expr *Else = nullptr;
  };
  /// \p VD's definitions, where they are one clamp of that shape at the
  /// function's top level before the nest.
  std::optional<ClampedLocal> clampedLocal(const clang::VarDecl *VD);
  /// The value of a clamped local in this case of the nest: its condition
  /// is a loop-invariant case, evaluated with the value before the if.
  std::optional<IndexPoly> clampedIndex(const clang::VarDecl *VD,
                                        const ClampedLocal &CL,
                                        std::string &Why);
  /// \p P, a sum of sizes a loop variable multiplies (`j*(inputs + 1)`),
  /// as a size of its own, "(inputs+1)"; any other \p P as it is.
  IndexPoly strideSize(const IndexPoly &P);
  /// A quotient size's name from its parts: "qp.cols_/32", "(2*C)/NH".
  static std::string quotientText(const IndexPoly &Num, const IndexPoly &Den);
  std::optional<IndexPoly> quotientSize(const std::string &Name,
                                        const IndexPoly &Num,
                                        const IndexPoly &Den,
                                        std::string &Why);

  // --- Index arithmetic (LowerIndex.cpp) ---
  /// \p E as an index; nullopt with the reason in \p Why (the nest is not
  /// failed: the caller decides).
  std::optional<IndexPoly> indexOf(const clang::Expr *E, std::string &Why);
  std::optional<IndexPoly> shiftIndex(const clang::BinaryOperator *BO,
                                      int64_t Shift, std::string &Why);
  std::optional<IndexPoly> arithmeticIndex(const clang::BinaryOperator *BO,
                                           std::string &Why);
  /// `c ? a : b` as an index or bound (LowerConditionalIndex.cpp): a
  /// loop-invariant c picks its case's operand; c on loop variables splits
  /// the innermost loop it uses in two (see SplitFor), each part with its
  /// operand; a data-dependent c is refused.
  std::optional<IndexPoly> conditionalIndex(const clang::ConditionalOperator *CO,
                                            std::string &Why);
  /// The two parts of the loop a condition splits in the loop's order,
  /// and which of them is where it holds (nullopt with \p Why if it is no
  /// such split).
  struct OrderedParts {
    std::vector<Constraint> Parts[2];
    bool TrueFirst = true;
  };
  std::optional<OrderedParts> orderedParts(const clang::Expr *Cond,
                                           const Loop &L, std::string &Why);
  /// Narrows the loop just entered to part \p Part of a split a condition
  /// in an index asked for.
  bool lowerIndexSplit(const clang::ForStmt *FS, std::vector<Node> &Out,
                       bool Normalize, size_t PendingBefore);
  bool applyIndexSplit(Loop &L, const std::vector<Constraint> &Part,
                       const clang::Stmt *Where);
  bool lowerIndex(const clang::Expr *E, IndexPoly &Out);
  bool lowerAffine(const clang::Expr *E, AffineExpr &Out);
  bool toAffine(const IndexPoly &P, const clang::Expr *E, AffineExpr &Out);
  /// The std::min or std::max call (or minMaxChoice) an unchanged integer
  /// local \p E names was set to; null otherwise.
  const clang::Expr *minMaxLocalInit(const clang::Expr *E) const;
  /// Whether \p VD is a bound of a for loop of the nest (in its
  /// initialization or condition) and no index or address anywhere in it;
  /// other uses (a value in the arithmetic) are free.
  bool boundNotIndex(const clang::VarDecl *VD) const;
  bool lowerBound(const clang::Expr *E, Bound &Out);
  /// The min (or max) of \p Args as a bound of \p Kind; an argument that is
  /// a window local of the same kind adds its terms.
  bool lowerMinMaxOf(Bound::KindTy Kind,
                     std::initializer_list<const clang::Expr *> Args,
                     Bound &Out);
  bool lowerBoundTerm(const clang::Expr *E, BoundTerm &Out);
  void registerProducts(const std::vector<SizeMonomial> &Products);
  /// \p E with each size that multiplies a loop variable replaced by its
  /// value; nullopt (and \p Why) where one has none.
  /// pinLoopVarTimesSize for any \p Subject ("loop bound 'e'"); \p Counted
  /// names what a value would let the tool count.
  std::optional<IndexPoly> pinLoopVarProducts(const IndexPoly &E,
                                              const std::string &Subject,
                                              const char *Counted,
                                              std::string &Why);
  std::optional<IndexPoly> pinLoopVarTimesSize(const IndexPoly &E,
                                               const std::string &IV,
                                               std::string &Why);
  bool pinSizes(IndexPoly &P) const;

  // --- Counters the nest advances (LowerCounters.cpp) ---
  /// A counter `k` (declared before the nest, advanced inside it) at \p E, a
  /// reference to it or one of its steps (`k++`); null if \p E is none.
  const clang::VarDecl *counterOf(const clang::Expr *E);
  bool isCounterCandidate(const clang::VarDecl *VD);
  bool isAdvancedLocal(const clang::VarDecl *VD);
  bool isCounterStep(const clang::Expr *E);
  /// A pointer `p` (declared before the nest, advanced inside it) at \p E,
  /// a reference to it or one of its steps (`p++`); null if \p E is none.
  const clang::VarDecl *pointerCounterOf(const clang::Expr *E);
  /// Where pointer counter \p VD points at \p Use: its start's view moved
  /// by the counter's value there (docs/user-guide.md, "Counters").
  std::optional<View> pointerCounterView(const clang::VarDecl *VD,
                                         const clang::Expr *Use,
                                         std::string &Why);
  const clang::VarDecl *refusedCounterIn(const clang::Expr *E);
  bool loadsBesides(const clang::Expr *E, const clang::VarDecl *VD);
  /// The value of counter \p VD at \p Use, affine in the loop variables.
  std::optional<IndexPoly> counterIndex(const clang::VarDecl *VD,
                                        const clang::Expr *Use,
                                        std::string &Why);
  struct CounterInfo {
    std::optional<IndexPoly> Start; ///< nullopt: no counter, for Why
    std::string Why;
    /// A pointer counter: the view it starts at (Start is then 0).
    std::optional<View> StartView;
  };
  const CounterInfo &counterInfo(const clang::VarDecl *VD);
  struct CounterLoop {
    const clang::VarDecl *IV = nullptr;
    IndexPoly Start, Trip;
  };
  std::optional<CounterLoop> counterLoop(const clang::ForStmt *FS,
                                         bool NeedTrip, std::string &Why);
  std::optional<IndexPoly> counterSteps(const clang::VarDecl *VD,
                                        const clang::Stmt *S,
                                        std::string &Why);
  std::optional<IndexPoly> stepValue(const clang::Expr *Step,
                                     std::string &Why);
  std::optional<IndexPoly> loopFreeIndex(const clang::Expr *E,
                                         std::string &Why);
  std::string conditionalStep(const clang::Expr *Step,
                              const clang::ParentMap &PM,
                              const clang::Stmt *Root = nullptr,
                              bool ScopeGuards = false);
  /// Empty when \p Cond keeps its value while \p Root (a counter's scope)
  /// runs; else what may change it.
  std::string scopeVariance(const clang::Expr *Cond, const clang::Stmt *Root);
  /// Empty when every branch of an `if` holding a step of \p VD holds
  /// \p Use too; else why \p Use may see steps that did not run.
  std::string unguardedUse(const clang::VarDecl *VD, const clang::Expr *Use,
                           const clang::Stmt *Root);
  const clang::Stmt *counterRoot(const clang::VarDecl *VD);
  std::optional<IndexPoly> stepsBeforeNest(const clang::VarDecl *VD,
                                           std::string &Why);
  std::optional<IndexPoly> wholeSteps(const clang::VarDecl *VD,
                                      const clang::Stmt *S, std::string &Why);
  bool stateNonNegativeTrip(const CounterLoop &L, const clang::VarDecl *VD,
                            std::string &Why);
  bool continueSkipsStep(const clang::Stmt *S, const clang::VarDecl *VD,
                         const clang::ParentMap &PM);
  static bool stepsIn(const clang::Stmt *S, const clang::VarDecl *VD);
  const clang::ParentMap &functionParents();

  // --- Loops and control flow (LowerLoops.cpp) ---
  bool lowerFor(const clang::ForStmt *FS, std::vector<Node> &Out);
  /// The part of a loop's header init that sets its variable (all of it
  /// but in `for (i = 1, max = x[0]; ...)`), and the other parts, which
  /// run once before the loop (LowerLoopStart.cpp).
  const clang::Stmt *loopVarInit(const clang::ForStmt *FS) const;
  std::vector<const clang::Expr *> otherInits(const clang::ForStmt *FS) const;
  bool lowerForOnce(const clang::ForStmt *FS, Loop &Out,
                    const std::optional<bool> &SplitBranch,
                    bool Normalize = false);
  bool lowerForSplit(const clang::ForStmt *FS, std::vector<Node> &Out,
                     bool Normalize);
  bool lowerRangeFor(const clang::CXXForRangeStmt *RS, Loop &Out);
  bool checkConstantBound(const clang::Expr *Cond,
                          const clang::Expr *BoundE,
                          const clang::VarDecl *IVDecl,
                          clang::BinaryOperatorKind Op, int64_t Step,
                          Bound &B);
  bool lowerInit(const clang::Stmt *Init, std::string &IV,
                 const clang::VarDecl *&IVDecl, Bound &First);
  // --- A loop without init: where its variable was left (LowerLoopStart.cpp)
  /// No init, or one that sets a variable other than the stepped one.
  static bool continuesVariable(const clang::ForStmt *FS);
  bool lowerContinuedStart(const clang::ForStmt *FS, std::string &IV,
                           const clang::VarDecl *&IVDecl, Bound &First);
  bool lowerStartValue(const clang::Expr *E,
                       llvm::ArrayRef<const clang::Stmt *> Between,
                       const clang::VarDecl *IVDecl, std::string &IV,
                       Bound &First);
  bool lowerExitValue(const clang::ForStmt *Before,
                      llvm::ArrayRef<const clang::Stmt *> Between,
                      const clang::VarDecl *IVDecl, std::string &IV,
                      Bound &First);
  /// True (and the reason set) where a variable \p Def reads may change in
  /// \p Between or is \p IVDecl itself.
  bool changedIn(const clang::Stmt *Def,
                 llvm::ArrayRef<const clang::Stmt *> Between,
                 const clang::VarDecl *IVDecl, clang::SourceLocation At);
  bool isPlainOtherInit(const clang::Stmt *Init,
                        const clang::VarDecl *IVDecl) const;
  /// Written only by assignments and ++/-- (no address, no reference).
  bool plainlyWritten(const clang::VarDecl *VD) const;
  /// Whether \p Stop >= \p Start for all sizes (true), never (false), or
  /// it depends (nullopt).
  bool steppedExit(const BoundTerm &Start, const BoundTerm &Stop, int64_t K,
                   const std::string &Why, clang::SourceLocation At, Bound &First);
  std::optional<bool> sizesDecide(const BoundTerm &Start,
                                  const BoundTerm &Stop) const;
  bool isMultipleByConstruction(const clang::Expr *E, int64_t K,
                                unsigned Depth = 0);
  bool lowerStep(const clang::Expr *Inc, const clang::VarDecl *IVDecl,
                 int64_t &Step);
  bool lowerCond(const clang::Expr *Cond, const clang::VarDecl *IVDecl,
                 int64_t Step, Bound &Last);
  std::string ivName(const clang::VarDecl *VD);
  void enterLoop(Loop &L, const clang::VarDecl *IVDecl,
                 const clang::Stmt *Body);
  void leaveLoop();
  bool lowerBody(const clang::Stmt *S, Loop &Parent, bool IsLoopBody,
                 const std::optional<bool> &SplitBranch = std::nullopt);
  bool lowerStmt(const clang::Stmt *S, Loop &Parent);
  bool lowerDecl(const clang::VarDecl *VD, Loop &Parent, Stmt &St,
                 const clang::Expr *InitOverride = nullptr);
  bool lowerPointerDecl(const clang::VarDecl *VD, const clang::Expr *Init);
  bool lowerScalarDecl(const clang::VarDecl *VD, const clang::Expr *Init,
                       Stmt &St);
  bool lowerIf(const clang::IfStmt *If, Loop &Parent, bool WholeBody,
               const std::optional<bool> &SplitBranch);
  bool applyGuard(const std::vector<Constraint> &Cs,
                  const clang::Stmt *Where);
  /// Whether applyGuard may narrow the loops \p Cs is on (each is all
  /// there is of the loops inside it).
  bool guardNarrowsLoops(const std::vector<Constraint> &Cs);
  /// An affine condition on part of a loop body: \p Branch runs in a loop
  /// of at most one iteration whose bounds carry \p Cs. With \p Narrows
  /// the guard loop stands for a narrowing of \p Parent (Loop::Narrows).
  bool lowerGuardLoop(const std::vector<Constraint> &Cs,
                      const clang::Stmt *Branch, const clang::Stmt *Where,
                      Loop &Parent, bool Narrows = false);
  /// The same, for statements \p Stmts (the rest of a loop body).
  bool lowerGuardLoop(const std::vector<Constraint> &Cs,
                      llvm::ArrayRef<const clang::Stmt *> Stmts,
                      const clang::Stmt *Where, Loop &Parent,
                      bool Narrows = false);
  /// The guard loop for \p Cs, its body lowered by \p LowerBody; \p Pin
  /// as guardBounds'.
  bool guardLoop(const std::vector<Constraint> &Cs, const clang::Stmt *Where,
                 Loop &Parent, bool Narrows, bool Pin,
                 llvm::function_ref<bool(Loop &)> LowerBody);
  // --- Loop-invariant switches (LowerInvariantSwitch.cpp) ---
  /// What a switch runs in this case: its statements from the chosen
  /// label to a break, and the return that ends them, if any.
  struct SwitchPath {
    std::vector<const clang::Stmt *> Stmts;
    const clang::ReturnStmt *Return = nullptr;
  };
  /// The label's spelling as a case value: "LOGISTIC", "default".
  std::string switchLabelText(const clang::SwitchCase *SC) const;
  /// Refuses a switch on data, loop variables or what the nest writes.
  bool switchCondition(const clang::SwitchStmt *SW);
  /// The label this build takes (null: none matches); \p Ok is false
  /// where a given value names no label.
  const clang::SwitchCase *
  switchChoice(const clang::SwitchStmt *SW,
               llvm::ArrayRef<const clang::SwitchCase *> Labels, bool &Ok);
  bool switchPath(const clang::SwitchStmt *SW, SwitchPath &Out);
  /// A switch in a loop body, and in a data-dependent branch.
  bool lowerSwitch(const clang::SwitchStmt *SW, Loop &Parent);
  bool lowerSwitchArm(const clang::SwitchStmt *SW, Stmt &Acc);
  /// The switches at a called helper's top level replaced by their paths;
  /// a path's return becomes the helper's \p Result.
  bool expandCalleeSwitches(std::vector<const clang::Stmt *> &Stmts,
                            const clang::Expr *&Result);
  /// The value each switched-on expression has in this build (by its
  /// invariantText): a label's value, or none of the labels' (default, no
  /// label): `if (k == K_LEAKY)` inside `case K_RELU:` is false.
  struct SwitchValue {
    std::optional<int64_t> Value;
    std::vector<int64_t> NotAny;
  };
  std::map<std::string, SwitchValue> SwitchValues;
  /// `X == C` or `X != C` where the switch case of this build fixes X.
  std::optional<bool> switchFixes(const clang::Expr *Cond);
  // --- Mirrored data branches (LowerMirroredBranches.cpp) ---
  /// A data-dependent if/else whose branches hold loops and are the same
  /// code but for `+=` against `-=` (darknet's gemm_bin): the condition
  /// counted, the then-branch lowered as the work of either. \p Handled is
  /// false where the branches differ otherwise.
  bool lowerMirroredBranch(const clang::IfStmt *If, Loop &Parent,
                           bool &Handled);
  // --- Unions of ranges (LowerUnionGuards.cpp) ---
  using Conjunctions = std::vector<std::vector<Constraint>>;
  /// \p Cond (or its negation) as disjoint conjunctions of constraints:
  /// `a || b` is `a`, then `!a && b`; nullopt where an atom is no affine
  /// comparison or the parts would be too many.
  std::optional<Conjunctions> disjointParts(const clang::Expr *Cond,
                                            bool Negate, std::string &Why);
  /// `x != y` as its two parts in order, `x < y` then `x > y`; nullopt
  /// with \p Why where a side is no index of loop variables and sizes.
  std::optional<Conjunctions> notEqualParts(const clang::BinaryOperator *Ne,
                                            std::string &Why);
  // --- Conditions kept in a local (LowerGuardLocals.cpp) ---
  /// An integer local of the nest initialized with a condition on loop
  /// variables and never written again: the condition's disjoint parts
  /// where it holds (Parts[0]) and where not (Parts[1]), taken where it is
  /// declared; nullopt with the reason in Why where a side is none.
  struct GuardLocal {
    std::optional<Conjunctions> Parts[2];
    std::string Why[2];
  };
  /// Records \p VD as a GuardLocal where \p Init is such a condition.
  void noteGuardLocal(const clang::VarDecl *VD, const clang::Expr *Init);
  /// The GuardLocal \p Cond tests (`v`, `v != 0`, `v == 0`, `v == 1`), with
  /// \p Negate flipped where the test is its negation; null if none.
  const GuardLocal *guardLocalOf(const clang::Expr *Cond, bool &Negate);
  std::optional<Conjunctions> guardLocalParts(const GuardLocal &G,
                                              bool Negate, std::string &Why);
  /// A `?:` on a GuardLocal that stayed a data-dependent choice (a side
  /// with work holds on a union of ranges, or it is inside a data
  /// branch) was refused: the reason says what the local is. False.
  bool explainGuardLocal(const clang::Expr *Cond);
  /// An affine if whose condition (or its negation, with an else) is a
  /// union: each branch in one guard loop per disjoint part. False with
  /// \p Handled unset where the condition is no union.
  bool lowerUnionIf(const clang::IfStmt *If, Loop &Parent, bool WholeBody,
                    bool &Handled);
  /// `if (a && b) continue;`: the rest of the body, \p Rest, in one guard
  /// loop per disjoint part of `!(a && b)`.
  bool lowerUnionContinue(const clang::IfStmt *If,
                          llvm::ArrayRef<const clang::Stmt *> Rest,
                          Loop &Parent, bool &Handled);
  /// Sets the bounds of the guard loop \p G (no body) to carry \p Cs; with
  /// \p Pin a size that multiplies a loop variable takes its given value
  /// (pinLoopVarTimesSize), else that is refused.
  bool guardBounds(const std::vector<Constraint> &Cs, const clang::Stmt *Where,
                   bool Pin, Loop &G);
  /// A value chosen by a condition on loop variables (`c ? a : b`, a
  /// helper's `if (c) return a; return b;`: darknet's im2col_get_pixel
  /// returns 0 in the padding): each side's work, lowered by \p LowerSide
  /// (0: where \p Cond holds, 1: where not), runs in a guard loop of its
  /// side before the statement. A side with no work needs no constraints
  /// (a union of ranges is fine there); a side that writes is refused.
  bool lowerAffineSides(const clang::Expr *Cond, const clang::Stmt *Where,
                        llvm::function_ref<bool(int, Stmt &)> LowerSide);
  /// Whether lowerAffineSides can take `Cond ? True : False`: each side
  /// holds on one range of the loops, or is a constant (no work). A null
  /// side must hold on one range. Otherwise the select stays what it was
  /// (a data-dependent choice: mnist's `i == label ? a - 1 : a`).
  bool affineSidesFit(const clang::Expr *Cond, const clang::Expr *True,
                      const clang::Expr *False);
  bool tightenLoop(Loop &L, LoopRange &R, const std::string &IV,
                   const IndexPoly &E, bool Equal, const clang::Stmt *Where);
  void simplifyBound(Bound &B, bool IsUpper, const LoopRange *Outer);
  /// How a condition depends on the iteration (see docs/design.md).
  enum class CondKind { Affine, Invariant, Data };
  CondKind classify(const clang::Expr *Cond);
  bool usesNestData(const clang::Expr *E);
  /// Why an index that usesNestData cannot be counted: a gather, or a
  /// variable the nest itself updates (a running counter `k++`), which is
  /// no load from memory (docs/design.md, "Refusals").
  std::string dataIndexReason(const std::string &What, const clang::Expr *E,
                              const std::string &Prep,
                              const std::string &Array);
  const clang::VarDecl *updatedScalarIn(const clang::Expr *E);
  bool onlyStepsIn(const clang::VarDecl *VD, const clang::Stmt *S);
  std::optional<std::vector<Constraint>>
  constraintsOf(const clang::Expr *Cond, bool Negate, std::string &Why);
  /// The value of a loop-invariant condition for this build.
  bool invariantValue(const clang::Expr *Cond);
  /// An integer expression of sizes with `/` and `%` (C's, toward zero)
  /// where every size has a value; nullopt otherwise.
  std::optional<int64_t> sizeValueOf(const clang::Expr *E);
  /// Whether a pointer bound to \p B is non-null, where known; renames the
  /// test to the caller's pointer where it is that pointer itself.
  std::optional<bool> boundNonNull(const Binding &B, std::string &Name,
                                   bool &IsMember);
  /// A loop-invariant condition: its value, or the unknown atom it is
  /// (`bias` non-null, a flag), perhaps negated (`bias == NULL`, `!flag`).
  struct Invariant {
    std::optional<bool> Value;
    std::string Key, TrueText, FalseText; ///< the atom, when Value is unknown
    bool Negated = false;
  };
  Invariant evalInvariant(const clang::Expr *Cond);
  /// An invariant condition's text in the caller's words: a helper's
  /// variables replaced by the values they are bound to.
  std::string invariantText(const clang::Expr *Cond);
  /// \p Text marked with the call it was lowered for.
  std::string callSiteText(const std::string &Text) const;
  std::optional<Invariant> pointerTest(const clang::Expr *Cond);
  bool mentionsLoopVar(const clang::Expr *E);
  bool lowerDataBranch(const clang::Expr *Cond,
                       const std::vector<const clang::Stmt *> &Arms,
                       Loop &Parent, clang::SourceLocation At);
  bool lowerArm(const clang::Stmt *S, Stmt &Acc);
  bool mergeArms(std::vector<Stmt> &Arms, Stmt &Into,
                 clang::SourceLocation At);
  /// Pops a chain of `if (c) return e;` off the end of \p Stmts (a scalar
  /// helper's body before its last `return Result;`) and returns the value
  /// as the conditional `c1 ? e1 : c2 ? e2 : Result` (genann's sigmoid with
  /// its clamps), so that the rules of conditions count it.
  const clang::Expr *returnChainValue(std::vector<const clang::Stmt *> &Stmts,
                                      const clang::Expr *Result,
                                      const clang::FunctionDecl *Callee);
  /// A scalar helper's last statement `if (c) return e1; else return e2;`
  /// (the else possibly another such if) as the value `c ? e1 : e2`; null
  /// for any other statement.
  const clang::Expr *branchesReturnValue(const clang::Stmt *S,
                                         const clang::FunctionDecl *Callee);
  /// A scalar helper's statements from \p From and its final \p Result,
  /// in an expression: a guarded return `if (c) return e;` before other
  /// statements is `c ? e : ({ the rest; Result })`.
  bool lowerReturnTree(llvm::ArrayRef<const clang::Stmt *> Stmts, size_t From,
                       const clang::Expr *Result, Stmt &Acc);
  bool inlineCall(const clang::CallExpr *CE, Loop *Parent, Stmt *Value);
  /// A called function's statements into \p Parent; an invariant
  /// `if (c) { ...; return; }` of a void helper runs one side (exitGuard).
  bool lowerCalleeStmts(llvm::ArrayRef<const clang::Stmt *> Stmts,
                        Loop &Parent, const clang::FunctionDecl *Callee);
  // --- Exits of a void helper on loop variables (LowerHelperExits.cpp) ---
  /// darknet's col2im_add_pixel: `if (row < 0 || row >= h) return;` then
  /// the store. \p Taken (the exit's statements before its return) runs
  /// in guard loops on the condition's parts, \p Rest (the helper's
  /// statements after the if) in guard loops on its negation's.
  bool lowerAffineExit(const clang::IfStmt *If,
                       llvm::ArrayRef<const clang::Stmt *> Taken,
                       llvm::ArrayRef<const clang::Stmt *> Rest, Loop &Parent,
                       const clang::FunctionDecl *Callee);
  /// A helper whose value an expression uses and whose body has a loop
  /// (`y[i] = dot(row, x, n)`) runs its body before the statement, in the
  /// loop the statement is in: true where that is sound here.
  bool canHoistCall(llvm::ArrayRef<const clang::Stmt *> Stmts,
                    const Stmt *Value) const;
  /// Whether the nodes from \p From of \p L write memory (scratch arrays
  /// aside).
  bool writesMemory(const Loop &L, size_t From) const;
  /// The arrays helpers hoisted out of one statement's expression write
  /// (each with the helper's name) and touch: the statement's own accesses,
  /// and a later helper's, must leave them alone, as C does not order them.
  struct HoistedArrays {
    std::map<std::string, std::string> Written;
    std::set<std::string> Touched;
  };
  /// Notes the arrays the nodes from \p From of \p L (a hoisted call to
  /// \p Callee) write and touch; fails where an earlier helper of the
  /// statement touched what they write, or wrote what they touch.
  bool noteHoistedArrays(const Loop &L, size_t From,
                         const clang::FunctionDecl *Callee,
                         clang::SourceLocation At);
  /// Fails where statement \p St reads an array a helper hoisted out of
  /// its expression writes.
  bool checkHoistedArrays(const Stmt &St, clang::SourceLocation At);
  bool bindArguments(const clang::CallExpr *CE,
                     const clang::FunctionDecl *Callee, Stmt &ArgWork);
  /// Rebinds the parameters the statements \p Adjust (parameterAdjustments)
  /// change to their adjusted indices, in order; refuses one whose argument
  /// or adjustment is no index.
  bool adjustParameters(llvm::ArrayRef<const clang::Stmt *> Adjust,
                        const clang::FunctionDecl *Callee);
  /// The body a call runs: its direct callee's, or the target of the
  /// function pointer it calls through; null (Why set where known) where
  /// it cannot be inlined.
  const clang::FunctionDecl *inlinableCallee(const clang::CallExpr *CE,
                                             std::string &Why);
  /// With --cross-tu, \p Callee's one body in another translation unit of
  /// the compile database, imported; null (\p Why set when the database
  /// has several or cannot import it) otherwise.
  const clang::FunctionDecl *importedDefinition(const clang::FunctionDecl *Callee,
                                                std::string &Why);

  // --- Index helpers and lambdas (LowerHelperCalls.cpp) ---
  /// Why the lambda \p CE calls cannot be inlined (a copy of a variable
  /// that changes); empty where it can, or \p CE calls no lambda.
  std::string lambdaCaptureReason(const clang::CallExpr *CE);
  /// The callee as written: the function's name, or the lambda's variable.
  std::string calleeText(const clang::CallExpr *CE);
  /// An index helper's definition and body: `int n = e1; ... return e;`.
  struct IndexHelper {
    const clang::FunctionDecl *Def = nullptr;
    std::vector<const clang::VarDecl *> Locals; ///< in order
    const clang::Expr *Ret = nullptr;
  };
  /// The helper \p CE calls where it computes an integer from integer
  /// parameters (and structs by value) by `return e;` after int locals (a
  /// function, a lambda or a getter); null otherwise.
  const IndexHelper *indexHelperOf(const clang::CallExpr *CE);
  /// The definition \p CE runs where it may be a helper: a function, a
  /// lambda, a non-virtual method or `operator()`/`operator[]` of a class,
  /// with a body outside system headers; null otherwise.
  const clang::FunctionDecl *helperDefinition(const clang::CallExpr *CE) const;
  /// \p Def's helper shape, read once (IndexHelpers).
  const IndexHelper *cachedHelper(const clang::FunctionDecl *Def, bool Accessor);
  /// \p Def as a helper: integer locals with initializers, in order, and
  /// assertions on indices, then `return e;`; nothing modified. An
  /// \p Accessor may also take pointers and references (to arrays,
  /// elements and objects) and have pointer locals; no field changes.
  std::optional<IndexHelper> indexHelperBody(const clang::FunctionDecl *Def,
                                             bool Accessor, std::string &Why);
  /// One statement before a helper's return: a local it keeps in \p Out,
  /// or an assertion that reads nothing; false for anything else.
  bool helperLocal(const clang::Stmt *S, bool Accessor, IndexHelper &Out);
  class IndexParams;
  /// The index an index helper's call computes: e with its parameters
  /// bound to the arguments' indices.
  std::optional<IndexPoly> helperIndex(const clang::CallExpr *CE,
                                       const IndexHelper &H, std::string &Why);
  /// Runs \p Body with \p H's parameters bound to \p CE's arguments, its
  /// locals to their values and `this` to the call's object; false with
  /// \p Why (Body's reason, named by the helper) where any fails.
  bool inHelperCall(const clang::CallExpr *CE, const IndexHelper &H,
                    std::string &Why,
                    llvm::function_ref<bool(std::string &)> Body);
  /// Binds one helper parameter to its argument in \p Scope.
  bool bindHelperParam(const clang::ParmVarDecl *P, const clang::Expr *Arg,
                       IndexParams &Scope, std::string &Why);
  /// An index helper's call reads data: through its arguments or what its
  /// body names besides its parameters.
  bool helperUsesNestData(const clang::CallExpr *CE, const IndexHelper &H);
  unsigned HelperIndexDepth = 0;
  /// Inside a getter helperIndex follows: how the caller names its object
  /// ("m." for `m.rows()`), for the getter's `this->f`.
  std::optional<std::string> ThisObject;
  /// The caller's name of a method call's object (\p ObjArg), as
  /// ThisObject holds it.
  std::optional<std::string> callObject(const clang::Expr *ObjArg,
                                        std::string &Why);
  /// indexHelperOf's answer by definition (null: no index helper):
  /// usesNestData asks of every call it meets, and the body's shape is read
  /// once. Held by pointer: a helper's answer stays put while nested calls
  /// add others.
  llvm::DenseMap<const clang::FunctionDecl *, std::unique_ptr<IndexHelper>>
      IndexHelpers;
  /// The same for accessors, kept apart: an accessor may take pointers and
  /// references an index helper may not.
  llvm::DenseMap<const clang::FunctionDecl *, std::unique_ptr<IndexHelper>>
      AccessorHelpers;
  /// Why a definition is no accessor (indexHelperBody's reason).
  llvm::DenseMap<const clang::FunctionDecl *, std::string> AccessorWhy;

  // --- Accessors of classes (LowerAccessors.cpp) ---
  enum class AccessorKind { None, Element, Pointer };
  /// What the callee of \p CE (set in \p Def) returns, as an accessor.
  AccessorKind accessorKindOf(const clang::CallExpr *CE,
                              const clang::FunctionDecl *&Def) const;
  /// \p CE names one element through an accessor (`A(i, k)`, `m.at(i)`).
  bool isElementAccessor(const clang::CallExpr *CE) const;
  /// The element or pointer an accessor's call returns; nullopt with \p Why
  /// empty where \p CE calls no accessor.
  std::optional<View> accessorView(const clang::CallExpr *CE, std::string &Why);

  /// \p Arg, passed to a `float &` parameter, is a floating scalar of the
  /// caller's (no element): the parameter is that scalar. \p Why is set for
  /// an integer local, which is refused.
  bool callerScalar(const clang::Expr *Arg, std::string &Why);

  // --- Function pointers (LowerFunctionPointers.cpp) ---
  std::optional<FunctionRef> functionRefOf(const clang::Expr *E,
                                           std::string &Why);
  /// The function \p FR calls in this build: the one it is, the one given
  /// (--param NAME=FUNCTION), the only candidate, or this case's; null
  /// with \p Why where none is known. Several candidates without a choice
  /// are noted in UnassignedTargets (the first stands in until the nest is
  /// built per case).
  const clang::FunctionDecl *targetOf(const FunctionRef &FR,
                                      std::string &Why);
  const clang::FunctionDecl *givenTarget(const FunctionRef &FR,
                                         std::string &Why);
  /// What the ifs around the nest say of \p FR (`if (f == g)`, `else` of
  /// it): the target it must be, or those it cannot be.
  struct GuardedTargets {
    const clang::FunctionDecl *Required = nullptr;
    std::vector<const clang::FunctionDecl *> Excluded;
    unsigned Line = 0; ///< of the if that decides it
  };
  GuardedTargets guardedTargets(const FunctionRef &FR);
  /// The candidates of \p FR the ifs around the nest leave; null with
  /// \p Why where none is left or known.
  const clang::FunctionDecl *candidateTarget(const FunctionRef &FR,
                                             const std::string &Key,
                                             std::string &Why);
  const clang::FunctionDecl *functionNamed(llvm::StringRef Name,
                                           clang::QualType Type) const;
  /// `act == genann_act_tanh`: a comparison of function pointers, decided
  /// per target; nullopt where \p Cond is none.
  std::optional<Invariant> functionTest(const clang::Expr *Cond);

  // --- Grouped loops, choices per iteration (LowerRegroup.cpp) ---
  /// A for loop lowered over loops of its own: the source's variable is
  /// Value in theirs (outer first; bodies empty until lowered).
  struct Regroup {
    std::vector<Loop> Loops;
    IndexPoly Value;
  };
  /// A divisor K*M: a positive constant times one product of sizes.
  struct Divisor {
    SizeMonomial M;
    int64_t K = 1;
    AffineExpr Affine;
  };
  std::optional<Divisor> divisorOf(const IndexPoly &D, std::string &Why);
  /// C's P / D where it is provably a polynomial: P = D*Q + R with
  /// 0 <= R < D and Q >= 0 over the loops around (sizes that are multiples
  /// of D by a stated condition count as such).
  std::optional<IndexPoly> exactQuotient(const IndexPoly &P,
                                         const IndexPoly &D, std::string &Why);
  /// `c % K` of a loop variable run in groups of K: c - K*(c/K), where
  /// exactQuotient holds. Nullopt with \p Why empty where \p BO's dividend
  /// uses no loop variable (the caller goes on as before).
  std::optional<IndexPoly> remainderIndex(const clang::BinaryOperator *BO,
                                          std::string &Why);
  /// The number of groups of S in U: U/S, a quotient size with its
  /// divisibility condition where it is not a product already.
  std::optional<IndexPoly> groupCount(const IndexPoly &U, const IndexPoly &S,
                                      std::string &Why);
  std::string freshIV(const std::string &Base);
  /// S of `j += S`, S a size (not a literal; a named constant only where
  /// the body divides by it).
  std::optional<IndexPoly> symbolicStep(const clang::ForStmt *FS,
                                        const clang::VarDecl *IVDecl);
  bool planStepGroups(const clang::ForStmt *FS, const clang::VarDecl *IVDecl,
                      const IndexPoly &S, const Loop &Plain, Regroup &Out);
  /// The loop runs as groups of S where its body divides its variable by S
  /// (`i / S`, `i % S`), in groups of groups where it divides it again
  /// (`c / K / K`, `(c / K) % K`: Caffe's im2col).
  bool planStripMine(const clang::ForStmt *FS, const clang::VarDecl *IVDecl,
                     const Loop &Plain, Regroup &Out, bool &Planned);
  /// A strided loop over a unit-step variable (i = c + s*i_s).
  bool planUnitStride(const clang::ForStmt *FS, const Loop &Plain,
                      Regroup &Out);
  bool lowerRegrouped(const clang::ForStmt *FS, const clang::VarDecl *IVDecl,
                      Regroup RG, Loop &Out,
                      const std::optional<bool> &SplitBranch);
  /// A loop's range splits in two once: the second request is refused.
  bool takeSplit(const clang::Stmt *Where);
  /// Whether conditions \p A and \p B, both in the nest, are written alike
  /// over variables the nest does not change (its loops' aside): one value.
  bool sameChoice(const clang::Expr *A, const clang::Expr *B);
  bool choiceParts(const clang::Expr *Cond, const Loop &L,
                   std::vector<Constraint> (&Parts)[2], std::string &Why);
  /// `int r = i < K ? 2 : 1;`, `float *p = v == 0 ? a : b;`: the loop split
  /// by the condition, the variable bound per part. nullopt: not such a
  /// declaration.
  std::optional<bool> lowerChosenDecl(const clang::VarDecl *VD, Loop &Parent,
                                      Stmt &St);
  /// The same for `p = v == 0 ? a : b;` first in a loop body (\p Here, an
  /// assignment bound like a declaration: LowerBodyAssignments.cpp).
  std::optional<bool> lowerChosenValue(const clang::VarDecl *VD,
                                       const clang::Expr *Init,
                                       const clang::Stmt *Here, Loop &Parent,
                                       Stmt &St);

  // --- Pointers assigned first in a loop body (LowerBodyAssignments.cpp) ---
  /// `r = A + i*N;` or `s->k = cache + off;`, a statement of a loop body of
  /// the nest that every use of the pointer in the nest follows in that
  /// body: bound like a declaration there. nullopt where \p S is no
  /// assignment of a pointer variable declared outside the nest or of a
  /// pointer field.
  std::optional<bool> lowerBodyAssignment(const clang::Stmt *S, Loop &Parent,
                                          Stmt &St);
  /// Why the assignment \p BO (statement \p S) is not such a binding;
  /// empty where it is.
  std::string bodyAssignmentProblem(const clang::Stmt *S,
                                    const clang::BinaryOperator *BO,
                                    const Loop &Parent);
  /// Whether the integer local \p VD, declared by the statement the current
  /// loop body is lowering, is changed only by `VD = E;`, `VD += E;` or
  /// `VD -= E;` statements of that same body: then each use sees the last
  /// of them before it, and \p VD is an index bound anew at each.
  bool isSequentialIndex(const clang::VarDecl *VD) const;
  /// Such a statement (\p S): \p VD bound to its new value; nullopt where
  /// \p S is none.
  std::optional<bool> lowerIndexReassignment(const clang::Stmt *S);
  /// A guard local of the nest (GuardLocals: its initializer is read where
  /// the local is used) whose initializer reads \p VD; null where none.
  const clang::VarDecl *lazyReaderOf(const clang::VarDecl *VD) const;
  /// The view a pointer field bound by lowerBodyAssignment holds; nullopt
  /// where \p ME is no such field.
  std::optional<View> boundFieldView(const clang::MemberExpr *ME);
  /// A member of one struct of an array of structs, as an array over all
  /// of them (LowerStructRows.cpp); nullopt with \p Why empty where \p ME
  /// is no such member.
  std::optional<View> structRowView(const clang::MemberExpr *ME, std::string &Why);
  /// Whether \p ME is a member of one struct of an array of structs.
  bool isStructRowMember(const clang::MemberExpr *ME) const;
  /// The struct row the base of \p ME is bound to (a callee's `w` where
  /// the call passed `P + i`); null where it is bound to none.
  const StructRow *boundStructRow(const clang::MemberExpr *ME) const;
  /// The struct of an array of structs \p E names or points to.
  bool structRowOf(const clang::Expr *E, StructRow &Out, std::string &Why);
  /// Member \p F of the struct \p Row as a view of its array.
  std::optional<View> memberRows(const StructRow &Row, const clang::FieldDecl *F,
                                 std::string &Why);
  /// The array base memberRows makes for member \p F (named \p Name).
  std::optional<ArrayBase> memberBase(const StructRow &Row,
                                      const clang::FieldDecl *F,
                                      const std::string &Name, std::string &Why);
  /// The key of a field in FieldBindings: the variable its member chain
  /// starts from (null for `this`) and its path; nullopt where it has none.
  std::optional<std::pair<const void *, std::string>>
  fieldKey(const clang::MemberExpr *ME);

  // --- assert() and early returns (LowerAsserts.cpp) ---
  /// The condition `assert(c)` checks, in any of <assert.h>'s forms, and
  /// the value it has where the assertion holds (\p HoldsWhen); null when
  /// \p S is no assertion.
  const clang::Expr *assertedCondition(const clang::Stmt *S, bool &HoldsWhen);
  /// The work of an asserted condition on the run where it holds.
  bool countAssertion(const clang::Expr *Cond, bool HoldsWhen, Stmt &St,
                      clang::SourceLocation At);
  /// \p S counted as an assertion into \p St where it is one (\p Done).
  bool lowerAssertion(const clang::Stmt *S, Stmt &St, bool &Done);
  /// `if (c) return;` of the nest's own function, where \p If is one
  /// (\p Done): a case where \p c is loop-invariant, else refused.
  bool lowerReturnGuard(const clang::IfStmt *If, Loop &Parent, bool &Done);
  /// A value returned from inside the nest: a constant or a plain local;
  /// else refused.
  bool plainReturnValue(const clang::ReturnStmt *Ret);

  // --- Early exits (LowerEarlyExits.cpp) ---
  /// `if (c) break;` / `if (c) return;` ending \p Parent's body, where c
  /// depends on the data (\p Done): \p Parent may stop early.
  bool lowerExitGuard(const clang::IfStmt *If, Loop &Parent, bool &Done);
  /// Refuses an early exit from a loop the IR holds in parts.
  bool exitFromWholeLoops(const clang::IfStmt *If, bool IsReturn);
  /// Refuses what an early exit records (`last = i;`) where the nest
  /// could see it: a computed value, or a local the nest also names.
  bool recordsUnseen(const clang::IfStmt *If);
  /// A constant or a plain local (no load, no work).
  bool isPlainValue(const clang::Expr *V) const;

  // --- Data (LowerData.cpp) ---
  bool visitData(const clang::Expr *E, Stmt &St);
  /// `a && b`, `a || b` on data: a data-dependent choice of running b.
  bool countShortCircuit(const clang::BinaryOperator *BO, Stmt &St);
  /// A condition of data: its truth test counts where it is a float.
  bool visitCondition(const clang::Expr *Cond, Stmt &St);
  void countTruthTest(const clang::Expr *Cond, Stmt &St);
  bool visitAccess(const clang::Expr *E, Stmt &St, bool Read, bool Write);
  /// \p V by value: its subscripts are moved into the pending access.
  bool recordAccess(View V, const clang::Expr *E, Stmt &St, bool Read,
                    bool Write);
  // --- Point gathers (LowerPointGathers.cpp) ---
  /// Notes an integer local the nest loads from memory (`int ix =
  /// targets[b*T + t];`), which may pick one element of a row.
  void noteGatherLocal(const clang::VarDecl *VD, const clang::Expr *Init);
  /// Whether \p IdxE, the subscript that completes the element of \p V,
  /// adds such a local to an index, picking one element of each row
  /// (docs/design.md, "Point gathers"); if so, the access is recorded with
  /// it.
  /// Returns the subscript's part that is no gather (0 for `p[ix]`, n*C
  /// for `p[n*C + ix]`), with which the row starts.
  std::optional<IndexPoly> pointGather(const View &V, const clang::Expr *IdxE);
  /// \p E as a local noteGatherLocal kept, read in the body it is
  /// declared in; null otherwise.
  const clang::VarDecl *gatherLocal(const clang::Expr *E) const;
  /// Whether \p IdxE, a subscript of scalars the nest does not follow (a
  /// label passed in, a value loaded before), completes an element of the
  /// scratch array of \p V (docs/design.md, "Point gathers"): it moves no
  /// bytes, so the element is not needed. Returns 0, the element the
  /// access is recorded at.
  std::optional<IndexPoly> scratchGather(const View &V, const clang::Expr *IdxE);
  // --- Row gathers (LowerRowGathers.cpp) ---
  /// Whether \p Off, an offset into \p V that reads memory, is a row picked
  /// by a gather local (`ix*C`, `C*ix`, `ix*C + i`); if so, \p V records
  /// the gather and the affine rest is returned (0 for `ix*C`). Sets \p Why
  /// when the offset has a gather local but cannot be taken.
  std::optional<IndexPoly> rowGather(View &V, const clang::Expr *Off,
                                     std::string &Why);
  /// A gather local (noteGatherLocal) read anywhere in the body of the loop
  /// that declares it, with that loop; null otherwise.
  std::pair<const clang::VarDecl *, const LoopRange *>
  rowGatherLocal(const clang::Expr *E) const;
  std::optional<View> viewOf(const clang::Expr *E, std::string &Why);
  /// `p + off`, `p - off`: the view of p moved by the index off.
  std::optional<View> pointerSumView(const clang::BinaryOperator *BO,
                                     std::string &Why);
  /// The Object binding of the struct \p Arg names, for a parameter or
  /// local of type \p T (LowerLoops.cpp).
  std::optional<Binding> objectBinding(const clang::Expr *Arg, clang::QualType T,
                                       std::string &Why);
  std::optional<View> viewOfDecl(const clang::VarDecl *VD, std::string &Why);
  /// Binds pointer \p VD to \p V (a Binding::Pointer).
  void bindPointer(const clang::VarDecl *VD, const View &V);
  /// The ObjectNames of struct pointers declared in the nest or its helpers
  /// (`State *s = &m->state;`): their fields are spelled through the path.
  std::vector<std::string> LocalObjects;
  /// Another base of field \p D than \p Name where one of the two is
  /// reached through LocalObjects: the two spellings may be one array.
  std::string localObjectAlias(const clang::ValueDecl *D, const std::string &Name) const;
  /// A pointer field in \p S that a function of the nest assigns.
  const clang::MemberExpr *assignedPointerField(const clang::Stmt *S);
  // --- Pointers set again before the nest (LowerReassignedPointers.cpp) ---
  /// The view of local pointer \p VD at the nest, from its last setting
  /// in a block around it (bound once found); nullopt with \p Why where
  /// that setting is not certain, or with an empty Why where the pointer
  /// is never assigned (steps and initializers are others' to follow).
  std::optional<View> reassignedPointerView(const clang::VarDecl *VD, std::string &Why);
  /// \p VD is only read and assigned whole, and its value at the nest is
  /// not certain: reassignedPointerView's reason is the one to give.
  bool onlyAssigned(const clang::VarDecl *VD);
  std::optional<View> lastSettingView(const clang::VarDecl *VD, std::string &Why,
                                      bool &OnlyAssigned);
  bool endsBefore(const clang::Stmt *A, const clang::Stmt *B) const;
  bool runsBetween(const clang::Stmt *S, const clang::Stmt *From);
  struct ReassignedInfo {
    std::optional<View> V;
    std::string Why;
    bool OnlyAssigned = false;
  };
  llvm::DenseMap<const clang::VarDecl *, ReassignedInfo> Reassigned;
  /// \p VD, a pointer local of the inlined helper being lowered, is only
  /// set by statements of the helper's body itself.
  bool calleeRebound(const clang::VarDecl *VD) const;
  /// `p = E;` of such a pointer: bound to E's view from here on.
  std::optional<bool> lowerCalleeReassignment(const clang::Stmt *S);
  // --- Pointer fields assigned in the function (LowerFieldPointers.cpp) ---
  /// The view a pointer field holds where the nest's function assigns it
  /// once, before the nest; nullopt with an empty \p Why where the function
  /// does not assign it, or (\p OwnArray set) only ever assigns it a fresh
  /// allocation before the nest: then it is its own array.
  std::optional<View> assignedFieldView(const clang::MemberExpr *ME,
                                        std::string &Why, bool &OwnArray);
  std::string readBeforeAssigned(llvm::ArrayRef<const clang::Stmt *> Sites,
                                 const clang::MemberExpr *Use);
  std::optional<std::string>
  freshAllocationsProblem(llvm::ArrayRef<const clang::Stmt *> Sites,
                          const std::string &Field);
  std::string fieldAssignmentProblem(const clang::BinaryOperator *Assign,
                                     const clang::MemberExpr *Use);
  std::string escapeBetween(const clang::Stmt *From,
                            const clang::MemberExpr *Use);
  /// Why the non-pointer field of \p ME, which a function of the nest
  /// modifies, may not keep one value while the nest runs (a modification
  /// inside or after the nest, in a loop holding it, one that may make its
  /// arrays others of the nest, a call that may change it between the last
  /// modification and the nest or in or around the nest); empty where it
  /// keeps one.
  std::string fixedFieldProblem(const clang::MemberExpr *ME);
  /// Why modification \p Site of a struct, array or number field may make
  /// the arrays it holds other arrays of the nest; empty where it cannot.
  std::string fixedSiteProblem(const clang::Stmt *Site,
                               const clang::FieldDecl *F);
  /// Why the call \p CE that sets field \p F (its argument \p Own, if
  /// any) may point the field's pointers at an array the caller has;
  /// empty where it cannot.
  std::string callHandsArray(const clang::CallExpr *CE, const clang::Expr *Own,
                             const clang::FieldDecl *F);
  /// Why statement \p S (not its children) may change the struct holding
  /// \p Use's field: a call receiving it, any call where it is global.
  std::string escapeAt(const clang::Stmt *S, const clang::MemberExpr *Use);
  // --- memset, memcpy, std::fill, std::copy (LowerMemCalls.cpp) ---
  /// A call that sets or copies a run of elements, lowered as the loop it
  /// is; nullopt where \p CE is no such call.
  std::optional<bool> lowerMemCall(const clang::CallExpr *CE, Loop &Parent);
  std::optional<IndexPoly> elementCount(const clang::Expr *Bytes,
                                        int64_t ElemBytes, std::string &Why);
  std::optional<unsigned> baseOf(const clang::ValueDecl *D,
                                 const std::string &Name,
                                 clang::QualType DeclType,
                                 clang::SourceLocation Loc, bool Scratch,
                                 std::string &Why);
  bool countBinary(const clang::BinaryOperator *BO, Stmt &St);
  bool countCall(const clang::CallExpr *CE, Stmt &St);
  void countOp(clang::QualType T, Stmt &St, clang::BinaryOperatorKind Op);
  bool isFoldable(const clang::Expr *E) const;
  bool visitConditional(const clang::ConditionalOperator *CO, Stmt &St);
  bool assignTarget(const clang::Expr *L, Stmt &St, bool Compound);
  bool isElementRef(const clang::Expr *E) const;

  //===--------------------------------------------------------------------===//
  // State.
  //===--------------------------------------------------------------------===//

  clang::ASTContext &Ctx;
  clang::SourceManager &SM;
  const clang::FunctionDecl *FD;
  const CallSiteCollector &Calls;
  const FrontendOptions &Opts;
  CaseAssignment Case;
  std::vector<std::pair<std::string, std::string>> Unassigned;
  std::vector<TargetChoice> UnassignedTargets;
  /// Texts of the conditions this build took a value for, for the label.
  std::vector<std::pair<std::string, bool>> CaseUsed;
  mutable std::set<std::string> MatchedKeys;

  std::string Reason;
  RejectKind ReasonKind = RejectKind::UnsupportedStatement;
  clang::SourceLocation ReasonLoc;
  roofline::SizeMap Pinned; ///< the nest's `// roofline:` annotation
  std::string AnnotationProblem;
  const clang::Stmt *Nest = nullptr;

  std::vector<FunctionFrame> Frames; ///< innermost (current) last
  /// Enclosing loops: declaration -> IR name.
  std::vector<std::pair<const clang::VarDecl *, std::string>> IVs;
  std::vector<const clang::VarDecl *> IVDecls; ///< for ValueLowering
  std::deque<LoopRange> Ranges;
  LoopRange *Innermost = nullptr;
  /// A loop being lowered: its IR, its range for the proofs, and where in
  /// its body lowering is (a guard may only move to a loop whose body is
  /// nothing but the path to it).
  struct LoopFrame {
    Loop *L = nullptr;
    LoopRange *R = nullptr;
    const clang::Stmt *Body = nullptr;
    const clang::Stmt *Child = nullptr;
    const clang::ForStmt *For = nullptr; ///< the source loop, if a for
    bool Regrouped = false;              ///< over loops of its own
    std::optional<bool> Split;           ///< the part of a split range
    bool SplitTaken = false;
    /// The condition of the choice that took the split, and the part
    /// taken (0: where it holds): a second choice on the same condition
    /// (llm.c's residual and dresidual on `l == 0`) takes the same part.
    const clang::Expr *ChoiceCond = nullptr;
    int ChoicePick = 0;
    const clang::VarDecl *IVDecl = nullptr; ///< null for loops over groups
    /// Split by a condition in an index or bound: the loop as it was
    /// before, and the part this pass runs.
    std::optional<Loop> SplitHeader;
    std::vector<Constraint> SplitPart;
  };
  std::vector<LoopFrame> LoopStack;
  /// Pointer parameters of inlined callees that a call passed as null.
  llvm::DenseSet<const clang::VarDecl *> NullPointers;
  /// Inside a data-dependent branch: accesses are conditional.
  unsigned ArmDepth = 0;
  /// While an assignment's target is lowered: its element, noted as
  /// touched only once the value is read (`A[i] = c ? A[i] : 0`).
  std::vector<std::pair<unsigned, std::vector<IndexPoly>>> *DeferredTouches =
      nullptr;
  /// The loop the statement being lowered is in: where a helper called in
  /// its expression runs its loops (canHoistCall).
  Loop *StmtParent = nullptr;
  /// The arrays of the helpers hoisted out of the statement being lowered.
  HoistedArrays *Hoisted = nullptr;
  /// lowerBody met an if/else that splits the loop being lowered.
  bool SplitRequested = false;
  /// A condition in an index or bound asks this (enclosing) loop to be
  /// split in two: its parts in loop order, and the reason lowering failed
  /// with until it is (lowerForSplit clears it).
  const clang::ForStmt *SplitFor = nullptr;
  std::vector<Constraint> SplitForParts[2];
  std::string SplitForWhy;
  const clang::Stmt *SplitForAt = nullptr;
  /// Set while lowerForSplit lowers one part of SplitFor's split.
  const clang::ForStmt *ApplyFor = nullptr;
  const std::vector<Constraint> *ApplyPart = nullptr;
  const clang::Stmt *ApplyAt = nullptr;
  /// A condition must raise the start of this strided loop: it is lowered
  /// again over a unit-step variable (LowerRegroup.cpp).
  const clang::ForStmt *NormalizeFor = nullptr;
  std::vector<Touched> TouchedStack;
  unsigned InlineDepth = 0;
  /// The nest's function returned (this case): nothing after it runs.
  bool Returned = false;
  unsigned GuardLoops = 0; ///< guard loops made so far, for their names
  bool InBound = false;
  bool Extended = false; ///< uses a form ValueLowering cannot emit
  std::string ExtendedWhy;
  void noteExtended(clang::SourceLocation L, const std::string &Why);

  std::map<std::string, Param> Params;
  std::set<std::string> ParamSet;
  std::vector<SizeRelation> Relations;
  std::vector<SizeSum> Sums;
  std::vector<std::string> Notes;
  /// Adds \p Note unless the nest has it already (a statement lowered
  /// twice, a helper inlined at two calls).
  void addNote(std::string Note);
  std::vector<ArrayBase> Bases;
  std::map<std::string, unsigned> BaseIndex;
  std::vector<PendingAccess> Pending;
  /// Each base's dimensions once its accesses are settled.
  std::vector<std::vector<std::optional<AffineExpr>>> ArrayExtents;
  llvm::DenseMap<const clang::VarDecl *, Binding> Bindings;
  llvm::DenseMap<const clang::VarDecl *, std::optional<IndexPoly>> LocalCache;
  /// While a clamp's condition is keyed (LowerClampedLocals.cpp): the
  /// clamped local spelled as its value before the if, so that the case
  /// does not read as a condition on the value after it.
  llvm::DenseMap<const clang::VarDecl *, std::string> SpelledAs;
  std::vector<AffineExpr> Dividends;
  std::vector<SizeCondition> Conditions;
  roofline::ValueLowering Values;
  /// Counters met (LowerCounters.cpp), and why a use of one was refused.
  llvm::DenseMap<const clang::VarDecl *, CounterInfo> Counters;
  llvm::DenseMap<const clang::VarDecl *, std::string> CounterRefusals;
  /// Pointers declared in the nest and advanced there: the view each
  /// points at where its declaration last ran.
  llvm::DenseMap<const clang::VarDecl *, View> InNestPointers;
  /// Integers declared in the nest and advanced there: the start each has
  /// where its declaration last ran, or why it has none.
  struct InNestStart {
    std::optional<IndexPoly> Start;
    std::string Why;
  };
  llvm::DenseMap<const clang::VarDecl *, InNestStart> InNestCounters;
  /// Integers declared in the nest from values that read no memory but are
  /// no index (they depend on a variable the tool cannot follow): free like
  /// index arithmetic (docs/design.md, counting rules); a use as an index is
  /// refused with Why.
  struct OpaqueInt {
    std::string Why;
    bool MentionsLoops = false;
  };
  llvm::DenseMap<const clang::VarDecl *, OpaqueInt> OpaqueInts;
  /// Integer locals loaded from memory, by the loop whose body declares
  /// them (noteGatherLocal); a point gather reads them in that body only.
  llvm::DenseMap<const clang::VarDecl *, const LoopRange *> GatherLocals;
  /// While visitAccess resolves an element: a point gather may complete it
  /// (nowhere else: a gathered row or a pointer to the element is refused).
  bool AllowPointGather = false;
  std::string PendingGather; ///< the gather index of the access resolved
  /// OpaqueInts that hold a condition on loop variables (LowerGuardLocals.cpp).
  llvm::DenseMap<const clang::VarDecl *, GuardLocal> GuardLocals;
  std::shared_ptr<clang::ParentMap> Parents; ///< of the nest's function
  /// Pointer fields being resolved (a field assigned from itself).
  llvm::DenseSet<const clang::FieldDecl *> FieldsInProgress;
  /// Pointer variables declared outside the nest that lowerBodyAssignment
  /// binds where they are assigned, like declarations.
  llvm::DenseSet<const clang::VarDecl *> BodyAssigned;
  /// A window local of the nest (an integer set to a min or max, `int hend
  /// = std::min(hstart + k, H);`, or set again so, `hstart = max(hstart,
  /// 0);`): what it was set to last, and the bindings at that point, so a
  /// loop bound naming it later reads the values it read there.
  struct WindowValue;
  using WindowMap =
      llvm::DenseMap<const clang::Decl *, std::shared_ptr<const WindowValue>>;
  struct WindowValue {
    const clang::Expr *Value = nullptr;
    llvm::DenseMap<const clang::VarDecl *, Binding> Bindings;
    WindowMap Windows; ///< the window locals of that point
  };
  WindowMap WindowLocals;
  /// Whether \p E is a min or max (a call or minMaxChoice) reading no data.
  bool isWindowValue(const clang::Expr *E);
  /// \p VD holds \p Value from here on, read with the current bindings.
  void setWindowLocal(const clang::VarDecl *VD, const clang::Expr *Value);
  /// \p E as a window local; null where it is none.
  const WindowValue *windowValueOf(const clang::Expr *E) const;
  /// Integer locals isSequentialIndex accepted, bound anew where assigned.
  llvm::DenseSet<const clang::VarDecl *> SequentialIndices;
  /// Pointer fields lowerBodyAssignment bound, by fieldKey.
  std::map<std::pair<const void *, std::string>, View> FieldBindings;
  /// Sizes a guard on a loop variable times a size was counted at.
  std::map<std::string, int64_t> PinnedSizes;
};

} // namespace frontend
} // namespace roofline

#endif // ROOFLINE_LIB_FRONTEND_NESTBUILDER_H
