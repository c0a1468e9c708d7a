//===- Convolution.h - Recognizing direct convolutions on the IR ----------===//
//
// A convolution is a nest whose only update is Out[..] += In[..] * W[..]
// where the input is indexed by windows `p + r` (or `stride*p + r`, a
// constant stride) of an output-pixel loop p and a filter loop r:
//   batch:   indexes Out and In, not W          (images, n)
//   M:       indexes Out and W, not In          (output channels, k)
//   pixel:   indexes Out, and In as `stride*p`  (p, q)
//   filter:  indexes W, and In as `+ r`         (r, s)
//   channel: indexes In and W, not Out          (input channels, c)
// every coefficient positive and no constant offset, optionally cleared
// first (Out = 0). As an implicit gemm (im2col without the buffer) the
// roles are M = k, N = (batch, pixel) flattened and K = (channel, filter)
// flattened: CodeGen gathers the input's K x N panels straight from In
// and runs the gemm micro-kernels on them.
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_TRANSFORM_CONVOLUTION_H
#define ROOFLINE_TRANSFORM_CONVOLUTION_H

#include "roofline/IR/LoopNest.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace roofline {

/// One term of a subscript: loop \p IV times \p Coeff.
struct ConvTerm {
  std::string IV;
  int64_t Coeff = 1;
};

/// An operand of a convolution: per dimension, the loops that index it
/// (one for a plain subscript; pixel and filter for a window; more where
/// the Frontend kept dimensions flattened, x[29*c + 2*t + r]).
struct ConvOperand {
  std::string Array;
  std::vector<std::vector<ConvTerm>> Dims;
  /// The input's constant offset per dimension (`p + r - 1`: -1), zero
  /// padding when a guard keeps the subscript inside the input (Pads).
  std::vector<int64_t> Offset;
};

/// A window dimension of the input padded with zeros: the source reads
/// In only where 0 <= subscript < Extent, by a guard (an `if` or the
/// filter loops' max/min bounds) that is exactly that condition.
struct ConvPad {
  size_t Dim;       ///< the input's dimension
  AffineExpr Extent; ///< its extent (H)
};

struct ConvInfo {
  ConvOperand Out, In, W;
  std::string M; ///< the output-channel loop
  /// The implicit gemm's N (batch, then pixel loops) and K (channel and
  /// filter loops), each in loop order, outermost first.
  std::vector<std::string> N, K;
  std::vector<std::string> Pixel, Filter; ///< the windows' two sides
  std::map<std::string, AffineExpr> Extent; ///< trip counts by IV
  std::map<std::string, AffineExpr> First;  ///< lower bounds by IV
  Precision Elem = Precision::Unknown;
  bool InitZero = false; ///< Out is cleared before the reduction
  std::vector<ConvPad> Pads; ///< zero-padded dimensions of In

  /// "convolution (implicit gemm)", or the 1-D/3-D form.
  std::string kind() const;
};

/// Recognizes \p N (after promoteAccumulators) as a convolution, or says
/// why it is not one in \p WhyNot.
std::optional<ConvInfo> recognizeConvolution(const LoopNest &N,
                                             std::string *WhyNot = nullptr);

} // namespace roofline

#endif // ROOFLINE_TRANSFORM_CONVOLUTION_H
