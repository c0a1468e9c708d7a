//===- PhaseModel.h - Layer conditions over one loop subtree ---*- C++ -*-===//
//
// Private to lib/Analysis: the cache model of a *phase*, a loop subtree with
// no two sibling loops (docs/cache-model.md, "From the innermost loop out"),
// started from empty caches. References to one array with the same
// subscript coefficients form a group whose footprint over a set of loops
// is a box; walking the loops from the innermost out, the reuse a loop
// carries survives in a level for the share of its lines whose sets do not
// receive more lines than the level has ways during one iteration
// (CacheGeometry.h: SetOccupancy). Loops whose iteration count another
// loop's bounds depend on (triangles) are evaluated at sample values of
// their variable, so a layer condition that holds for part of the loop
// holds for that part only.
//
// Loops outside the phase (the function-level simulation's sequencing
// loops, CacheSim.h) have values in the environment: bounds use them, and
// subscripts keep them as coefficients, so a phase's result holds for every
// value of a variable its bounds do not use (the simulation reuses it).
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_LIB_ANALYSIS_PHASEMODEL_H
#define ROOFLINE_LIB_ANALYSIS_PHASEMODEL_H

#include "CacheGeometry.h"

#include "roofline/Analysis/CacheModel.h"
#include "roofline/IR/Polynomial.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace roofline {
namespace detail {

/// Values of loop variables (and sizes) by name.
using IVValues = std::map<std::string, int64_t>;

/// A subscript's coefficient of each loop variable: one or two entries,
/// copied with every group and step, so a small sorted vector, not a map.
using LoopCoefs = AffineTerms;

/// One dimension in the sizes: Lo..Hi as affine expressions in the sizes.
struct SymDim {
  std::optional<AffineExpr> Lo, Hi;
};

/// References to one array with the same subscript coefficients.
struct Group {
  std::string Array;
  /// Per dimension: coefficient of each loop variable not swept yet.
  std::vector<LoopCoefs> Coef;
  Box B;
  std::vector<SymDim> Sym;
  bool Exact = true;
  /// Share of the box's lines the loops actually touch (a triangle's box
  /// is its hull).
  double Density = 1;
  /// Per level, when every iteration of the loop just swept touches the
  /// box again (it did not move there): the share kept over one of those
  /// iterations. Its lines were last used at the end of the loop, so reuse
  /// by the next iteration of the loop outside is that close.
  std::vector<double> Throughout;
  std::vector<double> Misses; ///< per cache level, one execution
  bool Read = false, Write = false;
  std::vector<unsigned> Members; ///< access ids
};

/// Where the model places each array (one layout per function).
struct CacheLayout {
  std::map<std::string, ArrayGeom> Geoms;
  /// Why numbers cannot be given (an extent without a value), or "".
  std::string WhyNot;
};

/// The arrays of \p Nests laid out one after another in order of first
/// appearance, each starting on a 4 KiB page; sizes from the extents at
/// \p Sizes (per nest; an unknown first extent from the subscripts' range).
CacheLayout layoutArrays(const std::vector<const LoopNest *> &Nests,
                         const std::vector<IVValues> &Sizes);

/// What a phase touches in one step of its outermost loop: a box relative
/// to the loops outside the phase (Coef: their variables' coefficients per
/// dimension), placed by their values when simulated.
struct PhaseTouch {
  std::string Array;
  Box B;
  std::vector<LoopCoefs> Coef;
  double Density = 1;
  unsigned Group = 0; ///< the same group in every step
  bool Write = false;
};

/// Lines a group fetches per level over one execution of the phase.
struct GroupMisses {
  std::string Array;
  bool Read = false, Write = false;
  std::vector<double> Lines;
};

struct PhaseResult {
  std::vector<GroupMisses> Groups;
  /// The steps of the outermost loop in order, each what it touches.
  std::vector<std::vector<PhaseTouch>> Steps;
  bool Numeric = true;
  std::string WhyNot;
};

class PhaseModel {
public:
  /// \p Describe, when given, receives the reuse each loop carries (once per
  /// access: the first evaluation of each phase). \p Ids numbers the
  /// accesses of \p N as Describe does.
  PhaseModel(const LoopNest &N, const CacheConfig &Cfg,
             const CacheLayout &Layout, const IVValues &Sizes,
             std::vector<AccessCacheInfo> *Describe,
             const std::map<const Access *, unsigned> *Ids);

