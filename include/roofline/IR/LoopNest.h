//===- LoopNest.h - The LoopNest IR ----------------------------------------===//
//
// What the Frontend produces and everything downstream consumes. A nest is a
// tree of loops whose leaves are statements; each statement lists the array
// references and arithmetic it performs once per execution. Nothing here
// refers back to Clang: source positions are plain file/line/column.
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_IR_LOOPNEST_H
#define ROOFLINE_IR_LOOPNEST_H

#include "roofline/IR/Affine.h"
#include "roofline/IR/Value.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace roofline {

struct SourceLoc {
  std::string File;
  unsigned Line = 0;
  unsigned Column = 0;
};

/// Element / arithmetic precision. Counting is per precision
/// (docs/design.md, "Counting rules").
enum class Precision { F64, F32, F16, BF16, I8, I16, I32, I64, Unknown };

const char *precisionName(Precision P);
/// Parses the names precisionName prints ("f32", "bf16", ...).
std::optional<Precision> parsePrecision(const std::string &Name);
/// Storage size of one element, in bytes.
unsigned precisionBytes(Precision P);
bool isFloating(Precision P);

/// Arithmetic one statement performs per execution, for one precision.
struct OpCounts {
  int64_t Macs = 0;   ///< multiply feeding an add (s += a*b, fma): 2 FLOPs
  int64_t Adds = 0;   ///< + and - (compound assignment counts its operator)
  int64_t Muls = 0;
  int64_t Divs = 0;
  /// Special functions by name ("exp", "sqrt", ...).
  std::map<std::string, int64_t> Calls;

  bool empty() const {
    return !Macs && !Adds && !Muls && !Divs && Calls.empty();
  }
  OpCounts &operator+=(const OpCounts &O) {
    Macs += O.Macs;
    Adds += O.Adds;
    Muls += O.Muls;
    Divs += O.Divs;
    for (const auto &[Name, N] : O.Calls)
      Calls[Name] += N;
    return *this;
  }
};

struct Array {
  std::string Name;
  Precision Elem = Precision::Unknown;
  /// Extent per dimension, outermost first; nullopt where unknown (a bare
  /// pointer's single dimension).
  std::vector<std::optional<AffineExpr>> Extents;
  /// True when the array came from a pointer that may alias another.
  bool FromPointer = false;
  /// A small array declared inside the nest (`float acc[8];`): it lives in
  /// registers or L1 for one iteration, so its elements are not memory
  /// traffic (docs/design.md, "Counting rules").
  bool Scratch = false;
  SourceLoc Loc;
};

struct Access {
  std::string ArrayName;
  /// One subscript per array dimension; nullopt for a non-affine one.
  std::vector<std::optional<AffineExpr>> Subscripts;
  bool IsRead = false;
  bool IsWrite = false;
  std::string Text; ///< as written, e.g. "B[k][j]"
  SourceLoc Loc;
  /// A point gather (docs/design.md, "Point gathers"): the scalar loaded
  /// from memory that picks the element within its row, whose subscript is
  /// then 0 (`probs_bt[ix]`: one element of each row). Empty otherwise.
  std::string GatherIndex;
  /// A row gather (docs/design.md, "Row gathers"): the variable of the loop
  /// whose body loads GatherIndex, once per iteration, to pick the row
  /// (`wte + ix*C`); the subscripts are then within that row, and the
  /// elements touched a range. Empty for a point gather and for no gather.
  std::string GatherLoop;
};

struct Stmt {
  std::vector<Access> Accesses;
  /// Floating arithmetic by precision, and integer arithmetic on data.
  std::map<Precision, OpCounts> Ops;
  int64_t IntOps = 0; ///< integer arithmetic on array data (not indexing)
  /// Arithmetic of data-dependent branches beyond their cheapest branch:
  /// each execution does Ops plus between none and all of MaybeOps
  /// (docs/design.md, "Conditions").
  std::map<Precision, OpCounts> MaybeOps;
  int64_t MaybeIntOps = 0;
  SourceLoc Loc;
  /// What the statement computes (Value.h), for code generation; a
  /// statement with a Value and no accesses or ops declares a scalar.
  std::optional<StmtValue> Value;
};

struct Node;

/// for (IV = First; IV <= Last (or >= Last when Step < 0); IV += Step)
/// The Frontend normalizes every accepted condition to an inclusive Last.
struct Loop {
  std::string IV;
  Bound First;
  Bound Last;
  int64_t Step = 1;
  std::vector<Node> Body;
  SourceLoc Loc;
  /// With its parent, one loop of the source run in groups (i = G*i_g +
  /// i_r): a reference moves every iteration of the pair unless it uses
  /// neither variable (the no-reuse count).
  bool GroupInner = false;
  /// A loop of at most one iteration that the Frontend made of an affine
  /// `if` (GuardLoop.h, docs/design.md "Guard loops"): no source loop. Set
  /// where it is made; a copy of the loop keeps it, whatever its name.
  bool IsGuard = false;
  /// A guard loop that stands for the narrowing of its parent: the whole
  /// body under a condition that is a union of ranges, or the rest of the
  /// body after `if (a && b) continue;` (LowerUnionGuards.cpp). Its runs
  /// are the parent's iterations, as a narrowed loop's would be.
  bool Narrows = false;
  /// The loop may stop after any iteration: its body ends in `if (c)
  /// break;` (or `return`, from the nest's outermost loop) on a condition
  /// that depends on the data (LowerEarlyExits.cpp). Its counts are a range,
  /// from one iteration per entry to every iteration (docs/design.md,
  /// "Early exits").
  bool ExitsEarly = false;
};

