//===- Quantize.cpp - Store and compute a nest in a narrower precision -----===//

#include "roofline/Transform/Quantize.h"

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
    for (auto &[P, O] : N.S.Ops) {
      OpCounts &T = Ops[narrows(P, To) ? To : P];
      T.Macs += O.Macs;
      T.Adds += O.Adds;
      T.Muls += O.Muls;
      T.Divs += O.Divs;
      for (const auto &[F, C] : O.Calls)
        T.Calls[F] += C;
    }
    N.S.Ops = std::move(Ops);
  }
}

} // namespace

bool roofline::canQuantize(const LoopNest &N, Precision To) {
  for (const Array &A : N.Arrays)
    if (narrows(A.Elem, To))
      return true;
  return false;
}

LoopNest roofline::quantizeNest(const LoopNest &N, Precision To) {
  LoopNest Q = N;
  for (Array &A : Q.Arrays)
    if (narrows(A.Elem, To))
      A.Elem = To;
  quantizeBody(Q.Root.Body, To);
  return Q;
}
