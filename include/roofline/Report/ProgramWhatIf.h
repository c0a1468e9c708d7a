//===- ProgramWhatIf.h - What batching, quantizing, fusing buy a pass -*- C++ -*-===//
//
// Whole-pass what-ifs for `--entry` (docs/network-report.md, "What-ifs"):
// every nest of the pass is transformed with the per-nest transforms
// (Transform/Batch.h, Transform/Quantize.h) or its counts are changed the
// way a transform would change them, judged on the machine with compulsory
// bytes like the pass report, multiplied by its executions and summed.
// Each prediction states what it assumes; none is a measurement.
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_REPORT_PROGRAMWHATIF_H
#define ROOFLINE_REPORT_PROGRAMWHATIF_H

#include "roofline/Frontend/Program.h"
#include "roofline/Machine/Machine.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace roofline {

/// A pass's totals under one what-if.
struct PassPrediction {
  double Flops = 0, Bytes = 0, Time = 0;
  double MemoryTime = 0; ///< time of the nests still memory-bound
  bool memoryBound() const { return MemoryTime * 2 >= Time; }
};

/// B inputs through the pass at once.
struct PassBatch {
  int64_t Inputs = 0;
  PassPrediction At;         ///< all B inputs
  int64_t BatchedNests = 0;  ///< nests the batch transform applies to
  int64_t OncePerInput = 0;  ///< nests run B times instead
  double OncePerInputTime = 0; ///< their share of the B = 1 pass time
  /// Smallest B at which the pass is compute-bound (by the report's rule:
  /// less than half the time in memory-bound nests); absent with WhyNot.
  std::optional<int64_t> Crossover;
  std::string CrossoverWhyNot;
};

/// The weights (or everything) stored in a narrower precision.
struct PassQuantized {
  Precision To = Precision::I8;
  bool WeightsOnly = true;
  PassPrediction At;
  int64_t Nests = 0; ///< nests that change
};

/// An elementwise chain between two matmuls run in the first's epilogue.
struct FusedChain {
  std::string First, Last; ///< the two matmuls' functions
  std::vector<std::string> Chain;   ///< the elementwise nests' functions
  std::vector<unsigned> Lines;      ///< every nest's line, first to last
  std::vector<std::string> OnChip;  ///< buffers no longer stored
  int64_t Executions = 0;
  double BytesBefore = 0, BytesAfter = 0; ///< all executions
  double TimeBefore = 0, TimeAfter = 0;
};

struct ProgramWhatIfs {
  bool Computed = false;
  /// The pass as written, over the nests that have counts.
  PassPrediction AsWritten;
  /// A write the walk cannot place ("'out' of 'matvec' (line 46)"): then
  /// no array is taken as weights.
  std::string WeightsWhyNot;
  PassBatch Batch;
  /// Set when the batch transform disagrees with the batch model on a nest
  /// (then no batch prediction is given).
  std::string BatchWhyNot;
  std::vector<PassQuantized> Quantized;
  std::vector<FusedChain> Chains;
  PassPrediction Fused; ///< the pass with every chain fused
};

/// The what-ifs of the pass \p P on \p M with \p Batch inputs.
ProgramWhatIfs predictProgramWhatIfs(const ProgramResult &P, const Machine &M,
                                     int64_t Batch);

void printProgramWhatIfs(llvm::raw_ostream &OS, const ProgramWhatIfs &W);
/// The `what_if` member of a `programs` element (docs/json.md).
llvm::json::Value programWhatIfJson(const ProgramWhatIfs &W);

} // namespace roofline

#endif // ROOFLINE_REPORT_PROGRAMWHATIF_H
