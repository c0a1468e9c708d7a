//===- LoopTransforms.h - Band transforms (private to lib/Transform) ------===//
//
// The building blocks applyRecord composes. Each returns the legality
// reason it checked (for the program's log) or an error saying which
// precondition failed; see LoopTransforms.cpp for each precondition.
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_LIB_TRANSFORM_LOOPTRANSFORMS_H
#define ROOFLINE_LIB_TRANSFORM_LOOPTRANSFORMS_H

#include "roofline/Transform/Transforms.h"

namespace roofline {

/// Computes the nest's dependence vectors unless it has them.
void ensureDeps(KernelNest &K, const ParamValues &Values);

/// Moves the nodes beside the chain between loops \p FromIV and \p ToIV
/// into loops of their own (at the root, nests of their own).
llvm::Error distributeChain(Program &P, size_t NestIdx,
                            const std::string &FromIV, const std::string &ToIV,
                            const ParamValues &Values);

/// IV -> (IV_n, IV); returns the new tile loop's name.
llvm::Expected<std::string> stripMine(KernelNest &K, const std::string &IV,
                                      int64_t Size, const ParamValues &Values);

/// Reorders a contiguous piece of a chain of nest \p NestIdx.
llvm::Expected<std::string> permuteLoops(Program &P, size_t NestIdx,
                                         const std::vector<std::string> &Order,
                                         const ParamValues &Values);

/// parallel (or, with \p Vector, simd) mark on loop \p IV.
llvm::Expected<std::string> markParallel(KernelNest &K, const std::string &IV,
                                         bool Vector,
                                         const ParamValues &Values);

/// Copies the tile of a read-only array into a buffer where it is fixed.
llvm::Expected<std::string> packArray(KernelNest &K,
                                      const std::string &ArrayName);

/// fuse: all nests of the program into the first (FuseContract.cpp).
llvm::Expected<std::string> fuseAll(Program &P, const ParamValues &Values);
/// contract(t): temporaries to scalars (FuseContract.cpp).
llvm::Expected<std::string> contractArrays(Program &P,
                                           const std::vector<std::string> &A);
/// quantize(int8|bf16), in the program's QuantizeScope: a contraction
/// re-synthesized (QuantizeContraction.cpp) or every operand narrowed in
/// place (quantizeEveryOperand).
llvm::Expected<std::string> quantize(Program &P, const TransformRecord &R);
/// quantize() with QuantizeScope::EveryOperand (Quantize.cpp).
llvm::Expected<std::string> quantizeEveryOperand(Program &P,
                                                 const TransformRecord &R);
/// implicit_gemm(mc,nc,kc,mr,nr) of a convolution (Convolution.cpp).
llvm::Expected<std::string> implicitGemm(Program &P, const TransformRecord &R);

} // namespace roofline

#endif // ROOFLINE_LIB_TRANSFORM_LOOPTRANSFORMS_H
