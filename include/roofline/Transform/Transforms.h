//===- Transforms.h - Applying a schedule: LoopNest IR -> IR' -------------===//
//
// A Program is IR': the nests a schedule turns the source nest (or a group
// of nests to fuse) into, run in order, with per-loop attributes the IR has
// no room for (parallel, unroll, SIMD). Every transform checks its legality
// precondition before it changes anything and logs what it checked; an
// illegal transform is an error naming the dependence it would break.
//
// Dependences come from roofline/Analysis/Dependence.h, computed on the
// nest a band transform first touches and then carried through later
// strip-minings and permutations as direction-vector sets, so a tile loop
// is judged by the loop it came from.
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_TRANSFORM_TRANSFORMS_H
#define ROOFLINE_TRANSFORM_TRANSFORMS_H

#include "roofline/Analysis/Counts.h"
#include "roofline/IR/LoopNest.h"
#include "roofline/Transform/Contraction.h"
#include "roofline/Transform/Convolution.h"
#include "roofline/Transform/Schedule.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace roofline {

struct LoopAttrs {
  unsigned Unroll = 0;   ///< a register-block point loop: unroll it
  bool Parallel = false; ///< iterations independent: omp parallel for
  bool Vector = false;   ///< omp simd
};

/// One dependence's possible directions, per common loop by IV: a mask of
/// bit 0 '<', bit 1 '=', bit 2 '>'. Keyed by name so that permutations
/// need no update; strip-mining splits an entry in two.
struct DepVector {
  std::map<std::string, uint8_t> Dir;
  std::string What;  ///< the dependence it came from, for messages
  std::string Array; ///< its array ("" for a scalar)
};
struct BandDeps {
  std::vector<DepVector> Vectors;
};

struct KernelNest {
  LoopNest Nest;
  std::map<std::string, LoopAttrs> Attrs; ///< by loop IV
  std::optional<BandDeps> Deps;           ///< computed on first use
  /// Packing buffers and the loop whose body fills them first: private to
  /// that loop's iterations (each fills it before reading it).
  std::map<std::string, std::string> Packed;
};

/// The packed micro-kernel form of a contraction (BLIS): what CodeGen
/// instantiates. Sizes are in elements.
struct MicroKernelPlan {
  ContractionInfo C;
  int64_t MC = 0, NC = 0, KC = 0; ///< cache blocks of M, N, K
  int64_t MR = 0, NR = 0;         ///< register block
  bool PackA = false, PackB = false;
  bool Parallel = false; ///< the M-block loop runs in parallel
};

/// A convolution as an implicit gemm (implicit_gemm record): the blocks
/// of the gemm micro-kernel path, run over panels gathered from the input.
struct ConvPlan {
  ConvInfo C;
  int64_t MC = 0, NC = 0, KC = 0, MR = 0, NR = 0;
  bool Parallel = false; ///< the M blocks run in parallel (parallel(M))
};

/// What quantize() produced, for CodeGen and the manifest.
struct QuantPlan {
  std::string Precision; ///< "int8" or "bf16"
  ContractionInfo C;     ///< the original (f32) contraction
  std::string LGran, RGran; ///< "row", "col" or "tensor" (int8)
  /// Arrays the kernel reads that a prepare step fills from the source
  /// arrays (the weights: quantized once, not per call).
  std::vector<std::string> Prepared;
  /// The prepare step as nests (counted apart from the kernel).
  std::vector<LoopNest> Prepare;
};

/// Which operands a quantize record narrows. Code generation and the
/// what-ifs share one quantize(); they differ only here (docs/design.md,
/// "Transforms").
enum class QuantizeScope {
  /// Code generation: an f32 contraction re-synthesized with int8 (or
  /// bf16) operands, the weights quantized once by a prepare step, the
  /// other operand by the kernel on every call (QuantPlan).
  Contraction,
  /// The what-ifs: every floating array and operation wider than the
  /// target stored and done in it, in place, in any nest; no prepare step.
  EveryOperand,
};

/// How makeProgram builds a program.
struct ProgramOptions {
  /// Keep each accumulator element in a scalar across its reduction loop
  /// (promoteAccumulators), as the emitted code does. The what-ifs compare
  /// with the nest as analyzed and turn it off.
  bool PromoteAccumulators = true;
  QuantizeScope Quantize = QuantizeScope::Contraction;
};

struct Program {
  std::vector<KernelNest> Nests;
  /// What a quantize record does to this program.
  QuantizeScope Quantize = QuantizeScope::Contraction;
  Schedule Applied;
  /// One line per applied record: the precondition checked, and why it
  /// held ("tile(i:32,j:32): band i, j is fully permutable").
  std::vector<std::string> Log;
  std::optional<MicroKernelPlan> Micro;
  std::optional<QuantPlan> Quant;
  std::optional<ConvPlan> Conv;
  /// Arrays of the source nests (before any transform), by name: the
  /// common argument list every variant of the unit takes.
  std::vector<Array> SourceArrays;
  /// The source nest as a contraction, when it is one (before transforms).
  std::optional<ContractionInfo> Source;
};

/// IR' of one nest with no transform applied (accumulators promoted).
Program makeProgram(const LoopNest &N);
/// IR' of a group of nests of one function that run in this order.
Program makeProgram(const std::vector<LoopNest> &Group,
                    const ProgramOptions &O = {});

/// Applies the records in order; stops at the first illegal or malformed
/// one, leaving \p P as it was before that record.
llvm::Error applySchedule(Program &P, const Schedule &S,
                          const ParamValues &Values = {});
llvm::Error applyRecord(Program &P, const TransformRecord &R,
                        const ParamValues &Values = {});

/// Applies contract(A) for each of \p Arrays it is legal for, in order;
/// returns the arrays it contracted. The fused variant and the fusion
/// what-if keep the same intermediates in registers through this.
std::vector<std::string> contractWhereLegal(Program &P,
                                            const std::vector<std::string> &Arrays,
                                            const ParamValues &Values = {});

/// --dump-ir of a transformed program: the schedule, the legality log, then
/// each nest with statement values and loop attributes.
std::string printProgram(const Program &P);

/// The loop order that makes the most innermost accesses unit-stride (or
/// invariant) among the legal permutations of the band, as a permute
/// record; std::nullopt when the order is already best or none is legal.
std::optional<TransformRecord> unitStrideOrder(const LoopNest &N,
                                               std::string *Why = nullptr);

/// Loops of the first nest's band from the root down, outermost first.
std::vector<std::string> bandLoops(const LoopNest &N);

} // namespace roofline

#endif // ROOFLINE_TRANSFORM_TRANSFORMS_H
