//===- Dependence.h - Data dependences and transform legality -------------===//
//
// Distance and direction vectors between the accesses of a nest that touch
// the same array (one of them a write), and the legality of the transforms
// the advice names: interchange (a permutation of the loop band), tiling
// (a fully permutable band) and fusion of two adjacent nests.
//
// Method: per pair of accesses and per subscript, the equation
// f(source iteration) = g(sink iteration) is tested for each direction
// vector (refined loop by loop, pruned when infeasible) with the GCD test
// and Banerjee's bounds over the loop ranges. Where both subscripts have the
// same coefficients (a uniform dependence) the distances are solved exactly.
// Anything else is conservative: a subscript that is not affine, or a size
// without a value that does not cancel, constrains nothing, and a statement
// that updates a scalar carries it across every loop around it, except the
// loops enclosing the scalar's declaration when the IR has the statement's
// value (Value.h); without it, any statement writing no array is assumed to
// update such a scalar. Distinct arrays are
// assumed not to alias (docs/design.md).
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_ANALYSIS_DEPENDENCE_H
#define ROOFLINE_ANALYSIS_DEPENDENCE_H

#include "roofline/Analysis/Counts.h"
#include "roofline/IR/LoopNest.h"

#include <optional>
#include <string>
#include <vector>

namespace roofline {

/// Kinds of a dependence, as bits: one pair of accesses can be several
/// (a read-modify-write `C[i][j] += ...` is flow, anti and output).
enum DependenceKind : unsigned { DepFlow = 1, DepAnti = 2, DepOutput = 4 };

/// One dependence from a source access to a sink access that runs later.
struct Dependence {
  std::string Array;     ///< "" for a scalar dependence
  std::string Scalar;    ///< the scalar's name, when the IR gives it
  const Stmt *Source = nullptr, *Sink = nullptr;
  const Access *SourceAccess = nullptr, *SinkAccess = nullptr; ///< null: scalar
  unsigned Kinds = 0;    ///< DependenceKind bits
  /// Loops enclosing both statements, outermost first (for two nests being
  /// fused: the loops of the first nest that the second's are fused into).
  std::vector<const Loop *> Loops;
  /// Every feasible direction vector, one character per loop: '<' (the sink
  /// runs in a later iteration), '=' or '>'. Each is lexicographically
  /// positive, or all '=' (loop-independent: the source comes first).
  std::vector<std::string> Vectors;
  /// Per loop, the exact distance (sink iteration - source iteration) where
  /// the dependence is uniform; nullopt where the distance is not fixed.
  std::vector<std::optional<int64_t>> Distance;
  /// True when the distances were solved exactly (a uniform dependence).
  bool Uniform = false;

  /// "(<, >)": per loop the union of the vectors' directions ('*' for any,
  /// "<=" for two of them).
  std::string directions() const;
  /// "(1, -1)" ('*' where not fixed), empty unless Uniform.
  std::string distanceStr() const;
  /// "flow dependence on 'A' from 'A[j][i]' to 'A[j + 1][i - 1]', direction
  /// (<, >), distance (1, -1)".
  std::string str() const;
  bool isLoopIndependent() const;
};

struct DependenceGraph {
  std::vector<Dependence> Deps;
  /// What the result assumes (scalars, subscripts it could not use).
  std::vector<std::string> Notes;
};

/// Every dependence among the statements of \p N. Sizes take their values
/// from \p N, overridden by \p Overrides; a size without one stays unbounded.
DependenceGraph computeDependences(const LoopNest &N,
                                   const ParamValues &Overrides = {});

/// How many loops enclose the declaration of the scalar \p S updates (the
/// scalar is private to their iterations; loops outside it cannot move in
/// without expanding it into an array); 0 when it is declared outside the
/// nest or the IR does not name it.
unsigned scalarScopeDepth(const LoopNest &N, const Stmt &S);

/// A legality answer with its reason: for an illegal transform, the
/// dependence it would reverse; for a legal one, what was checked.
struct Legality {
  bool Legal = false;
  std::string Reason;
};

/// The loops a permutation may reorder: from the root down while a loop's
/// body holds exactly one loop. Statements beside that loop (an
/// initialization `C[i][j] = 0` before the k loop) are distributed out of
/// the band by the transform, and the legality check includes that.
std::vector<const Loop *> permutableBand(const LoopNest &N);

/// Whether running the band of \p N in the loop order \p Order (IV names,
/// outermost first, a permutation of the band's IVs) keeps every dependence.
Legality isInterchangeLegal(const LoopNest &N,
                            const std::vector<std::string> &Order,
                            const ParamValues &Overrides = {});

/// Whether the whole band can be tiled: it is fully permutable (no
/// dependence has a '>' on a band loop) and the statements beside it can be
/// distributed out.
Legality isTilingLegal(const LoopNest &N, const ParamValues &Overrides = {});

/// How many loop levels of \p Second can be fused into \p First: the roots
/// must have the same bounds and step (IVs renamed), and each deeper level
/// must be the only thing in both parents' bodies. 0 when the roots differ.
unsigned fusableDepth(const LoopNest &First, const LoopNest &Second);

/// Whether fusing \p Second (which runs right after \p First) into \p First
/// at fusableDepth levels keeps every dependence between them: no access of
/// the second nest may depend on one the first makes in a later fused
/// iteration.
Legality isFusionLegal(const LoopNest &First, const LoopNest &Second,
                       const ParamValues &Overrides = {});

} // namespace roofline

#endif // ROOFLINE_ANALYSIS_DEPENDENCE_H