  /// Where the next runs describe the reuse (null: they do not). A run's
  /// result does not depend on it: the simulation's own run of a phase
  /// describes it too where the inputs are the describing run's.
  void setDescribe(std::vector<AccessCacheInfo> *D) { Describe = D; }
  /// The phase rooted at \p P, inside the loops \p Outer (outermost first)
  /// whose variables have the values \p Env.
  PhaseResult run(const Loop &P, const std::vector<const Loop *> &Outer,
                  const IVValues &Env, unsigned MaxSteps);
  /// A statement of a sequencing loop's body, as a phase of one step.
  PhaseResult runStmt(const Stmt &S, const std::vector<const Loop *> &Outer,
                      const IVValues &Env);
  /// The groups one iteration of \p L touches (relative to L's variable and
  /// the loops outside, whose values are in \p Env): the footprint a range of
  /// L's iterations sweeps, for the simulation's bulk steps.
  std::vector<Group> bodyGroups(const Loop &L,
                                const std::vector<const Loop *> &Outer,
                                const IVValues &Env);
  /// A box with every coefficient's variable at its value in \p Env
  /// (absent ones at 0).
  /// With \p AtIV, its variable is at its value instead of \p Env's.
  static Box placed(const Box &B, const std::vector<LoopCoefs> &Coef,
                    const IVValues &Env,
                    const std::pair<const std::string *, int64_t> &AtIV = {
                        nullptr, 0});
  Box placed(const Group &G, const IVValues &Env) const {
    return placed(G.B, G.Coef, Env);
  }
  /// \p G's box swept over values First..Last of \p IV, placed by \p Env.
  Box swept(const Group &G, const std::string &IV, int64_t First,
            int64_t Last, int64_t Step, const IVValues &Env) const;

  /// Whether a loop of \p L's subtree has bounds that use \p L's variable.
  bool dependent(const Loop &L) const;
  /// Evaluates \p B with \p Env and the sizes (floor of divisions); nullopt
  /// when a name has no value.
  std::optional<int64_t> evalBound(const Bound &B, const IVValues &Env) const;
  const CacheConfig &config() const { return Cfg; }
  const ArrayGeom &geom(const std::string &A) const;

private:
  struct Ctx;
  const LoopNest &N;
  const CacheConfig &Cfg;
  const CacheLayout &Layout;
  IVValues Sizes;
  std::vector<AccessCacheInfo> *Describe;
  const std::map<const Access *, unsigned> *Ids;
  std::map<const Loop *, bool> DependentMemo;
  bool Numeric = true;
  std::string WhyNot;

  size_t levels() const { return Cfg.Levels.size(); }
  unsigned innerLine() const {
    return Cfg.Levels.empty() ? 64 : Cfg.Levels.front().LineBytes;
  }
  /// A run's start (run, runStmt): the layout's verdict, and a context
  /// with \p Outer's variables held at \p Env.
  Ctx startRun(const std::vector<const Loop *> &Outer, const IVValues &Env);
  /// Whether the keep shares and misses are still wanted in \p C's run.
  bool numbersWanted(const Ctx &C) const;
  std::vector<Group> visitStmt(const Stmt &S, Ctx &C);
  std::vector<Group> visitBody(const Loop &L, Ctx &C);
  std::vector<Group> visitLoop(const Loop &L, Ctx &C,
                               std::vector<std::vector<PhaseTouch>> *Steps,
                               unsigned MaxSteps);
  // visitLoop's steps (PhaseModel.cpp, "One loop swept").
  struct Sweep;
  bool sweepBounds(const Loop &L, const Ctx &C, Sweep &W);
  void visitStrata(const Loop &L, Ctx &C, Sweep &W);
  void keepAcrossIterations(const Loop &L, Ctx &C, Sweep &W);
  void recordSteps(const Loop &L, Sweep &W,
                   std::vector<std::vector<PhaseTouch>> &Steps,
                   unsigned MaxSteps) const;
  std::optional<Group> sweepGroup(const Loop &L, const Ctx &C, Sweep &W,
                                  const Group &Key);
  bool sweepMisses(const Loop &L, const Ctx &C, Sweep &W, const Group &Key,
                   const Group &Ref, bool Reuse, Group &Up,
                   double &FreshInner);
  void describeReuse(const Loop &L, Sweep &W, const Group &Key,
                     ReuseKind Kind, double Delta, const Group &Up);
  std::vector<std::vector<double>> keptShares(const std::vector<Group> &Iter,
                                              const Loop &L, Ctx &C,
                                              const std::vector<int64_t> &At);
  std::optional<Polynomial> symBytes(const Group &G) const;
  bool absolute(const Group &G, const std::string &Except = "") const;
  PhaseResult collect(const std::vector<Group> &Top,
                      std::vector<std::vector<PhaseTouch>> Steps);
};

} // namespace detail
} // namespace roofline

#endif // ROOFLINE_LIB_ANALYSIS_PHASEMODEL_H
