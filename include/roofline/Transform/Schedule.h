//===- Schedule.h - A schedule is data: an ordered list of transforms -----===//
//
// Halide/TVM style: what to do to a nest is a value, printed and parsed in
// one syntax, applied by applySchedule (Transforms.h). Records, in the
// textual form `--schedule` takes (records separated by ';'):
//
//   interchange(i,j)          swap two loops of the band
//   permute(k,i,j)            reorder band loops (a contiguous sub-band)
//   stripmine(i:32)           i -> i_1 (step 32) and i (the 32 points)
//   tile(i,j,k:32)            strip-mine each, tile loops above the points;
//   tile(i:64,j:256,k:128)    one size per loop; repeat for more levels
//   unroll_jam(i:4)           strip-mine i by 4, sink the points innermost
//   regblock(i:6,j:32)        unroll-and-jam several loops (register tile)
//   pack(B)                   copy B's tile into a contiguous buffer
//   parallel(i_1)             run a loop's iterations in parallel (OpenMP)
//   vectorize(j)              mark a loop for SIMD (omp simd)
//   fuse                      fuse the nests of the group (same function)
//   contract(t1,t2)           keep temporaries in registers (dead arrays)
//   quantize(int8)            int8 operands, per-row/per-tensor scales,
//   quantize(int8,A:row,B:col)   int32 accumulation; or quantize(bf16)
//   implicit_gemm(mc:336,nc:2048,kc:256,mr:14,nr:32)
//                             a convolution as a packed gemm (im2col
//                             gathered into the panels), its blocks
//
// Each record's legality precondition is written beside its implementation
// in lib/Transform/ and checked when the schedule is applied.
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_TRANSFORM_SCHEDULE_H
#define ROOFLINE_TRANSFORM_SCHEDULE_H

#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace roofline {

struct TransformRecord {
  enum KindTy {
    Interchange,
    Permute,
    StripMine,
    Tile,
    UnrollJam,
    RegBlock,
    Pack,
    Parallel,
    Vectorize,
    Fuse,
    Contract,
    Quantize,
    ImplicitGemm,
  };
  KindTy Kind = Tile;
  /// Loop IVs (or array names for pack/contract) the record names, in order.
  std::vector<std::string> Names;
  /// Sizes per name (tile, strip-mine, unroll factors); same length as
  /// Names where the record takes sizes.
  std::vector<int64_t> Sizes;
  /// quantize: the precision ("int8", "bf16") and per-operand scale
  /// granularity ("A:row", "B:tensor").
  std::string Precision;
  std::vector<std::pair<std::string, std::string>> Scales;

  /// The record in --schedule syntax: "tile(i:32,j:32,k:32)".
  std::string str() const;
  static const char *kindName(KindTy K);

  /// A record built as a value (the automatic schedules): \p Sizes empty
  /// or one per name. Asserts that it is well formed (check()): a
  /// malformed record of our own is our bug.
  static TransformRecord make(KindTy K, std::vector<std::string> Names,
                              std::vector<int64_t> Sizes = {});
  /// quantize(int8) or quantize(bf16), with the default scales.
  static TransformRecord quantize(const std::string &Prec);
  /// What Schedule::parse requires of a record: names that are
  /// identifiers, each named once, a positive size per name where the
  /// kind takes sizes, the number of names the kind takes, a known
  /// precision and scales. The error names the record.
  llvm::Error check() const;
};

struct Schedule {
  std::vector<TransformRecord> Records;

  bool empty() const { return Records.empty(); }
  /// Appends \p R; returns *this, so a schedule reads in record order.
  Schedule &then(TransformRecord R) {
    Records.push_back(std::move(R));
    return *this;
  }
  /// "tile(i:32,j:32); parallel(i_1)"; "" for the empty schedule.
  std::string str() const;
  /// Parses the --schedule syntax (a user's text: a malformed record is an
  /// error naming it).
  static llvm::Expected<Schedule> parse(const std::string &Text);
};

} // namespace roofline

#endif // ROOFLINE_TRANSFORM_SCHEDULE_H
