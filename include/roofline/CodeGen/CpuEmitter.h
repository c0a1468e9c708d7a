//===- CpuEmitter.h - IR' to readable C++17 kernels -----------------------===//
//
// Every kernel of a unit takes one C ABI (roofline_kernel.h):
//   extern "C" void rl_<unit>_<variant>(void *const *args, const int64_t *sizes)
// args are the unit's arrays and scalars in ArgLayout order (a variant's own
// extra arrays -- quantized weights, scales -- after them), sizes its size
// parameters in order. Arrays are flat and row-major over their shapes.
//
// The generic emitter writes a Program's nests as loops (min/max bounds,
// OpenMP and unroll pragmas from the loop attributes) and statements from
// their values; it also writes the two reference forms the checker needs:
// the source nest in double precision, and its magnitude (the same
// computation on |values| with subtraction as addition), from which the
// tolerance of each comparison is derived.
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_CODEGEN_CPUEMITTER_H
#define ROOFLINE_CODEGEN_CPUEMITTER_H

#include "roofline/Analysis/Counts.h"
#include "roofline/IR/LoopNest.h"
#include "roofline/Transform/Transforms.h"

#include "llvm/Support/Error.h"

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace roofline {

struct ArgInfo {
  enum IntentTy { In, Out, InOut, Temp };
  std::string Name;
  Precision Elem = Precision::Unknown;
  std::string CType;               ///< as the source declares it
  std::vector<AffineExpr> Shape;   ///< extents in the sizes; empty: a scalar
  IntentTy Intent = In;
  bool IsScalar = false;
  /// A variant's own array, filled by its prepare entry from the others.
  bool Prepared = false;
};

struct ArgLayout {
  std::vector<ArgInfo> Args;
  std::vector<Param> Sizes; ///< the size parameters, in ABI order
  /// Sizes that cannot change (an array of fixed extent depends on them).
  std::set<std::string> Fixed;

  const ArgInfo *find(const std::string &Name) const;
  int indexOf(const std::string &Name) const;
};

/// The unit's common layout from its source nests (in run order), with
/// intents from their counts: \p Counts[I] are Sources[I]'s, counted once by
/// the caller; where a nest has none, the arrays it reads are copied in
/// (InOut), which is always correct, only slower. Fails when an array's
/// extent cannot be derived.
llvm::Expected<ArgLayout>
layoutOf(const std::vector<LoopNest> &Sources,
         const std::vector<std::optional<NestCounts>> &Counts);

/// Extents of every array \p P's nests use that \p L does not have (packing
/// buffers, quantized copies), derived from their declared extents or the
/// largest subscript.
llvm::Expected<std::vector<ArgInfo>> extraArrays(const Program &P,
                                                 const ArgLayout &L);

enum class EmitMode {
  AsWritten, ///< the element types of the source
  Double,    ///< floating arrays and scalars in double: the reference
  Magnitude, ///< double (value, magnitude) pairs: the tolerance scale
};

/// C++ of one kernel function running \p P's nests (generic path).
/// \p Extra: the arrays the program uses beyond \p L, in argument order
/// (kernel-local buffers are allocated inside). Fails with the reason when
/// a construct has no emission (an unknown value, an array without shape).
llvm::Expected<std::string> emitGenericKernel(const Program &P,
                                              const ArgLayout &L,
                                              const std::vector<ArgInfo> &Extra,
                                              const std::string &Symbol,
                                              EmitMode Mode = EmitMode::AsWritten);

/// Only the loops of \p K (statements, pragmas), indented by \p Indent
/// levels, for a template whose scope declares every array by its name.
llvm::Expected<std::string> emitLoopCode(const KernelNest &K,
                                         const ArgLayout &L,
                                         const std::vector<ArgInfo> &Extra,
                                         unsigned Indent);

/// The C spelling of an element type in the given mode ("float",
/// "rl::bf16", "double", "rl_mv").
std::string cTypeFor(const std::string &SourceCType, EmitMode Mode);

/// C expression of an affine expression over loop variables and sizes.
std::string cExpr(const AffineExpr &E);
/// \p S in parentheses unless it is one term ("n", "i * 4"): safe to
/// multiply or negate.
std::string parenthesized(const std::string &S);
/// C expression of a loop bound (rl::min, rl::max, rl::floordiv of the
/// runtime headers, CPU and CUDA alike).
std::string cBound(const Bound &B);

/// Adds the arrays and scalars \p S reads or writes to \p Used, those it
/// writes to \p Written.
void usedArrays(const Stmt &S, std::set<std::string> &Used,
                std::set<std::string> &Written);

/// A known C math function's base name ("expf", "std::exp" -> "exp"), or ""
/// for a function the emitters do not know.
std::string mathBaseName(std::string Name);

} // namespace roofline

#endif // ROOFLINE_CODEGEN_CPUEMITTER_H
