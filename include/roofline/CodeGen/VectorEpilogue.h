//===- VectorEpilogue.h - A contraction's epilogue on C in registers ------===//
//
// The statements a contraction runs on each output element after its
// reduction (bias, activation, residual: ContractionInfo::Epilogue) become
// a functor the micro-kernels of roofline_gemm.h call on each vector of a
// finished tile, before it is stored: one definition per instruction set,
// written in the operations of rl::v (add, mul, max, tanh, select, masked
// loads). Arrays indexed along the tile's columns are loaded as vectors
// (unit stride) or broadcast (not indexed by the column loop); anything
// else (a gather, an operation rl::v lacks) is refused with the reason, and
// the caller applies the statements per block instead.
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_CODEGEN_VECTOREPILOGUE_H
#define ROOFLINE_CODEGEN_VECTOREPILOGUE_H

#include "roofline/CodeGen/CpuEmitter.h"
#include "roofline/Transform/Contraction.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace roofline {

struct VectorEpilogue {
  std::string Definition; ///< the struct and its three apply<> definitions
  /// The members' initializers, in order (array pointers, sizes, batch
  /// loop values), for `Name epi{...}` where they are in scope.
  std::vector<std::string> Init;
};

/// Argument \p Name of a variant: in the unit's layout \p L, else among the
/// variant's own arrays \p Extra; null when neither has it.
const ArgInfo *findArg(const ArgLayout &L, const std::vector<ArgInfo> &Extra,
                       const std::string &Name);

/// The epilogue functor \p Name of \p C, whose arrays are declared (by
/// their names) where it is constructed.
llvm::Expected<VectorEpilogue>
vectorEpilogue(const ContractionInfo &C, const ArgLayout &L,
               const std::vector<ArgInfo> &Extra, const std::string &Name);

} // namespace roofline

#endif // ROOFLINE_CODEGEN_VECTOREPILOGUE_H
