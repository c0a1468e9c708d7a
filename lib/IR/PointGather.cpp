//===- PointGather.cpp - The point gathers of a nest ----------------------===//

#include "roofline/IR/PointGather.h"

using namespace roofline;

static const Access *firstGatherIn(const Loop &L) {
  for (const Node &N : L.Body) {
    if (N.isLoop()) {
      if (const Access *G = firstGatherIn(N.loop()))
        return G;
      continue;
    }
    for (const Access &A : N.S.Accesses)
      if (!A.GatherIndex.empty())
        return &A;
  }
  return nullptr;
}

const Access *roofline::firstPointGather(const LoopNest &N) {
  return firstGatherIn(N.Root);
}
