//===- TiledModel.h - Bytes a T-tiled schedule moves ----------------------===//
//
// The `tiled(T)` traffic model (docs/design.md): every loop of the nest's band
// (permutableBand) is tiled by T, the tile loops keep the band's order, and
// the no-reuse rule is applied at tile granularity: each tile of an array a
// tile iteration touches is moved once, except a tile invariant in the
// innermost tile loop, which stays on chip across it (the C tile of a gemm
// over the k tiles). An array whose first access is a write (compulsory
// model) is not read. Seed: an N = 1024 float gemm with 32x32 tiles moves
// 2*N^3/32 floats of A and B and N^2 of C: AI = 7.88, ~T/4 = 8.
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_ANALYSIS_TILEDMODEL_H
#define ROOFLINE_ANALYSIS_TILEDMODEL_H

#include "roofline/Analysis/Counts.h"

#include <optional>
#include <string>
#include <vector>

namespace roofline {

struct TiledTraffic {
  unsigned Tile = 32;
  std::vector<std::string> Loops; ///< the band tiled, outermost first
  /// Bytes moved; full tiles are assumed, so exact when T divides every
  /// trip count and an upper bound otherwise.
  std::optional<double> Bytes;
  /// Bytes in the sizes, valid when T divides the trip counts (rectangular
  /// loops only): "N^3/4 + 4*N^2".
  std::optional<Polynomial> Formula;
  /// Tiling's legality (isTilingLegal): the numbers describe a schedule
  /// that may not be applied when false.
  bool Legal = false;
  std::string LegalityReason;
  std::string WhyNot; ///< why Bytes is missing
};

/// The tiled(T) bytes of \p N (trip counts from \p C); the formula too
/// unless \p WithFormula is off (a what-if reads only the number).
TiledTraffic tiledTraffic(const LoopNest &N, const NestCounts &C,
                          unsigned Tile, bool WithFormula = true);

} // namespace roofline

#endif // ROOFLINE_ANALYSIS_TILEDMODEL_H
