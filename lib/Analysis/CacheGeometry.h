//===- CacheGeometry.h - Array boxes in cache lines and sets ---*- C++ -*-===//
//
// Private to lib/Analysis: what the cache model (docs/cache-model.md) knows
// about where data lies. An array is row-major with its element size and
// per-dimension pitches, placed at a byte offset of an assumed layout
// (arrays start on a 4 KiB page, one after another). A box is the values a
// reference's subscripts take over some loops (per dimension an arithmetic
// progression), counted in cache lines, cut into runs of consecutive lines,
// and mapped onto the sets of a set-associative cache: the lines each set
// receives decide which reuse survives LRU (SetOccupancy).
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_LIB_ANALYSIS_CACHEGEOMETRY_H
#define ROOFLINE_LIB_ANALYSIS_CACHEGEOMETRY_H

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace roofline {
namespace detail {

/// An array's layout: row-major, element size, elements per index of each
/// dimension, and where it starts.
struct ArrayGeom {
  unsigned Elem = 0;
  std::vector<double> Pitch;
  bool PitchKnown = true; ///< every extent but the first has a value
  double BaseBytes = 0;   ///< offset in the assumed layout (page-aligned)
  /// Elements per dimension (the first from the subscripts when unknown).
  std::vector<double> Extent;
};

/// The values one dimension's subscript takes over a set of loops: an
/// arithmetic progression from Lo to Hi with step Step.
struct DimBox {
  double Lo = 0, Hi = 0;
  int64_t Step = 1;
  bool single() const { return Hi - Lo < 0.5; }
  double values() const;
  bool operator==(const DimBox &O) const {
    return Lo == O.Lo && Hi == O.Hi && Step == O.Step;
  }
};
using Box = std::vector<DimBox>;

int64_t gcd64(int64_t A, int64_t B);

/// Distinct lines of \p B. \p Exact: positions along the contiguous
/// dimension are absolute, so the line boundaries are known where rows
/// start on a line (arrays start on a line); otherwise the expected count
/// over alignments. \p Placed: every dimension's positions are absolute,
/// so rows that do not start on a line are counted where they lie.
double linesOf(const Box &B, const ArrayGeom &G, unsigned Lb, bool Exact,
               bool Placed = false);

/// The box both \p A and \p B cover (their hull intersection per
/// dimension, on A's progression); false when they do not meet.
bool intersect(const Box &A, const Box &B, Box &Out);

/// Lines \p A and \p B share: lines(A) + lines(B) - lines(A u B) where the
/// union is a box (they differ along one dimension, overlapping or
/// adjacent there), else their intersection widened to whole lines along
/// rows that start on a line. \p Exact as for linesOf.
double sharedLines(const Box &A, const Box &B, const ArrayGeom &G,
                   unsigned Lb, bool Exact);

/// Runs of consecutive lines: Count runs of Len lines, the k-th starting at
/// line First + k * Stride (lines counted from the start of the layout),
/// each counted Weight times.
struct LineRuns {
  int64_t First = 0, Len = 1, Stride = 0, Count = 1;
  double Weight = 1;
};

/// The runs of lines \p B covers, appended to \p Out: rows a whole number
/// of lines apart as one progression, other rows one by one (at most
/// about \p MaxRuns entries: beyond, evenly sampled and weighted).
void boxRuns(const Box &B, const ArrayGeom &G, unsigned Lb, size_t MaxRuns,
             std::vector<LineRuns> &Out);

/// A set of lines, grown box by box: how many lines each box adds to what
/// the earlier ones covered (a staircase of boxes counted as its union).
/// Boxes sit at the positions given (absolute, line boundaries known).
class LineSet {
public:
  explicit LineSet(unsigned LineBytes) : Lb(LineBytes) {}
  /// The lines \p B adds; nullopt once the set holds too many runs to
  /// track (then callers count otherwise).
  std::optional<double> add(const Box &B, const ArrayGeom &G);

private:
  unsigned Lb;
  std::map<int64_t, int64_t> Runs; ///< first line -> last line, disjoint
  bool Overflow = false;
};

/// The lines a set of boxes maps onto each set of one cache level, and per
/// box the share of its lines that LRU keeps from one use to the next when
/// all of them are touched in a cycle: a set receiving at most `ways` lines
/// keeps them, one receiving more keeps none (cyclic LRU). Two boxes of one
/// array that share lines count them once.
class SetOccupancy {
public:
  SetOccupancy(unsigned Sets, unsigned Ways, unsigned LineBytes)
      : Sets(Sets), Ways(Ways), Lb(LineBytes) {}
  /// Adds box \p Id of array \p Array.
  void add(unsigned Id, const std::string &Array, const Box &B,
           const ArrayGeom &G);
  /// Per box id (in add order): the share of its lines kept.
  std::vector<double> keptShares();

private:
  struct Entry {
    unsigned Id;
    std::string Array;
    Box B;
    const ArrayGeom *G;
    std::vector<LineRuns> Runs;
  };
  unsigned Sets, Ways, Lb;
  std::vector<Entry> Entries;
  unsigned NumIds = 0;
};

} // namespace detail
} // namespace roofline

#endif // ROOFLINE_LIB_ANALYSIS_CACHEGEOMETRY_H
