//===- Units.h - From analyzed nests to emitted kernel directories --------===//
//
// A unit is what one emitted directory holds: one source nest, or a run of
// consecutive nests of one function that fuse (their fused variant is the
// point). Each unit gets the variants asked for, each from a schedule
// chosen for it (docs/codegen.md says which), applied to the IR, emitted
// from IR' and counted from IR' for the manifest:
//
//   naive         the nest as written
//   interchanged  the legal loop order with the most unit-stride accesses
//   tiled         contractions: BLIS packing + micro-kernel; other nests:
//                 the band tiled 32 wide
//   parallel      tiled, with OpenMP on the outermost legal loop
//   fused         (groups) fused, intermediates local to the function kept
//                 in registers
//   int8, bf16    contractions quantized (QuantPlan)
//   scheduled     the --schedule given on the command line
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_CODEGEN_UNITS_H
#define ROOFLINE_CODEGEN_UNITS_H

#include "roofline/CodeGen/CpuEmitter.h"
#include "roofline/Machine/Machine.h"
#include "roofline/Transform/Transforms.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace roofline {

/// The CPU variant kinds, in emission order (the list above).
enum class VariantKind {
  Naive,
  Interchanged,
  Tiled,
  Parallel,
  Fused,
  Int8,
  Bf16,
  Scheduled,
};

/// Every kind, in emission order.
const std::vector<VariantKind> &allVariantKinds();
/// The kind's name in --variants, the manifest and file names ("int8").
const char *variantName(VariantKind K);
/// The kind named \p Name, or std::nullopt.
std::optional<VariantKind> variantNamed(llvm::StringRef Name);
/// The kinds' names, in emission order (for messages).
const std::vector<std::string> &allVariantNames();

/// Block and register sizes of the automatic schedules.
struct TileDefaults {
  /// gemm cache blocks: B's KC x NC block (1 MB) half of a 2 MB L2
  int64_t MC = 120, NC = 512, KC = 512;
  int64_t MR = 6, NR = 64;              ///< gemm register block (AVX-512)
  int64_t GemvRows = 4;                 ///< gemv rows per block
  int64_t Tile = 32;                    ///< generic band tiles
};

struct GenOptions {
  std::set<VariantKind> Variants; ///< empty: all
  std::optional<Schedule> User;   ///< the "scheduled" variant
  ParamValues Values;             ///< sizes for the predicted counts
  const Machine *M = nullptr;     ///< the predicted bounds' machine
  TileDefaults Tiles;
  /// --target: C++ variants (cpu), CUDA variants (cuda, docs/cuda.md), or
  /// both; the reference is written either way.
  bool Cpu = true, Cuda = false;
  std::set<std::string> CudaVariants; ///< empty: all (allCudaVariantNames)
};

/// The operands of an int8 variant, quantized symmetrically per group
/// (x ~ q s, s = max|x| / 127 over the group, q = round(x / s), so
/// |x - q s| <= s / 2): the checker bounds each output element by
///   Q = sum over its terms of (|l| s_r + |r| s_l) / 2 + s_l s_r / 4,
/// computed from the actual inputs (roofline_harness.h, quant_bound).
struct QuantTolerance {
  std::string L, R;         ///< the operand arrays
  std::string LGran, RGran; ///< "row", "col" or "tensor"
  /// Per subscript of the operand: the scale varies along it (row: every
  /// subscript but the reduction's; tensor: none).
  std::vector<bool> LAxes, RAxes;
};

/// |out - ref| <= atol + (rtol + rtol_per_term * terms) * (magnitude + Q)
///                + Q, Q = 0 unless Quant is set (QuantTolerance).
struct Tolerance {
  double RTol = 0, RTolPerTerm = 0, ATol = 0;
  std::string Why;
  std::optional<QuantTolerance> Quant;
};

/// The tolerance of an int8 form of \p C with these scale granularities:
/// the quantization bound, and \p Base's f32 rounding per term (at least 4
/// f32 unit roundoffs).
Tolerance int8Tolerance(const ContractionInfo &C, const std::string &LGran,
                        const std::string &RGran, const Tolerance &Base);

/// The manifest's "tolerance" object of \p T.
llvm::json::Object toleranceJSON(const Tolerance &T);
/// A manifest's entry for argument \p A: name, type, elem, shape, intent.
llvm::json::Object argJSON(const ArgInfo &A);
/// The fields a manifest's variant entry ends with, CPU and CUDA alike:
/// extra_args (\p Extra), skip_compare, legality, tolerance, predicted.
void addCheckFields(llvm::json::Object &J, llvm::json::Array Extra,
                    const std::vector<std::string> &SkipCompare,
                    const std::vector<std::string> &Legality,
                    const Tolerance &Tol, const llvm::json::Object &Predicted);

struct VariantOut {
  VariantKind Kind = VariantKind::Naive;
  /// Set only where the CUDA check driver lists its variants in this form
  /// ("cuda_warp"); name() is then this instead of the kind's name.
  std::string OtherName;
  /// File and symbol name: "tiled" (tiled.cpp, rl_<unit>_tiled).
  std::string name() const {
    return OtherName.empty() ? variantName(Kind) : OtherName;
  }
  std::string Skipped; ///< why the variant was not emitted; empty if it was
  Program P;
  std::string Path;    ///< "micro-kernel gemm", "generic", ...
  std::string Code;    ///< the variant's .cpp
  std::vector<ArgInfo> Extra;
  bool HasPrepare = false;
  std::vector<std::string> SkipCompare;
  Tolerance Tol;
  llvm::json::Object Predicted;
};

struct UnitOut {
  std::string Name; ///< directory and symbol prefix
  std::string Kind; ///< "gemm", "gemv", "elementwise chain", "nest"
  std::vector<LoopNest> Sources;
  /// Sources[I]'s counts (analyzeNest), counted once for the layout and the
  /// manifest; none where the nest cannot be counted.
  std::vector<std::optional<NestCounts>> Counts;
  ArgLayout Layout;
  std::string ReferenceCode;
  bool HasMagnitude = false;
  std::vector<VariantOut> Variants;
};

/// Plans and emits every unit of \p Nests (sorted in source order). Nests
/// that cannot be emitted are reported in \p Skipped ("func:line: why").
std::vector<UnitOut> buildUnits(const std::vector<LoopNest> &Nests,
                                const GenOptions &O,
                                std::vector<std::string> &Skipped);

/// The unit's manifest.json (docs/codegen.md).
llvm::json::Object manifestOf(const UnitOut &U, const GenOptions &O);

/// The unit's check driver (roofline_harness.h over its variants).
std::string unitDriverCode(const UnitOut &U);

/// Writes DIR/runtime/, DIR/units.json and DIR/<unit>/ for each unit.
llvm::Error writeUnits(const std::vector<UnitOut> &Units,
                       const std::string &Dir, const GenOptions &O);

/// Writes \p Text to the file \p Path (the CPU and the CUDA units' files);
/// the error names the path.
llvm::Error writeFile(const std::string &Path, const std::string &Text);

/// --schedule with --dump-ir: \p S applied to each nest (or to each
/// function's nests when it fuses), printed, or the reason it is illegal.
/// Returns false when some nest refused the schedule.
bool dumpScheduled(const std::vector<LoopNest> &Nests, const Schedule &S,
                   const ParamValues &Values, llvm::raw_ostream &OS);

} // namespace roofline

#endif // ROOFLINE_CODEGEN_UNITS_H
