//===- AffineEval.h - Integer arithmetic on affine expressions -*- C++ -*-===//
//
// The one floor division and the one evaluation of an AffineExpr at given
// values that the analyses and code generation share (docs/design.md).
// Apart from Affine.h so that the many files that only build expressions
// do not depend on them.
//
//===----------------------------------------------------------------------===//

#ifndef ROOFLINE_IR_AFFINEEVAL_H
#define ROOFLINE_IR_AFFINEEVAL_H

#include "roofline/IR/Affine.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <cassert>
#include <map>
#include <optional>
#include <string>

namespace roofline {

/// floor(A / B) for B > 0: rounds toward minus infinity, where C++'s /
/// rounds toward zero.
inline __int128 floorDiv(__int128 A, __int128 B) {
  assert(B > 0 && "floorDiv by a non-positive divisor");
  __int128 Q = A / B;
  if ((A % B) != 0 && A < 0)
    --Q;
  return Q;
}

/// The value of \p E where \p ValueOf gives each name's; nullopt when a
/// name has none or the value overflows __int128.
std::optional<__int128>
evalAffine(const AffineExpr &E,
           llvm::function_ref<std::optional<__int128>(const std::string &)>
               ValueOf);
/// The value of \p E with every name in \p Values.
std::optional<__int128>
evalAffine(const AffineExpr &E, const std::map<std::string, __int128> &Values);

} // namespace roofline

#endif // ROOFLINE_IR_AFFINEEVAL_H
