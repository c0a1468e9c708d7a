//===- CacheSim.h - The cache model over a function's nests ----*- C++ -*-===//
//
// Private to lib/Analysis: the function-level part of the cache model
// (docs/cache-model.md, "Across nests"). The nests of a function run in
// program order through one set of caches. Each nest is cut into phases
// (PhaseModel.h): subtrees without sibling loops, whose own reuse the layer
// conditions give; the loops above them (a time loop around sibling
// sweeps, an outer loop around two inner loops) are stepped through here.
// What the caches hold is tracked as an LRU stack over cells of the arrays
// (a grid of blocks per array): every step of a phase touches the cells
// its boxes cover and moves them to the top. A phase's first touch of a
// cell hits in a level while the bytes touched since the cell's last use
// (the LRU stack distance, over cells) fit in that level, so data left by
// an earlier nest or an earlier sibling is reused in part when it partly
// survives. Long sequencing loops are sampled: a few iterations simulated
// after a bulk step standing for the ones skipped.
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_LIB_ANALYSIS_CACHESIM_H
#define ROOFLINE_LIB_ANALYSIS_CACHESIM_H

#include "roofline/Analysis/CacheModel.h"

#include <map>

#include <vector>

namespace roofline {
namespace detail {

struct CacheLayout;

/// Runs the model over \p Nests (one function, program order) and fills
/// each nest's levels, carried-in bytes and reuse descriptions; accesses
/// must already be described (Out[i].Accesses, numbered as \p Ids[i]).
/// \p Layout is layoutArrays over \p Nests at their sizes.
void simulateFunction(
    llvm::ArrayRef<FunctionNest> Nests, const CacheLayout &Layout,
    const CacheConfig &Cfg, CacheState State, std::vector<CacheAnalysis> &Out,
    const std::vector<std::map<const Access *, unsigned>> &Ids);

} // namespace detail
} // namespace roofline

#endif // ROOFLINE_LIB_ANALYSIS_CACHESIM_H
