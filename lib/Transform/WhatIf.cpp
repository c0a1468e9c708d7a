//===- WhatIf.cpp - The what-ifs' entry to the transform stack ------------===//

#include "roofline/Transform/WhatIf.h"
#include "roofline/Transform/Quantize.h"

#include <cassert>

using namespace roofline;

Program roofline::whatIfProgram(const std::vector<LoopNest> &Sources) {
  ProgramOptions O;
  O.PromoteAccumulators = false;
  O.Quantize = QuantizeScope::EveryOperand;
  return makeProgram(Sources, O);
}

std::vector<LoopNest> roofline::nestsOf(const Program &P) {
  std::vector<LoopNest> Out;
  Out.reserve(P.Nests.size());
  for (const KernelNest &K : P.Nests)
    Out.push_back(K.Nest);
  return Out;
}

llvm::Expected<std::vector<LoopNest>>
roofline::whatIfNests(const std::vector<LoopNest> &Sources, const Schedule &S) {
  Program P = whatIfProgram(Sources);
  if (llvm::Error E = applySchedule(P, S))
    return std::move(E);
  return nestsOf(P);
}

std::optional<LoopNest> roofline::quantizedNest(const LoopNest &N,
                                                Precision To) {
  if (!canQuantize(N, To))
    return std::nullopt;
  Schedule S;
  S.then(TransformRecord::quantize(To == Precision::I8 ? "int8" : "bf16"));
  llvm::Expected<std::vector<LoopNest>> Q = whatIfNests({N}, S);
  // canQuantize is the precondition quantize checks: it cannot refuse.
  assert(Q && Q->size() == 1 && "quantize refused a nest canQuantize took");
  if (!Q) {
    llvm::consumeError(Q.takeError());
    return std::nullopt;
  }
  return std::move(Q->front());
}
