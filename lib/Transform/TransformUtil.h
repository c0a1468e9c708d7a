//===- TransformUtil.h - IR walking and rewriting helpers (private) -------===//

#ifndef ROOFLINE_LIB_TRANSFORM_TRANSFORMUTIL_H
#define ROOFLINE_LIB_TRANSFORM_TRANSFORMUTIL_H

#include "roofline/IR/LoopNest.h"

#include "llvm/Support/Error.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace roofline {

template <typename Fn> void forEachStmtIn(const Node &N, Fn &&F) {
  if (!N.isLoop()) {
    F(N.S);
    return;
  }
  for (const Node &C : N.loop().Body)
    forEachStmtIn(C, F);
}

template <typename Fn> void forEachStmtInMutable(Node &N, Fn &&F) {
  if (!N.isLoop()) {
    F(N.S);
    return;
  }
  for (Node &C : N.loop().Body)
    forEachStmtInMutable(C, F);
}

template <typename Fn> void forEachLoopIn(Loop &L, Fn &&F) {
  F(L);
  for (Node &C : L.Body)
    if (C.isLoop())
      forEachLoopIn(C.loop(), F);
}

template <typename Fn> void forEachLoopIn(const Loop &L, Fn &&F) {
  F(L);
  for (const Node &C : L.Body)
    if (C.isLoop())
      forEachLoopIn(C.loop(), F);
}

inline llvm::Error transformError(const llvm::Twine &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Msg);
}

/// Every IV name used in \p N.
std::set<std::string> loopNames(const LoopNest &N);
/// \p Base + "_1", "_2", ...: the first not in \p Used (which it joins).
std::string freshName(std::set<std::string> &Used, const std::string &Base);

/// Replaces IV \p From by \p To in every bound, subscript and value under
/// \p L, and in L's own header when it is the loop of \p From.
void renameIV(Loop &L, const std::string &From, const std::string &To);
/// Substitutes \p E for \p Name in a bound (nullopt on overflow).
std::optional<Bound> substituteBound(const Bound &B, const std::string &Name,
                                     const AffineExpr &E);

/// Finds the loop with IV \p IV under \p Root (pre-order), with the chain
/// of loops from the root to it (inclusive) in \p Path.
Loop *findLoop(Loop &Root, const std::string &IV,
               std::vector<Loop *> *Path = nullptr);

/// Drops the arrays no statement of \p N accesses.
void pruneArrays(LoopNest &N);

/// Removes access \p I from \p S, renumbering the value's references.
void eraseAccess(Stmt &S, unsigned I);

/// A statement with the loops around it (outermost first), the loop whose
/// body holds it and its position there.
struct StmtSite {
  const Stmt *S;
  std::vector<const Loop *> Loops;
  const Loop *Parent;
  size_t Index; ///< position in Parent's body
};
/// Every statement under \p Root, in program order.
std::vector<StmtSite> stmtSites(const Loop &Root);

/// The update of a contraction or convolution: the one statement
/// `Out[..] += L[..] * R[..]` of \p N, over three distinct arrays.
struct MacUpdate {
  /// \p N's statements (stmtSites); Site points into them, so a MacUpdate
  /// is moved, never copied.
  std::vector<StmtSite> All;
  const StmtSite *Site;
  const Access *Out, *L, *R;
};
/// The error says why \p N has no such update.
llvm::Expected<MacUpdate> findMacUpdate(const LoopNest &N);

/// Trip count and first value of each of \p Loops by IV; they must be
/// unit-step, affine and rectangular (no bound uses another of them).
llvm::Error rectangularExtents(const std::vector<const Loop *> &Loops,
                               std::map<std::string, AffineExpr> &Extent,
                               std::map<std::string, AffineExpr> &First);

/// The zero literal (possibly cast): `Out = 0`.
bool isZeroValue(const ValueExpr &E);

} // namespace roofline

#endif // ROOFLINE_LIB_TRANSFORM_TRANSFORMUTIL_H