struct Node {
  enum KindTy { LoopKind, StmtKind };
  KindTy Kind = StmtKind;
  std::vector<Loop> L; ///< exactly one element when Kind == LoopKind
  Stmt S;

  static Node loop(Loop Lp) {
    Node N;
    N.Kind = LoopKind;
    N.L.push_back(std::move(Lp));
    return N;
  }
  static Node stmt(Stmt St) {
    Node N;
    N.Kind = StmtKind;
    N.S = std::move(St);
    return N;
  }
  bool isLoop() const { return Kind == LoopKind; }
  const Loop &loop() const { return L.front(); }
  Loop &loop() { return L.front(); }
};

/// Coeff * product of Factors (sizes by name; repeats allowed).
struct SizeTerm {
  int64_t Coeff = 1;
  std::vector<std::string> Factors;
  bool operator==(const SizeTerm &O) const {
    return Coeff == O.Coeff && Factors == O.Factors;
  }
};

/// A size defined by others: sum(Numerator) / sum(Denominator), rounded
/// down (C's '/' on non-negative sizes); no Denominator: a product such as
/// B*T. Formulas expand products into their factors; a quotient stays a
/// size of its own (hs = C / NH).
struct DerivedSize {
  std::vector<SizeTerm> Numerator;
  std::vector<SizeTerm> Denominator;
  bool isProduct() const { return Denominator.empty(); }
  /// "B*T", "C / NH", "(3*C) / 2".
  std::string str() const;
};

struct Param {
  std::string Name;
  std::optional<int64_t> Value;
  std::string Origin; ///< "literal", "constexpr", "macro", "template", ...
  /// How the size is computed from other sizes, when it is.
  std::optional<DerivedSize> Derived;
};

/// A condition Expr >= 0 on the sizes that the nest's IR rests on (rows of
/// a linearized array that do not overlap, a divisibility).
struct SizeCondition {
  AffineExpr Expr;
  std::string What; ///< "rows of inp do not overlap", for the notes
};

/// One outermost loop nest of a function.
struct LoopNest {
  std::string Function;
  SourceLoc Loc;
  std::vector<Param> Params;
  std::vector<Array> Arrays;
  Loop Root;
  /// Element C types, scalars, storage: what code generation needs.
  NestSemantics Sem;
  /// The loop-invariant conditions this report assumes, when the nest was
  /// split by them ("bias != NULL"); empty when it was not.
  std::string Case;
  /// Conditions on the sizes the IR rests on; checked where sizes are
  /// known, stated where they are not.
  std::vector<SizeCondition> Conditions;
  /// What the Frontend assumed or resolved, for the report's notes
  /// ("hs = C / NH", "call to softmax inlined").
  std::vector<std::string> Notes;

  const Array *findArray(const std::string &Name) const;
  const Param *findParam(const std::string &Name) const;
};

/// A nest the Frontend refused, with the reason (never a made-up count).
struct SkippedNest {
  std::string Function;
  SourceLoc Loc;
  std::string Reason;
  /// The slug of the reason's RejectKind (roofline/Frontend/RejectKinds.def):
  /// "data-dependent-index". A string because IR comes before the Frontend.
  std::string ReasonKind;
};

/// Whether some array of \p N is scratch (Array::Scratch).
bool hasScratch(const LoopNest &N);
/// The first loop of \p Root, in pre-order, that may stop early on the data
/// (Loop::ExitsEarly); null where none does.
const Loop *earlyExitLoop(const Loop &Root);
/// \p Root with every loop that may stop early run once per entry: the
/// lower end of its counts (docs/design.md, "Early exits").
Loop firstIterationsOnly(const Loop &Root);
/// \p N without its scratch arrays and their accesses: what memory sees.
LoopNest withoutScratch(const LoopNest &N);

/// Stable textual form used by --dump-ir and the lit tests.
std::string printNest(const LoopNest &N);
struct PrintOptions {
  /// Also print each statement's value ("value C[i][j] += ...") and the
  /// statements that only declare a scalar.
  bool Values = false;
};
std::string printNest(const LoopNest &N, const PrintOptions &Opts);

/// Calls \p F(Stmt, EnclosingLoops outermost-first) for every statement.
template <typename Fn> void forEachStmt(const Loop &Root, Fn F);

namespace detail {
template <typename Fn>
void walkStmts(const Loop &L, std::vector<const Loop *> &Stack, Fn &F) {
  Stack.push_back(&L);
  for (const Node &N : L.Body) {
    if (N.isLoop())
      walkStmts(N.loop(), Stack, F);
    else
      F(N.S, Stack);
  }
  Stack.pop_back();
}
} // namespace detail

template <typename Fn> void forEachStmt(const Loop &Root, Fn F) {
  std::vector<const Loop *> Stack;
  detail::walkStmts(Root, Stack, F);
}

} // namespace roofline

#endif // ROOFLINE_IR_LOOPNEST_H
