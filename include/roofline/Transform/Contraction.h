//===- Contraction.h - Recognizing gemm, gemv and batched gemm on the IR --===//
//
// A contraction is a nest whose only update is Out[..] += L[..] * R[..]
// with every subscript a plain loop variable, each loop playing one role:
//   batch: indexes Out, L and R        (batched gemm)
//   M:     indexes Out and L           (rows)
//   N:     indexes Out and R           (columns; none for gemv)
//   K:     indexes L and R, not Out    (the reduction)
// optionally cleared first (Out = 0, beta = 0) and optionally followed by
// elementwise statements on Out (an epilogue fused from a later nest).
// CodeGen gives contractions the packed, register-blocked micro-kernel
// path; quantize() re-synthesizes them in int8 or bf16.
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_TRANSFORM_CONTRACTION_H
#define ROOFLINE_TRANSFORM_CONTRACTION_H

#include "roofline/IR/LoopNest.h"

#include <optional>
#include <string>
#include <vector>

namespace roofline {

/// One operand: its array and, per dimension, the loop IV that indexes it.
struct Operand {
  std::string Array;
  std::vector<std::string> Dims;
  /// Element stride of each role's loop in the flattened row-major array,
  /// as an affine expression in the sizes (0 when the role does not index
  /// it). Filled by recognizeContraction.
  std::optional<AffineExpr> strideOf(const LoopNest &N,
                                     const std::string &IV) const;
};

struct ContractionInfo {
  Operand Out, L, R;
  std::vector<std::string> Batch;
  std::string M, N, K; ///< "" where the role is absent
  /// Loop extents (trip counts) by IV, affine in the sizes.
  std::map<std::string, AffineExpr> Extent;
  std::map<std::string, AffineExpr> First; ///< lower bound by IV
  Precision Elem = Precision::Unknown;
  bool InitZero = false; ///< Out is cleared before the reduction
  /// Statements after the reduction in the Out loops' body, in order, with
  /// the enclosing (batch, M, N) loops; they only touch Out at the same
  /// element and arrays indexed by those loops.
  std::vector<Stmt> Epilogue;

  bool isGemv() const { return N.empty() && !M.empty(); }
  bool isGemm() const { return !N.empty() && !M.empty(); }
  /// "gemm", "batched gemm", "gemv", ...
  std::string kind() const;
};

/// Recognizes \p N (after promoteAccumulators) as a contraction, or says
/// why it is not one in \p WhyNot.
std::optional<ContractionInfo> recognizeContraction(const LoopNest &N,
                                                    std::string *WhyNot =
                                                        nullptr);

/// `acc = 0; for k: acc += ...; C[i][j] = acc;` -> `C[i][j] = 0; for k:
/// C[i][j] += ...;` (the inverse of scalar replacement), so that the
/// dependence analysis sees the accumulator as an array element and the
/// loops around it can move. Legal when the scalar is local to the loop body
/// that declares it, is read only by its own updates and the final copy,
/// and the copy's target is not accessed in between. Returns whether it
/// changed anything; \p Notes gets one line per promotion.
bool promoteAccumulators(LoopNest &N, std::vector<std::string> *Notes = nullptr);

} // namespace roofline

#endif // ROOFLINE_TRANSFORM_CONTRACTION_H
