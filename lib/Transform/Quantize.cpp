//===- Quantize.cpp - Store and compute a nest in a narrower precision -----===//
//
// quantize() with QuantizeScope::EveryOperand (the what-ifs' form; the
// contraction form is QuantizeContraction.cpp), and the counts it gives
// derived without a second analysis.
//
//===----------------------------------------------------------------------===//

#include "roofline/Transform/Quantize.h"

#include "LoopTransforms.h"
#include "TransformUtil.h"

#include <algorithm>
#include <cassert>

using namespace roofline;

namespace {

bool narrows(Precision From, Precision To) {
  return isFloating(From) && precisionBytes(From) > precisionBytes(To);
}

void quantizeBody(std::vector<Node> &Body, Precision To) {
  for (Node &N : Body) {
    if (N.isLoop()) {
      quantizeBody(N.loop().Body, To);
      continue;
    }
    std::map<Precision, OpCounts> Ops;
    for (auto &[P, O] : N.S.Ops)
      Ops[narrows(P, To) ? To : P] += O;
    N.S.Ops = std::move(Ops);
  }
}

/// Sum of Factor * Count over \p Terms, each side (value, formula) present
/// where \p Orig has it and every term with a non-zero factor has it.
Count weightedSum(const Count &Orig,
                  const std::vector<std::pair<const Count *, Int128>> &Terms) {
  Count R;
  R.WhyNot = Orig.WhyNot;
  std::optional<Int128> V = Orig.Value ? std::optional<Int128>(0) : std::nullopt;
  std::optional<Polynomial> F =
      Orig.Formula ? std::optional<Polynomial>(Polynomial()) : std::nullopt;
  for (const auto &[C, K] : Terms) {
    if (K == 0)
      continue;
    Int128 Part;
    if (V && (!C->Value || __builtin_mul_overflow(*C->Value, K, &Part) ||
              __builtin_add_overflow(*V, Part, &*V)))
      V.reset();
    std::optional<Rational> KR = Rational::make(K, 1);
    if (F && (!C->Formula || !KR)) {
      F.reset();
    } else if (F) {
      if (llvm::Error E = F->addScaledInPlace(*C->Formula, *KR)) {
        // Past 128 bits: no formula, as for an unknown term (never a wrong
        // one); the numeric count above stands on its own.
        llvm::consumeError(std::move(E));
        F.reset();
      }
    }
  }
  R.Value = V;
  R.Formula = std::move(F);
  return R;
}

/// \p ByType with the precisions quantization narrows merged into \p To.
std::map<Precision, Count> narrowByType(const std::map<Precision, Count> &ByType,
                                        Precision To) {
  std::map<Precision, std::vector<const Count *>> Parts;
  for (const auto &[P, C] : ByType)
    Parts[narrows(P, To) ? To : P].push_back(&C);
  std::map<Precision, Count> Out;
  for (const auto &[P, Cs] : Parts) {
    if (Cs.size() == 1) {
      Out[P] = *Cs.front();
      continue;
    }
    // weightedSum drops a side that any part lacks; the first reason given
    // stands for the sum.
    std::vector<std::pair<const Count *, Int128>> Terms;
    Count First = *Cs.front();
    for (const Count *C : Cs) {
      Terms.push_back({C, 1});
      if (First.WhyNot.empty())
        First.WhyNot = C->WhyNot;
    }
    Out[P] = weightedSum(First, Terms);
  }
  return Out;
}

/// The Precision of a quantize record ("int8": I8, "bf16": BF16).
Precision quantizePrecision(const TransformRecord &R) {
  assert(R.Kind == TransformRecord::Quantize &&
         (R.Precision == "int8" || R.Precision == "bf16"));
  return R.Precision == "int8" ? Precision::I8 : Precision::BF16;
}

} // namespace

bool roofline::canQuantize(const LoopNest &N, Precision To) {
  for (const Array &A : N.Arrays)
    if (narrows(A.Elem, To))
      return true;
  return false;
}

/// Precondition: some floating array of the program is wider than the
/// target. Always legal otherwise: no iteration is reordered; numerics
/// change by design (the advice says so).
llvm::Expected<std::string>
roofline::quantizeEveryOperand(Program &P, const TransformRecord &R) {
  if (!R.Scales.empty())
    return transformError("scales apply to the contraction form only");
  Precision To = quantizePrecision(R);
  if (std::none_of(P.Nests.begin(), P.Nests.end(), [&](const KernelNest &K) {
        return canQuantize(K.Nest, To);
      }))
    return transformError("no floating array is wider than " + R.Precision);
  for (KernelNest &K : P.Nests) {
    for (Array &A : K.Nest.Arrays)
      if (narrows(A.Elem, To))
        A.Elem = To;
    quantizeBody(K.Nest.Root.Body, To);
  }
  return "every floating array and operation wider than " + R.Precision +
         " in " + R.Precision + "; no iteration is reordered";
}

NestCounts roofline::quantizeCounts(const NestCounts &C, Precision To) {
  NestCounts Q = C;
  std::vector<std::pair<const Count *, Int128>> NoReuse, Compulsory;
  for (ArrayTraffic &A : Q.Arrays) {
    if (narrows(A.Elem, To)) {
      A.Elem = To;
      A.ElemBytes = precisionBytes(To);
    }
    NoReuse.push_back({&A.Loads, A.ElemBytes});
    NoReuse.push_back({&A.Stores, A.ElemBytes});
    Compulsory.push_back({&A.ElementsRead, A.ElemBytes});
    Compulsory.push_back({&A.ElementsWritten, A.ElemBytes});
  }
  Q.BytesNoReuse = weightedSum(C.BytesNoReuse, NoReuse);
  Q.BytesCompulsory = weightedSum(C.BytesCompulsory, Compulsory);
  Q.MacsByType = narrowByType(C.MacsByType, To);
  Q.FlopsByType = narrowByType(C.FlopsByType, To);
  return Q;
}
